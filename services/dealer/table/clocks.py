"""The table's clocks beyond one decision's own time (R32): R35's time bank and R34's
sit-out limit, as pure functions of the table's state (no I/O, no clock of its own).

R35, the time bank. Every seat has a bank (`TableConfig.time_bank_ms`, also its cap)
from the moment it sits down. A betting decision's `TurnStarted` carries the bank
left (`time_bank_ms`) and the deadline with the bank used too
(`bank_deadline_unix_ms`); the dealer's clock rings at that later deadline. An answer
after the decision's own deadline spends the time past it (`TimeBankUsed`, written
before the answer's events); a time-out spends all of it. After every
`time_bank_refill_hands` hands the table has played, each seat's bank grows by
`time_bank_refill_ms`, up to the cap. What is left is folded from the log
(`TimeBankUsed`, the hand counter), so a restarted dealer has it; the snapshot keeps
it too. Show-or-muck (R27) and run-it-twice (R38) decisions use no bank.

Kept across a dealer restart (R35, decision). While a decision runs in its bank the
dealer writes a `TimeBankUsed` every `BANK_MARK_MS` (what was spent since the last
one), so the log knows the bank to within one mark when the dealer dies: viewers
see it count down too. A restarted dealer folds the marks, and the resumed decision
(`resumed`) has the bank left at the last mark, never refilled and never below 0;
the time the dealer was down is nobody's (a card room stops the clock while play is
halted). Its own time (R32): the rest of what it had at the last instant the log
knows of, the time of the decision's last event (its `TurnStarted`: all of it, or
its last mark: none, or the grace of a decision resumed already), and at least
`resume_grace_ms` (the action time, at most `RESUME_GRACE_MS`), so a player who
cannot have seen the table while the dealer was down gets time to look at it before
their bank runs again.

R34, the sit-out limit. A seat sat out is "away" from the `PlayerSatOut` (its time,
from the log) until `PlayerSatIn`. Each hand whose button moves past or onto the
seat (clockwise from the previous hand's button) counts one orbit. A seat away for
`sit_out_limit_ms` or for `sit_out_limit_orbits` orbits, whichever comes first (0:
no such limit), and not in a hand, is taken off between hands: `PlayerUnseated`
with reason "sit_out_limit", which the lobby follows to credit the stack (R31).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from poker.vocab import table_events as ev
from poker.vocab.enums import UnseatReason

# ------------------------------------------------------------------ R35: time bank

#: While a decision runs in its bank, the dealer writes what it spent this often (ms):
#: what a dealer killed in the middle loses of it at most (in the player's favour).
BANK_MARK_MS = 1_000
#: The least own time (ms) a decision resumed by a restarted dealer gets (at most the
#: table's action time), before the bank left runs on.
RESUME_GRACE_MS = 5_000


def left_at(turn: ev.TurnStarted, now: int) -> int:
    """The bank decision `turn` has left at `now`: all of it within its own time, then
    counting down to 0 at `bank_deadline_unix_ms`."""
    if now <= turn.deadline_ms:
        return turn.time_bank_ms
    return max(0, min(turn.time_bank_ms, turn.bank_deadline_unix_ms - now))


def spent(turn: ev.TurnStarted, banked: int, now: int) -> list[ev.TimeBankUsed]:
    """What the seat's bank (`banked`: as the log has it, after the last mark) lost by
    `now`: a `TimeBankUsed`, or nothing."""
    left = left_at(turn, now)
    used = banked - left
    return [ev.TimeBankUsed(turn.seat, used, left)] if used > 0 else []


def used_on_answer(turn: ev.TurnStarted, banked: int, now: int) -> list[ev.TimeBankUsed]:
    """The bank an answer at `now` spends: the time past the decision's own deadline
    (less what the marks wrote already)."""
    if not turn.time_bank_ms or now <= turn.deadline_ms:
        return []
    return spent(turn, banked, now)


def used_on_time_out(turn: ev.TurnStarted, banked: int) -> list[ev.TimeBankUsed]:
    """A time-out spends the whole bank the decision had (what the marks left of it)."""
    if not turn.time_bank_ms or banked <= 0:
        return []
    return [ev.TimeBankUsed(turn.seat, banked, 0)]


def next_ring(turn: ev.TurnStarted, now: int) -> int:
    """When the table's clock rings next for `turn` (Unix ms): the next mark while it
    runs in its bank (the first one `BANK_MARK_MS` into it), else its end."""
    if not turn.time_bank_ms:
        return turn.deadline_ms
    marks = max(1, (now - turn.deadline_ms) // BANK_MARK_MS + 1)
    return min(turn.deadline_ms + marks * BANK_MARK_MS, turn.ends_ms)


def resume_grace_ms(config: Any) -> int:
    return int(min(config.action_time_ms, RESUME_GRACE_MS))


def resumed(state: Any, turn: ev.TurnStarted, now: int) -> ev.TurnStarted:
    """The resumed decision `turn` (a fresh clock from `now`, its bank `state.banks`'s)
    with the own time left at the last instant the log knows of (module doc): the time
    of the interrupted decision's last event, its TurnStarted or its last bank mark."""
    before = state.turn
    if before is None or turn.decision != "bet" or before.action_number != turn.action_number:
        return turn
    known = None
    for stored in reversed(state.hand_events):
        if type(stored.event) in (ev.TurnStarted, ev.TimeBankUsed):
            known = stored.time_ms  # the latest of them: the log's last word on it
            break
    if known is None:
        return turn
    limit = turn.deadline_ms - now  # the full own time
    own = min(limit, max(before.deadline_ms - known, resume_grace_ms(state.config)))
    if own == limit:
        return turn
    bank = turn.time_bank_ms
    return dataclasses.replace(turn, deadline_ms=now + own,
                               bank_deadline_unix_ms=now + own + bank if bank else 0)


def on_bank_used(state: Any, e: ev.TimeBankUsed, s: Any) -> None:
    state.banks[e.seat] = e.left_ms


def refill(state: Any) -> None:
    """After a hand: every `time_bank_refill_hands` hands, each bank grows back."""
    config = state.config
    every, amount, cap = (config.time_bank_refill_hands, config.time_bank_refill_ms,
                          config.time_bank_ms)
    if not (every and amount and cap and state.banks) or state.hands_played % every:
        return
    banks = state.banks
    for seat, left in banks.items():
        banks[seat] = min(cap, left + amount)


# --------------------------------------------------------------- R34: sit-out limit

def on_seated(state: Any, seat: int) -> None:
    if state.config.time_bank_ms:
        state.banks[seat] = state.config.time_bank_ms
    state.away.pop(seat, None)


def on_unseated(state: Any, seat: int) -> None:
    state.banks.pop(seat, None)
    state.away.pop(seat, None)


def on_sat_out(state: Any, seat: int, time_ms: int) -> None:
    if seat in state.seats and seat not in state.away:
        state.away[seat] = [time_ms, 0]


def on_sat_in(state: Any, seat: int) -> None:
    state.away.pop(seat, None)


def count_orbits(state: Any, previous: int | None, button: int) -> None:
    """A new hand's button moved from `previous` to `button`: each away seat it passed
    or reached counts an orbit."""
    away = state.away
    if not away or previous is None or previous == button:
        return
    n = state.config.seats
    moved = (button - previous) % n
    for seat, clock in away.items():
        if 0 < (seat - previous) % n <= moved:
            clock[1] += 1


def expired(state: Any, now: int) -> list[int]:
    """The seats away past the table's limit and not in a hand, in seat order."""
    away = state.away
    if not away:
        return []
    config = state.config
    limit_ms, orbits = config.sit_out_limit_ms, config.sit_out_limit_orbits
    return sorted(
        seat for seat, (since, passed) in away.items()
        if ((limit_ms and now - since >= limit_ms) or (orbits and passed >= orbits))
        and seat in state.seats and not state.in_hand(seat))


def next_expiry(state: Any) -> int | None:
    """When the first away seat reaches the time limit (Unix ms), or None."""
    limit_ms = state.config.sit_out_limit_ms
    if not state.away or not limit_ms:
        return None
    return int(min(since for since, _ in state.away.values()) + limit_ms)


def take_off(state: Any, now: int) -> list[ev.PlayerUnseated]:
    """R34: the events that take the expired seats off the table."""
    seats = state.seats
    reason = str(UnseatReason.SIT_OUT_LIMIT.value)
    return [ev.PlayerUnseated(seat, seats[seat].player_id, seats[seat].stack, reason)
            for seat in expired(state, now)]


def adopt_sat_out(state: Any, now: int) -> None:
    """Seats sat out with no clock (a snapshot of a version before R34) are away from `now`."""
    for seat, seated in state.seats.items():
        if seated.sitting_out and seat not in state.away:
            state.away[seat] = [now, 0]


# ---------------------------------------------------------------- snapshots

def snapshot(state: Any) -> dict[str, Any]:
    return {"banks": sorted(state.banks.items()),
            "away": [[seat, since, orbits] for seat, (since, orbits)
                     in sorted(state.away.items())]}


def restore(state: Any, saved: dict[str, Any]) -> None:
    """The clocks of a snapshot; one of a version before them gives every seated player
    a full bank and nobody away (a limit counted anew only gives the player more time)."""
    if "banks" in saved:
        state.banks = {int(seat): int(left) for seat, left in saved["banks"]}
    elif state.config.time_bank_ms:
        state.banks = {seat: state.config.time_bank_ms for seat in state.seats}
    state.away = {int(seat): [int(since), int(orbits)]
                  for seat, since, orbits in saved.get("away", ())}
