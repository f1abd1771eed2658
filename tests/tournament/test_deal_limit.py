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
