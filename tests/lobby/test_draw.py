"""R4: the draw for the button, highest rank, ties by suit spades > hearts > diamonds > clubs."""

from __future__ import annotations

from collections import Counter

from poker.cards import parse_cards
from services.lobby.draw import beats, draw_button, secure_shuffle


def test_R4_highest_rank_takes_the_button() -> None:
    draw = draw_button([(1, "ann"), (4, "bob")], deck=parse_cards("9c As"))
    assert draw.button == 4 and draw.winner.player_id == "bob"


def test_R4_equal_ranks_are_separated_by_suit_spades_hearts_diamonds_clubs() -> None:
    order = parse_cards("Ks Kh Kd Kc")
    for i, better in enumerate(order):
        for worse in order[i + 1:]:
            assert beats(better, worse) and not beats(worse, better)
    draw = draw_button([(0, "a"), (1, "b"), (2, "c"), (3, "d")], deck=parse_cards("Kc Kd Ks Kh"))
    assert draw.button == 2


def test_R4_rank_comes_before_suit() -> None:
    assert beats(parse_cards("3c")[0], parse_cards("2s")[0])


def test_R4_cards_are_dealt_in_seat_order_and_recorded() -> None:
    draw = draw_button([(5, "cy"), (0, "ann"), (3, "bob")], deck=parse_cards("2c 3c 4c"))
    assert [(c.seat, c.player_id) for c in draw.cards] == [(0, "ann"), (3, "bob"), (5, "cy")]
    assert "seat 5 4c" in draw.describe() and draw.button == 5


def test_R2_the_draw_deck_is_a_full_permutation_and_varies() -> None:
    decks = [secure_shuffle() for _ in range(200)]
    assert all(sorted(d) == list(range(52)) for d in decks)
    firsts = Counter(d[0] for d in decks)
    assert len(firsts) > 30  # 200 draws of 52 cards: a fixed deck would give 1
