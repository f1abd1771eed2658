"""The lobby's domain errors: each names the gRPC status it becomes and says what to do.

`server.py` maps `LobbyError.status` to a gRPC code in one place; the message is
written for the person who made the request.
"""

from __future__ import annotations

from typing import ClassVar


class LobbyError(Exception):
    """Base of every refusal the lobby gives a caller."""

    status: ClassVar[str] = "INTERNAL"


class InvalidArgument(LobbyError):
    """The request itself is wrong (amount, seat number, configuration)."""

    status = "INVALID_ARGUMENT"


class NotFound(LobbyError):
    """An unknown player, table or seat."""

    status = "NOT_FOUND"


class AlreadyExists(LobbyError):
    """Creating something that exists, or reusing a request id for another request."""

    status = "ALREADY_EXISTS"


class RequestReused(AlreadyExists):
    """A request_id sent again with other fields (never journaled: it answers another request)."""


class FailedPrecondition(LobbyError):
    """The request is fine but the state does not allow it now."""

    status = "FAILED_PRECONDITION"


class InsufficientFunds(FailedPrecondition):
    """The balance does not cover the amount."""


class LimitReached(FailedPrecondition):
    """The movement would take an account past its maximum (poker/limits.py)."""


class SeatUnavailable(FailedPrecondition):
    """The table is full or the chosen seat is taken."""


class Unauthenticated(LobbyError):
    """No credential, or one the lobby does not know."""

    status = "UNAUTHENTICATED"


class PermissionDenied(LobbyError):
    """A known caller acting outside their rights (on someone else's money)."""

    status = "PERMISSION_DENIED"


class Unavailable(LobbyError):
    """A dealer cannot be reached; the lobby finishes or undoes the work later."""

    status = "UNAVAILABLE"
