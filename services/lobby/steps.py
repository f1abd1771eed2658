"""What every lobby-and-dealer operation shares: the context, leases, and turning dealer refusals
into the lobby's errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import structlog

from services.lobby import errors, tables
from services.lobby import operations as ops
from services.lobby.dealers import Dealer, DealerEvent, DealerRefused, SeatStack
from services.lobby.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    LobbyError,
    NotFound,
    PermissionDenied,
    SeatUnavailable,
    Unavailable,
)
from services.lobby.operations import Operation
from services.lobby.storage import Storage, Tx

T = TypeVar("T")
# A lazy proxy: it takes the configuration poker.log sets at start-up, after this import.
log = structlog.get_logger("services.lobby")

_BY_STATUS: dict[str, type[LobbyError]] = {
    "INVALID_ARGUMENT": InvalidArgument,
    "NOT_FOUND": NotFound,
    "ALREADY_EXISTS": AlreadyExists,
    "FAILED_PRECONDITION": FailedPrecondition,
    "PERMISSION_DENIED": PermissionDenied,
    "UNAVAILABLE": Unavailable,
}


@dataclass
class Ctx:
    """The lobby's database and dealers, and how long one driver may hold an operation."""

    storage: Storage
    dealer: Dealer
    lease_seconds: float = 15.0
    #: Test hook: the deck the button draw deals from (default: a secure shuffle).
    draw_deck: Callable[[], Sequence[int]] | None = None
    #: Test hook: called with a step name ("after_debit", ...); may kill the process.
    fault: Callable[[str], None] = lambda step: None

    def tx(self, fn: Callable[[Tx], T]) -> T:
        return self.storage.transact(fn)

    def op(self, op_id: str) -> Operation:
        return self.tx(lambda tx: ops.get(tx, op_id))

    def table(self, table_id: str) -> tables.Table:
        return self.tx(lambda tx: tables.get(tx, table_id))


def error_of(op: Operation) -> LobbyError:
    """The error an operation ended with, to answer a retried request the same way."""
    kind = getattr(errors, op.error_status, None)
    if isinstance(kind, type) and issubclass(kind, LobbyError):
        return kind(op.error)
    return _BY_STATUS.get(op.error_status, LobbyError)(op.error)


def error_name(err: BaseException | None) -> str:
    """What an operation records of its error: the class name (see error_of)."""
    return type(err).__name__ if isinstance(err, LobbyError) else "Unavailable"


def refusal(err: DealerRefused, what: str) -> LobbyError:
    """A dealer's refusal as the lobby's error, said for the lobby's caller."""
    if err.status in ("UNAUTHENTICATED", "PERMISSION_DENIED"):
        return LobbyError(
            f"the dealer refused the lobby's service credential ({err.message}); the operator "
            "must start the lobby with the dealer's service token (--service-token)"
        )
    if err.status == "ALREADY_EXISTS":
        return SeatUnavailable(f"{what} refused by the dealer: {err.message}")
    return _BY_STATUS.get(err.status, FailedPrecondition)(f"{what} refused by the dealer: "
                                                          f"{err.message}")


def unreachable(table: tables.Table, what: str) -> Unavailable:
    return Unavailable(
        f"the dealer of table {table.table_id} ({table.dealer}) cannot be reached; {what}"
    )


def find_stack(events: Sequence[DealerEvent], kind: str, seat: int,
               player_id: str) -> SeatStack | None:
    """The last stack an event of `kind` gave for a seat and player."""
    found = None
    for event in events:
        if event.kind == kind:
            for stack in event.stacks:
                if stack.seat == seat and stack.player_id == player_id:
                    found = stack
    return found


def drive_leased(ctx: Ctx, op: Operation, step: Callable[[Operation], Operation],
                 owned: bool, wait: float = 5.0) -> Operation:
    """Runs `step` on the operation while holding its lease; waits for another holder first."""
    deadline = time.monotonic() + wait
    while not owned:
        owned = ctx.tx(lambda tx: ops.take_lease(tx, op.id, ctx.lease_seconds))
        if owned:
            break
        if time.monotonic() > deadline:
            raise Unavailable(f"request {op.key.rsplit(':', 1)[-1]!r} is being completed right "
                              "now; ask again in a moment")
        time.sleep(0.05)
    try:
        return step(ctx.op(op.id))
    finally:
        ctx.tx(lambda tx: ops.release(tx, op.id))
