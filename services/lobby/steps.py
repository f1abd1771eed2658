"""What every lobby-and-dealer operation shares: the context, leases, and turning dealer refusals
into the lobby's errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import structlog

from poker.journal import Retention
from poker.limits import MAX_TEXT_CHARS, quote
from services.lobby import errors, tables
from services.lobby import operations as ops
from services.lobby.dealers import Dealer, DealerEvent, DealerRefused, DealerUnreachable, SeatStack
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
from services.lobby.journal import LobbyJournal
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

#: The refusals a dealer remembers as its answer to a SeatPlayer request_id or an AddChips
#: key (services/dealer/dealer.py): a repeat refused so was refused for every copy. Other
#: refusals (the lobby's credential, an unknown call) are of the call, not of the request,
#: and say nothing of a copy sent before.
ANSWERS = frozenset({"INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS", "FAILED_PRECONDITION"})


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
    #: How long the journal keeps answers (services/lobby/journal.py).
    retention: Retention = field(default_factory=Retention)

    def __post_init__(self) -> None:
        self.journal = LobbyJournal(self.storage, self.retention)

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


def dealer_text(message: str) -> str:
    """A dealer's message as the lobby passes it on: cut to MAX_TEXT_CHARS, so a dealer
    that echoes a huge input cannot swell the lobby's status past gRPC's limits."""
    if len(message) <= MAX_TEXT_CHARS:
        return message
    return f"{message[:MAX_TEXT_CHARS]}... ({len(message)} characters, cut)"


def refusal(err: DealerRefused, what: str) -> LobbyError:
    """A dealer's refusal as the lobby's error, said for the lobby's caller."""
    message = dealer_text(err.message)
    if err.status in ("UNAUTHENTICATED", "PERMISSION_DENIED"):
        return LobbyError(
            f"the dealer refused the lobby's service credential ({message}); the operator "
            "must start the lobby with the dealer's service token (--service-token)"
        )
    # The dealer's reason and numbers are passed on (SEAT_TAKEN, INVALID_CONFIG, ...).
    reason = err.reason or None
    if err.status == "ALREADY_EXISTS":
        return SeatUnavailable(f"{what} refused by the dealer: {message}", reason=reason,
                               metadata=err.metadata)
    return _BY_STATUS.get(err.status, FailedPrecondition)(
        f"{what} refused by the dealer: {message}", reason=reason, metadata=err.metadata)


def not_an_answer(table: tables.Table, err: DealerRefused, what: str) -> Unavailable:
    """A repeat refused for a reason that is not the dealer's answer to the request."""
    return Unavailable(
        f"the dealer of table {table.table_id} ({table.dealer}) refused the lobby's call "
        f"({err.status}: {dealer_text(err.message)}); {what}")


def ask_seat(ctx: Ctx, op: Operation, table: tables.Table) -> str:
    """A buy-in's SeatPlayer, with the buy-in's id as request_id: the same fields every time,
    so every copy gets the dealer's one answer. Returns the seat token."""
    return ctx.dealer.seat_player(table.dealer, table.table_id, op.seat, op.player_id,
                                  op.amount, op.wait_for_big_blind, op.dealer_request_id)


def seat_token(ctx: Ctx, op: Operation) -> str:
    """The seat token of a completed buy-in, asked of the dealer again: the buy-in's
    SeatPlayer sent once more gets the answer it got, the same token, and changes nothing.
    The lobby never stores a seat token."""
    table = ctx.table(op.table_id)
    if not op.dealer_request_id:
        raise FailedPrecondition(
            "this buy-in was completed by an older lobby, which cannot ask the dealer for its "
            "seat token again; the token was in the first answer (leave and join again for "
            "a new one)")
    try:
        return ask_seat(ctx, op, table)
    except DealerUnreachable:
        raise unreachable(table, "your buy-in is complete; send the same request again for "
                          "the seat token") from None
    except DealerRefused as err:
        raise refusal(err, "asking for the seat token again") from None


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
            raise Unavailable(f"request {quote(op.key.rsplit(':', 1)[-1])} is being completed "
                              "right now; ask again in a moment")
        time.sleep(0.05)
    try:
        return step(ctx.op(op.id))
    finally:
        ctx.tx(lambda tx: ops.release(tx, op.id))
