"""The lobby as SDK values: players and money, table rules, booked tables and seats, the ledger.

Built from LobbyService messages by `clients.convert`.

>>> rules = TableRules(initial_stack=1000, max_rebuys=-1)
>>> rules.to_proto().initial_stack, rules.to_proto().max_rebuys
(1000, -1)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from clients.cards import Card
from clients.models import TableConfig

__all__ = [
    "ButtonDraw", "DrawnCard", "LateJoin", "LeaveStatus", "LedgerAudit", "LeaveResult",
    "LobbySeat", "LobbyTable", "Player", "RebuyResult", "SeatStatus", "Seating", "TableRules",
    "TableStatus", "Transfer", "TransferKind",
]


class TransferKind(StrEnum):
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    BUY_IN = "buy_in"
    REBUY = "rebuy"
    CASH_OUT = "cash_out"
    REFUND = "refund"


class LateJoin(StrEnum):
    """How a player sitting down in a running game starts (R10)."""

    PLAYER_CHOICE = "player_choice"
    POST_BIG_BLIND = "post_big_blind"
    WAIT_FOR_BIG_BLIND = "wait_for_big_blind"


class TableStatus(StrEnum):
    OPENING = "opening"
    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


class SeatStatus(StrEnum):
    JOINING = "joining"
    SEATED = "seated"
    LEAVING = "leaving"


class LeaveStatus(StrEnum):
    DONE = "done"
    PENDING = "pending"


@dataclass(frozen=True, slots=True)
class Player:
    """A player and the chips in their balance (not counting chips on tables)."""

    player_id: str
    display_name: str = ""
    balance: int = 0


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of chips between two ledger accounts."""

    id: int
    kind: TransferKind | None
    from_account: str
    to_account: str
    amount: int
    time_unix_ms: int = 0


@dataclass(frozen=True, slots=True)
class TableRules:
    """Buy-ins, rebuys (R30) and late joining (R10): a range or an initial stack is required."""

    min_buy_in: int = 0
    max_buy_in: int = 0
    initial_stack: int = 0
    rebuy_amount: int = 0
    max_rebuys: int = 0
    rebuy_until_hand: int = 0
    rebuy_until_minutes: float = 0.0
    late_join: LateJoin | None = None
    #: R30: seconds an empty stack has to rebuy before the lobby takes the player off the
    #: table; None: the lobby's default (60); 0: no limit.
    rebuy_wait_seconds: float | None = None

    def to_proto(self) -> Any:
        """The `poker.v1.TableRules` message."""
        from clients.convert import to_proto
        from poker.v1 import lobby_pb2

        return to_proto(self, lobby_pb2.TableRules)


@dataclass(frozen=True, slots=True)
class LobbySeat:
    seat: int
    player_id: str
    display_name: str = ""
    status: SeatStatus | None = None
    bought_in: int = 0
    rebuys: int = 0


@dataclass(frozen=True, slots=True)
class LobbyTable:
    """A table as the lobby books it; `dealer_address` is where its seats play."""

    table_id: str
    name: str = ""
    config: TableConfig | None = None
    rules: TableRules | None = None
    dealer_address: str = ""
    status: TableStatus | None = None
    seats: tuple[LobbySeat, ...] = ()
    button: int | None = None
    chips: int = 0
    tournament_id: str = ""  # a tournament's table (ListTables lists them too)


@dataclass(frozen=True, slots=True)
class DrawnCard:
    seat: int
    player_id: str
    card: Card


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The draw for the button (R4): one card each, highest wins."""

    cards: tuple[DrawnCard, ...] = ()
    button: int = 0


@dataclass(frozen=True, slots=True)
class Seating:
    """A seat taken: the seat token goes to the dealer at `dealer_address`."""

    seat: int
    seat_token: str
    dealer_address: str
    buy_in: int
    player: Player | None = None
    button_draw: ButtonDraw | None = None
    #: The seat the player had already (`sit(resume=True)`): nothing was bought.
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class RebuyResult:
    amount: int
    stack: int
    player: Player | None = None


@dataclass(frozen=True, slots=True)
class LeaveResult:
    status: LeaveStatus | None
    stack: int = 0
    player: Player | None = None


@dataclass(frozen=True, slots=True)
class LedgerAudit:
    """Where every chip is: balances + table chips + house rake == -(operator balance) when `ok`."""

    ok: bool
    total: int
    player_balances: int
    table_chips: int
    operator_balance: int
    problems: tuple[str, ...] = ()
    house_rake: int = 0  # R36: the rake of every raked table that settled


@dataclass(frozen=True, slots=True)
class RakeLine:
    """R36: the rake one table took, credited to the house on one UTC day (YYYY-MM-DD)."""

    table_id: str
    day: str
    amount: int
