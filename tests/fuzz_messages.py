"""Hypothesis strategies of requests built from the proto descriptors, for tests/test_fuzz.py.

`messages(descriptor, pools)` draws valid-ish messages of any request type: every
field set or not, numbers at the edges of their type (0, -1, 2^31, 2^53, 2^63-1,
2^64-1), NaN and infinities, enum numbers no enum has, long, odd and empty strings,
ids the running services know (from `pools`, so calls get past "not found"), empty,
small and oversized repeated fields, nested messages. `request_bytes` adds byte-level
mutations of their serialized form: flipped, set, inserted and removed bytes, cuts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from google.protobuf import descriptor as _descriptor
from google.protobuf import message_factory
from hypothesis import strategies as st

_F = _descriptor.FieldDescriptor
INT_EDGES = (0, 1, -1, 2, 7, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**53 - 1, 2**53,
             2**62, 2**63 - 1, -(2**63), 2**64 - 1)
_RANGES = {
    **dict.fromkeys((_F.TYPE_INT32, _F.TYPE_SINT32, _F.TYPE_SFIXED32), (-(2**31), 2**31 - 1)),
    **dict.fromkeys((_F.TYPE_UINT32, _F.TYPE_FIXED32), (0, 2**32 - 1)),
    **dict.fromkeys((_F.TYPE_INT64, _F.TYPE_SINT64, _F.TYPE_SFIXED64), (-(2**63), 2**63 - 1)),
    **dict.fromkeys((_F.TYPE_UINT64, _F.TYPE_FIXED64), (0, 2**64 - 1)),
}
ODD_TEXT = ("", " ", "\x00", "\n", "As", "AsKd", "Xx", "10h", "AA,KK", "random", "all",
            "\u202e", "\U0001f0a1", "é" * 10, "x" * 129, "x" * 513, "x" * 1025, "x" * 5000)
HUGE_TEXT = "y" * 100_000
FLOAT_EDGES = (0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1e308, 5e-324, 0.5)
#: Sizes of a repeated field: mostly small, sometimes past MAX_REPEATED (poker.limits).
_REPEATED_BIG = (1001, 5000)
MAX_DEPTH = 3
_DENSITY = st.sampled_from((1, 2, 4))
_QUARTERS = st.integers(0, 3)

Pools = Mapping[str, Sequence[str | int]]
"""Values to draw often, by field name: ids the services know (`table_id`, `player_id`),
amounts at the limits (`amount`, `stack`)."""


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each drawn `weight` times in sum-of-weights (one_of takes
    them alike, and takes a strategy given twice once)."""
    return st.sampled_from([s for weight, s in choices for _ in range(weight)]).flatmap(
        lambda chosen: chosen)


def _ints(kind: int, name: str, pools: Pools) -> st.SearchStrategy[int]:
    low, high = _RANGES[kind]
    edges = st.sampled_from([v for v in INT_EDGES if low <= v <= high])
    choices = [(2, edges), (1, st.integers(max(low, -3), min(high, 1000))),
               (1, st.integers(low, high))]
    known = [v for v in pools.get(name, ()) if isinstance(v, int) and low <= v <= high]
    if known:  # the values that matter most for this field, half the time
        choices.append((4, st.sampled_from(known)))
    return weighted(*choices)


def _text(name: str, pools: Pools, huge: bool) -> st.SearchStrategy[str]:
    choices: list[st.SearchStrategy[str]] = [st.text(max_size=12), st.sampled_from(ODD_TEXT)]
    if huge:
        choices.append(st.just(HUGE_TEXT))
    known = [v for v in pools.get(name, ()) if isinstance(v, str)]
    if known:  # two times in three: a value the services know, to get past the lookup
        return weighted((2 * len(choices), st.sampled_from(known)),
                        *((1, choice) for choice in choices))
    return st.one_of(*choices)


def _scalar(field: _descriptor.FieldDescriptor, pools: Pools,
            huge: bool) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind in _RANGES:
        return _ints(kind, field.name, pools)
    if kind == _F.TYPE_BOOL:
        return st.booleans()
    if kind in (_F.TYPE_DOUBLE, _F.TYPE_FLOAT):
        return st.one_of(st.sampled_from(FLOAT_EDGES),
                         st.floats(width=32 if kind == _F.TYPE_FLOAT else 64))
    if kind == _F.TYPE_ENUM:
        numbers = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(numbers), st.sampled_from((-1, max(numbers) + 1,
                                                                    2**31 - 1, -(2**31))))
    if kind == _F.TYPE_STRING:
        return _text(field.name, pools, huge)
    if kind == _F.TYPE_BYTES:
        return st.one_of(st.binary(max_size=40), st.sampled_from((
            b"", bytes(range(52)), *((bytes(range(52)) * 100, b"\xff" * 7000) if huge else ()))))
    raise AssertionError(f"no strategy for {field.full_name} ({kind})")


def _value(field: _descriptor.FieldDescriptor, pools: Pools, depth: int,
           huge: bool) -> st.SearchStrategy[Any]:
    if field.type == _F.TYPE_MESSAGE:
        return messages(field.message_type, pools, depth + 1, huge)
    return _scalar(field, pools, huge)


def _repeated(field: _descriptor.FieldDescriptor, pools: Pools, depth: int,
              huge: bool) -> st.SearchStrategy[list[Any]]:
    few = st.lists(_value(field, pools, depth, huge), max_size=4)
    if not huge:
        return few
    # Many copies of one small value: past the limits, never megabytes.
    many = st.tuples(_value(field, pools, depth, False), st.sampled_from(_REPEATED_BIG))
    return st.one_of(few, many.map(lambda t: [t[0]] * t[1]))


def messages(descriptor: _descriptor.Descriptor, pools: Pools, depth: int = 0,
             huge: bool = True) -> st.SearchStrategy[Any]:
    """Messages of `descriptor`: any subset of its fields set (one field of a oneof).
    `huge`: a string or bytes field may be 100 kB long, a repeated field 5000 long."""
    cls = message_factory.GetMessageClass(descriptor)
    if depth >= MAX_DEPTH:
        return st.just(cls())
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for field in descriptor.fields:
        entry = field.message_type
        if entry is not None and entry.GetOptions().map_entry:
            keys = _value(entry.fields_by_name["key"], pools, depth, False)
            values = _value(entry.fields_by_name["value"], pools, depth, False)
            parts[field.name] = st.dictionaries(keys, values, max_size=3)
        elif field.is_repeated:
            parts[field.name] = _repeated(field, pools, depth, huge)
        else:
            parts[field.name] = _value(field, pools, depth, huge)
    fields = {f.name: f for f in descriptor.fields}

    @st.composite
    def build(draw: Callable[..., Any]) -> Any:
        message = cls()
        # A few fields (a request that gets far), half of them, or nearly all.
        density = draw(_DENSITY)
        for name, part in parts.items():
            if draw(_QUARTERS) < density:
                _set(message, fields[name], draw(part))
        return message

    return build()


def _set(message: Any, field: _descriptor.FieldDescriptor, value: Any) -> None:
    try:
        target = getattr(message, field.name)
        if isinstance(value, dict):
            for key, item in value.items():
                if field.message_type.fields_by_name["value"].type == _F.TYPE_MESSAGE:
                    target[key].CopyFrom(item)
                else:
                    target[key] = item
        elif isinstance(value, list):
            if field.type == _F.TYPE_MESSAGE:
                for item in value:
                    target.add().CopyFrom(item)
            else:
                target.extend(value)
        elif field.type == _F.TYPE_MESSAGE:
            target.CopyFrom(value)
        else:
            setattr(message, field.name, value)
    except (ValueError, TypeError, OverflowError):
        pass  # a value the type cannot hold: the field stays as it was


@st.composite
def _mutated(draw: Callable[..., Any], valid: st.SearchStrategy[bytes]) -> bytes:
    data = bytearray(draw(valid))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("flip", "set", "insert", "delete", "cut")))
        at = draw(st.integers(0, len(data)))
        if op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=12))
        elif not data:
            continue
        elif op == "cut":
            del data[at:]
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif at < len(data):
            data[at] = (data[at] ^ (1 << draw(st.integers(0, 7))) if op == "flip"
                        else draw(st.integers(0, 255)))
    return bytes(data)


def request_bytes(descriptor: _descriptor.Descriptor, pools: Pools) -> st.SearchStrategy[bytes]:
    """Serialized requests: valid-ish messages, and byte-level mutations of them."""
    valid = messages(descriptor, pools).map(lambda m: m.SerializeToString())
    return weighted((3, valid), (1, _mutated(valid)))


def short(descriptor: _descriptor.Descriptor, data: bytes, limit: int = 600) -> str:
    """A one-line view of a request for a failure report: its fields (long values cut,
    long lists counted), or its bytes when it does not parse."""
    try:
        text = _fields(message_factory.GetMessageClass(descriptor).FromString(data))
    except Exception:  # noqa: BLE001 - does not parse: show the bytes
        text = f"bytes {data[:80]!r}" + (f"... ({len(data)} bytes)" if len(data) > 80 else "")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(data)} bytes)"


def _fields(message: Any) -> str:
    parts = []
    for field, value in message.ListFields():
        if field.is_repeated and not isinstance(value, Mapping):
            items = [_one(v) for v in value[:3]]
            more = f", ... {len(value)} in all" if len(value) > 3 else ""
            parts.append(f"{field.name}=[{', '.join(items)}{more}]")
        else:
            parts.append(f"{field.name}={_one(value)}")
    return "{" + " ".join(parts) + "}"


def _one(value: Any) -> str:
    if hasattr(value, "ListFields"):
        return _fields(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_one(k)}: {_one(v)}" for k, v in list(value.items())[:3]) + "}"
    text = repr(value)
    if len(text) <= 40:
        return text
    return f"{text[:30]}...({len(value) if isinstance(value, str | bytes) else len(text)} long)"
