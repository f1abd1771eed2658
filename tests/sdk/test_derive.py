"""The SDK's events and request-form TableConfig come from one source, the vocabulary and
the messages (clients/derive.py, issue 12): generated, not stale, the shape bots have
always had, and a kind the vocabulary adds gets its SDK class with no line in clients/."""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from clients import derive, events
from clients.cards import Card, cards
from clients.convert import event_from_proto
from clients.events import EVENT_TYPES, Event
from clients.models import SeatStack, TableConfig
from poker import mapping
from poker.v1 import dealer_pb2 as pb
from poker.v1 import table_config_pb2
from poker.vocab.actions import LegalActions
from poker.vocab.config import Level, PlayerIn
from poker.vocab.config import TableConfig as VocabConfig
from poker.vocab.enums import BlindKind, Decision, ShowReason, SitOutReason, Street


def test_the_generated_sdk_modules_are_not_stale() -> None:
    for path, text in derive.generate().items():
        assert path.read_text() == text, (
            f"clients/{path.name} is stale: run `make events` (or `make proto`) and commit")


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@pytest.mark.parametrize("case", sorted(mapping.EVENTS))
def test_every_sdk_event_is_its_vocabulary_class_and_message_field_by_field(case: str) -> None:
    cls, domain = EVENT_TYPES[case], mapping.EVENTS[case]
    message = mapping.MESSAGES[domain].DESCRIPTOR
    override = mapping.OVERRIDES.get(domain) or mapping.Override()
    assert cls.__name__ == message.name == domain.__name__ and cls.kind == case
    assert cls.__module__ == "clients.events" and getattr(events, cls.__name__) is cls
    assert issubclass(cls, Event) and cls.__dataclass_params__.frozen
    assert "__slots__" in vars(cls) and inspect.cleandoc(domain.__doc__ or "") in (
        inspect.cleandoc(cls.__doc__ or ""))
    names = [f.name for f in dataclasses.fields(cls)]
    assert names[:3] == ["sequence", "time_unix_ms", "hand_id"]
    assert names[3:] == [derive.NAMES.get(fd.name, fd.name) for fd in message.fields
                         if fd.name not in override.store_only
                         and fd.name not in derive.time_twins(message)]
    vocab, sdk = _hints(domain), _hints(cls)
    for f in dataclasses.fields(domain):
        fd = message.fields_by_name.get(override.renames.get(f.name, f.name))
        if fd is None or fd.name in override.store_only or fd.name in override.flatten:
            continue
        if fd.type == fd.TYPE_STRING and vocab[f.name] in (int, tuple[int, ...]):  # R1
            assert sdk[fd.name] in (Card, tuple[Card, ...]), (case, fd.name)
        if fd.type == fd.TYPE_ENUM:
            assert fd.enum_type.name in str(sdk[fd.name]), (case, fd.name)


def test_the_events_keep_the_types_bots_read() -> None:
    hints = {name: _hints(cls) for name, cls in vars(events).items()
             if isinstance(cls, type) and issubclass(cls, Event)}
    assert events.HandPlayer is PlayerIn  # the vocabulary's, no mirror
    assert hints["HandStarted"]["players"] == tuple[PlayerIn, ...]
    assert hints["HandStarted"]["level"] is Level
    assert hints["HandStarted"]["big_blind_seat"] is int  # derive.SHAPES
    assert hints["HandEnded"]["stacks"] == tuple[SeatStack, ...]
    assert hints["PlayerUnseated"]["stack"] is SeatStack  # flattened, every field required
    assert hints["TurnStarted"]["legal"] == LegalActions | None
    assert hints["TurnStarted"]["decision"] is Decision
    assert hints["BoardDealt"]["street"] is Street and hints["BlindPosted"]["blind"] is BlindKind
    assert hints["CardsShown"]["reason"] == ShowReason | None
    assert hints["PlayerSatOut"]["reason"] == SitOutReason | None
    assert hints["LevelSet"]["level"] == Level | None
    assert hints["ButtonSet"]["draw"] == tuple[events.SeatCard, ...]
    assert _hints(events.SeatCard) == {"seat": int, "card": Card}
    legal = next(f for f in dataclasses.fields(events.TurnStarted) if f.name == "legal")
    assert legal.metadata["proto"] == "legal_actions"

    message = pb.TableEvent(sequence=5, time_unix_ms=77, hand_id="t-1")
    started = message.turn_started
    started.seat, started.decision, started.deadline_unix_ms = 2, pb.DECISION_BET, 99
    started.legal_actions.CopyFrom(pb.LegalActions(seat=2, decision=pb.DECISION_BET,
                                                   can_fold=True, can_call=True, call_amount=10))
    turn = event_from_proto(message)
    assert isinstance(turn, events.TurnStarted) and turn.decision is Decision.BET
    assert (turn.sequence, turn.time_unix_ms, turn.hand_id) == (5, 77, "t-1")
    assert isinstance(turn.legal, LegalActions) and turn.legal.call_amount == 10
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.seat = 3  # type: ignore[misc]
    button = pb.TableEvent(sequence=6, button_set=pb.ButtonSet(
        seat=1, draw=[pb.SeatCard(seat=0, card="2c"), pb.SeatCard(seat=1, card="As")]))
    assert event_from_proto(button) == events.ButtonSet(
        sequence=6, seat=1, draw=(events.SeatCard(0, Card("2c")), events.SeatCard(1, Card("As"))))


def test_each_shape_the_sdk_keeps_against_the_rules_names_a_live_field() -> None:
    """derive.SHAPES and derive.NAMES are the hand-written part: none outlives its field."""
    for (message, name), (hint, default, _) in derive.SHAPES.items():
        cls = getattr(events, message)
        f = next(f for f in dataclasses.fields(cls) if f.name == name)
        assert (_hints(cls)[name], f.default) == (hint, default)
    for proto, name in derive.NAMES.items():
        assert any(proto in fd.message_type.fields_by_name and name in {
            f.name for f in dataclasses.fields(EVENT_TYPES[fd.name])}
            for fd in pb.TableEvent.DESCRIPTOR.oneofs_by_name["event"].fields)


def test_the_request_form_table_config_is_the_message_with_unset_left_to_the_server() -> None:
    fields = dataclasses.fields(TableConfig)
    message = table_config_pb2.TableConfig.DESCRIPTOR
    assert [f.name for f in fields] == [fd.name for fd in message.fields
                                        if fd.name not in derive.time_twins(message)]
    assert {f.name for f in dataclasses.fields(VocabConfig)} <= {f.name for f in fields}
    assert TableConfig().to_proto() == table_config_pb2.TableConfig()  # all the server's
    hints = _hints(TableConfig)
    assert hints["levels"] == tuple[Level, ...] and hints["all_in_exposure"] == bool | None
    assert hints["structure"] == typing.get_type_hints(VocabConfig)["structure"] | None
    sent = TableConfig(seats=6, sit_out_limit_ms=0, levels=(Level(5, 10),)).to_proto()
    assert sent.HasField("sit_out_limit_ms") and not sent.HasField("time_bank_ms")
    assert TableConfig.__doc__ and "server default" in TableConfig.__doc__


# ------------------------------------------------------------- a kind added later

@dataclass(frozen=True, slots=True)
class ChipsCounted:
    """A kind the vocabulary adds (a stand-in): the cards and chips counted at a seat."""

    seat: int
    cards: tuple[int, ...]
    blind: BlindKind
    stacks: tuple[tuple[int, str, int], ...]  # (seat, player_id, stack)
    counted: tuple[tuple[int, int, int], ...]  # (seat, card, chips): a new sub-message
    deadline_ms: int
    reason: str = ""  # a ShowReason's value, or none
    level: Level | None = None
    limit: int | None = None
    proof: bytes = b""


def _message_of_a_new_kind() -> Any:
    """ChipsCounted and CountedCard, messages a .proto of its own declares (the default
    pool, as generated code would)."""
    pool = descriptor_pool.Default()
    name = "poker/v1test/chips_counted.proto"
    try:
        pool.FindFileByName(name)
    except KeyError:
        T = descriptor_pb2.FieldDescriptorProto
        file = descriptor_pb2.FileDescriptorProto(
            name=name, package="poker.v1test", syntax="proto3",
            dependency=["poker/v1/table_config.proto", "poker/v1/table_view.proto",
                        "poker/v1/table_events.proto"])
        card = file.message_type.add(name="CountedCard")
        for number, (fname, kind) in enumerate(
                [("seat", T.TYPE_UINT32), ("card", T.TYPE_STRING), ("chips", T.TYPE_UINT64)], 1):
            card.field.add(name=fname, number=number, type=kind, label=T.LABEL_OPTIONAL)
        kind_ = file.message_type.add(name="ChipsCounted")
        rows: list[tuple[str, int, int, str]] = [
            ("seat", T.TYPE_UINT32, T.LABEL_OPTIONAL, ""),
            ("cards", T.TYPE_STRING, T.LABEL_REPEATED, ""),
            ("blind", T.TYPE_ENUM, T.LABEL_OPTIONAL, ".poker.v1.BlindKind"),
            ("stacks", T.TYPE_MESSAGE, T.LABEL_REPEATED, ".poker.v1.SeatStack"),
            ("counted", T.TYPE_MESSAGE, T.LABEL_REPEATED, ".poker.v1test.CountedCard"),
            ("deadline_unix_ms", T.TYPE_INT64, T.LABEL_OPTIONAL, ""),
            ("reason", T.TYPE_ENUM, T.LABEL_OPTIONAL, ".poker.v1.ShowReason"),
            ("level", T.TYPE_MESSAGE, T.LABEL_OPTIONAL, ".poker.v1.Level"),
            ("limit", T.TYPE_UINT32, T.LABEL_OPTIONAL, ""),
            ("proof", T.TYPE_BYTES, T.LABEL_OPTIONAL, ""),
        ]
        for number, (fname, kind, label, type_name) in enumerate(rows, 1):
            f = kind_.field.add(name=fname, number=number, type=kind, label=label)
            if type_name:
                f.type_name = type_name
        limit = kind_.field[8]
        limit.proto3_optional, limit.oneof_index = True, 0
        kind_.oneof_decl.add(name="_limit")
        pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("poker.v1test.ChipsCounted"))


def test_a_kind_the_vocabulary_adds_gets_its_sdk_class_with_no_line_in_clients(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole shape: cards as Cards, enums (required and unset), the vocabulary's Level,
    the SDK's SeatStack, a new sub-message derived too, presence, a renamed field (an
    OVERRIDES entry), the envelope, the vocabulary's docstring; built at import as the
    generated module would have it, and decoded through poker.mapping."""
    message_cls = _message_of_a_new_kind()
    descriptor = message_cls.DESCRIPTOR
    monkeypatch.setitem(mapping.OVERRIDES, ChipsCounted,
                        mapping.Override(renames={"deadline_ms": "deadline_unix_ms"}))
    # As a case of TableEvent's oneof (what table_events.proto would declare), whose
    # envelope the mapping reads for the event's sequence, time and hand.
    monkeypatch.setattr(mapping, "_EVENT_MESSAGES",
                        mapping._EVENT_MESSAGES | {descriptor.full_name})
    values = dict(events.VALUES)
    cls: Any = derive.event_class("chips_counted", ChipsCounted, Event, values, descriptor)

    assert cls.__name__ == "ChipsCounted" and cls.kind == "chips_counted"
    assert issubclass(cls, Event) and "__slots__" in vars(cls)
    assert cls.__module__ == "clients.events"
    assert inspect.cleandoc(ChipsCounted.__doc__ or "") in inspect.cleandoc(cls.__doc__ or "")
    counted: Any = values["poker.v1test.CountedCard"]
    hints = _hints(cls)
    assert {f.name: hints[f.name] for f in dataclasses.fields(cls)[3:]} == {
        "seat": int, "cards": tuple[Card, ...], "blind": BlindKind,
        "stacks": tuple[SeatStack, ...], "counted": tuple[counted, ...],
        "deadline_unix_ms": int, "reason": ShowReason | None, "level": Level | None,
        "limit": int | None, "proof": bytes}
    assert _hints(counted) == {"seat": int, "card": Card, "chips": int}
    required = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
    assert required == {"sequence", "blind"}  # what has no zero; the rest default

    wire = message_cls(seat=3, cards=["As", "2c"], blind=pb.BLIND_KIND_BIG,
                       stacks=[pb.SeatStack(seat=3, player_id="ann", stack=90)],
                       counted=[_counted(seat=3, card="Kd", chips=40)],
                       deadline_unix_ms=123, limit=0)
    envelope = pb.TableEvent(sequence=11, time_unix_ms=5, hand_id="t-4")
    event = mapping.decoder(cls, descriptor, mapping.WIRE)(wire, envelope)
    assert event == cls(sequence=11, time_unix_ms=5, hand_id="t-4", seat=3,
                        cards=tuple(cards("As 2c")), blind=BlindKind.BIG,
                        stacks=(SeatStack(3, 90, "ann"),), counted=(counted(3, Card("Kd"), 40),),
                        deadline_unix_ms=123, reason=None, level=None, limit=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 1

    # The generated module would hold the very same class: its source, run, matches.
    source = derive.event_source("chips_counted", ChipsCounted, descriptor, dict(events.VALUES))
    assert "class CountedCard:" in source and "class ChipsCounted(Event):" in source
    namespace = dict(vars(events))
    exec(compile(source, "<generated>", "exec", dont_inherit=True), namespace)  # eager hints
    generated = namespace["ChipsCounted"]
    assert [(f.name, f.default) for f in dataclasses.fields(generated)] == [
        (f.name, f.default) for f in dataclasses.fields(cls)]
    assert _names(generated) == _names(cls)
    assert _hints(namespace["CountedCard"]) == _hints(counted)


def _counted(**fields: Any) -> Any:
    return message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(
        "poker.v1test.CountedCard"))(**fields)


def _names(cls: type) -> list[str]:
    """Each field's type as text, classes by their own names (two CountedCard classes)."""
    return [re.sub(r"[\w.]+\.(\w+)", r"\1", str(_hints(cls)[f.name])).replace(
        "<class '", "").replace("'>", "") for f in dataclasses.fields(cls)]
