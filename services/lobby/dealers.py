"""What the lobby needs from a dealer process, as plain Python (the gRPC client: dealer_client.py).

Every call names the dealer's address. A call either succeeds, is refused
(`DealerRefused`: it certainly did not take effect) or ends without an answer
(`DealerUnreachable`: it may or may not have taken effect). SeatPlayer with a
request_id and AddChips with its key may simply be sent again: the dealer answers
a repeat as it answered the first copy. For the other calls the lobby finds out
later from the table's state and events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from poker.vocab.config import Level as Level  # the vocabulary's blind level (R9)


class DealerRefused(Exception):
    """The dealer answered and refused; `status` is the gRPC code name, `reason` and
    `metadata` its ErrorInfo's (errors.proto; empty when it sent none)."""

    def __init__(self, status: str, message: str, reason: str = "",
                 metadata: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason, self.metadata = reason, dict(metadata or {})


class DealerUnreachable(Exception):
    """No answer from the dealer: the call may or may not have taken effect."""


@dataclass(frozen=True, slots=True)
class SeatStack:
    """A seat's chips as the dealer gives them back."""

    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True, slots=True)
class DealerSeat:
    """A seat as the dealer sees it now."""

    seat: int
    player_id: str
    stack: int
    in_hand: bool


@dataclass(frozen=True, slots=True)
class DealerTable:
    """A table as the dealer sees it now."""

    table_id: str
    sequence: int
    seats: dict[int, DealerSeat] = field(default_factory=dict)
    hands_played: int = 0
    hand_running: bool = False
    closed: bool = False
    button: int | None = None  # the last hand's (or the running hand's) button
    hand_ended_ms: int = 0  # when its last hand ended (0: none yet, or an older dealer)


@dataclass(frozen=True, slots=True)
class DealerEvent:
    """One event of the table the lobby cares about: seated, unseated, chips added, closed;
    `reason` "sit_out_limit" for a seat the dealer took off by itself (R34)."""

    sequence: int
    kind: str  # "seated", "unseated", "chips_added", "closed"
    stacks: tuple[SeatStack, ...] = ()
    reason: str = ""


class Dealer(Protocol):
    """The dealer's internal calls, as the lobby makes them."""

    def create_table(self, address: str, table_id: str, game: dict[str, Any]) -> None: ...

    def seat_player(self, address: str, table_id: str, seat: int, player_id: str, stack: int,
                    wait_for_big_blind: bool, request_id: str) -> str:
        """Returns the seat token. Every copy of a request_id gets the answer the first copy
        to arrive got (the same token, or the same refusal); the dealer seats at most once."""
        ...

    def add_chips(self, address: str, table_id: str, seat: int, amount: int, key: str) -> int:
        """Returns the stack after the rebuy; every copy of a key gets the same answer."""
        ...

    def unseat_player(self, address: str, table_id: str, seat: int) -> SeatStack: ...

    def sit_out(self, address: str, table_id: str, seat: int, seat_token: str) -> None:
        """The player is dealt no further hand (called with the player's seat token)."""
        ...

    def set_button(self, address: str, table_id: str, seat: int) -> None: ...

    def set_level(self, address: str, table_id: str, level_index: int,
                  request_id: str = "") -> Level:
        """R9: the next hand plays this level of the table's schedule; returns the level.
        With a request_id a repeat is answered the same way and sets nothing again."""
        ...

    def close_table(self, address: str, table_id: str, void_hand: bool) -> list[SeatStack]: ...

    def set_deal_limit(self, address: str, table_id: str, until_hand: int | None) -> int:
        """T5, T7: the table deals no hand past `until_hand` (None: no limit); returns
        the table's hands played."""
        ...

    def table(self, address: str, table_id: str) -> DealerTable: ...

    def events(self, address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        """Seat events with sequence in (after, until]."""
        ...
