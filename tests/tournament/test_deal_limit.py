"""T5, T7: a table held between hands by its tournament's director (SetDealLimit)."""

from __future__ import annotations

from poker.vocab import table_events as ev
from services.dealer.table import commands as c
from services.dealer.table.state import TableState, plan
from tests.dealer.test_table_state import DECK, _seated, _step


def test_T7_deal_limit_holds_the_next_hand_and_releases_it() -> None:
    state = _seated(3)
    assert _step(state, c.SetDealLimit(0)) == [ev.DealLimitSet(0, True)]
    assert plan(state) is None  # held before the first hand
    _step(state, c.SetDealLimit(1))
    assert plan(state) is not None
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    assert state.hand is not None
    while state.hand is not None:  # everyone folds to the big blind or checks down
        turn = state.turn
        assert turn is not None
        legal = {a.kind for a in turn.legal} if hasattr(turn, "legal") else set()
        kind = "check" if "check" in legal else "fold"
        try:
            _step(state, c.Act(turn.seat, state.hand.hand_id, turn.action_number, kind, 0))
        except Exception:
            _step(state, c.Act(turn.seat, state.hand.hand_id, turn.action_number,
                               "fold" if kind == "check" else "check", 0))
    assert state.hands_played == 1 and plan(state) is None  # held after hand 1
    _step(state, c.SetDealLimit(None))
    assert state.deal_until is None and plan(state) is not None


def test_T7_deal_limit_survives_a_snapshot() -> None:
    state = _seated(2)
    _step(state, c.SetDealLimit(4))
    again = TableState.from_snapshot("t", state.config, None, state.snapshot())
    assert again.deal_until == 4


def test_T4_absent_players_are_dealt_in_and_blinded_off() -> None:
    state = _seated(3, absent_dealt_in=True)
    _step(state, c.SitOut(1))
    assert state.seats[1].sitting_out
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    assert state.hand is not None and 1 in {p.seat for p in state.hand.players}
    while state.hand is not None and state.turn is not None and state.turn.seat != 1:
        turn = state.turn
        _step(state, c.Act(turn.seat, state.hand.hand_id, turn.action_number, "call", 0))
    assert state.turn is not None and state.turn.seat == 1
    events = _step(state, c.ClockRang(state.hand.hand_id, state.turn.action_number))
    assert any(type(e) is ev.TurnTimedOut for e in events)  # checked or folded on time


def test_T4_without_the_option_an_absent_player_sits_out() -> None:
    state = _seated(3)
    _step(state, c.SitOut(1))
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    assert state.hand is not None and 1 not in {p.seat for p in state.hand.players}
