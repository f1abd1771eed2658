"""The suite's one error taxonomy: a domain exception says what kind of refusal it is and why.

Every refusal the services give a caller is a `PokerError`: its `category` (which of
the canonical error kinds it is: the names of `google.rpc.Code`, without gRPC) and a
stable, machine-readable `reason` (UPPER_SNAKE, the same in every release, for code to
branch on), with `metadata` (string keys and values, for code to read: the seat whose
turn it is, the limit that was passed) and a message for a person. The services'
exceptions (`services/*/errors.py`) and the engine's are subclasses; the gRPC status
of each is decided in one place, `poker.status`, which sends the reason and metadata as
a google.rpc.ErrorInfo, the `field` at fault (an INVALID_ARGUMENT) as a BadRequest and
`retry_after_s` (UNAVAILABLE, RESOURCE_EXHAUSTED) as a RetryInfo. Every reason is a
name of `poker.v1.ErrorReason` (protos/poker/v1/errors.proto; tests/test_rich_errors.py
checks that the two lists agree).

>>> class NotYourTurn(PokerError):
...     category = Category.FAILED_PRECONDITION
>>> err = NotYourTurn("it is seat 3's turn", metadata={"actor": "3"})
>>> err.category.name, err.reason, err.metadata, str(err)
('FAILED_PRECONDITION', 'NOT_YOUR_TURN', {'actor': '3'}, "it is seat 3's turn")
>>> PokerError("x", reason="LIMIT_EXCEEDED").reason
'LIMIT_EXCEEDED'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import ClassVar

#: The `domain` of the suite's reasons, for google.rpc.ErrorInfo.
DOMAIN = "poker.v1"

_REASON = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*")


class Category(enum.Enum):
    """The kind of a refusal: a canonical error code (google.rpc.Code), by name."""

    CANCELLED = "CANCELLED"
    UNKNOWN = "UNKNOWN"
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    NOT_FOUND = "NOT_FOUND"
    ALREADY_EXISTS = "ALREADY_EXISTS"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    ABORTED = "ABORTED"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    UNIMPLEMENTED = "UNIMPLEMENTED"
    INTERNAL = "INTERNAL"
    UNAVAILABLE = "UNAVAILABLE"
    DATA_LOSS = "DATA_LOSS"
    UNAUTHENTICATED = "UNAUTHENTICATED"


def reason_of_name(name: str) -> str:
    """The reason a class named `name` gives by default: its name in UPPER_SNAKE.

    >>> reason_of_name("NotYourTurn"), reason_of_name("TooMuchWork")
    ('NOT_YOUR_TURN', 'TOO_MUCH_WORK')
    """
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


def is_reason(text: str) -> bool:
    """Whether `text` is a well-formed reason (UPPER_SNAKE, at most 63 characters:
    google.rpc.ErrorInfo's rule).

    >>> is_reason("BELOW_MIN_RAISE"), is_reason("below min raise")
    (True, False)
    """
    return len(text) <= 63 and _REASON.fullmatch(text) is not None


class PokerError(Exception):
    """Base of every refusal the suite gives a caller.

    A subclass sets `category` (INTERNAL unless it says) and may set `reason`; one that
    does not is given its own name in UPPER_SNAKE. A raise site may give a more precise
    `reason` and `metadata` for the one refusal.
    """

    category: ClassVar[Category] = Category.INTERNAL
    reason: str = "POKER_ERROR"
    #: For UNAVAILABLE and RESOURCE_EXHAUSTED: how long a caller should wait before
    #: trying again (google.rpc.RetryInfo); a raise site may say otherwise.
    retry_after_s: float = 1.0

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "reason" not in cls.__dict__:
            cls.reason = reason_of_name(cls.__name__)
        assert is_reason(cls.reason), f"{cls.__name__}.reason {cls.reason!r} is not UPPER_SNAKE"

    def __init__(self, *args: object, reason: str | None = None,
                 metadata: Mapping[str, object] | None = None, field: str | None = None,
                 retry_after_s: float | None = None) -> None:
        super().__init__(*args)
        if reason is not None:
            if not is_reason(reason):
                raise ValueError(f"reason {reason!r} is not UPPER_SNAKE")
            self.reason = reason
        #: The numbers and names a caller's code reads (google.rpc.ErrorInfo.metadata):
        #: values given as numbers become their decimal text.
        self.metadata: dict[str, str] = {str(k): str(v) for k, v in (metadata or {}).items()}
        #: The request field at fault (google.rpc.BadRequest), when the raise site says;
        #: else `field_of` reads it from a message that starts with `field: `.
        self.field = field
        if retry_after_s is not None:
            self.retry_after_s = retry_after_s


_FIELD = re.compile(r"([a-z][a-z0-9_]*(?:(?:\.[a-z][a-z0-9_]*)|(?:\[[0-9]+\]))*): ")


def field_of(err: PokerError) -> str:
    """The request field an INVALID_ARGUMENT refusal is about: the one its raise site
    named, else the path its message starts with (`request_id: at most 64 characters`),
    else "" (the request as a whole).

    >>> field_of(PokerError("config.seats: 11 is not 2..10"))
    'config.seats'
    >>> field_of(PokerError("bad", field="amount")), field_of(PokerError("no field here"))
    ('amount', '')
    """
    if err.field is not None:
        return err.field
    found = _FIELD.match(str(err))
    return found.group(1) if found else ""


class InvalidArgument(PokerError):
    """The request itself is wrong, whatever the state: the message names the field."""

    category = Category.INVALID_ARGUMENT


class FailedPrecondition(PokerError):
    """The request is well formed but the state refuses it now."""

    category = Category.FAILED_PRECONDITION


class NotFound(PokerError):
    """An unknown table, hand, player or seat."""

    category = Category.NOT_FOUND


class AlreadyExists(PokerError):
    """Creating what exists already."""

    category = Category.ALREADY_EXISTS


class Unauthenticated(PokerError):
    """No credential, or one this service does not know."""

    category = Category.UNAUTHENTICATED


class PermissionDenied(PokerError):
    """A known caller acting outside their rights."""

    category = Category.PERMISSION_DENIED


class ResourceExhausted(PokerError):
    """Over a limit of the service or of its load: smaller, or later."""

    category = Category.RESOURCE_EXHAUSTED


class Unavailable(PokerError):
    """The service (or one it needs) cannot serve now; a retry may succeed."""

    category = Category.UNAVAILABLE
