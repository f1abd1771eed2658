"""Cards, forced bets and dealing: R1-R3, R6-R8, R10-R12."""

from __future__ import annotations

import pytest

from poker.cards import card_text, parse_cards
from services.dealer.engine import (
    AUDITOR,
    SPECTATOR,
    Action,
    AnteForm,
    AntePosted,
    BlindKind,
    BlindPosted,
    BoardDealt,
    DeckSet,
    Hand,
    HandStarted,
    HoleCardsDealt,
    IllegalAction,
    PlayerIn,
    Street,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_helpers import act, config, deck_for, finish, kinds, play, start


def test_R1_cards_are_the_52_indexes_and_their_text() -> None:
    hand = start([1000, 1000], ["AsTd", "2c3h"])
    assert hand.hole_cards(0) == (51, 33)  # 4 * rank + suit (R1)
    assert [card_text(c) for c in hand.hole_cards(1)] == ["2c", "3h"]


def test_R2_a_fixed_deck_is_recorded_with_the_tables_test_mode() -> None:
    hand = start([1000, 1000], table=config(test_mode=True))
    started = hand.events[0]
    assert isinstance(started, HandStarted) and started.config.test_mode
    assert not TableConfig().test_mode  # a real table plays shuffled decks only


def test_R3_the_commitment_is_published_and_the_deck_kept_for_the_audit() -> None:
    players = [PlayerIn(0, "a", 1000), PlayerIn(1, "b", 1000)]
    hand = Hand.start(TableConfig(), players, 1, range(52), commitment="c0ffee", hand_id="h1",
                      ranker=DEFAULT_RANKER)
    started = hand.events[0]
    assert isinstance(started, HandStarted) and started.commitment == "c0ffee"
    assert [e for e in hand.events_for(AUDITOR) if isinstance(e, DeckSet)] == [
        DeckSet(tuple(range(52)))
    ]
    assert not [e for e in hand.events_for(SPECTATOR) if isinstance(e, DeckSet)]
    assert not [e for e in hand.events_for(0) if isinstance(e, DeckSet)]


def test_R6_small_blind_left_of_the_button_then_the_big_blind() -> None:
    players = [PlayerIn(2, "a", 1000), PlayerIn(5, "b", 1000), PlayerIn(8, "c", 1000)]
    hand = Hand.start(config(), players, 5, range(52), ranker=DEFAULT_RANKER)
    posted = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert posted == [
        BlindPosted(8, BlindKind.SMALL, 50, False),
        BlindPosted(2, BlindKind.BIG, 100, False),
    ]
    assert hand.actor == 5  # R13: left of the big blind


def test_R7_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop() -> None:
    players = [PlayerIn(3, "a", 1000), PlayerIn(7, "b", 1000)]
    hand = Hand.start(config(), players, 7, range(52), ranker=DEFAULT_RANKER)
    assert hand.bets == {3: 100, 7: 50}
    assert hand.actor == 7 and hand.legal_actions().call_amount == 50
    hand.act(7, Action.call())
    assert hand.actor == 3 and hand.legal_actions().can_check  # the big blind's option
    act(hand, "check")
    assert hand.street is Street.FLOP and hand.actor == 3  # last to act after the flop: 7


def test_R7_heads_up_the_button_acts_last_on_every_later_street() -> None:
    hand = play(start([1000, 1000]), "1: call", "0: check")
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        assert hand.street is street
        play(hand, "0: check", "1: check")


def test_R8_every_player_posts_the_ante_before_the_blinds_and_it_is_dead() -> None:
    hand = start([1000, 1000, 1000], blinds=(50, 100, 10))
    posted = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted)]
    assert kinds(posted) == ["AntePosted"] * 3 + ["BlindPosted"] * 2
    assert [e.amount for e in posted] == [10, 10, 10, 50, 100]
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.min_to) == (100, 200)  # the ante counts toward no call
    assert hand.stacks == {0: 940, 1: 890, 2: 990}


def test_R8_a_big_blind_ante_is_posted_by_the_big_blind_alone_first() -> None:
    hand = start(
        [1000, 1000, 1000], table=config(blinds=(50, 100, 100), ante_form=AnteForm.BIG_BLIND)
    )
    posted = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted)]
    assert posted[0] == AntePosted(1, 100, False)
    assert kinds(posted) == ["AntePosted", "BlindPosted", "BlindPosted"]
    assert hand.stacks == {0: 950, 1: 800, 2: 1000}
    assert hand.legal_actions().call_amount == 100


def test_R8_heads_up_big_blind_ante_is_the_big_blinds() -> None:
    hand = start([1000, 1000], table=config(blinds=(50, 100, 100), ante_form=AnteForm.BIG_BLIND))
    assert hand.stacks == {0: 800, 1: 950}


def test_R10_a_late_joiner_posts_a_live_big_blind_once() -> None:
    # Seats 0 SB, 1 BB, 2 joins late (first to act), 3 the button.
    hand = start([1000] * 4, late=[2])
    posted = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert posted[-1] == BlindPosted(2, BlindKind.LATE, 100, False)
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert legal.can_check and not legal.can_call  # live: it counts toward the call
    assert legal.min_to == 200
    play(hand, "2: check", "3: call", "0: call", "1: check")
    assert hand.street is Street.FLOP
    assert sum(p.amount for p in hand.pots) == 400


def test_R10_a_late_post_is_live_when_others_raise() -> None:
    hand = play(start([1000] * 4, late=[2]), "2: check", "3: raise 300")
    play(hand, "0: fold", "1: fold")
    assert hand.legal_actions().call_amount == 200  # 300 less the live 100


def test_R10_a_late_joiner_in_the_big_blind_posts_only_the_big_blind() -> None:
    hand = start([1000] * 4, late=[1])
    assert [e.blind for e in hand.events if isinstance(e, BlindPosted)] == [
        BlindKind.SMALL,
        BlindKind.BIG,
    ]


def test_R10_decision_a_late_joiner_in_the_small_blind_posts_the_big_blind_instead() -> None:
    hand = start([1000] * 4, late=[0])
    posted = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert posted == [
        BlindPosted(0, BlindKind.LATE, 100, False),
        BlindPosted(1, BlindKind.BIG, 100, False),
    ]


def test_R11_a_short_big_blind_posts_its_ante_first_then_what_is_left() -> None:
    hand = start([1000, 60, 1000], blinds=(50, 100, 10))
    posted = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted)]
    assert AntePosted(1, 10, False) in posted
    assert BlindPosted(1, BlindKind.BIG, 50, True) in posted
    assert hand.stacks[1] == 0


def test_R11_a_stack_smaller_than_the_ante_is_all_in_on_the_ante() -> None:
    hand = start([5, 1000, 1000], blinds=(50, 100, 10))
    posted = [e for e in hand.events if isinstance(e, AntePosted | BlindPosted)]
    assert posted[0] == AntePosted(0, 5, True)
    # Issue 13: the blind the ante ate is still posted, of 0 chips (who had it is on the wire).
    assert [e for e in posted if isinstance(e, BlindPosted) and e.seat == 0] == [
        BlindPosted(0, BlindKind.SMALL, 0, True)]
    assert hand.actor == 2  # the small blind has nothing left to act with


def test_R11_a_short_small_blind_is_all_in() -> None:
    hand = start([30, 1000, 1000])
    assert BlindPosted(0, BlindKind.SMALL, 30, True) in hand.events


def test_R12_one_card_at_a_time_from_the_left_of_the_button_burns_before_each_street() -> None:
    hand = finish(start([1000, 1000, 1000]))  # deck 0..51 in order, n = 3
    dealt = {e.seat: e.cards for e in hand.events if isinstance(e, HoleCardsDealt)}
    assert dealt == {0: (0, 3), 1: (1, 4), 2: (2, 5)}
    boards = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert boards == [
        BoardDealt(Street.FLOP, (7, 8, 9)),  # d[6] burnt
        BoardDealt(Street.TURN, (11,)),  # d[10] burnt
        BoardDealt(Street.RIVER, (13,)),  # d[12] burnt
    ]


def test_R12_dealing_starts_left_of_the_button_wherever_it_is() -> None:
    players = [PlayerIn(2, "a", 1000), PlayerIn(5, "b", 1000), PlayerIn(7, "c", 1000)]
    deck = deck_for(["AsKs", "QhQd", "7c2d"])  # dealing order: 7, 2, 5 (button)
    hand = Hand.start(config(), players, 5, deck, ranker=DEFAULT_RANKER)
    assert hand.hole_cards(7) == tuple(parse_cards("AsKs"))
    assert hand.hole_cards(2) == tuple(parse_cards("QhQd"))
    assert hand.hole_cards(5) == tuple(parse_cards("7c2d"))
    assert [e.seat for e in hand.events if isinstance(e, HoleCardsDealt)] == [7, 2, 5]


def test_R12_no_card_is_dealt_twice() -> None:
    hand = finish(start([1000] * 10))
    cards = [c for s in range(10) for c in hand.hole_cards(s)] + list(hand.board)
    assert len(cards) == len(set(cards)) == 25


def test_forced_bets_are_not_actions() -> None:
    hand = start([1000, 1000, 1000])
    with pytest.raises(IllegalAction):
        hand.act(0, Action.call())  # the small blind is not first to act preflop
