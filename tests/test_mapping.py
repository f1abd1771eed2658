"""poker.mapping: every TableEvent kind maps domain -> message -> domain with nothing
written per kind, and a kind or a field that does not pair up fails loudly.

The round trip iterates the oneof's cases from the descriptor, so an event kind added
later (a dataclass, a message, an apply) is covered without a line here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from google.protobuf.descriptor import FieldDescriptor as FD

from poker import mapping, timefields
from poker.v1 import table_events_pb2 as tpb
from poker.v1 import table_view_pb2 as vpb
from poker.vocab.config import Level, TableConfig
from poker.vocab.events import HandStarted, PlayerIn
from poker.vocab.table_events import ChipsAdded, LevelSet, PlayerUnseated, TurnStarted

CASES = [fd for fd in tpb.TableEvent.DESCRIPTOR.oneofs_by_name["event"].fields]


def _fill(message: Any, skip: frozenset[str] = frozenset()) -> Any:
    """Every field of `message` set to a valid, non-zero value (a card's text for strings:
    "7h" is a card, an id and a commitment alike; enums their last value); a time's
    Duration / Timestamp twin (AIP-142) as its integer says (poker.timefields)."""
    for fd in message.DESCRIPTOR.fields:
        if fd.name in skip:
            continue
        if fd.type == FD.TYPE_MESSAGE and fd.message_type.full_name in (
                timefields.DURATION, timefields.TIMESTAMP):
            continue  # filled from its integer twin, below
        if fd.type == FD.TYPE_MESSAGE:
            if fd.message_type.name == "TableConfig":
                sub = mapping.encoder(TableConfig, fd.message_type)(
                    TableConfig(levels=(Level(5, 10), Level(10, 20, 2))))
                getattr(message, fd.name).CopyFrom(sub)
                continue
            if fd.is_repeated:
                for _ in range(2):
                    _fill(getattr(message, fd.name).add())
            else:
                _fill(getattr(message, fd.name))
            continue
        value: Any = {FD.TYPE_STRING: "7h", FD.TYPE_BYTES: b"\x01\x02", FD.TYPE_BOOL: True,
                      FD.TYPE_DOUBLE: 1.5, FD.TYPE_FLOAT: 1.5}.get(fd.type, 3)
        if fd.type == FD.TYPE_ENUM:
            value = fd.enum_type.values[-1].number
        if fd.is_repeated:
            getattr(message, fd.name).extend([value, value])
        else:
            setattr(message, fd.name, value)
    timefields.fill(message)
    return message


def _store_fields(cls: type) -> frozenset[str]:
    """The message fields the store does not keep (derived on the wire or wire-only)."""
    override = mapping.OVERRIDES.get(cls, mapping.Override())
    return frozenset(override.wire_only) | frozenset(override.derived)


@pytest.mark.parametrize("case", CASES, ids=[fd.name for fd in CASES])
def test_every_event_kind_round_trips_domain_message_domain(case: Any) -> None:
    cls = mapping.EVENTS[case.name]
    assert cls.__name__ == case.message_type.name
    message = tpb.TableEvent(hand_id="t-4")
    _fill(getattr(message, case.name), skip=_store_fields(cls))
    domain = mapping.from_event(message)
    assert type(domain) is cls
    again = mapping.to_event(domain, hand_id="t-4")
    assert mapping.to_event(mapping.from_event(again), hand_id="t-4") == again
    # Every field the domain value has came across (a row may leave a sub-field out).
    for fd, _ in getattr(message, case.name).ListFields():
        if fd.type != FD.TYPE_MESSAGE or not fd.is_repeated:
            assert getattr(getattr(again, case.name), fd.name) == getattr(
                getattr(message, case.name), fd.name), fd.name
    assert mapping.from_event(tpb.TableEvent.FromString(again.SerializeToString())) == domain
    assert mapping.from_event(tpb.TableEvent.FromString(mapping.to_event_bytes(domain)),
                              ) == domain
    # The bytes written straight from the value are the message's, in both profiles.
    assert mapping.to_event_bytes(domain) == mapping.to_event(domain).SerializeToString()

    class Table:
        config = TableConfig(levels=(Level(5, 10),) * 4)
    head = mapping.envelope_bytes(5, 6, "t-4")
    assert mapping.to_event_bytes(domain, Table(), mapping.WIRE, head) == mapping.to_event(
        domain, Table(), mapping.WIRE, sequence=5, time_unix_ms=6,
        hand_id="t-4").SerializeToString()
    # The wire form: a message of that kind (without the store's own fields).
    wire = mapping.to_event(domain, profile=mapping.WIRE)
    assert wire.WhichOneof("event") == case.name
    body = getattr(wire, case.name)
    for name in mapping.OVERRIDES.get(cls, mapping.Override()).store_only:
        assert name not in {fd.name for fd, _ in body.ListFields()}
    # A kind streams its stored payload only where both profiles write the same bytes.
    if mapping.same_on_wire(cls):
        assert mapping.to_event_bytes(domain, Table(), mapping.WIRE) == \
            mapping.to_event_bytes(domain), cls.__name__


def test_the_overrides_shape_the_wire_form() -> None:
    turn = TurnStarted(seat=2, decision="bet", action_number=7, deadline_ms=99, can_fold=True,
                       can_call=True, call_amount=50, bet_kind="raise", min_to=200, max_to=900)
    wire = mapping.to_event(turn, profile=mapping.WIRE).turn_started
    assert wire.deadline_unix_ms == 99 and wire.legal_actions.call_amount == 50
    assert wire.legal_actions.seat == 2 and wire.legal_actions.bet_kind == 5  # RAISE
    unseated = mapping.to_event(PlayerUnseated(seat=1, player_id="ann", stack=40)).player_unseated
    assert (unseated.stack.seat, unseated.stack.player_id, unseated.stack.stack) == (1, "ann", 40)
    chips = ChipsAdded(seat=1, amount=5, stack=10, idempotency_key="k")
    assert mapping.to_event(chips).chips_added.idempotency_key == "k"
    assert mapping.to_event(chips, profile=mapping.WIRE).chips_added.idempotency_key == ""

    class Table:
        config = TableConfig(levels=(Level(5, 10), Level(10, 20)))
    level = mapping.to_event(LevelSet(1), Table(), profile=mapping.WIRE).level_set
    assert (level.level_index, level.level.big_blind) == (1, 20)
    started = HandStarted(hand_id="t-12", config=TableConfig(test_mode=True), level=Level(5, 10),
                          players=(PlayerIn(0, "a", 100), PlayerIn(1, "b", 90, True)), button=1)
    wire_started = mapping.to_event(started, profile=mapping.WIRE).hand_started
    assert wire_started.hand_number == 12 and wire_started.test_mode
    assert not wire_started.HasField("config")
    assert mapping.from_event(mapping.to_event(started)) == started


def test_a_case_without_a_dataclass_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    from poker.vocab import table_events

    events = tuple(c for c in table_events.DEALER_EVENTS if c.__name__ != "BlindMissed")
    monkeypatch.setattr(table_events, "DEALER_EVENTS", events)
    with pytest.raises(mapping.MappingError, match="TableEvent.blind_missed .* has no dataclass"):
        mapping._pair_events()


def test_a_dataclass_without_a_case_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    from poker.vocab import table_events

    @dataclasses.dataclass(frozen=True, slots=True)
    class TableRenamed:
        name: str

    monkeypatch.setattr(table_events, "DEALER_EVENTS",
                        (*table_events.DEALER_EVENTS, TableRenamed))
    with pytest.raises(mapping.MappingError, match="TableRenamed has no case"):
        mapping._pair_events()


def test_a_field_that_does_not_pair_up_fails_loudly() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class PlayerSatIn:  # the message's name, with a field the message lacks
        seat: int
        why: str

    PlayerSatIn.__module__ = "poker.vocab.table_events"
    with pytest.raises(mapping.MappingError, match=r"PlayerSatIn.why <-> poker.v1.PlayerSatIn"):
        mapping.encoder(PlayerSatIn, tpb.PlayerSatIn.DESCRIPTOR)

    @dataclasses.dataclass(frozen=True, slots=True)
    class BlindMissed:  # lacks a field the message has
        seat: int

    BlindMissed.__module__ = "poker.vocab.table_events"
    with pytest.raises(mapping.MappingError, match=r"BlindMissed.blind .*the dataclass has no"):
        mapping.encoder(BlindMissed, tpb.BlindMissed.DESCRIPTOR)


def test_the_modules_doctests_pass() -> None:
    import doctest

    from services.dealer import codec

    for module in (mapping, codec):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_an_event_field_whose_default_is_none_needs_presence_on_the_wire() -> None:
    """None and 0 are different values of an event field (R5: no small blind vs seat 0):
    the message field must say whether it is set, and both come back as they went."""
    from poker.vocab.config import PlayerIn, TableConfig
    from poker.vocab.events import HandStarted
    from services.dealer import codec

    players = (PlayerIn(0, "a", 100), PlayerIn(1, "b", 100), PlayerIn(5, "c", 100))
    for small, big in ((5, 0), (0, 1), (None, 0), (None, None)):
        e = HandStarted("t-3", TableConfig(), TableConfig().levels[0], players, 0, "",
                        small, big)
        assert codec.loads(codec.dumps(e)) == e, (small, big)


@pytest.mark.parametrize("salts", [
    tuple(bytes([i]) * 16 for i in range(52)),  # a deck's: one length, joined at C speed
    (b"ab", b"abc", b""), (b"",), (b"x" * 200, b"y" * 200), ()])
def test_repeated_bytes_are_the_message_s_bytes_whatever_their_lengths(
        salts: tuple[bytes, ...]) -> None:
    from poker.vocab.table_events import HandSalt

    data = mapping.to_event_bytes(HandSalt(salts=salts, deck=tuple(range(52))))
    parsed = tpb.TableEvent.FromString(data)
    assert tuple(parsed.hand_salt.salts) == salts
    assert parsed.SerializeToString() == data  # upb writes the same bytes


def test_a_field_written_by_value_gives_the_message_s_bytes_and_its_memory_is_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A field whose values repeat is written through a `_Memo` (its bytes kept by value):
    over more distinct values than it keeps, every write is still the message's
    serialization, zeros and large values included, and the memory starts again at
    MEMO_LIMIT; an instant (`*_unix_ms`) and a sequence are not kept."""
    monkeypatch.setattr(mapping, "MEMO_LIMIT", 64)
    mapping._PLAN_CACHE.clear()
    mapping._WRITERS.clear()
    try:
        to_message = mapping.encoder(TurnStarted, tpb.TurnStarted.DESCRIPTOR)
        for i in range(300):
            amount = (i * 7919) % 200 * (1 if i % 3 else 10**9)  # zeros, repeats, big ones
            turn = TurnStarted(seat=i % 9, decision="bet", action_number=i,
                               deadline_ms=1_764_633_600_000 + i, can_call=bool(i % 2),
                               call_amount=amount, bet_kind="raise" if i % 4 else "",
                               min_to=amount * 2, max_to=10**12 - i, all_in_to=amount,
                               time_bank_ms=(i % 5) * 1000,
                               bank_deadline_unix_ms=(1_764_633_630_000 + i) if i % 5 else 0)
            body = mapping.writer(TurnStarted, tpb.TurnStarted.DESCRIPTOR)(turn)
            assert body == to_message(turn).SerializeToString(), turn
        memos = [w.__self__ for w in _writers_of(TurnStarted) if isinstance(
            getattr(w, "__self__", None), mapping._Memo)]
        assert memos and all(len(m) <= 64 for m in memos)
    finally:
        mapping._PLAN_CACHE.clear()
        mapping._WRITERS.clear()
    fields = tpb.TurnStarted.DESCRIPTOR.fields_by_name
    assert mapping._repeats(fields["action_number"])
    assert not mapping._repeats(fields["deadline_unix_ms"])
    assert not mapping._repeats(fields["bank_deadline_time"]) and mapping._repeats(
        fields["time_bank"])
    assert not mapping._repeats(tpb.TableEvent.DESCRIPTOR.fields_by_name["sequence"])


def _writers_of(cls: type) -> list[Any]:
    """The field writers a class's compiled plan uses: found through its closures, and
    through the names a generated writer (`<writer of ...>`) binds."""
    found, seen, todo = [], set(), [mapping.writer(cls, mapping._CASES[cls].message_type)]
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        found.append(f)
        code = getattr(f, "__code__", None)
        if code is not None and code.co_filename.startswith("<writer of"):
            todo.extend(v for k, v in f.__globals__.items() if k != "__builtins__"
                        and callable(v))
        for cell in getattr(f, "__closure__", None) or ():
            value = cell.cell_contents
            items = value if isinstance(value, list | tuple) else [value]
            todo.extend(x for x in items if callable(x))
    return found


@dataclasses.dataclass(frozen=True)
class _HandNumber:
    n: int


@dataclasses.dataclass(frozen=True)
class _DealLimit:
    table_id: str
    until_hand: _HandNumber | None = None


def test_a_registered_scalar_in_an_integer_field_is_converted_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A scalar type of its own (`mapping.scalar`) in an int field with presence crosses
    converted once (a second conversion, of the converted int, would fail); None is
    not written, a zero is (presence)."""
    from poker.v1 import dealer_operator_api_pb2 as opb

    monkeypatch.setattr(mapping, "_SCALARS", dict(mapping._SCALARS))
    monkeypatch.setattr(mapping, "_PLAN_CACHE", {})
    mapping.scalar(_HandNumber, lambda h: h.n, _HandNumber)
    write = mapping.writer(_DealLimit, opb.SetDealLimitRequest.DESCRIPTOR)
    for until in (300, 0):
        assert write(_DealLimit("t1", _HandNumber(until))) == opb.SetDealLimitRequest(
            table_id="t1", until_hand=until).SerializeToString()
    assert write(_DealLimit("t1")) == opb.SetDealLimitRequest(table_id="t1").SerializeToString()


def test_a_decoder_reads_a_flattened_field_from_the_event_first_and_each_field_once() -> None:
    """TurnStarted's seat and decision are both the event's own and its legal actions':
    the event's own win (a message whose two differ, which no dealer writes, decodes to
    the top-level ones), the rest come from the legal actions; the decoder is one
    function named after its class and message."""
    message = tpb.TableEvent(sequence=9, hand_id="t-1", turn_started=tpb.TurnStarted(
        seat=3, decision=vpb.DECISION_BET, action_number=4,
        legal_actions=vpb.LegalActions(seat=5, decision=vpb.DECISION_SHOW_OR_MUCK,
                                       can_fold=True, call_amount=40, max_to=900)))
    event = mapping.from_event(message)
    assert isinstance(event, TurnStarted)
    assert (event.seat, event.decision, event.can_fold, event.call_amount, event.max_to) == (
        3, "bet", True, 40, 900)
    decode = mapping.decoder(TurnStarted, tpb.TurnStarted.DESCRIPTOR)
    assert decode.__code__.co_filename == (
        "<decoder of TurnStarted from poker.v1.TurnStarted>")
