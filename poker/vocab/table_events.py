"""The dealer's own events: what happens at a table around the engine's hands.

They are stored and streamed in the same sequence as the engine's events, and
folded the same way when a dealer restarts. `audit_only` events are shown to the
auditor alone; every other dealer event is public. Chips are ints, seats 0-based.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from poker.vocab.enums import BlindKind


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
    """A player left with their stack (R31); `reason` "sit_out_limit" when the dealer took
    them off (R34: the lobby credits the stack as for a LeaveTable), else empty."""

    seat: int
    player_id: str
    stack: int
    reason: str = ""
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
class SitOutScheduled:
    """A player sits out once the table's hand `after_hand` has ended (0: cancelled); the
    write that ends such a hand carries the seat's PlayerSatOut."""

    seat: int
    after_hand: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """A player is dealt in again from the next hand; `wait_for_big_blind`: one who
    missed a blind waits for the big blind rather than posting it (R33)."""

    seat: int
    wait_for_big_blind: bool = False
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class StraddleSet:
    """R37: a seat's standing choice to straddle when it is left of the big blind (or not)."""

    seat: int
    straddle: bool
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class BlindMissed:
    """The small or big blind went by a seat that was sat out or away (R33)."""

    seat: int
    blind: BlindKind
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
class DealLimitSet:
    """T5, T7: the table deals no hand past number `until_hand` while `limited` (a
    tournament's director holds a table between hands to move players or play hand for
    hand); the hand running finishes."""

    until_hand: int
    limited: bool
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class HandSalt:
    """The secret half of a hand's commitment (R3), kept for recovery and the audit.

    `deck` is the committed order (position i holds deck[i]; with R39 the dealt order,
    DeckSet, differs) and `salts[i]` its salt. A hand dealt before per-position
    commitments has only `salt`, the one 32-byte salt of SHA-256(salt || deck).
    """

    salt: bytes = b""
    salts: tuple[bytes, ...] = ()
    deck: tuple[int, ...] = ()
    audit_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class DeckRevealed:
    """The proof of a fair deck (R3), after the hand ends; each viewer gets its own copy
    (services.dealer.views): the auditor all of it, anyone else the hashes of the
    positions not opened to them.

    `deck` and `salts` are in committed order; `public` lists the positions opened to
    everyone (board, shown hands), `dealt` each dealt-in seat's two hole-card positions
    (seat, position, position). A hand dealt before per-position commitments has `salt`
    and `deck` and no `salts`: its reveal goes to the auditor alone.
    """

    salt: bytes
    deck: tuple[int, ...]
    commitment: str
    salts: tuple[bytes, ...] = ()
    public: tuple[int, ...] = ()
    dealt: tuple[tuple[int, int, int], ...] = ()
    audit_only: ClassVar[bool] = False

    @property
    def legacy(self) -> bool:
        return not self.salts

    def opened_to(self, viewer: object) -> frozenset[int]:
        """The positions opened to a viewer: the public ones and, for a dealt-in seat, its own."""
        opened = set(self.public)
        for seat, first, second in self.dealt:
            if seat == viewer and isinstance(viewer, int):
                opened.update((first, second))
        return frozenset(opened)


@dataclass(frozen=True, slots=True)
class SeedsCommitted:
    """R39: a seat's player committed to a hash chain of seeds (its head, 32 bytes)."""

    seat: int
    chain_head: bytes
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class DeckCommitted:
    """R39: the coming hand's commitment, published before its seeds are asked for;
    `seats` are the seats to be dealt in, `deadline_ms` the end of the seed time."""

    hand_number: int
    commitment: str
    seats: tuple[int, ...]
    deadline_ms: int
    audit_only: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class DeckSeeded:
    """R39: the seeds of the hand's players, in seat order (empty: none came in time),
    and the permutation they draw; the card dealt at position j is committed card p[j]."""

    seeds: tuple[tuple[int, bytes], ...]  # (seat, seed)
    permutation: tuple[int, ...]
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
    time_bank_ms: int = 0  # R35: the seat's bank as the decision starts
    bank_deadline_unix_ms: int = 0  # R35: deadline_ms + time_bank_ms (0: no bank)
    audit_only: ClassVar[bool] = False

    @property
    def ends_ms(self) -> int:
        """When the decision times out, its time bank (R35) used too."""
        return self.bank_deadline_unix_ms or self.deadline_ms


@dataclass(frozen=True, slots=True)
class TimeBankUsed:
    """R35: seat `seat` used `used_ms` of its time bank on a decision; `left_ms` is left."""

    seat: int
    used_ms: int
    left_ms: int
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


#: Every event class of this module, in the order declared: a new one is listed by itself.
DEALER_EVENTS: tuple[type, ...] = tuple(
    value for value in list(globals().values())
    if isinstance(value, type) and dataclasses.is_dataclass(value)
    and value.__module__ == __name__)
DEALER_TYPES: frozenset[type] = frozenset(DEALER_EVENTS)

#: Events of the table rather than of a hand (stored with an empty hand id).
TABLE_EVENTS: frozenset[type] = frozenset({
    PlayerSeated, PlayerUnseated, ChipsAdded, PlayerSatOut, PlayerSatIn, BlindMissed, ButtonSet,
    LevelSet, TableClosed, SeedsCommitted, StraddleSet, DealLimitSet, SitOutScheduled,
})
