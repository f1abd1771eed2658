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

R34, the sit-out limit. A seat sat out is "away" from the `PlayerSatOut` (its time,
from the log) until `PlayerSatIn`. Each hand whose button moves past or onto the
seat (clockwise from the previous hand's button) counts one orbit. A seat away for
`sit_out_limit_ms` or for `sit_out_limit_orbits` orbits, whichever comes first (0:
no such limit), and not in a hand, is taken off between hands: `PlayerUnseated`
with reason "sit_out_limit", which the lobby follows to credit the stack (R31).
"""

from __future__ import annotations

from typing import Any

from poker.vocab import table_events as ev
from poker.vocab.enums import UnseatReason

# ------------------------------------------------------------------ R35: time bank

def used_on_answer(turn: ev.TurnStarted, now: int) -> list[ev.TimeBankUsed]:
    """The bank an answer at `now` spends: the time past the decision's own deadline."""
    if not turn.time_bank_ms or now <= turn.deadline_ms:
        return []
    used = min(now - turn.deadline_ms, turn.time_bank_ms)
    return [ev.TimeBankUsed(turn.seat, used, turn.time_bank_ms - used)]


def used_on_time_out(turn: ev.TurnStarted) -> list[ev.TimeBankUsed]:
    """A time-out spends the whole bank the decision had."""
    if not turn.time_bank_ms:
        return []
    return [ev.TimeBankUsed(turn.seat, turn.time_bank_ms, 0)]


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
