"""Properties of every hand (hypothesis): chips are conserved, no card is dealt twice,
every action offered is accepted and every other refused with the hand unchanged,
the events replay to the same hand, and redaction never leaks a hole card."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.dealer.engine import (
    AUDITOR,
    SPECTATOR,
    Action,
    ActionKind,
    AnteForm,
    CardsMucked,
    CardsShown,
    Decision,
    DeckSet,
    Hand,
    HoleCardsDealt,
    IllegalAction,
    LegalActions,
    Level,
    NotYourTurn,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 9))
    small_blind = draw(st.sampled_from([1, 5, 25, 50]))
    big_blind = 2 * small_blind
    ante = draw(st.sampled_from([0, 0, 1, small_blind, big_blind]))
    stacks = draw(
        st.lists(
            st.one_of(st.integers(1, 3 * big_blind), st.integers(1, 200 * big_blind)),
            min_size=n,
            max_size=n,
        )
    )
    structure = draw(st.sampled_from(list(Structure)))
    fixed = structure is Structure.FIXED_LIMIT
    config = TableConfig(
        seats=draw(st.integers(n, 10)),
        structure=structure,
        preset=draw(st.sampled_from(list(Preset))),
        levels=(Level(small_blind, big_blind, ante),),
        ante_form=draw(st.sampled_from(list(AnteForm))),
        turn_river_min_bet=None if fixed else draw(st.sampled_from([None, 1, 2, 3])),
        fixed_limit_cap=draw(st.integers(1, 5)),
        all_in_exposure=draw(st.booleans()),
        test_mode=True,
    )
    seats = sorted(draw(st.permutations(range(config.seats)))[:n])
    late = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    players = [
        PlayerIn(seat, f"p{seat}", stack, posts_late=flag)
        for seat, stack, flag in zip(seats, stacks, late, strict=True)
    ]
    deck = draw(st.permutations(range(52)))
    return Hand.start(config, players, draw(st.sampled_from(seats)), deck, ranker=DEFAULT_RANKER)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    legal = hand.legal_actions() if hand.actor is not None else None
    return (
        len(hand.events),
        hand.stacks,
        hand.bets,
        hand.pots,
        hand.actor,
        hand.decision,
        hand.street,
        hand.board,
        hand.is_over,
        hand.full_raise_to,
        legal,
    )


def offered(legal: LegalActions, pick: float) -> list[Action]:
    """Actions the legal bounds allow (a bet or raise at the bounds and in between)."""
    if legal.decision is Decision.SHOW_OR_MUCK:
        return [Action.show(), Action.muck()]
    actions = [Action.fold()]
    if legal.can_check:
        actions.append(Action.check())
    if legal.can_call:
        actions.append(Action.call())
    if legal.bet_kind is not None:
        middle = legal.min_to + int(pick * (legal.max_to - legal.min_to))
        actions += [Action(legal.bet_kind, to) for to in (legal.min_to, middle, legal.max_to)]
    if legal.can_all_in:
        actions.append(Action.all_in())
    return actions


def refused(legal: LegalActions) -> list[Action]:
    """Actions the bounds do not allow."""
    if legal.decision is Decision.SHOW_OR_MUCK:
        return [Action.fold(), Action.check(), Action.call(), Action.raise_to(10**6)]
    actions = [Action.show(), Action.muck()]
    if not legal.can_check:
        actions.append(Action.check())
    if not legal.can_call:
        actions.append(Action.call())
    if legal.bet_kind is None:
        actions += [Action.bet(legal.all_in_to), Action.raise_to(legal.all_in_to)]
    else:
        other = ActionKind.RAISE if legal.bet_kind is ActionKind.BET else ActionKind.BET
        actions += [
            Action(legal.bet_kind, legal.min_to - 1),
            Action(legal.bet_kind, legal.max_to + 1),
            Action(other, legal.min_to),
        ]
    if not legal.can_all_in:
        actions.append(Action.all_in())
    return actions


def check_chips_and_cards(hand: Hand, total: int) -> None:
    on_table = sum(hand.stacks.values()) + sum(hand.bets.values())
    assert on_table + sum(p.amount for p in hand.pots) == total
    assert min(hand.stacks.values()) >= 0
    cards = [c for p in hand.players for c in hand.hole_cards(p.seat)] + list(hand.board)
    assert len(cards) == len(set(cards)), "a card was dealt twice"


def check_redaction(hand: Hand) -> None:
    shown = {e.seat for e in hand.events if isinstance(e, CardsShown)}
    for viewer in [p.seat for p in hand.players] + [SPECTATOR]:
        for event in hand.events_for(viewer):
            assert not isinstance(event, DeckSet)
            if isinstance(event, HoleCardsDealt):
                assert event.seat == viewer or event.cards == ()
            if isinstance(event, CardsMucked):
                assert event.cards == ()
            if isinstance(event, CardsShown):
                assert event.seat in shown
    assert hand.events_for(AUDITOR) == hand.events


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hand=hands(), data=st.data())
def test_every_hand_keeps_the_rules_invariants(hand: Hand, data: st.DataObject) -> None:
    total = sum(p.stack for p in hand.players)
    check_chips_and_cards(hand, total)
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions()
        before = snapshot(hand)
        for action in refused(legal):
            assert not legal.allows(action)
            with pytest.raises(IllegalAction):
                hand.act(seat, action)
            assert snapshot(hand) == before
        other = next(p.seat for p in hand.players if p.seat != seat)
        with pytest.raises(NotYourTurn) as not_yours:
            hand.act(other, Action.fold())
        assert not_yours.value.actor == seat and snapshot(hand) == before
        choices = offered(legal, data.draw(st.floats(0, 1), label="size"))
        action = data.draw(st.sampled_from(choices), label="action")
        assert legal.allows(action)
        hand.act(seat, action)
        check_chips_and_cards(hand, total)
        assert snapshot(Hand.from_events(hand.events, ranker=DEFAULT_RANKER)) == snapshot(hand)
    assert hand.is_over and hand.result is not None
    assert sum(hand.stacks.values()) == total
    check_redaction(hand)
    with pytest.raises(IllegalAction):
        hand.legal_actions()
