"""Protobuf messages <-> SDK dataclasses, by field name, with one decoding plan per class.

A dataclass field reads the message field of the same name (or `metadata["proto"]`).
Its type hint says how: `Card` from card text, a `StrEnum` from the proto enum of the
same values (`ActionKind.RAISE` <-> `ACTION_KIND_RAISE`; UNSPECIFIED -> None), a
nested dataclass from a sub-message, `tuple[...]` from a repeated field, `X | None`
from a field with presence (None when unset).

>>> from poker.v1 import dealer_pb2 as pb
>>> from clients.models import SeatView
>>> from_proto(SeatView, pb.SeatView(seat=2, player_id="ann", stack=990, hole_cards=["As", "Kd"]))
SeatView(seat=2, player_id='ann', stack=990, bet=0, sitting_out=False, in_hand=False, \
folded=False, all_in=False, hole_cards=(Card('As'), Card('Kd')), waiting_for_big_blind=False)
>>> event_from_proto(pb.TableEvent(sequence=7, hand_id="t-1",
...                                turn_timed_out=pb.TurnTimedOut(seat=1, action_number=4)))
TurnTimedOut(sequence=7, time_unix_ms=0, hand_id='t-1', seat=1, action_number=4)
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from clients.cards import Card
from clients.events import EVENT_TYPES, Event, Hidden
from poker.cards import CARD_TEXT

__all__ = ["event_from_proto", "from_proto", "to_proto"]

T = TypeVar("T")
_CARDS: dict[str, Card] = {text: Card(text) for text in CARD_TEXT}
Decoder = Callable[[Any], Any]
_PLANS: dict[type[Any], list[tuple[str, str, bool, Decoder | None]]] = {}


def _card(text: str) -> Card:
    try:
        return _CARDS[text]
    except KeyError:
        return Card(text)  # raises CardError naming the text


def _prefix(enum_cls: type[Enum]) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum_cls.__name__).upper() + "_"


def _enum_decoder(enum_cls: type[Enum], descriptor: Any) -> Decoder:
    prefix = _prefix(enum_cls)
    table: dict[int, Any] = {}
    for value in descriptor.enum_type.values:
        name = value.name.removeprefix(prefix)
        table[value.number] = enum_cls[name] if name in enum_cls.__members__ else None
    return lambda number: table.get(number)


def _scalar_decoder(hint: Any, descriptor: Any) -> Decoder:
    if hint is Card:
        return _card
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _enum_decoder(hint, descriptor)
    if dataclasses.is_dataclass(hint):
        return lambda message: from_proto(hint, message)  # type: ignore[arg-type]
    if hint in (int, bool, str, float, bytes):
        return _AS_IS  # protobuf already gives these types
    raise TypeError(f"no decoder for {hint!r}")


def _as_is(value: Any) -> Any:
    return value


_AS_IS: Decoder = _as_is


def _each(element: Decoder) -> Decoder:
    """A repeated field's decoder: `element` on every value, as a tuple."""
    return lambda values: tuple(map(element, values))


def _unwrap_optional(hint: Any) -> tuple[Any, bool]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


def _plan(cls: type[Any], message_descriptor: Any) -> list[tuple[str, str, bool, Decoder | None]]:
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    hints = typing.get_type_hints(cls)
    plan = []
    for f in dataclasses.fields(cls):
        proto_name = f.metadata.get("proto", f.name)
        descriptor = message_descriptor.fields_by_name.get(proto_name)
        if descriptor is None:
            continue  # an SDK-only field (or one the server does not send): its default
        hint, optional = _unwrap_optional(hints[f.name])
        presence = optional and descriptor.has_presence and not descriptor.is_repeated
        if typing.get_origin(hint) is tuple:
            element = _scalar_decoder(typing.get_args(hint)[0], descriptor)
            decoder: Decoder | None = tuple if element is _AS_IS else _each(element)
        else:
            decoder = _scalar_decoder(hint, descriptor)
        plan.append((f.name, proto_name, presence, None if decoder is _AS_IS else decoder))
    _PLANS[cls] = plan
    return plan


def from_proto(cls: type[T], message: Any) -> T:
    """The dataclass `cls` built from `message`, field by field."""
    values: dict[str, Any] = {}
    for name, proto_name, presence, decoder in _plan(cls, message.DESCRIPTOR):
        if presence and not message.HasField(proto_name):
            values[name] = None
        elif decoder is None:
            values[name] = getattr(message, proto_name)
        else:
            values[name] = decoder(getattr(message, proto_name))
    return cls(**values)


def event_from_proto(message: Any) -> Event:
    """The SDK event of a `poker.v1.TableEvent` (`Hidden` when it has no payload)."""
    kind = message.WhichOneof("event")
    base = {"sequence": message.sequence, "time_unix_ms": message.time_unix_ms,
            "hand_id": message.hand_id}
    if kind is None:
        return Hidden(**base)
    cls = EVENT_TYPES.get(kind)
    if cls is None:  # a newer server's event: seen as hidden rather than failing the stream
        return Hidden(**base)
    body = getattr(message, kind)
    values: dict[str, Any] = base
    for name, proto_name, presence, decoder in _plan(cls, body.DESCRIPTOR):
        if presence and not body.HasField(proto_name):
            values[name] = None
        elif decoder is None:
            values[name] = getattr(body, proto_name)
        else:
            values[name] = decoder(getattr(body, proto_name))
    return cls(**values)


def to_proto(value: Any, message_cls: type[T]) -> T:
    """The message `message_cls` from a dataclass; None fields stay unset."""
    message = message_cls()
    descriptor = message.DESCRIPTOR  # type: ignore[attr-defined]
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        proto_name = f.metadata.get("proto", f.name)
        fd = descriptor.fields_by_name.get(proto_name)
        if item is None or fd is None:
            continue
        target = getattr(message, proto_name)
        if isinstance(item, tuple):
            for element in item:
                if dataclasses.is_dataclass(element):
                    sub = target.add()
                    sub.CopyFrom(to_proto(element, type(sub)))
                else:
                    target.append(_encode(element, fd))
        elif dataclasses.is_dataclass(item):
            target.CopyFrom(to_proto(item, type(target)))
        else:
            setattr(message, proto_name, _encode(item, fd))
    return message


def _encode(item: Any, fd: Any) -> Any:
    if isinstance(item, Card):
        return item.text
    if isinstance(item, Enum):
        return fd.enum_type.values_by_name[_prefix(type(item)) + item.name].number
    return item
