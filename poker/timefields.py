"""Time fields (AIP-142): each `google.protobuf.Duration` / `Timestamp` field of the API
and the deprecated integer field it replaces, paired by one declared rule.

The domain keeps times as integers in milliseconds (`time_bank_ms`, a `*_unix_ms`
instant); the API carries them both ways, the typed field (AIP-142) and its deprecated
integer twin, so data and clients of earlier versions keep working. The pairs come
from the descriptors, by one rule:

- an integer field `X_unix_ms` pairs with a Timestamp field `X_time` of the same message
  (`bank_deadline_unix_ms` <-> `bank_deadline_time`);
- an integer field `X_ms` pairs with a Duration field `X` (`time_bank_ms` <-> `time_bank`);
- the few whose names do not follow it are declared in `NAMED` (with their unit when the
  integer is not in milliseconds: `TournamentLevel.minutes` <-> `duration`).

A field without a typed twin in its message (one of the published API's, as
`TableEvent.time_unix_ms`) has no pair. Everything that crosses uses the pairs:

- poker.mapping (events, the store, the SDK's dataclasses): its writer writes both
  forms and its decoder reads the typed field when set, else the integer (`Twin.read`,
  `Twin.writer`);
- a message built by hand (a table's view, a tournament): `fill` sets every typed field
  from its integer twin before it is sent; a client reading one (the SDK's tournament
  answers) calls `from_typed`, which sets each integer from its typed twin when set;
- a request: `settle` checks each typed field set (a valid Duration or Timestamp, not
  negative where a length is meant, whole milliseconds, within what the integer field
  holds) and that an integer twin also set agrees, then copies it to the integer twin:
  the code after reads the integers and applies every bound (poker/limits.py, the
  TableConfig's and the structure's checks) to both forms alike. A refusal is
  INVALID_ARGUMENT (`INVALID_TIME`, `TIME_FIELDS_DISAGREE`) naming the typed field.

>>> from poker.v1 import table_config_pb2 as pb
>>> config = pb.TableConfig(time_bank_ms=20_000)
>>> fill(config)
>>> config.time_bank.ToMilliseconds(), config.HasField("sit_out_limit")
(20000, False)
>>> request = pb.TableConfig()
>>> request.time_bank.FromMilliseconds(7_000)
>>> settle(request, "config.")
>>> request.time_bank_ms
7000
>>> request.time_bank_ms = 8_000
>>> settle(request, "config.")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
poker.errors.InvalidArgument: config.time_bank: 7000 ms, and config.time_bank_ms says 8000 ms...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped,unused-ignore]

from poker.errors import InvalidArgument
from poker.varints import uvarint as _varint

__all__ = ["DURATION", "NAMED", "TIMESTAMP", "Twin", "fill", "from_typed", "settle", "twins",
           "typed_ms"]

DURATION = "google.protobuf.Duration"
TIMESTAMP = "google.protobuf.Timestamp"

#: The pairs whose names do not follow the rule: the integer field (full name) -> its
#: typed twin's name and how many milliseconds one unit of the integer is.
NAMED: dict[str, tuple[str, int]] = {
    "poker.v1.TableConfig.seed_time_ms": ("seed_timeout", 1),
    "poker.v1.TimeBankUsed.used_ms": ("time_used", 1),
    "poker.v1.TimeBankUsed.left_ms": ("time_left", 1),
    "poker.v1.TournamentLevel.minutes": ("duration", 60_000),
    "poker.v1.TournamentStructure.action_time_ms": ("action_timeout", 1),
    "poker.v1.Tournament.level_seconds_left": ("level_time_left", 1_000),
    "poker.v1.Tournament.started_unix_ms": ("start_time", 1),
    "poker.v1.Tournament.finished_unix_ms": ("end_time", 1),
    "poker.v1.TournamentEvent.time_unix_ms": ("event_time", 1),
}

_T = FieldDescriptor
#: The values each integer field type holds.
_RANGES = {_T.TYPE_UINT32: (0, 2**32 - 1), _T.TYPE_UINT64: (0, 2**64 - 1),
           _T.TYPE_INT32: (-2**31, 2**31 - 1), _T.TYPE_INT64: (-2**63, 2**63 - 1)}
_FLOATS = frozenset({_T.TYPE_DOUBLE, _T.TYPE_FLOAT})
#: google.protobuf.Duration's and Timestamp's own ranges (their .proto files say so).
MAX_DURATION_S = 315_576_000_000
MIN_TIMESTAMP_S, MAX_TIMESTAMP_S = -62_135_596_800, 253_402_300_799
_NANOS_PER_MS = 1_000_000


def typed_ms(typed: Any) -> int:
    """A Duration's or Timestamp's whole milliseconds (toward zero, as ToMilliseconds)."""
    nanos: int = typed.nanos
    seconds: int = typed.seconds
    return seconds * 1000 + (nanos // _NANOS_PER_MS if nanos >= 0
                             else -(-nanos // _NANOS_PER_MS))


@dataclass(frozen=True)
class Twin:
    """A typed time field and its deprecated integer twin in one message."""

    integer: Any  # FieldDescriptor of the integer (or double) field
    typed: Any  # FieldDescriptor of the Duration / Timestamp field
    timestamp: bool
    unit_ms: int = 1

    @property
    def floating(self) -> bool:
        return self.integer.type in _FLOATS

    def ms(self, value: Any) -> int:
        """The integer field's value in milliseconds (OverflowError or ValueError for a
        float that is no number of them: NaN, an infinity, past any)."""
        return round(value * self.unit_ms) if self.floating else int(value) * self.unit_ms

    def ms_or_none(self, value: Any) -> int | None:
        """`ms(value)`, or None when it is no number of milliseconds."""
        try:
            return self.ms(value)
        except (OverflowError, ValueError):
            return None

    def value(self, ms: int) -> Any:
        """The integer field's value of `ms` milliseconds."""
        return ms / self.unit_ms if self.floating else ms // self.unit_ms

    def parts(self, ms: int) -> tuple[int, int]:
        """(seconds, nanos) of `ms` as this field's Duration or Timestamp."""
        if self.timestamp:  # nanos are never negative in a Timestamp
            return ms // 1000, ms % 1000 * _NANOS_PER_MS
        whole = abs(ms)
        sign = -1 if ms < 0 else 1
        return sign * (whole // 1000), sign * (whole % 1000 * _NANOS_PER_MS)

    def read(self, typed: Any) -> Any:
        """The integer field's value of a typed one (trusted data: no check)."""
        return self.value(typed_ms(typed))

    def reader(self) -> Callable[[Any], Any]:
        """`read` for this twin, in one step where the integer is plain milliseconds (most
        twins): a decoder calls it for every event that carries the typed field."""
        return self.read if self.floating or self.unit_ms != 1 else typed_ms

    def writer(self, keep_zero: bool) -> Callable[[Any], bytes]:
        """value (the integer field's) -> the typed field's bytes, tag included; a zero is
        written as an empty message when `keep_zero` (the integer field has presence),
        else not at all, as the integer's own zero."""
        tag = _varint(self.typed.number << 3 | 2)
        empty = tag + b"\x00"
        to_ms, parts = self.ms, self.parts
        seconds_field, nanos_field = _SECONDS_FIELD, _NANOS_FIELD

        def write(value: Any) -> bytes:
            if not value:
                return empty if keep_zero else b""
            ms = to_ms(value)
            if ms > 0:  # the usual case: fields made once, looked up
                seconds, whole = divmod(ms, 1000)
                body = (seconds_field[seconds] if seconds < _SMALL_SECONDS
                        else b"\x08" + _varint(seconds)) + nanos_field[whole]
            else:
                seconds, nanos = parts(ms)
                body = (b"\x08" + _varint(seconds) if seconds else b"") + (
                    b"\x10" + _varint(nanos) if nanos else b"")
            return tag + _LENGTHS[len(body)] + body
        return write

    def has_integer(self, message: Any) -> bool:
        """Whether a message sets the integer field (present, or not zero without presence)."""
        name = self.integer.name
        return bool(message.HasField(name) if self.integer.has_presence
                    else getattr(message, name))


#: The bytes of a Duration's or Timestamp's `seconds` field (1) for small values, of its
#: `nanos` field (2) for each whole millisecond, and of a short body's length.
_SMALL_SECONDS = 1 << 14
_SECONDS_FIELD = [b""] + [b"\x08" + _varint(s) for s in range(1, _SMALL_SECONDS)]
_NANOS_FIELD = [b""] + [b"\x10" + _varint(k * _NANOS_PER_MS) for k in range(1, 1000)]
_LENGTHS = [_varint(n) for n in range(128)]

_TWINS: dict[str, dict[str, Twin]] = {}


def twins(descriptor: Any) -> dict[str, Twin]:
    """The pairs of a message, by the integer field's name (computed once per message);
    TypeError when a declared or named twin is not a Duration or Timestamp."""
    found = _TWINS.get(descriptor.full_name)
    if found is None:
        found = _TWINS[descriptor.full_name] = _find(descriptor)
    return found


def _find(descriptor: Any) -> dict[str, Twin]:
    found: dict[str, Twin] = {}
    by_name = descriptor.fields_by_name
    for fd in descriptor.fields:
        if fd.is_repeated or (fd.type not in _RANGES and fd.type not in _FLOATS):
            continue
        named = NAMED.get(fd.full_name)
        if named is not None:
            name, unit = named
        elif fd.name.endswith("_unix_ms"):
            name, unit = fd.name[:-len("_unix_ms")] + "_time", 1
        elif fd.name.endswith("_ms"):
            name, unit = fd.name[:-len("_ms")], 1
        else:
            continue
        typed = by_name.get(name)
        if typed is None:
            if named is not None:
                raise TypeError(f"{fd.full_name}: NAMED says its twin is {name}, which "
                                f"{descriptor.full_name} lacks")
            continue  # a published field without a typed twin
        kind = typed.message_type.full_name if typed.type == _T.TYPE_MESSAGE else ""
        if kind not in (DURATION, TIMESTAMP) or typed.is_repeated:
            raise TypeError(f"{typed.full_name}: the twin of {fd.name} must be a "
                            "google.protobuf.Duration or Timestamp")
        if named is None and (kind == TIMESTAMP) != fd.name.endswith("_unix_ms"):
            raise TypeError(f"{typed.full_name}: an X_unix_ms field's twin X_time is a "
                            "Timestamp, an X_ms field's twin X a Duration")
        found[fd.name] = Twin(fd, typed, kind == TIMESTAMP, unit)
    return found


# ------------------------------------------------------------------ built messages

_PLANS: dict[str, tuple[tuple[Twin, ...], tuple[Any, ...]]] = {}


def _plan(descriptor: Any) -> tuple[tuple[Twin, ...], tuple[Any, ...]]:
    """(the message's pairs, its sub-message fields that hold pairs somewhere below)."""
    plan = _PLANS.get(descriptor.full_name)
    if plan is None:
        _PLANS[descriptor.full_name] = ((), ())  # a recursive message: no loop
        subs = tuple(fd for fd in descriptor.fields if fd.type == _T.TYPE_MESSAGE
                     and fd.message_type.full_name not in (DURATION, TIMESTAMP)
                     and _holds_twins(fd.message_type, set()))
        plan = _PLANS[descriptor.full_name] = (tuple(twins(descriptor).values()), subs)
    return plan


def _holds_twins(descriptor: Any, seen: set[str]) -> bool:
    if descriptor.full_name in seen:
        return False
    seen.add(descriptor.full_name)
    return bool(twins(descriptor)) or any(
        _holds_twins(fd.message_type, seen) for fd in descriptor.fields
        if fd.type == _T.TYPE_MESSAGE)


def _set(twin: Twin, message: Any, ms: int) -> None:
    seconds, nanos = twin.parts(ms)
    typed = getattr(message, twin.typed.name)
    typed.SetInParent()
    typed.seconds, typed.nanos = seconds, nanos


def _walk(message: Any, visit: Callable[[Twin, Any, str], None], path: str = "") -> None:
    """`visit(twin, message, path)` for every pair of `message` and of its sub-messages."""
    pairs, subs = _plan(message.DESCRIPTOR)
    for twin in pairs:
        visit(twin, message, path)
    for fd in subs:
        if fd.is_repeated:
            for i, item in enumerate(getattr(message, fd.name)):
                _walk(item, visit, f"{path}{fd.name}[{i}].")
        elif message.HasField(fd.name):
            _walk(getattr(message, fd.name), visit, f"{path}{fd.name}.")


def fill(message: Any) -> None:
    """Sets every typed time field of `message` (and of its sub-messages) that is unset
    from its integer twin, when that is set: what a server sends carries both forms."""
    _walk(message, _fill_one)


def _fill_one(twin: Twin, message: Any, path: str) -> None:
    if twin.has_integer(message) and not message.HasField(twin.typed.name):
        ms = twin.ms_or_none(getattr(message, twin.integer.name))
        if ms is not None and abs(ms) <= MAX_DURATION_S * 1000:
            _set(twin, message, ms)


def from_typed(message: Any) -> None:
    """Sets every integer twin of `message` (and of its sub-messages) from its typed field
    when that is set: a client reading a server's answer, whichever forms it wrote, keeps
    reading the integers (the typed form wins; no check: the server's data)."""
    _walk(message, _adopt_one)


def _adopt_one(twin: Twin, message: Any, path: str) -> None:
    if message.HasField(twin.typed.name):
        value = twin.read(getattr(message, twin.typed.name))
        low, high = _RANGES.get(twin.integer.type, (value, value))
        if low <= value <= high:
            setattr(message, twin.integer.name, value)


# ------------------------------------------------------------------------ requests

def settle(message: Any, path: str = "") -> None:
    """A request's time fields in one form: each typed field set is checked and copied to
    its integer twin (INVALID_ARGUMENT naming `path` + the field when it is not a valid
    time for it, or when the integer is also set and says otherwise). Sub-messages too."""
    _walk(message, _settle_one, path)


def _settle_one(twin: Twin, message: Any, path: str) -> None:
    if not message.HasField(twin.typed.name):
        return
    where = f"{path}{twin.typed.name}"
    ms = _checked_ms(twin, getattr(message, twin.typed.name), where)
    value = twin.value(ms)
    if not twin.floating:
        low, high = _RANGES[twin.integer.type]
        if not low <= value <= high:
            raise _invalid(where, f"{ms} ms is past what the field holds", ms)
    if twin.has_integer(message):
        given = getattr(message, twin.integer.name)
        if twin.ms_or_none(given) == ms:
            return
        shown = f"{given} ({twin.unit_ms} ms each)" if twin.unit_ms != 1 else f"{given} ms"
        raise InvalidArgument(
            f"{where}: {ms} ms, and {path}{twin.integer.name} says {shown}: send one, or "
            "both equal", reason="TIME_FIELDS_DISAGREE", field=where,
            metadata={"milliseconds": ms, "integer_field": f"{path}{twin.integer.name}",
                      "integer_value": given})
    setattr(message, twin.integer.name, value)


def _checked_ms(twin: Twin, typed: Any, where: str) -> int:
    """A Duration's or Timestamp's milliseconds; INVALID_TIME when it is not valid here."""
    seconds, nanos = int(typed.seconds), int(typed.nanos)
    if twin.timestamp:
        if not (MIN_TIMESTAMP_S <= seconds <= MAX_TIMESTAMP_S and 0 <= nanos <= 999_999_999):
            raise _invalid(where, f"seconds {seconds}, nanos {nanos} is not a Timestamp "
                           "(years 1 to 9999, nanos 0..999999999)")
    else:
        if not (abs(seconds) <= MAX_DURATION_S and abs(nanos) <= 999_999_999
                and (seconds >= 0 and nanos >= 0 or seconds <= 0 and nanos <= 0)):
            raise _invalid(where, f"seconds {seconds}, nanos {nanos} is not a Duration "
                           "(nanos -999999999..999999999, of the seconds' sign)")
        if seconds < 0 or nanos < 0:
            raise _invalid(where, f"a length of time must not be negative (seconds {seconds},"
                           f" nanos {nanos})")
    if nanos % _NANOS_PER_MS:
        raise _invalid(where, f"nanos {nanos}: a whole number of milliseconds, please")
    return seconds * 1000 + nanos // _NANOS_PER_MS


def _invalid(where: str, why: str, ms: int | None = None) -> InvalidArgument:
    metadata = {} if ms is None else {"milliseconds": ms}
    return InvalidArgument(f"{where}: {why}", reason="INVALID_TIME", field=where,
                           metadata=metadata)
