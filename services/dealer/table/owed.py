"""What each seat owes in blinds (R10 newcomers, R33 missed blinds), and what it does about
it on the next hand as the table stands now: the facts behind TableView's
`SeatView.owed_blinds`. A pure function of the table's state (the seat plan of
services.dealer.table.seatplan, by `state.plan`); no I/O.

>>> from services.dealer.engine import TableConfig
>>> from services.dealer.table.state import SeatState, TableState
>>> state = TableState("t", TableConfig(), None)
>>> state.seats = {0: SeatState(0, "ann", 500, missed_big_blind=True, sitting_out=True)}
>>> owed_blinds(state)
{0: Owed(big_blind=True, small_blind=False, joined_late=False, waits_for_big_blind=False, \
posts_big_blind_next_hand=False, posts_dead_small_blind_next_hand=False, \
big_blind_next_hand=False, waits_next_hand=False)}
"""

from __future__ import annotations

from dataclasses import dataclass

from services.dealer.table.state import TableState, plan

__all__ = ["Owed", "owed_blinds"]


@dataclass(frozen=True, slots=True)
class Owed:
    """One seat's debt in blinds; the fields of `poker.v1.OwedBlinds`, which says each."""

    big_blind: bool = False
    small_blind: bool = False
    joined_late: bool = False
    waits_for_big_blind: bool = False
    posts_big_blind_next_hand: bool = False
    posts_dead_small_blind_next_hand: bool = False
    big_blind_next_hand: bool = False
    waits_next_hand: bool = False


def owed_blinds(state: TableState) -> dict[int, Owed]:
    """The seats that owe a big blind (R10, R33), with what the next hand's plan does
    with them; seats that owe nothing are left out (no plan is made when none owes)."""
    owing = [s for s in state.seats.values() if s.joined_late or s.missed_big_blind]
    if not owing:
        return {}
    planned = plan(state)
    dealt: tuple[int, ...] = planned.seats if planned is not None else ()
    late = planned.late_posters if planned is not None else ()
    dead = planned.dead_posters if planned is not None else ()
    big = planned.big_blind if planned is not None else None
    out = {}
    for seat in owing:
        s = seat.seat
        playing = not seat.sitting_out and seat.stack > 0 and planned is not None
        out[s] = Owed(
            big_blind=True,
            small_blind=seat.missed_big_blind and seat.missed_small_blind,
            joined_late=seat.joined_late and not seat.missed_big_blind,
            waits_for_big_blind=seat.wait_for_big_blind,
            posts_big_blind_next_hand=s in late,
            posts_dead_small_blind_next_hand=s in dead,
            big_blind_next_hand=s == big,
            waits_next_hand=playing and s not in dealt)
    return out
