"""Every event kind is declared once and mapped all the way: store, stream, SDK (issue 12).

The demo kind is R33's BlindMissed: one vocabulary dataclass, one proto message, one
`apply`; poker.mapping maps it for the store, the streams and the SDK with no line of its own.
"""

from __future__ import annotations

from clients import events as sdk_events
from clients.convert import event_from_proto
from poker import mapping
from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from poker.vocab.enums import BlindKind
from services.dealer import codec, views
from services.dealer.engine import EVENT_TYPES, SPECTATOR
from services.dealer.tables import Stored


def _streamed(event: object) -> pb.TableEvent:
    frame = views.event_frame(Stored(7, "", 0, event), views.Viewer(SPECTATOR))
    return pb.WatchTableResponse.FromString(frame).events[0]


def test_R33_blind_missed_is_stored_streamed_and_decoded() -> None:
    missed = ev.BlindMissed(seat=4, blind=BlindKind.BIG)
    assert codec.loads(codec.dumps(missed)) == missed
    message = _streamed(missed)
    assert message.WhichOneof("event") == "blind_missed"
    assert message.blind_missed.seat == 4 and message.blind_missed.blind == pb.BLIND_KIND_BIG
    decoded = event_from_proto(message)
    assert decoded == sdk_events.BlindMissed(sequence=7, time_unix_ms=0, hand_id="", seat=4,
                                             blind=BlindKind.BIG)


def test_every_event_class_has_one_message_and_the_sdk_every_message() -> None:
    members = {f.name for f in pb.TableEvent.DESCRIPTOR.oneofs_by_name["event"].fields}
    assert set(mapping.EVENTS) == members  # one case a class, checked both ways at import
    assert set(mapping.EVENTS.values()) == {*ev.DEALER_EVENTS, *EVENT_TYPES}
    assert members == set(sdk_events.EVENT_TYPES)
    assert set(codec.registry()) == {cls.__name__ for cls in (*ev.DEALER_EVENTS, *EVENT_TYPES)}


def test_a_kind_only_the_vocabulary_declares_streams_and_decodes_with_no_line_of_its_own(
        ) -> None:
    """HandSalt stands for a kind added as a dataclass and a message alone: the SDK's class
    of it is derived (the envelope and the dataclass's fields as the wire has them)."""
    salt = ev.HandSalt(salts=(b"\x01" * 16,), deck=(51, 0))
    assert codec.loads(codec.dumps(salt)) == salt
    message = mapping.to_event(salt, sequence=9, hand_id="t-2")
    decoded = event_from_proto(message)
    assert type(decoded) is sdk_events.EVENT_TYPES["hand_salt"]
    assert (decoded.sequence, decoded.hand_id, decoded.kind) == (9, "t-2", "hand_salt")
    assert [str(c) for c in decoded.deck] == ["As", "2c"]  # type: ignore[attr-defined]
    # Streams carry it as audit trail without payload (mapping.OVERRIDES: never streamed).
    assert _streamed(salt).WhichOneof("event") is None
