"""The dealer's domain errors and the one place they become gRPC status codes.

Tables, auth and the store raise these plain exceptions (and the engine raises its
own `EngineError`s); `status_of` turns any of them into a (code, message) pair a
developer can act on, and the servicer uses nothing else to fail a call.
"""

from __future__ import annotations

import grpc


class DealerError(Exception):
    """Base of the dealer's refusals; `code` is the gRPC status it maps to."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class TableNotFound(DealerError):
    """No table, or no such hand at the table."""

    code = grpc.StatusCode.NOT_FOUND


class Unauthenticated(DealerError):
    """A missing or unknown credential where one is needed."""

    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(DealerError):
    """A known credential that may not do this."""

    code = grpc.StatusCode.PERMISSION_DENIED


class InvalidArgument(DealerError):
    """A malformed request; the message names the field."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class AlreadyExists(DealerError):
    """A table id or seat already taken."""

    code = grpc.StatusCode.ALREADY_EXISTS


class FailedPrecondition(DealerError):
    """The table's state refuses the request now (turn, amount, stale number, hand running)."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class RequestReused(InvalidArgument):
    """A request id (or idempotency key) sent again with other fields: never remembered."""


class TokenLost(DealerError):
    """A repeated SeatPlayer whose seat token cannot be derived again (the service token
    changed): not a refusal of the seating, which took place."""

    code = grpc.StatusCode.DATA_LOSS


class Stopping(DealerError):
    """The dealer is stopping (a restart, an upgrade): its streams end with this, at once
    rather than when its grace period runs out, and their clients reconnect."""

    code = grpc.StatusCode.UNAVAILABLE


class Remembered(DealerError):
    """The refusal once given to a request, given again to its repeat."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def status_of(err: BaseException) -> tuple[grpc.StatusCode, str]:
    """The gRPC status for an exception raised while serving a call."""
    if isinstance(err, DealerError):
        return err.code, str(err)
    # Engine errors are imported lazily so this module loads without the engine.
    from services.dealer.engine import ConfigError, EngineError, IllegalAction

    if isinstance(err, ConfigError):
        return grpc.StatusCode.INVALID_ARGUMENT, f"config: {err}"
    if isinstance(err, IllegalAction | EngineError):
        return grpc.StatusCode.FAILED_PRECONDITION, str(err)
    return grpc.StatusCode.INTERNAL, f"internal error: {type(err).__name__}"
