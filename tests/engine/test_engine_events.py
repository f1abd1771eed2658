"""The hand is its events (STYLE §4): replay, who sees what, refused actions, time-outs."""

from __future__ import annotations

import pytest

from services.dealer import codec
from services.dealer.engine import (
    AUDITOR,
    EVENT_TYPES,
    SPECTATOR,
    Action,
    ActionKind,
    ActionTaken,
    CardsMucked,
    CardsShown,
    DeckSet,
    Event,
    Hand,
    HoleCardsDealt,
    IllegalAction,
    NotYourTurn,
    Visibility,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_helpers import act, finish, play, start


def scripted() -> Hand:
    hand = start([1000, 1000, 300], ["KcKd", "7c7d", "AsAh"], "Qs9d5h4c2s")
    play(hand, "2: all-in", "0: call", "1: call", "0: check", "1: check")
    play(hand, "0: check", "1: check", "0: bet 100", "1: call", "muck")
    return hand


def state_of(hand: Hand) -> tuple[object, ...]:
    return (
        hand.street,
        hand.actor,
        hand.decision,
        hand.stacks,
        hand.bets,
        hand.pots,
        hand.board,
        hand.is_over,
        hand.result,
        hand.in_hand,
        hand.contributions,
    )


def test_replaying_the_events_gives_the_same_hand_at_every_step() -> None:
    hand = scripted()
    assert hand.is_over
    for cut in range(1, len(hand.events) + 1):
        replayed = Hand.from_events(hand.events[:cut], ranker=DEFAULT_RANKER)
        assert replayed.events == hand.events[:cut]
    assert state_of(Hand.from_events(hand.events, ranker=DEFAULT_RANKER)) == state_of(hand)


def test_a_replayed_hand_plays_on_like_the_live_one() -> None:
    live = play(start([1000] * 3), "2: raise 300", "0: call")
    copy = Hand.from_events(live.events, ranker=DEFAULT_RANKER)
    assert state_of(copy) == state_of(live) and copy.legal_actions() == live.legal_actions()
    for hand in (live, copy):
        finish(play(hand, "1: call", "0: bet 200", "1: fold", "2: call"))
    assert copy.events == live.events and state_of(copy) == state_of(live)


def test_events_survive_the_dealers_codec() -> None:
    hand = scripted()
    stored = [codec.loads(codec.dumps(e)) for e in hand.events]
    assert stored == hand.events
    assert state_of(Hand.from_events(stored, ranker=DEFAULT_RANKER)) == state_of(hand)


def test_every_event_has_a_kind_and_a_visibility() -> None:
    assert len({t.kind for t in EVENT_TYPES}) == len(EVENT_TYPES)
    assert {t.visibility for t in EVENT_TYPES} == set(Visibility)


def hole_cards_seen(events: list[Event]) -> dict[int, tuple[int, ...]]:
    return {e.seat: e.cards for e in events if isinstance(e, HoleCardsDealt) and e.cards}


def test_a_player_sees_their_own_hole_cards_only() -> None:
    hand = scripted()
    assert hole_cards_seen(hand.events_for(1)) == {1: hand.hole_cards(1)}
    assert hole_cards_seen(hand.events_for(SPECTATOR)) == {}
    assert hole_cards_seen(hand.events_for(AUDITOR)) == {s: hand.hole_cards(s) for s in range(3)}


def test_shown_cards_are_public_mucked_cards_only_for_the_auditor() -> None:
    hand = scripted()  # seat 0 and seat 2 show, seat 1 mucks
    for viewer in (0, 2, SPECTATOR):
        events = hand.events_for(viewer)
        assert {e.seat for e in events if isinstance(e, CardsShown)} == {0, 2}
        assert [e for e in events if isinstance(e, CardsMucked)] == [CardsMucked(1, ())]
        assert not [e for e in events if isinstance(e, DeckSet)]
    audited = [e for e in hand.events_for(AUDITOR) if isinstance(e, CardsMucked)]
    assert audited == [CardsMucked(1, hand.hole_cards(1))]


def test_an_illegal_action_leaves_the_hand_exactly_as_it_was() -> None:
    hand = play(start([1000] * 3), "2: raise 300")
    before, events = state_of(hand), list(hand.events)
    for action in (
        Action.check(),
        Action.raise_to(400),
        Action.raise_to(5000),
        Action.bet(600),
        Action.show(),
    ):
        with pytest.raises(IllegalAction):
            hand.act(0, action)
        assert state_of(hand) == before and hand.events == events


@pytest.mark.parametrize(
    ("moves", "action", "message"),
    [
        ([], Action.raise_to(150), "raise to 150 is below the minimum raise to 200"),
        ([], Action.check(), "you cannot check: 100 to call"),
        ([], Action.raise_to(1500), "raise to 1500 is more than you have: all-in is 1000"),
        (
            ["2: call", "0: call", "1: check"],
            Action.bet(50),
            "bet of 50 is below the minimum bet of 100",
        ),
        (
            ["2: call", "0: call", "1: check"],
            Action.call(),
            "there is no bet to call: check instead",
        ),
    ],
)
def test_refusals_say_why_in_a_players_words(
    moves: list[str], action: Action, message: str
) -> None:
    hand = play(start([1000] * 3), *moves)
    with pytest.raises(IllegalAction) as refused:
        hand.act(hand.actor or 0, action)
    assert str(refused.value) == message


def test_not_your_turn_names_whose_turn_it_is() -> None:
    hand = start([1000] * 3)
    with pytest.raises(NotYourTurn) as refused:
        hand.act(0, Action.fold())
    assert refused.value.actor == 2 and str(refused.value) == "it is seat 2's turn, not seat 0's"
    finish(hand)
    with pytest.raises(NotYourTurn) as over:
        hand.act(2, Action.fold())
    assert over.value.actor is None
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.legal_actions()


def test_R32_on_time_out_a_player_checks_if_they_can_else_folds() -> None:
    hand = start([1000] * 3)
    events = hand.time_out(2)
    assert events[0] == ActionTaken(2, ActionKind.FOLD, 0, 0, False)
    play(hand, "0: call")
    events = hand.time_out(1)
    assert events[0] == ActionTaken(1, ActionKind.CHECK, 100, 0, False)
    with pytest.raises(NotYourTurn):
        hand.time_out(1)


def test_act_returns_the_events_it_caused() -> None:
    hand = play(start([1000] * 3), "2: call", "0: call")
    events = act(hand, "1: check")
    assert [type(e).__name__ for e in events] == ["ActionTaken", "BoardDealt"]
    assert hand.events[-2:] == events
