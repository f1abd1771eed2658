"""A stable JSON encoding of events (the engine's and the dealer's), for the store.

An event is written as `{"t": "<class name>", <field>: <value>, ...}`: enums by
value, tuples as lists, dicts as lists of pairs, bytes as hex, nested dataclasses
as objects. Decoding reads each field's type hint, so the engine's frozen
dataclasses come back exactly as they were (equal to the originals).

>>> from services.dealer.events import PlayerSatIn
>>> loads(dumps(PlayerSatIn(seat=3))) == PlayerSatIn(seat=3)
True
"""

from __future__ import annotations

import dataclasses
import enum
import json
import operator
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any


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
        if type(obj).__name__ in _IMMUTABLE:  # the same table config in every HandStarted
            hit = _memo.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
            if len(_memo) > 4096:
                _memo.clear()
            encoded = _fields(obj)
            _memo[id(obj)] = (obj, encoded)
            return encoded
        return _fields(obj)
    raise TypeError(f"cannot encode {type(obj).__name__}")


def _fields(obj: Any) -> dict[str, Any]:
    out = {}
    for name in _init_fields(obj.__class__):
        value = getattr(obj, name)
        out[name] = value if type(value) in _PLAIN else encode(value)
    return out


_PLAIN = frozenset({int, str, bool, float, type(None)})
#: Frozen values shared by many events, encoded once (keyed by identity).
_IMMUTABLE = frozenset({"TableConfig", "Level"})
_memo: dict[int, tuple[Any, Any]] = {}


def dumps(event: Any) -> str:
    """The stored text of an event: `{"t": <class name>, **encode(event)}` as compact JSON."""
    cls = type(event)
    getter = _getters.get(cls)
    if getter is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"cannot encode {cls.__name__}")
        getter = _getters[cls] = _getter(cls)
    name, names, values = getter
    body: dict[str, Any] = {"t": name}
    for field_name, value in zip(names, values(event), strict=True):
        body[field_name] = value if type(value) in _PLAIN else encode(value)
    return _json(body)


def _getter(cls: Any) -> tuple[str, tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    names = _init_fields(cls)
    if len(names) == 1:  # attrgetter of one name returns the value, not a 1-tuple
        only = operator.attrgetter(names[0])
        return cls.__name__, names, lambda obj: (only(obj),)
    return cls.__name__, names, operator.attrgetter(*names)


#: (class name, field names, field values getter) per event class, for `dumps`.
_getters: dict[Any, tuple[str, tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _compact_encoder() -> Callable[[Any], str]:
    """`json.dumps(obj, separators=(",", ":"))` without building an encoder per call."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the plain call
        return lambda obj: json.dumps(obj, separators=(",", ":"))

    def default(obj: Any) -> Any:
        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")

    # No circular check (markers None): an event is a tree of values.
    chunks = make(None, default, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)
    return lambda obj: "".join(chunks(obj, 0))


_json = _compact_encoder()


def loads(text: str) -> Any:
    """The event a stored text encodes; raises KeyError for an unknown type."""
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
    """Every event class the store may hold, by name: the engine's and the dealer's."""
    from services.dealer import engine, events

    found: dict[str, type] = {}
    for module in (engine, events):
        for name, value in vars(module).items():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                found[name] = value
    return found
