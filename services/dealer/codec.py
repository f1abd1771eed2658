"""The store's one pair of functions for events: `dumps` and `loads`.

A stored event (format 2) is its serialized `TableEvent` (poker.mapping, STORE profile),
the canonical encoding streams also carry; every store backend calls these two, so they
share it. `loads_json` reads format 1 (`{"t": "<class name>", <field>: <value>, ...}`,
the JSON stores kept before) for the store's migration. `encode`/`decode` are that JSON's
generic value codec, still used for a table's configuration row (services.dealer.dealer).

>>> from poker.vocab.table_events import PlayerSatIn
>>> loads(dumps(PlayerSatIn(seat=3))) == PlayerSatIn(seat=3)
True
>>> loads_json('{"t":"PlayerSatIn","seat":3}')
PlayerSatIn(seat=3, wait_for_big_blind=False)
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any

from poker import mapping
from poker.v1.table_events_pb2 import TableEvent


def encode(obj: Any) -> Any:
    """A JSON-ready value for an event or any part of one."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is tuple or kind is list:
        if all(type(x) is int for x in obj):  # cards, decks, seats: the common case
            return list(obj)
        return [encode(x) for x in obj]
    if isinstance(obj, enum.Enum):
        return obj.value
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, tuple | list):
        return [encode(x) for x in obj]
    if isinstance(obj, bytes):
        return obj.hex()
    if isinstance(obj, dict):
        return [[encode(k), encode(v)] for k, v in obj.items()]
    if dataclasses.is_dataclass(obj):
        return _fields(obj)
    raise TypeError(f"cannot encode {type(obj).__name__}")


def _fields(obj: Any) -> dict[str, Any]:
    out = {}
    for name in _init_fields(obj.__class__):
        value = getattr(obj, name)
        out[name] = value if type(value) in _PLAIN else encode(value)
    return out


_PLAIN = frozenset({int, str, bool, float, type(None)})

def dumps(event: Any) -> bytes:
    """The stored form of an event (the store's format 2): its `TableEvent`, serialized,
    as poker.mapping's STORE profile makes it (every field of the event, the store's own
    ones included; the row's sequence and time are the store's columns). One function
    for every store (SQLite, PostgreSQL): what it writes is the canonical encoding."""
    return _to_bytes(event)


def loads(payload: bytes) -> Any:
    """The event a stored payload (format 2) encodes; MappingError for an unknown kind."""
    return _from_event(_parse(payload))


_to_bytes = mapping.to_event_bytes
_from_event = mapping.from_event
_parse = TableEvent.FromString


def loads_json(text: str) -> Any:
    """The event a format-1 payload encodes (`{"t": <class name>, ...}`, the JSON the store
    kept up to format 1): what the store's migration reads; KeyError for an unknown type."""
    data = json.loads(text)
    cls = registry()[data.pop("t")]
    return decode(cls, data)


def decode(tp: Any, data: Any) -> Any:
    """Rebuilds a value of type `tp` from its encoding."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(typing.get_args(tp), data)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], x) for x in data)
        return tuple(decode(a, x) for a, x in zip(args, data, strict=True))
    if origin is list:
        return [decode(typing.get_args(tp)[0], x) for x in data]
    if origin is dict:
        key_type, value_type = typing.get_args(tp)
        return {decode(key_type, k): decode(value_type, v) for k, v in data}
    if origin is typing.Literal or tp is Any or not isinstance(tp, type):
        return data
    if issubclass(tp, enum.Enum):
        return tp(data)
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{name: decode(hints[name], data[name]) for name in _init_fields(tp)
                     if name in data})
    if tp is bytes:
        return bytes.fromhex(data)
    if tp is float:
        return float(data)
    return data


def _decode_union(args: tuple[Any, ...], data: Any) -> Any:
    if data is None and type(None) in args:
        return None
    options = [a for a in args if a is not type(None)]
    for option in options:  # a plain JSON value that is already the right type
        if isinstance(option, type) and not issubclass(option, enum.Enum) \
                and not dataclasses.is_dataclass(option) and isinstance(data, option):
            return data
    for option in options:
        try:
            return decode(option, data)
        except (TypeError, ValueError, KeyError):
            continue
    raise ValueError(f"{data!r} matches none of {options}")


@cache
def _init_fields(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def registry() -> dict[str, type]:
    """Every event class the store may hold, by name (poker.mapping's: one a TableEvent case)."""
    return {cls.__name__: cls for cls in mapping.EVENTS.values()}
