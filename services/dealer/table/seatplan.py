"""The next hand's seat plan: who is dealt in, the button, the blinds, who posts what
(R5, R6, R7, R10, R33). Pure functions over seat numbers: no table, no I/O.

R5's two button rules, given the last hand's button, small blind seat and big blind seat
(`Last`; the small blind seat is the seat it was due to, even when nobody posted it):

* `dead`: the big blind goes to the next player sitting in left of the last big blind;
  the small blind is the last big blind's seat, the button the last small blind's seat.
  Either may hold nobody dealt in: a dead button, or no small blind that hand.
* `moving`: the button goes to the next player dealt in, the blinds follow it (R6).

Both: a player who owes a big blind (a newcomer, R10, or one who missed it, R33) sitting
from the button to the small blind's seat waits until the button has passed; anywhere
else they post a live big blind (and a missed small blind dead, R33) or, if they chose
to, wait for the big blind to reach them. When the hand is heads-up the big blind is the
next of the two left of the last big blind, the other the button (R7): nobody posts the
big blind twice in a row.

Seats 0-3, hand 1 button 0 / small 1 / big 2, and seat 2 busts (the issue's first case):

>>> players = [Player(0), Player(1), Player(3)]
>>> plan(ButtonRule.DEAD, players, Last(button=0, small_blind=1, big_blind=2))
Plan(seats=(0, 1, 3), button=1, small_blind=None, big_blind=3, late_posters=(), dead_posters=())

Seat 3 posts the big blind in hand 2, as it was due to; the small blind was due to seat
2's empty seat, so there is none (`Plan.small_blind_seat` names seat 2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from poker.vocab.enums import BlindKind, ButtonRule


@dataclass(frozen=True, slots=True)
class Player:
    """A seated player with chips who is sitting in.

    `owes`: has not paid a big blind since sitting down after the first hand (R10) or
    missed one while away (R33); `owes_small`: missed the small blind too (R33); `waits`:
    chose to wait for the big blind rather than post."""

    seat: int
    owes: bool = False
    owes_small: bool = False
    waits: bool = False


@dataclass(frozen=True, slots=True)
class Last:
    """The last hand's button, small blind seat (posted or dead) and big blind seat."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class Plan:
    """The next hand: seats dealt in (seat order), the button (a seat, maybe nobody's), the
    small blind (None: none this hand) and big blind seats, who posts a live big blind
    (R10, R33) and who also a dead small blind (R33)."""

    seats: tuple[int, ...]
    button: int
    small_blind: int | None
    big_blind: int
    late_posters: tuple[int, ...] = ()
    dead_posters: tuple[int, ...] = ()

    @property
    def blind_seats(self) -> tuple[int | None, int]:
        """(small blind seat or None, big blind seat), as the engine takes them."""
        return self.small_blind, self.big_blind

    def small_blind_seat(self, last: Last | None) -> int:
        """The seat the small blind was due to this hand, posted or not (R5 `dead`: the
        last big blind's)."""
        if self.small_blind is not None or last is None:
            return self.button if self.small_blind is None else self.small_blind
        return last.big_blind


def next_clockwise(seats: Sequence[int], after: int) -> int:
    """The first of `seats` (sorted) strictly after seat `after`, going round."""
    return next((s for s in seats if s > after), seats[0])


def previous_clockwise(seats: Sequence[int], before: int) -> int:
    """The last of `seats` (sorted) strictly before seat `before`, going round."""
    return next((s for s in reversed(seats) if s < before), seats[-1])


def between(seat: int, start: int, end: int) -> bool:
    """`seat` is in the clockwise stretch from `start` (excluded) to `end` (included).

    >>> between(1, 5, 2), between(5, 5, 2), between(2, 5, 2), between(3, 1, 1)
    (True, False, True, True)
    """
    if start < end:
        return start < seat <= end
    return seat > start or seat <= end


def classic(seats: Sequence[int], button: int, late: Iterable[int] = ()) -> Plan:
    """R6/R7 from the button over the seats dealt in (the first hand, and `moving`)."""
    ordered = sorted(seats)
    if len(ordered) == 2:
        small, big = button, next_clockwise(ordered, button)
    else:
        small = next_clockwise(ordered, button)
        big = next_clockwise(ordered, small)
    return Plan(tuple(ordered), button, small, big, tuple(s for s in late if s != big))


def first_hand(players: Sequence[Player], button: int) -> Plan | None:
    """The table's first hand: everyone sitting in, the drawn button (or the next seat)."""
    seats = sorted(p.seat for p in players)
    if len(seats) < 2:
        return None
    return classic(seats, button if button in seats else next_clockwise(seats, button))


def plan(rule: ButtonRule, players: Sequence[Player], last: Last | None,
         button: int | None = None) -> Plan | None:
    """The next hand's plan, or None when fewer than two can be dealt in. `last` None:
    the first hand, on `button` (R4's draw)."""
    if len(players) < 2:
        return None
    if last is None:
        return first_hand(players, min(p.seat for p in players) if button is None else button)
    made = (_dead if rule is ButtonRule.DEAD else _moving)(players, last)
    if made is not None and len(made.seats) >= 3:
        if made.button != made.big_blind:
            return made
        # Out of heads-up (its button posted the small blind, so `dead` would put the
        # button on the new big blind): the blinds move on as R5 says and the button goes
        # to the seat before the small blind, so nobody posts the big blind twice running.
        anchor = made.small_blind if made.small_blind is not None else made.big_blind
        return dataclasses.replace(made, button=previous_clockwise(made.seats, anchor))
    pool: tuple[int, ...] = made.seats if made is not None and len(made.seats) == 2 else ()
    if not pool:  # nobody else to play with: everyone sitting in plays, owing or not
        active = sorted(p.seat for p in players)
        if len(active) > 2:
            return classic(active, next_clockwise(active, last.button),
                           late=[p.seat for p in players if p.owes])
        pool = tuple(active)
    return heads_up(players, pool, last)


def heads_up(players: Sequence[Player], pool: Sequence[int], last: Last) -> Plan:
    """R5, R7: two players; the big blind is the next left of the last big blind."""
    big = next_clockwise(sorted(pool), last.big_blind)
    button = next(s for s in pool if s != big)
    owes = {p.seat for p in players if p.owes}
    return Plan(tuple(sorted(pool)), button, button, big,
                tuple(s for s in (button,) if s in owes))


def _dead(players: Sequence[Player], last: Last) -> Plan | None:
    active = sorted(p.seat for p in players)
    big = next_clockwise(active, last.big_blind)
    small_seat, button = last.big_blind, last.small_blind
    by_seat = {p.seat: p for p in players}
    due = by_seat.get(small_seat)
    small = small_seat if due is not None and not due.owes and small_seat != big else None
    dealt, late, dead = [big], [], []
    if small is not None:
        dealt.append(small)
    for p in players:
        if p.seat in (big, small):
            continue
        if p.owes:
            if p.seat == button or between(p.seat, button, small_seat) or p.waits:
                continue  # R10: waits until the button has passed, or for the big blind
            late.append(p.seat)
            if p.owes_small:
                dead.append(p.seat)
        dealt.append(p.seat)
    return Plan(tuple(sorted(dealt)), button, small, big, tuple(late), tuple(dead))


def _moving(players: Sequence[Player], last: Last) -> Plan | None:
    regular = sorted(p.seat for p in players if not p.owes)
    if len(regular) < 2:
        return None
    button = next_clockwise(regular, last.button)
    small = next_clockwise(regular, button)
    # R10: an owing seat from the button to the small blind waits; the big blind is the
    # next seat after the small blind that may be dealt in, owing or not.
    eligible = sorted(p.seat for p in players if not p.owes or not between(p.seat, button, small))
    big = next_clockwise(eligible, small)
    if big == button:
        return Plan((button, small), button, button, small)  # two: heads-up
    late, dead, dealt = [], [], set(regular) | {big}
    for p in players:
        if p.owes and p.seat != big and p.seat in eligible and not p.waits:
            dealt.add(p.seat)
            late.append(p.seat)
            if p.owes_small:
                dead.append(p.seat)
    return Plan(tuple(sorted(dealt)), button, small, big, tuple(late), tuple(dead))


def missed(plan: Plan, last: Last | None, away: Iterable[int]) -> list[tuple[int, BlindKind]]:
    """R33: the blinds that pass seats sitting out (`away`) as the hand `plan` starts: the
    big blind passes a seat from the last big blind's (excluded) to this one's, the small
    blind from the last small blind's seat to this hand's."""
    if last is None:
        return []
    small_seat = plan.small_blind_seat(last)
    out: list[tuple[int, BlindKind]] = []
    for seat in sorted(away):
        if between(seat, last.big_blind, plan.big_blind):
            out.append((seat, BlindKind.BIG))
        if small_seat != last.small_blind and between(seat, last.small_blind, small_seat):
            out.append((seat, BlindKind.SMALL))
    return out
