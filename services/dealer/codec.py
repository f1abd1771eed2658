"""A stable JSON encoding of events (the engine's and the dealer's), for the store.

An event is written as `{"t": "<class name>", <field>: <value>, ...}`: enums by
value, tuples as lists, dicts as lists of pairs, bytes as hex, nested dataclasses
as objects. Decoding reads each field's type hint, so the engine's frozen
dataclasses come back exactly as they were (equal to the originals).

>>> from poker.vocab.table_events import PlayerSatIn
>>> loads(dumps(PlayerSatIn(seat=3))) == PlayerSatIn(seat=3)
True
"""

from __future__ import annotations

import dataclasses
import enum
import json
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
            return _by_identity(_memo, obj, _fields)
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


def _by_identity(cache: dict[int, tuple[Any, Any]], obj: Any,
                 make: Callable[[Any], Any]) -> Any:
    """`make(obj)`, kept by the identity of `obj` (a frozen value many events share)."""
    hit = cache.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(cache) > 4096:
        cache.clear()
    made = make(obj)
    cache[id(obj)] = (obj, made)
    return made


def dumps(event: Any) -> str:
    """The stored text of an event: `{"t": <class name>, **encode(event)}` as compact JSON.

    Each event class writes through a function generated for it on first use (as
    `dataclasses` generates `__init__`): the text is put together field by field from
    the field's type hint, ints with `str`, strings with json's C escaper, enums from a
    table of their texts, anything else through `encode`. The text is exactly the
    generic encoder's (tests/dealer/test_units.py), at about a third of its cost: a
    dealer writes some 3-4 events a decision.
    """
    writer = _writers.get(type(event))
    if writer is None:
        if not dataclasses.is_dataclass(event):
            raise TypeError(f"cannot encode {type(event).__name__}")
        writer = _writers[type(event)] = _writer(type(event))
    return writer(event)


#: The generated text writer of each event class, for `dumps`.
_writers: dict[Any, Callable[[Any], str]] = {}


def _value_text(value: Any) -> str:
    """Any field's JSON text, the generic way; a frozen config's text is kept (by identity)."""
    if type(value) in _PLAIN:
        return _json(value)
    if type(value).__name__ in _IMMUTABLE:
        text: str = _by_identity(_text_memo, value, lambda v: _json(encode(v)))
        return text
    return _json(encode(value))


_text_memo: dict[int, tuple[Any, str]] = {}


def _ints_text(value: Any) -> str:
    """A tuple of ints as a JSON list (the common case of a `tuple[int, ...]` field)."""
    if type(value) is tuple and all(type(x) is int for x in value):
        return "[" + ",".join(map(str, value)) + "]"
    return _value_text(value)


def _bytes_text(value: Any) -> str:
    """A tuple of bytes as a JSON list of hex strings (R3's salts: 52 a hand)."""
    if type(value) is tuple and all(type(x) is bytes for x in value):
        return "[" + ",".join(['"' + x.hex() + '"' for x in value]) + "]"
    return _value_text(value)


def _rows_text(value: Any) -> str:
    """A tuple of tuples of ints as a JSON list of lists."""
    if type(value) is tuple and all(type(r) is tuple and all(type(x) is int for x in r)
                                    for r in value):
        return "[" + ",".join(["[" + ",".join(map(str, r)) + "]" for r in value]) + "]"
    return _value_text(value)


def _writer(cls: Any) -> Callable[[Any], str]:
    hints = _hints(cls)
    scope: dict[str, Any] = {"_esc": json.encoder.encode_basestring_ascii,
                             "_value": _value_text, "_ints": _ints_text,
                             "_bytes": _bytes_text, "_rows": _rows_text}
    parts = [repr('{"t":' + _json(cls.__name__))]
    lines = []
    for i, name in enumerate(_init_fields(cls)):
        v, hint = f"v{i}", hints.get(name)
        lines.append(f"    {v} = e.{name}")
        parts.append(repr("," + _json(name) + ":"))
        if hint is int:
            parts.append(f"(str({v}) if type({v}) is int else _value({v}))")
        elif hint is bool:
            parts.append(f"('true' if {v} is True else 'false' if {v} is False else _value({v}))")
        elif hint is str:
            parts.append(f"(_esc({v}) if type({v}) is str else _value({v}))")
        elif hint == tuple[int, ...]:  # cards, decks, seats
            parts.append(f"_ints({v})")
        elif hint == tuple[bytes, ...]:  # salts (R3)
            parts.append(f"_bytes({v})")
        elif hint == tuple[tuple[int, int, int], ...]:  # hole-card positions (R3)
            parts.append(f"_rows({v})")
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            scope[f"_texts{i}"] = {member: _json(encode(member)) for member in hint}
            parts.append(f"(_texts{i}.get({v}) or _value({v}))")
        else:
            parts.append(f"_value({v})")
    parts.append("'}'")
    source = "def write(e):\n" + "\n".join(lines) + "\n    return ''.join((" \
        + ", ".join(parts) + ",))\n"
    exec(source, scope)  # noqa: S102 - our own text, built from the class's field names
    writer: Callable[[Any], str] = scope["write"]
    return writer


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
    from poker.vocab import table_events as events
    from services.dealer import engine

    found: dict[str, type] = {}
    for module in (engine, events):
        for name, value in vars(module).items():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                found[name] = value
    return found
