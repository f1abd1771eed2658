"""R25 hand ranking: every five- and seven-card hand, agreement with phevaluator, descriptions."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from phevaluator import evaluate_cards

from poker.cards import cards_text, parse_cards
from services.evaluator import core
from services.evaluator.boards import CARD_BIT, combination_table
from services.evaluator.errors import InvalidHand
from services.evaluator.explain import explain
from services.evaluator.tables import CLASSES, HandCategory

Hands = Callable[[int, int, int], npt.NDArray[np.uint8]]
CATEGORY_OF_RANK = np.array([0] + [int(c) for c, _ in CLASSES], dtype=np.uint8)


def category_counts(rank_counts: npt.NDArray[np.int64]) -> dict[HandCategory, int]:
    per = np.bincount(CATEGORY_OF_RANK, weights=rank_counts, minlength=11).astype(np.int64)
    return {c: int(per[c]) for c in HandCategory}


def test_R25_all_five_card_hands_make_the_known_category_counts_and_7462_ranks() -> None:
    hands = combination_table(52, 5).T
    ranks = core.evaluate_batch(hands)
    counts = np.bincount(ranks, minlength=7463)
    assert category_counts(counts) == {
        HandCategory.ROYAL_FLUSH: 4,
        HandCategory.STRAIGHT_FLUSH: 36,
        HandCategory.FOUR_OF_A_KIND: 624,
        HandCategory.FULL_HOUSE: 3_744,
        HandCategory.FLUSH: 5_108,
        HandCategory.STRAIGHT: 10_200,
        HandCategory.THREE_OF_A_KIND: 54_912,
        HandCategory.TWO_PAIR: 123_552,
        HandCategory.PAIR: 1_098_240,
        HandCategory.HIGH_CARD: 1_302_540,
    }
    assert len(np.unique(ranks)) == 7462 and ranks.min() == 1 and ranks.max() == 7462


def test_R25_all_seven_card_hands_make_the_known_category_counts() -> None:
    # Every 7-set once: each 5-subset of range(a) (colex order: the first C(a, 5)
    # rows) completed by a pair a < b.
    table = combination_table(52, 5)
    table = table[:, np.lexsort(tuple(table))]
    five = np.zeros(table.shape[1], dtype=np.uint64)
    for row in table:
        five += np.take(CARD_BIT, row)
    counts = np.zeros(7463, dtype=np.int64)
    for b in range(52):
        for a in range(5, b):
            hands = five[: math.comb(a, 5)] + CARD_BIT[a] + CARD_BIT[b]
            counts += np.bincount(core.ranks_of_bits(hands, 7), minlength=7463)
    assert counts.sum() == math.comb(52, 7) == 133_784_560
    found = category_counts(counts)
    assert found[HandCategory.STRAIGHT_FLUSH] + found[HandCategory.ROYAL_FLUSH] == 41_584
    assert found[HandCategory.ROYAL_FLUSH] == 4_324
    assert {c: n for c, n in found.items() if c < HandCategory.STRAIGHT_FLUSH} == {
        HandCategory.FOUR_OF_A_KIND: 224_848,
        HandCategory.FULL_HOUSE: 3_473_184,
        HandCategory.FLUSH: 4_047_644,
        HandCategory.STRAIGHT: 6_180_020,
        HandCategory.THREE_OF_A_KIND: 6_461_620,
        HandCategory.TWO_PAIR: 31_433_400,
        HandCategory.PAIR: 58_627_800,
        HandCategory.HIGH_CARD: 23_294_460,
    }


def assert_same_order(ours: npt.NDArray[np.uint16], theirs: npt.NDArray[np.int64]) -> None:
    """Our ranks (higher better) and phevaluator's (lower better) order hands alike, ties too."""
    pairs = np.unique(np.stack([ours.astype(np.int64), theirs]), axis=1)
    assert len(np.unique(pairs[0])) == pairs.shape[1], "one of our ranks is two of theirs"
    assert len(np.unique(pairs[1])) == pairs.shape[1], "one of their ranks is two of ours"
    assert (np.diff(pairs[1]) < 0).all(), "the orders differ"  # pairs sorted by our rank


def phevaluator_ranks(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    # phevaluator's card ids are 4 * rank + suit with suits c, d, h, s: the same as R1.
    return np.array([evaluate_cards(*hand) for hand in hands.tolist()], dtype=np.int64)


def test_R25_seven_card_order_agrees_with_phevaluator_on_a_million_hands(
    random_hands: Hands,
) -> None:
    hands = random_hands(1_000_000, 7, 2025)
    ours = core.evaluate_batch(hands)
    assert_same_order(ours, phevaluator_ranks(hands))


@pytest.mark.parametrize("size", [5, 6])
def test_R25_five_and_six_card_order_agrees_with_phevaluator(
    random_hands: Hands, size: int
) -> None:
    hands = random_hands(200_000, size, size)
    assert_same_order(core.evaluate_batch(hands), phevaluator_ranks(hands))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_one_hand_at_a_time_agrees_with_the_batch(random_hands: Hands, size: int) -> None:
    hands = random_hands(100_000, size, 100 + size)
    single = [core.evaluate(hand) for hand in hands.tolist()]
    assert single == core.evaluate_batch(hands).tolist()
    assert single == core.evaluate_batch(hands, check=False).tolist()


@pytest.mark.parametrize(
    ("cards", "category", "best_five", "description"),
    [
        ("As Ks Qs Js Ts 9s 8s", "ROYAL_FLUSH", "As Ks Qs Js Ts", "Royal flush"),
        ("Ah 2h 3h 4h 5h Kd Kc", "STRAIGHT_FLUSH", "5h 4h 3h 2h Ah", "Straight flush, five high"),
        ("9h Th Jh Qh Kh Ah", "ROYAL_FLUSH", "Ah Kh Qh Jh Th", "Royal flush"),
        ("9c 9d 9h 9s Kc Kd 2h", "FOUR_OF_A_KIND", "9s 9h 9d 9c Kd", "Four of a kind, nines"),
        ("Kh Kd Kc 5s 5c 5d 2h", "FULL_HOUSE", "Kh Kd Kc 5s 5d", "Full house, kings full of fives"),
        ("6h 6d 6c Qs Qc Qd", "FULL_HOUSE", "Qs Qd Qc 6h 6d", "Full house, queens full of sixes"),
        ("Ah 9h 7h 5h 3h 2h Kd", "FLUSH", "Ah 9h 7h 5h 3h", "Flush, ace high"),
        ("Ac 2d 3h 4s 5c Kd Kh", "STRAIGHT", "5c 4s 3h 2d Ac", "Straight, five high"),
        ("6c 5d 4h 3s 2c Ac", "STRAIGHT", "6c 5d 4h 3s 2c", "Straight, six high"),
        ("Ac Kd Qh Js Tc 2d 3d", "STRAIGHT", "Ac Kd Qh Js Tc", "Straight, ace high"),
        ("7c 7d 7h As 2c 4d 9h", "THREE_OF_A_KIND", "7h 7d 7c As 9h", "Three of a kind, sevens"),
        ("Ah Ad 8c 8s 4h 4d Kc", "TWO_PAIR", "Ah Ad 8s 8c Kc", "Two pair, aces and eights"),
        ("Jh Jd 9c 4s 2h", "PAIR", "Jh Jd 9c 4s 2h", "Pair of jacks"),
        ("2h 2d 3c 4s 6h 8d Tc", "PAIR", "2h 2d Tc 8d 6h", "Pair of deuces"),
        ("Ah Qd 9c 7s 4h 3d 2c", "HIGH_CARD", "Ah Qd 9c 7s 4h", "Ace high"),
    ],
)
def test_R25_category_best_five_and_description(
    cards: str, category: str, best_five: str, description: str
) -> None:
    hand = explain(parse_cards(cards))
    assert hand.category is HandCategory[category]
    assert cards_text(hand.best_five, " ") == best_five
    assert hand.description == description
    assert hand.rank == core.evaluate(parse_cards(best_five))  # the five alone rank the same


def test_R25_wheel_is_the_lowest_straight_and_royal_the_best_hand() -> None:
    wheel = core.evaluate(parse_cards("Ac 2d 3h 4s 5c"))
    six_high = core.evaluate(parse_cards("2d 3h 4s 5c 6c"))
    trips = core.evaluate(parse_cards("Ac Ad Ah Ks Qc"))
    assert trips < wheel < six_high
    assert core.evaluate(parse_cards("As Ks Qs Js Ts")) == 7462
    steel = core.evaluate(parse_cards("As 2s 3s 4s 5s"))
    assert core.category_of(steel) is HandCategory.STRAIGHT_FLUSH
    assert steel > core.evaluate(parse_cards("Ac Ad Ah As Kc"))


def test_R25_suits_never_break_ties() -> None:
    board = parse_cards("Th Jh Qd 2c 3s")
    assert core.evaluate([*board, *parse_cards("Ks Ac")]) == core.evaluate(
        [*board, *parse_cards("Kd Ad")]
    )
    assert core.evaluate(parse_cards("Ah Kh Qh Jh 9h")) == core.evaluate(
        parse_cards("As Ks Qs Js 9s")
    )


def test_R25_two_pair_kicker_may_come_from_a_third_pair() -> None:
    three_pairs = core.evaluate(parse_cards("Ah Ad 8c 8s 6h 6d 4c"))
    assert three_pairs > core.evaluate(parse_cards("Ah Ad 8c 8s 5h 4d 3c"))
    assert three_pairs == core.evaluate(parse_cards("Ah Ad 8c 8s 6h 2d 3c"))


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ([0, 1, 2, 3], "4 cards; a hand has 5, 6 or 7"),
        ([0, 1, 2, 3, 4, 5, 6, 7], "8 cards"),
        ([0, 1, 2, 3, 52], "card index 52 is out of range 0..51"),
        ([0, 1, 2, 3, -1], "card index -1 is out of range 0..51"),
        ([0, 1, 2, 3, 3], "card 2s appears twice"),
    ],
)
def test_bad_hands_are_refused_saying_why(cards: list[int], reason: str) -> None:
    with pytest.raises(InvalidHand, match=reason):
        core.evaluate_checked(cards)
    if len(set(cards)) == len(cards):  # the fast path does not look for a card twice
        with pytest.raises(InvalidHand, match=reason):
            core.evaluate(cards)


def test_a_bad_batch_names_its_first_bad_hand(random_hands: Hands) -> None:
    hands = random_hands(200_000, 7, 9)
    hands[150_001, 3] = hands[150_001, 5]
    hands[190_000, 0] = 60
    with pytest.raises(InvalidHand, match=r"hand 150001: card .. appears twice"):
        core.evaluate_batch(hands)
    hands[150_001] = hands[150_002]
    with pytest.raises(InvalidHand, match="hand 190000: card index 60 is out of range"):
        core.evaluate_batch(hands)
    with pytest.raises(InvalidHand, match="rows of 5, 6 or 7 cards"):
        core.evaluate_batch(hands[:, :4])
