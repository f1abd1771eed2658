"""Issue 13's engine defects: a big blind all in for the big-blind ante alone is eligible
for the main pot (R8, R22), checked against PokerKit; the engine refuses any amount that
is not a plain int (docs/engine-contract.md); the blinds' seats of R5 (dead button, no
small blind, a dead small blind posted, R33)."""

from __future__ import annotations

import math

import pytest

from services.dealer.engine import (
    Action,
    ActionKind,
    AnteForm,
    BlindKind,
    BlindPosted,
    ConfigError,
    Hand,
    IllegalAction,
    Level,
    PlayerIn,
    PotAwarded,
    Structure,
    TableConfig,
)
from services.dealer.engine.pots import build_pots
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_helpers import deck_for, play, start
from tests.oracles.pokerkit_driver import PokerKitHand, Spec

#: Seat 0 the small blind, seat 1 the big blind with 10 chips, seat 2 the button.
HOLES = ["QcQd", "AcKh", "JcJd"]
BOARD = "AsAdKd7c2h"  # seat 1: aces full of kings


def _issue_hand() -> Hand:
    return start([1000, 10, 1000], HOLES, BOARD, structure=Structure.FIXED_LIMIT,
                 blinds=(5, 10, 10), ante_form=AnteForm.BIG_BLIND)


def test_R8_R22_big_blind_all_in_for_the_big_blind_ante_wins_the_main_pot() -> None:
    hand = _issue_hand()
    assert [e for e in hand.events if isinstance(e, BlindPosted) and e.seat == 1] == [
        BlindPosted(1, BlindKind.BIG, 0, True)]  # issue 13 (c): on the wire, of 0 chips
    play(hand, "2: call", "0: call")
    for _ in range(3):  # flop, turn, river: checked down
        play(hand, "0: check", "2: check")
    while hand.actor is not None:
        play(hand, "show")
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    main = next(a for a in awards if a.index == 0)
    assert (main.amount, main.eligible, main.winners) == (10, (0, 1, 2), (1,))
    assert sum(a.amount for a in awards) == 30
    # PokerKit plays the same hand: p1..p3 from the left of the button.
    theirs = PokerKitHand(Spec("fixed_limit", (1000, 10, 1000), 5, 10, ante=10,
                               big_blind_ante=True), deck_for(HOLES, BOARD))
    theirs.check_call()  # p3 (the button) calls
    theirs.check_call()  # p1 completes
    while not theirs.is_over:
        theirs.check_call()
    # Both give the big blind the 10-chip main pot it is eligible for (before the fix it
    # ended with 0). The others' stacks differ by the engine's documented R15 decision:
    # the bet to call is the full big blind though it was posted short (PokerKit: 5).
    assert theirs.stacks()[1] == hand.stacks[1] == 10
    assert [hand.stacks[s] for s in (0, 2)] == [1010, 990]
    assert theirs.stacks() == [1005, 10, 995]


def test_R8_R22_pots_keep_an_ante_only_player_eligible() -> None:
    assert build_pots([0, 17, 17], [False, False, False], 10) == [(10, (0, 1, 2)),
                                                                   (34, (1, 2))]
    assert build_pots([0, 17, 17], [False, True, False], 10) == [(10, (0, 2)), (34, (2,))]
    # Nobody all in for the ante alone: the dead money joins the main pot as before.
    assert build_pots([10, 17, 17], [False] * 3, 10) == [(40, (0, 1, 2)), (14, (1, 2))]


@pytest.mark.parametrize("amount", [250.5, 300.0, math.nan, True, "300", None])
def test_engine_contract_refuses_an_amount_that_is_not_a_plain_int(amount: object) -> None:
    hand = start([1000, 1000, 1000])
    before = (hand.stacks, hand.bets, hand.actor, len(hand.events))
    with pytest.raises(IllegalAction, match="not a whole number"):
        hand.act(hand.actor, Action(ActionKind.RAISE, amount))  # type: ignore[arg-type]
    assert (hand.stacks, hand.bets, hand.actor, len(hand.events)) == before
    hand.act(hand.actor, Action(ActionKind.RAISE, 300))  # an int is taken


def test_R5_engine_dead_button_and_no_small_blind() -> None:
    players = [PlayerIn(0, "a", 1000), PlayerIn(3, "b", 1000), PlayerIn(4, "c", 1000)]
    hand = Hand.start(TableConfig(seats=6), players, 1, range(52), ranker=DEFAULT_RANKER,
                      blind_seats=(None, 3))
    posts = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [BlindPosted(3, BlindKind.BIG, 100, False)]
    assert hand.actor == 4  # left of the big blind (R13)
    assert Hand.from_events(hand.events).stacks == hand.stacks
    with pytest.raises(ConfigError, match="big blind"):
        Hand.start(TableConfig(seats=6), players, 1, range(52), blind_seats=(None, 2))
    with pytest.raises(ConfigError, match="small blind"):
        Hand.start(TableConfig(seats=6), players, 1, range(52), blind_seats=(3, 3))


def test_R33_engine_dead_small_blind_is_dead_money() -> None:
    players = [PlayerIn(0, "a", 1000), PlayerIn(1, "b", 1000), PlayerIn(2, "c", 1000),
               PlayerIn(3, "d", 1000, posts_late=True, posts_dead_small_blind=True)]
    hand = Hand.start(TableConfig(seats=6, levels=(Level(50, 100),)), players, 0,
                      range(52), ranker=DEFAULT_RANKER, blind_seats=(1, 2))
    posts = [(e.seat, e.blind, e.amount) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, BlindKind.SMALL, 50), (2, BlindKind.BIG, 100),
                     (3, BlindKind.LATE, 100), (3, BlindKind.DEAD, 50)]
    # the dead part calls nothing and is no contribution of the seat's: it goes whole into
    # the main pot, so it never comes back as a pot of its poster's alone
    assert hand.bets[3] == 100 and hand.contributions[3] == 100
    assert hand.actor == 3 and hand.legal_actions().can_check  # live: R10's option


def test_R5_R33_phh_writes_dead_button_no_small_blind_and_dead_posts() -> None:
    from services.dealer.phh_writer import to_phh
    from tests.engine.test_engine_helpers import finish

    players = [PlayerIn(0, "a", 1000), PlayerIn(3, "b", 1000), PlayerIn(4, "c", 1000),
               PlayerIn(5, "d", 1000, posts_late=True, posts_dead_small_blind=True)]
    hand = finish(Hand.start(TableConfig(seats=6), players, 1, range(52),
                             ranker=DEFAULT_RANKER, blind_seats=(None, 3)))
    record = to_phh(hand)
    # p1..p4 from the left of the dead button (seat 1): seats 3, 4, 5, 0.
    assert record.blinds_or_straddles == [100, 0, 100, 0]
    assert record.antes == [0, 0, 50, 0]  # R33: the missed small blind, dead money
    extra = record.extra
    assert (extra["_button_rule"], extra["_button_seat"], extra["_dead_button"]) == (
        "dead", 1, True)
    assert (extra["_small_blind_seat"], extra["_big_blind_seat"]) == (-1, 3)
    assert extra["_late_posts"] == [3]
