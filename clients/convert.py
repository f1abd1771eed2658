"""Protobuf messages <-> SDK dataclasses, through poker.mapping (the one mapping).

A dataclass field reads the message field of the same name (or `metadata["proto"]`).
Its type hint says how: `Card` from card text (registered here with mapping.scalar), a
`StrEnum` from the proto enum of the same values (`ActionKind.RAISE` <->
`ACTION_KIND_RAISE`; UNSPECIFIED -> None), a nested dataclass from a sub-message,
`tuple[...]` from a repeated field, `X | None` from a field with presence (None when
unset); an event's sequence, time and hand from the TableEvent around it; a time in ms
(`time_bank_ms`, `bank_deadline_unix_ms`, ...) from its AIP-142 Duration / Timestamp twin
when the server sent it, else from the deprecated integer (poker.timefields), so the
SDK's attributes stay integers in milliseconds whichever form a server writes.

>>> from poker.v1 import dealer_pb2 as pb
>>> from clients.models import SeatView
>>> from_proto(SeatView, pb.SeatView(seat=2, player_id="ann", stack=990, hole_cards=["As", "Kd"]))
SeatView(seat=2, player_id='ann', stack=990, bet=0, sitting_out=False, in_hand=False, \
folded=False, all_in=False, hole_cards=(Card('As'), Card('Kd')), waiting_for_big_blind=False, \
hole_card_salts=(), time_bank_ms=0, owed_blinds=None, sits_out_after_hand=None)
>>> event_from_proto(pb.TableEvent(sequence=7, hand_id="t-1",
...                                turn_timed_out=pb.TurnTimedOut(seat=1, action_number=4)))
TurnTimedOut(sequence=7, time_unix_ms=0, hand_id='t-1', seat=1, action_number=4)
"""

from __future__ import annotations

from typing import Any, TypeVar

from clients.cards import Card
from clients.events import EVENT_TYPES, Event, Hidden
from poker import mapping
from poker.cards import CARD_TEXT

__all__ = ["event_from_proto", "from_proto", "to_proto"]

T = TypeVar("T")
_CARDS: dict[str, Card] = {text: Card(text) for text in CARD_TEXT}


def _card(text: str) -> Card:
    try:
        return _CARDS[text]
    except KeyError:
        return Card(text)  # raises CardError naming the text


mapping.scalar(Card, lambda card: card.text, _card, _CARDS)
_EVENT_DECODERS: dict[str, Any] = {}  # event_from_proto's, by TableEvent oneof name


def from_proto(cls: type[T], message: Any) -> T:
    """The dataclass `cls` built from `message`, field by field (poker.mapping's plan)."""
    decoded: T = mapping.decoder(cls, message.DESCRIPTOR, mapping.WIRE)(message)
    return decoded


def event_from_proto(message: Any) -> Event:
    """The SDK event of a `poker.v1.TableEvent` (`Hidden` when it has no payload)."""
    kind = message.WhichOneof("event")
    decode = _EVENT_DECODERS.get(kind)
    if decode is None:
        cls = EVENT_TYPES.get(kind) if kind is not None else None
        if cls is None:  # no payload, or a newer server's event: hidden rather than failing
            return Hidden(sequence=message.sequence, time_unix_ms=message.time_unix_ms,
                          hand_id=message.hand_id)
        decode = _EVENT_DECODERS[kind] = mapping.decoder(
            cls, getattr(message, kind).DESCRIPTOR, mapping.WIRE)
    event: Event = decode(getattr(message, kind), message)
    return event


def to_proto(value: Any, message_cls: type[T]) -> T:
    """The message `message_cls` from a dataclass; None fields stay unset."""
    message: T = mapping.encoder(type(value), message_cls.DESCRIPTOR,  # type: ignore[attr-defined]
                                 mapping.WIRE)(value)
    return message
