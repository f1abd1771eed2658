"""R37 at the table: a seat's standing choice to straddle (SetStraddle), posted by the dealer
whenever the seat is to the left of the big blind, only where the table allows it; kept in the
table's log (StraddleSet), so a restarted dealer keeps it."""

from __future__ import annotations

from poker.vocab import table_events as ev
from services.dealer.engine import BlindKind, BlindPosted, Level
from services.dealer.errors import FailedPrecondition
from services.dealer.table import commands as c
from services.dealer.table.state import Stored, TableState, apply
from tests.dealer.test_table_state import DECK, NOW, _refused, _seated, _step


def blinds(events: list[object]) -> list[tuple[int, BlindKind, int]]:
    return [(e.seat, e.blind, e.amount) for e in events if isinstance(e, BlindPosted)]


def test_R37_a_willing_seat_left_of_the_big_blind_straddles() -> None:
    state = _seated(4, straddle=True, levels=(Level(50, 100),))
    assert _step(state, c.SetStraddle(3, True)) == [ev.StraddleSet(3, True)]
    assert _step(state, c.SetStraddle(3, True)) == []  # already so
    _step(state, c.SetButton(0))
    events = _step(state, c.StartHand(DECK))
    posted = blinds(events)
    big = next(seat for seat, kind, _ in posted if kind is BlindKind.BIG)
    assert big == 2 and posted[-1] == (3, BlindKind.STRADDLE, 200)
    assert state.hand is not None and state.hand.actor == 0  # left of the straddle


def test_R37_no_straddle_unless_chosen_or_when_the_table_does_not_allow_it() -> None:
    state = _seated(4, straddle=True)
    _step(state, c.SetButton(0))
    assert BlindKind.STRADDLE not in [k for _, k, _ in blinds(_step(state, c.StartHand(DECK)))]
    plain = _seated(4)
    _refused(plain, c.SetStraddle(3, True), FailedPrecondition, "R37")
    assert _step(plain, c.SetStraddle(3, False)) == []


def test_R37_the_choice_is_kept_in_the_log_and_can_be_withdrawn() -> None:
    state = _seated(4, straddle=True)
    _step(state, c.SetStraddle(3, True))
    again = TableState("t", state.config, state.ranker)
    for seat in range(4):
        apply(again, Stored(seat + 1, "", NOW, ev.PlayerSeated(seat, f"p{seat}", 1000)))
    apply(again, Stored(5, "", NOW, ev.StraddleSet(3, True)))
    assert again.seats[3].straddle and state.seats[3].straddle
    assert _step(state, c.SetStraddle(3, False)) == [ev.StraddleSet(3, False)]
    assert not state.seats[3].straddle


def test_R37_snapshots_keep_the_choice_and_old_snapshots_still_load() -> None:
    state = _seated(4, straddle=True)
    _step(state, c.SetStraddle(3, True))
    snap = state.snapshot()
    assert TableState.from_snapshot("t", state.config, None, snap).seats[3].straddle
    old = {**snap, "seats": [row[:6] for row in snap["seats"]]}  # before R37: 6 entries
    restored = TableState.from_snapshot("t", state.config, None, old)
    assert not restored.seats[3].straddle and restored.seats[0].player_id == "p0"
