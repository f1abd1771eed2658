"""Every event kind is declared once and mapped all the way: store, stream, SDK (issue 12).

The demo kind is R33's BlindMissed: one vocabulary dataclass, one proto message, one
mapping function; the store's codec and the dealer's fold need no line for it.
"""

from __future__ import annotations

from clients import events as sdk_events
from clients.convert import event_from_proto
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
    unmapped = {cls.__name__ for cls in ev.DEALER_EVENTS
                if cls not in views._DEALER_MESSAGES} - {"HandSalt", "DeckRevealed"}
    assert not unmapped  # HandSalt is never sent; DeckRevealed is framed per viewer
    assert {cls for cls in EVENT_TYPES} == set(views._ENGINE_MESSAGES)
    assert members == set(sdk_events.EVENT_TYPES)
    assert set(codec.registry()) >= {cls.__name__ for cls in (*ev.DEALER_EVENTS, *EVENT_TYPES)}
