"""What a caller may send the lobby: every field's limit, checked before anything is stored.

Each check raises `InvalidArgument` naming the field and quoting at most a short prefix
of the bad value (`poker.limits.quote`), so a huge input cannot swell the status.
The limits themselves are poker/limits.py's; lobby.proto documents them per field.

>>> chips("amount", 2**63)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
services.lobby.errors.InvalidArgument: amount: 9223372036854775808 is past the maximum ...
>>> duration("rules.rebuy_until_minutes", float("nan"), MAX_REBUY_MINUTES)
Traceback (most recent call last):
...
services.lobby.errors.InvalidArgument: rules.rebuy_until_minutes: nan is not a number in 0..527040
"""

from __future__ import annotations

import math
import re
from typing import Any

from poker import limits, timefields
from poker.limits import MAX_ID_CHARS, MAX_NAME_CHARS, MAX_REPEATED, MAX_TEXT_CHARS, quote
from services.lobby.errors import InvalidArgument
from services.lobby.rules import MAX_REBUY_MINUTES

#: Every other duration or rate a request carries (the dealer's TableConfig), at most.
MAX_DOUBLE = float(MAX_REBUY_MINUTES)
#: `ListTransfersRequest.limit` at most (0 means 100).
MAX_TRANSFERS = MAX_REPEATED

_ID = re.compile(r"^[A-Za-z0-9_.:@-]+$")


def chips(field: str, amount: int) -> int:
    """`amount` if it is a whole number of chips in 0..MAX_CHIPS."""
    try:
        return limits.check_chips(field, amount)
    except ValueError as err:
        raise InvalidArgument(str(err), field=field) from None


def text(field: str, value: str, maximum: int = MAX_TEXT_CHARS, *,
         required: bool = False) -> str:
    """`value` if it has at most `maximum` characters (and, if required, is not empty)."""
    try:
        return limits.check_text(field, value, maximum, required=required)
    except ValueError as err:
        raise InvalidArgument(str(err), field=field) from None


def an_id(field: str, value: str) -> str:
    """A player or table id: 1..MAX_ID_CHARS of letters, digits, _ . : @ -."""
    text(field, value, MAX_ID_CHARS, required=True)
    if not _ID.match(value):
        raise InvalidArgument(f"{field} {quote(value)} is not a valid id: 1 to {MAX_ID_CHARS} "
                              "of letters, digits, _ . : @ -", field=field)
    return value


def lookup_id(field: str, value: str) -> str:
    """An id that names something to find: at most MAX_ID_CHARS (an unknown one is NOT_FOUND)."""
    return text(field, value, MAX_ID_CHARS)


def request_id(value: str, what: str = "a retried request acts once") -> str:
    """A request_id: required, at most MAX_ID_CHARS."""
    if not value:
        raise InvalidArgument(f"request_id is required: it makes {what}", field="request_id")
    return text("request_id", value, MAX_ID_CHARS)


def name(field: str, value: str) -> str:
    """A display name or table name: at most MAX_NAME_CHARS."""
    return text(field, value, MAX_NAME_CHARS)


def duration(field: str, value: float, maximum: float) -> float:
    """A float in 0..maximum: NaN, infinities and negative values are refused."""
    if not (isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= maximum):
        raise InvalidArgument(f"{field}: {quote(value)} is not a number in 0..{maximum:g}")
    return float(value)


def count(field: str, values: Any, maximum: int = MAX_REPEATED) -> None:
    try:
        limits.check_count(field, values, maximum)
    except ValueError as err:
        raise InvalidArgument(str(err)) from None


#: The limit of a string field, by name; any other string field: MAX_TEXT_CHARS.
_STRING_LIMITS = {"player_id": MAX_ID_CHARS, "table_id": MAX_ID_CHARS,
                  "request_id": MAX_ID_CHARS, "name": MAX_NAME_CHARS,
                  "display_name": MAX_NAME_CHARS}


def message(msg: Any, path: str = "") -> None:
    """Every field of a request message, nested messages included: a string within its
    limit (ids MAX_ID_CHARS, names MAX_NAME_CHARS, other text MAX_TEXT_CHARS), a repeated
    field of at most MAX_REPEATED entries, an enum value the enum defines, a float finite
    and in 0..MAX_DOUBLE. Fields with tighter limits are checked again where they are used.
    The request's time fields are settled first (poker.timefields, AIP-142): a Duration or
    Timestamp sent is checked and copied to its integer twin, which every limit reads.
    """
    from google.protobuf.descriptor import (  # type: ignore[import-untyped,unused-ignore]
        FieldDescriptor as F,
    )

    if not path:
        timefields.settle(msg)
    for field, value in msg.ListFields():
        where = f"{path}{field.name}"
        repeated = field.is_repeated
        values = value if repeated else [value]
        if repeated:
            count(where, values)
        for item in values:
            if field.type == F.TYPE_MESSAGE:
                message(item, f"{where}.")
            elif field.type == F.TYPE_STRING:
                text(where, item, _STRING_LIMITS.get(field.name, MAX_TEXT_CHARS))
            elif field.type == F.TYPE_BYTES:
                count(where, item, MAX_TEXT_CHARS)
            elif field.type == F.TYPE_ENUM:
                if field.enum_type.values_by_number.get(item) is None:
                    known = ", ".join(f"{v.number} ({v.name})" for v in field.enum_type.values)
                    raise InvalidArgument(f"{where}: {quote(item)} is not a "
                                          f"{field.enum_type.name} value; one of {known}")
            elif field.type in (F.TYPE_DOUBLE, F.TYPE_FLOAT):
                duration(where, item, MAX_DOUBLE)
