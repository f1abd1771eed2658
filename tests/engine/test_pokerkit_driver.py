"""The PokerKit driver is right: it replays the published hands and keeps to the rule book."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from poker.cards import DECK_SIZE, parse_cards
from services.dealer import phh
from services.dealer.phh import PhhAction, PhhHand
from tests.oracles.pokerkit_driver import (
    Bounds,
    Choice,
    PokerKitHand,
    Spec,
    expected_finishing_stacks,
    mixed_policy,
    random_hand,
    random_spec,
    replay_phh,
)

PLURIBUS = Path("/work/shared/phh/pluribus")


def deck_for(players: int, holes: list[str], board: str) -> list[int]:
    """A deck that deals `holes[i]` to p(i+1) and `board` as R12 says; the rest in order."""
    slots: list[int | None] = [None] * DECK_SIZE
    for i, text in enumerate(holes):
        first, second = parse_cards(text)
        slots[i], slots[players + i] = first, second
    board_slots = [2 * players + k for k in (1, 2, 3, 5, 7)]
    for slot, card in zip(board_slots, parse_cards(board), strict=False):
        slots[slot] = card
    spare = iter(c for c in range(DECK_SIZE) if c not in slots)
    return [next(spare) if c is None else c for c in slots]


def check_down(hand: PokerKitHand) -> None:
    while not hand.is_over:
        hand.check_call()


# ---------------------------------------------------------------- the published hands


def test_replay_every_pluribus_hand_gives_its_finishing_stacks() -> None:
    files = sorted(PLURIBUS.glob("**/*.phh"))
    assert len(files) == 1991
    for path in files:
        hand = phh.load(path)
        assert replay_phh(hand) == expected_finishing_stacks(hand), path


def test_R24_the_odd_chip_hand_rounds_toward_the_first_winner_left_of_the_button() -> None:
    hand = phh.load(PLURIBUS / "102" / "0.phh")
    assert hand.finishing_stacks == [10112.5, 9775, 10000, 10000, 10112.5, 10000]
    assert replay_phh(hand) == [10113, 9775, 10000, 10000, 10112, 10000]


def test_replay_a_fixed_limit_hand_with_antes() -> None:
    deal = [("2c7d", 1), ("KhKd", 2), ("QsJs", 3)]
    actions = [PhhAction(None, "dh", tuple(parse_cards(c)), None, p) for c, p in deal]
    script = [
        "p3 cbr 20", "p1 f", "p2 cbr 30", "p3 cc",
        "d db Ks9s2d", "p2 cbr 10", "p3 cbr 20", "p2 cbr 30", "p3 cc",
        "d db 3c", "p2 cbr 20", "p3 cc", "d db 4h", "p2 cbr 20", "p3 f",
    ]  # fmt: skip
    actions += [phh.parse_action(a, 3) for a in script]
    hand = PhhHand("FT", [5, 5, 5], [5, 10, 0], None, 10, 20, [200, 200, 200], actions)
    assert replay_phh(hand) == [190, 295, 115]


def test_replay_refuses_what_it_cannot_play() -> None:
    hand = phh.load(PLURIBUS / "102" / "0.phh")
    hand.actions[6] = PhhAction(4, "f")  # p3 is to act first
    with pytest.raises(ValueError, match=r"actions\[6\] p4 f: out of turn, PokerKit has p3"):
        replay_phh(hand)
    hand = phh.load(PLURIBUS / "102" / "0.phh")
    hand.variant = "PO"
    with pytest.raises(ValueError, match="only NT and FT"):
        replay_phh(hand)


# ---------------------------------------------------------------- conventions


def test_R12_cards_come_from_the_deck_in_dealing_order_with_burns() -> None:
    deck = list(range(DECK_SIZE))
    random.Random(3).shuffle(deck)
    hand = PokerKitHand(Spec("no_limit", (500,) * 4, 5, 10), deck)
    assert hand.hole_cards() == [[deck[i], deck[4 + i]] for i in range(4)]
    check_down(hand)
    assert hand.board == [deck[9], deck[10], deck[11], deck[13], deck[15]]
    burns = [parse_cards(repr(card))[0] for card in hand.state.burn_cards]
    assert burns == [deck[8], deck[12], deck[14]]


def test_R7_heads_up_p1_is_the_big_blind_and_the_button_acts_first_before_the_flop() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000, 1000), 50, 100), list(range(DECK_SIZE)))
    assert hand.stacks() == [900, 950]  # p1 posted the big blind, p2 (button) the small
    assert hand.actor == 1 and hand.bounds().call_amount == 50
    hand.check_call()
    assert hand.actor == 0 and hand.bounds().can_check  # the big blind's option (R15)
    hand.check_call()
    assert hand.actor == 0  # after the flop the button acts last
    assert hand.bounds().bet_kind == "bet" and hand.bounds().min_to == 100


def test_R13_first_to_act_is_left_of_the_big_blind_then_left_of_the_button() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000,) * 5, 50, 100), list(range(DECK_SIZE)))
    order = []
    while hand.state.street_index == 0:
        order.append(hand.actor)
        hand.check_call()
    assert order == [2, 3, 4, 0, 1]
    assert hand.actor == 0 and hand.bounds().bet_kind == "bet"


def test_R8_R22_uniform_antes_count_in_each_contribution() -> None:
    # p3 can pay only 4 of the 10 ante: with AA it wins 4 from each player, no more.
    deck = deck_for(3, ["2c7d", "3c8d", "AsAh"], "KdQs9h4c5s")
    hand = PokerKitHand(Spec("no_limit", (1000, 1000, 4), 5, 10, ante=10), deck)
    assert hand.stacks() == [985, 980, 0]
    check_down(hand)
    final = hand.stacks()
    assert final[2] == 12 and sum(final) == 2004


def test_R8_R22_the_big_blind_posts_the_big_blind_ante_and_it_goes_whole_to_the_main_pot() -> None:
    deck = deck_for(3, ["2c7d", "3c8d", "AsAh"], "KdQs9h4c5s")
    hand = PokerKitHand(Spec("no_limit", (1000, 1000, 60), 50, 100, 100, True), deck)
    assert hand.stacks() == [950, 800, 60]
    hand.all_in()  # p3 calls all-in for 60
    hand.fold()  # p1; p2 is alone with chips and owes nothing: no decision (R20)
    assert hand.is_over
    # Main pot: 60 + 60 + p1's 50 + the whole ante 100; p2's uncalled 40 comes back (R21).
    assert hand.stacks() == [950, 840, 270]


def test_R8_heads_up_big_blind_ante_lands_on_the_big_blind() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000, 1000), 50, 100, 25, True), list(range(52)))
    assert hand.stacks() == [875, 950]


def test_R11_short_blinds_post_what_they_have_after_the_ante() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000, 30, 1000), 50, 100, ante=10), list(range(52)))
    assert hand.stacks() == [940, 0, 990]
    bounds = hand.bounds()
    # The call is to the largest amount posted (the small blind's 50), not the nominal
    # big blind; the minimum raise is that plus one big blind.
    assert (bounds.player, bounds.call_amount, bounds.min_to) == (2, 50, 150)


def test_R24_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    deck = deck_for(3, ["2c3d", "2d3c", "2h3h"], "AsKsQsJsTs")  # the board plays
    hand = PokerKitHand(Spec("no_limit", (100, 100, 100), 5, 10), deck)
    hand.check_call()  # p3
    hand.fold()  # p1 leaves its 5
    check_down(hand)
    assert hand.stacks() == [95, 103, 102]  # 25 split: p2 first left of the button


def test_R16_fixed_limit_caps_a_round_at_a_bet_and_three_raises() -> None:
    hand = PokerKitHand(Spec("fixed_limit", (1000,) * 3, 5, 10), list(range(DECK_SIZE)))
    raises = []
    while hand.bounds().can_bet_or_raise:
        bounds = hand.bounds()
        assert bounds.min_to == bounds.max_to
        raises.append(bounds.min_to)
        hand.bet_raise_to(bounds.min_to)
    assert raises == [20, 30, 40]  # the big blind is the bet before the flop
    check_down_round = hand.state.street_index
    while hand.state.street_index == check_down_round:
        hand.check_call()
    raises = []
    while hand.bounds().can_bet_or_raise:
        raises.append(hand.bounds().min_to)
        hand.bet_raise_to(hand.bounds().min_to)
    assert raises == [10, 20, 30, 40]
    while hand.state.street_index == 1:
        hand.check_call()
    assert hand.bounds().min_to == 20  # the big bet on the turn


def test_R18_standard_minimum_raise_is_the_largest_increment() -> None:
    hand = PokerKitHand(Spec("no_limit", (10_000,) * 4, 50, 100), list(range(DECK_SIZE)))
    assert hand.bounds().min_to == 200
    hand.bet_raise_to(350)  # an increment of 250
    assert (hand.bounds().min_to, hand.bounds().max_to) == (600, 10_000)
    with pytest.raises(ValueError, match="cannot bet or raise to 599: allowed 600..10000"):
        hand.bet_raise_to(599)


def test_R19_a_short_all_in_does_not_reopen_the_betting() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000, 1000, 1000, 150), 50, 100), list(range(52)))
    hand.check_call()  # p3 limps
    hand.all_in()  # p4 all-in to 150: 50 more, not a full raise
    sb = hand.bounds()
    assert sb.player == 0 and sb.can_bet_or_raise and sb.min_to == 250 and not sb.divergence
    hand.check_call()
    assert hand.bounds().can_bet_or_raise  # the big blind has not acted yet
    hand.check_call()
    limper = hand.bounds()
    assert limper.player == 2 and not limper.can_bet_or_raise
    assert limper.call_amount == 50 and "PokerKit 0.7.7 would allow" in limper.divergence
    with pytest.raises(ValueError, match="cannot bet or raise to 250: allowed no raise"):
        hand.bet_raise_to(250)


def test_R19_short_all_ins_that_add_up_to_a_full_raise_reopen_it() -> None:
    stacks = (10_000, 10_000, 10_000, 160, 180)
    hand = PokerKitHand(Spec("no_limit", stacks, 50, 100), list(range(DECK_SIZE)))
    hand.check_call()  # p3 limps for 100
    hand.all_in()  # p4 to 160
    hand.all_in()  # p5 to 180: 80 more than p3's 100, still short
    for _ in range(2):
        hand.check_call()  # the blinds call
    assert not hand.bounds().can_bet_or_raise
    hand2 = PokerKitHand(Spec("no_limit", (10_000, 10_000, 10_000, 160, 220), 50, 100), range(52))
    hand2.check_call()
    hand2.all_in()
    hand2.all_in()  # to 220: 120 over p3's limp, a full raise in total
    hand2.check_call()
    hand2.check_call()
    assert hand2.bounds().player == 2 and hand2.bounds().can_bet_or_raise


def test_R20_no_decision_when_nobody_else_has_chips() -> None:
    deck = deck_for(3, ["AsAh", "2c7d", "3c8d"], "KdQs9h4c5s")
    hand = PokerKitHand(Spec("no_limit", (30, 1000, 1000), 50, 100), deck)
    assert hand.actor == 2
    hand.fold()  # the big blind is alone with chips and owes nothing
    assert hand.is_over
    assert hand.stacks() == [60, 970, 1000]  # the big blind's uncalled 70 comes back


def test_fold_is_allowed_when_checking_is_free() -> None:
    hand = PokerKitHand(Spec("no_limit", (1000,) * 3, 50, 100), list(range(DECK_SIZE)))
    hand.check_call()
    hand.check_call()
    assert hand.bounds().can_check and hand.bounds().can_fold
    hand.fold()
    assert hand.actor == 0 and hand.state.street_index == 1


def test_all_in_is_the_call_or_raise_that_takes_the_whole_stack() -> None:
    hand = PokerKitHand(Spec("fixed_limit", (1000, 1000, 15), 5, 10), list(range(DECK_SIZE)))
    hand.all_in()  # p3: a raise to 15, short of the 20 a full raise needs
    assert hand.stacks()[2] == 0
    with pytest.raises(ValueError, match="p1 cannot go all-in for 1000"):
        hand.all_in()  # fixed limit: a raise is to 25, not to 1000
    check_down(hand)
    with pytest.raises(ValueError, match="nobody is to act"):
        hand.bounds()
    with pytest.raises(ValueError, match="kind must be one of"):
        PokerKitHand(Spec("no_limit", (10, 10), 1, 2), range(52)).apply(Choice("check"))


def test_spec_and_deck_are_checked() -> None:
    with pytest.raises(ValueError, match="structure 'spread_limit'"):
        Spec("spread_limit", (10, 10), 1, 2)
    with pytest.raises(ValueError, match="R29"):
        Spec("no_limit", (10, 0), 1, 2)
    with pytest.raises(ValueError, match="deck"):
        PokerKitHand(Spec("no_limit", (10, 10), 1, 2), [0] * 52)


def test_R16_pot_limit_caps_a_raise_at_the_pot_after_the_call() -> None:
    # R16 at 5/10, the button first to act: its call of 10 would make the pot 25, so it
    # may raise to 10 + 25 = 35. The small blind folds; the big blind's call of 25 would
    # make the pot 5 + 35 + 35 = 75, so it may raise to 35 + 75 = 110 (at least to 60).
    hand = PokerKitHand(Spec("pot_limit", (1000, 1000, 1000), 5, 10), list(range(52)))
    first = hand.bounds()
    assert (first.player, first.min_to, first.max_to) == (2, 20, 35)
    hand.bet_raise_to(35)
    hand.fold()
    facing = hand.bounds()
    assert (facing.player, facing.call_amount, facing.min_to, facing.max_to) == (1, 25, 60, 110)


# ---------------------------------------------------------------- random hands


def check_bounds(bounds: Bounds) -> None:
    assert bounds.can_fold and bounds.can_check != bounds.can_call
    assert 0 <= bounds.call_amount <= bounds.stack
    if bounds.can_bet_or_raise:
        assert bounds.bet_kind in ("bet", "raise")
        assert bounds.bet + bounds.call_amount < bounds.min_to <= bounds.max_to
        assert bounds.max_to <= bounds.stack + bounds.bet
    else:
        assert bounds.bet_kind is None and bounds.min_to == bounds.max_to == 0


STACKS = {
    "deep": lambda n, bb, i: (100 + 37 * i) * bb,
    "short": lambda n, bb, i: (i + 1) * bb // 2 + 3,
    "below_blinds": lambda n, bb, i: 1 + i if i % 2 else (40 + i) * bb,
}


@pytest.mark.parametrize("structure", ["no_limit", "fixed_limit"])
@pytest.mark.parametrize("depth", sorted(STACKS))
def test_random_hands_run_to_completion_and_conserve_chips(structure: str, depth: str) -> None:
    rng = random.Random(f"{structure}-{depth}")
    ante_forms = [(0, False), (7, False), (20, True)]
    for players, (ante, bb_ante) in itertools.product(range(2, 10), ante_forms):
        stacks = tuple(STACKS[depth](players, 20, i) for i in range(players))
        spec = Spec(structure, stacks, 10, 20, ante, bb_ante)
        for _ in range(3):
            played = random_hand(spec, rng)
            assert sorted(played.deck) == list(range(DECK_SIZE))
            for bounds, choice in played.decisions:
                check_bounds(bounds)
                assert choice.kind in ("fold", "check_call", "raise_to", "all_in")
            assert sum(played.final_stacks) == sum(stacks), spec
            assert min(played.final_stacks) >= 0


def test_random_specs_and_a_replay_of_the_same_choices_agree() -> None:
    rng = random.Random(2024)
    kinds: set[str] = set()
    for _ in range(200):
        spec = random_spec(rng)
        played = random_hand(spec, rng)
        assert sum(played.final_stacks) == sum(spec.stacks)
        # What the differential test does: the same deck and choices give the same hand.
        again = PokerKitHand(spec, played.deck)
        for bounds, choice in played.decisions:
            assert again.bounds() == bounds
            again.apply(choice)
            kinds.add(choice.kind)
        assert again.is_over and again.stacks() == played.final_stacks
    assert kinds == {"fold", "check_call", "raise_to", "all_in"}


def test_the_policy_mixes_its_choices_as_documented() -> None:
    rng = random.Random(5)
    bounds = Bounds(0, True, False, True, 100, True, "raise", 300, 5000, 4900, 100)
    counts = {"fold": 0, "check_call": 0, "min": 0, "all_in": 0, "other": 0}
    for _ in range(10_000):
        choice = mixed_policy(bounds, rng)
        if choice.kind == "raise_to":
            counts["min" if choice.to == 300 else "other"] += 1
        else:
            counts[choice.kind] += 1
    shares = {k: round(v / 10_000, 2) for k, v in counts.items()}
    assert shares == pytest.approx(
        {"fold": 0.10, "check_call": 0.45, "min": 0.20, "all_in": 0.10, "other": 0.15}, abs=0.02
    )


def test_replay_phh_plays_random_hands_written_as_phh() -> None:
    # The same hands as PHH (antes, big-blind antes, fixed limit, heads-up): the spec
    # and the deck are rebuilt from the file alone.
    rng = random.Random(99)
    for _ in range(60):
        spec = random_spec(rng)
        played = random_hand(spec, rng)
        n, deck = spec.players, played.deck
        actions = [
            PhhAction(None, "dh", (deck[i], deck[n + i]), None, i + 1) for i in range(n)
        ]
        board = [deck[2 * n + k] for k in (1, 2, 3, 5, 7)]
        actions += [PhhAction(None, "db", tuple(board[:3])), PhhAction(None, "db", (board[3],))]
        actions.append(PhhAction(None, "db", (board[4],)))
        for bounds, choice in played.decisions:
            actor = bounds.player + 1
            if choice.kind == "fold":
                actions.append(PhhAction(actor, "f"))
            elif choice.kind == "raise_to":
                actions.append(PhhAction(actor, "cbr", (), choice.to))
            elif choice.kind == "all_in" and bounds.can_bet_or_raise:
                actions.append(PhhAction(actor, "cbr", (), bounds.stack + bounds.bet))
            else:
                actions.append(PhhAction(actor, "cc"))
        antes = [0, spec.ante] + [0] * (n - 2) if spec.big_blind_ante else [spec.ante] * n
        limit = spec.structure == "fixed_limit"
        hand = PhhHand(
            variant="FT" if limit else "NT",
            antes=antes,
            blinds_or_straddles=[spec.small_blind, spec.big_blind] + [0] * (n - 2),
            min_bet=None if limit else spec.big_blind,
            small_bet=spec.big_blind if limit else None,
            big_bet=2 * spec.big_blind if limit else None,
            starting_stacks=list(spec.stacks),
            actions=actions,
        )
        assert replay_phh(phh.loads(phh.dumps(hand))) == played.final_stacks, spec
