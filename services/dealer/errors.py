"""The dealer's domain errors: refusals in the suite's taxonomy (poker/errors.py).

Tables, auth and the store raise these plain exceptions (and the engine raises its
own `EngineError`s, of the same taxonomy); `poker.status` turns any of them into the
status a developer can act on, and the servicer uses nothing else to fail a call.
"""

from __future__ import annotations

from typing import Any

from poker.errors import Category, PokerError


class DealerError(PokerError):
    """Base of the dealer's refusals; `category` is the kind of refusal (poker.errors)."""

    category = Category.FAILED_PRECONDITION

    @property
    def code(self) -> Category:
        """The category, by its older name: `.code.name` is the status code's name."""
        return self.category


class TableNotFound(DealerError):
    """No table, or no such hand at the table."""

    category = Category.NOT_FOUND


class Unauthenticated(DealerError):
    """A missing or unknown credential where one is needed."""

    category = Category.UNAUTHENTICATED


class PermissionDenied(DealerError):
    """A known credential that may not do this."""

    category = Category.PERMISSION_DENIED


class InvalidArgument(DealerError):
    """A malformed request; the message names the field."""

    category = Category.INVALID_ARGUMENT


class AlreadyExists(DealerError):
    """A table id or seat already taken."""

    category = Category.ALREADY_EXISTS


class FailedPrecondition(DealerError):
    """The table's state refuses the request now (turn, amount, stale number, hand running)."""

    category = Category.FAILED_PRECONDITION


class RequestReused(InvalidArgument):
    """A request id (or idempotency key) sent again with other fields: never remembered."""

    reason = "REQUEST_ID_REUSED"


class TokenLost(DealerError):
    """A repeated SeatPlayer whose seat token cannot be derived again (the service token
    changed): not a refusal of the seating, which took place."""

    category = Category.DATA_LOSS


class Stopping(DealerError):
    """The dealer is stopping (a restart, an upgrade): its streams end with this, at once
    rather than when its grace period runs out, and their clients reconnect."""

    category = Category.UNAVAILABLE
    reason = "DEALER_STOPPING"


class TableMoved(DealerError):
    """The table is owned by another dealer now (services.dealer.lease): the status
    carries its address in an ErrorInfo (poker.moved), "" while it has no live owner."""

    category = Category.UNAVAILABLE
    reason = "TABLE_MOVED"

    def __init__(self, table_id: str, address: str) -> None:
        where = f"at {address}" if address else "being adopted by another dealer: ask again"
        super().__init__(f"table {table_id!r} is not served by this dealer: it is {where}",
                         metadata={"table_id": table_id, "dealer_address": address})
        self.table_id, self.address = table_id, address


class Remembered(DealerError):
    """The refusal once given to a request, given again to its repeat: `code` is its
    category (or the gRPC status code, or either's name: the names are the same)."""

    reason = "FAILED_PRECONDITION"  # the class's; an instance has its code's, or the one kept

    def __init__(self, code: Any, message: str, reason: str | None = None) -> None:
        category = Category[getattr(code, "name", code)]
        # Without the reason it was refused for (poker/journal.py keeps it), the generic
        # one of its kind: never REMEMBERED, which says nothing to a program.
        super().__init__(message, reason=reason or category.name)
        self.category = category  # type: ignore[misc]

