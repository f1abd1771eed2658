"""The lobby's domain errors: refusals in the suite's taxonomy (poker/errors.py).

Each says what kind of refusal it is (`category`) and why (`reason`); `poker.status`
maps them to gRPC codes in one place. The message is written for the person who made
the request.
"""

from __future__ import annotations

from poker.errors import Category, PokerError


class LobbyError(PokerError):
    """Base of every refusal the lobby gives a caller."""

    category = Category.INTERNAL

    @property
    def status(self) -> str:
        """The category's name (the gRPC status code's name)."""
        return self.category.name


class InvalidArgument(LobbyError):
    """The request itself is wrong (amount, seat number, configuration)."""

    category = Category.INVALID_ARGUMENT


class NotFound(LobbyError):
    """An unknown player, table or seat."""

    category = Category.NOT_FOUND


class AlreadyExists(LobbyError):
    """Creating something that exists."""

    category = Category.ALREADY_EXISTS


class RequestReused(InvalidArgument):
    """A request_id sent again with other fields (never journaled: it answers another
    request). INVALID_ARGUMENT, as the dealer answers it (the request is wrong, whatever
    the state); lobbies before issue 16 answered ALREADY_EXISTS."""

    reason = "REQUEST_ID_REUSED"


class FailedPrecondition(LobbyError):
    """The request is fine but the state does not allow it now."""

    category = Category.FAILED_PRECONDITION


class InsufficientFunds(FailedPrecondition):
    """The balance does not cover the amount."""

    reason = "INSUFFICIENT_BALANCE"


class LimitReached(FailedPrecondition):
    """The movement would take an account past its maximum (poker/limits.py)."""

    reason = "LIMIT_EXCEEDED"


class SeatUnavailable(FailedPrecondition):
    """The table is full or the chosen seat is taken."""


class Unauthenticated(LobbyError):
    """No credential, or one the lobby does not know."""

    category = Category.UNAUTHENTICATED


class PermissionDenied(LobbyError):
    """A known caller acting outside their rights (on someone else's money)."""

    category = Category.PERMISSION_DENIED


class Unavailable(LobbyError):
    """A dealer cannot be reached; the lobby finishes or undoes the work later."""

    category = Category.UNAVAILABLE

