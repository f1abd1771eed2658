"""The dealer's own events: what happens at a table around the engine's hands.

They are stored and streamed in the same sequence as the engine's events, and
folded the same way when a dealer restarts. `audit_only` events are shown to the
auditor alone; every other dealer event is public. Chips are ints, seats 0-based.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player sat down with a stack (R30)."""

    seat: int
    player_id: str
    stack: int
    wait_for_big_blind: bool = False
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class PlayerUnseated:
    """A player left with their stack (R31)."""

    seat: int
    player_id: str
    stack: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """A rebuy between hands (R30); the key makes AddChips idempotent."""

    seat: int
    amount: int
    stack: int
    idempotency_key: str
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    """A player is not dealt in from the next hand; reason "requested" or "timed_out" (R32)."""

    seat: int
    reason: str
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """A player is dealt in again from the next hand."""

    seat: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class ButtonSet:
    """The button of the first hand: the lobby's (empty draw) or the dealer's draw (R4)."""

    seat: int
    draw: tuple[tuple[int, int], ...] = ()  # (seat, card)
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class LevelSet:
    """The operator set the level index of the next hand on (R9)."""

    level_index: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class HandSalt:
    """The secret half of a hand's commitment (R3), kept for recovery; revealed at the end."""

    salt: bytes
    audit_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class DeckRevealed:
    """The proof of a fair deck (R3): salt and deck order, after the hand ends."""

    salt: bytes
    deck: tuple[int, ...]
    commitment: str
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """The dealer awaits a decision of `seat` until `deadline_ms` (Unix ms)."""

    seat: int
    decision: str  # "bet" or "show_or_muck"
    action_number: int
    deadline_ms: int
    can_fold: bool = False
    can_check: bool = False
    can_call: bool = False
    call_amount: int = 0
    bet_kind: str = ""  # "bet", "raise" or "" for none
    min_to: int = 0
    max_to: int = 0
    can_show: bool = False
    can_muck: bool = False
    can_all_in: bool = False
    all_in_to: int = 0
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """The decision `action_number` ran out of time; the dealer acts for the seat (R27, R32)."""

    seat: int
    action_number: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class HandVoided:
    """A hand stopped; each dealt-in seat gets back every chip it committed."""

    stacks: tuple[tuple[int, int], ...]  # (seat, stack)
    reason: str
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table closed; every seated player's stack goes back."""

    stacks: tuple[tuple[int, str, int], ...]  # (seat, player_id, stack)
    audit_only: ClassVar[bool] = False


DEALER_EVENTS: tuple[type, ...] = (
    PlayerSeated, PlayerUnseated, ChipsAdded, PlayerSatOut, PlayerSatIn, ButtonSet, LevelSet,
    HandSalt, DeckRevealed, TurnStarted, TurnTimedOut, HandVoided, TableClosed,
)
DEALER_TYPES: frozenset[type] = frozenset(DEALER_EVENTS)

#: Events of the table rather than of a hand (stored with an empty hand id).
TABLE_EVENTS: frozenset[type] = frozenset({
    PlayerSeated, PlayerUnseated, ChipsAdded, PlayerSatOut, PlayerSatIn, ButtonSet, LevelSet,
    TableClosed,
})
