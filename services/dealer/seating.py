"""Who is dealt into the next hand, who has the button, who posts late (R5, R7, R10, R30).

Pure functions over seat numbers, so the rules read (and test) without a table.

>>> plan_hand([Candidate(0), Candidate(2), Candidate(5)], previous_button=2, first_hand=False)
Plan(seats=(0, 2, 5), button=5, late_posters=())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Candidate:
    """A seated player with chips who is sitting in."""

    seat: int
    waits_for_big_blind: bool = False
    joined_late: bool = False  # sat down after the table's first hand, not dealt in since


@dataclass(frozen=True, slots=True)
class Plan:
    """The next hand: seats dealt in (seat order), the button, who posts a late big blind."""

    seats: tuple[int, ...]
    button: int
    late_posters: tuple[int, ...]


def next_clockwise(seats: Sequence[int], after: int) -> int:
    """The first of `seats` (sorted) strictly after seat `after`, going round."""
    return next((s for s in seats if s > after), seats[0])


def big_blind_seat(seats: Sequence[int], button: int) -> int:
    """R6/R7: heads-up the player who is not the button, else two seats after it."""
    if len(seats) == 2:
        return seats[0] if seats[1] == button else seats[1]
    return next_clockwise(seats, next_clockwise(seats, button))


def button_for(seats: Sequence[int], previous_button: int, first_hand: bool) -> int:
    """R5: the next seat clockwise with a player dealt in; the first hand keeps the drawn seat."""
    if first_hand and previous_button in seats:
        return previous_button
    return next_clockwise(seats, previous_button)


def plan_hand(
    candidates: Sequence[Candidate], previous_button: int, first_hand: bool
) -> Plan | None:
    """The next hand's seats, or None when fewer than two players can be dealt in."""
    regular = sorted(c.seat for c in candidates if first_hand or not c.waits_for_big_blind)
    waiting = sorted(c.seat for c in candidates if not first_hand and c.waits_for_big_blind)
    if len(regular) < 2:  # no game to join: whoever waits is dealt in now
        regular, waiting = sorted(c.seat for c in candidates), []
    if len(regular) < 2:
        return None
    for seat in waiting:  # R10: the wait ends when the big blind reaches the seat
        trial = sorted([*regular, seat])
        if big_blind_seat(trial, button_for(trial, previous_button, first_hand)) == seat:
            regular = trial
    button = button_for(regular, previous_button, first_hand)
    big_blind = big_blind_seat(regular, button)
    late = tuple(
        c.seat for c in candidates
        if c.joined_late and not first_hand and c.seat in regular and c.seat != big_blind
        and not c.waits_for_big_blind
    )
    return Plan(tuple(regular), button, late)
