"""AIP-142 time fields: every time field added since the published API (protos/BASELINE)
has a google.protobuf.Duration / Timestamp twin; the servers write both forms, read the
typed one when set (else the deprecated integer), refuse both set and different, and
refuse a Duration or Timestamp that is not a valid time for its field; data written with
the integers alone (the dealer's store, the lobby's) reads to the same values; the SDK
keeps its integer attributes, read from the typed fields.

Over gRPC: a dealer process (the dealer's calls, its store), and the lobby's servicers
in process with a dealer in memory (tests/tournament/test_service.py's `room`).
"""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from clients import convert
from clients import tournament as sdk_tournament
from clients.events import TimeBankUsed as SdkTimeBankUsed
from clients.events import TurnStarted as SdkTurnStarted
from clients.models import HandView as SdkHandView
from clients.models import SeatView as SdkSeatView
from clients.models import TableConfig as SdkTableConfig
from clients.models import TableView as SdkTableView
from poker import mapping, timefields
from poker.procs import ServiceProcess
from poker.v1 import dealer_pb2 as pb
from poker.v1 import lobby_pb2 as lpb
from poker.v1 import tournament_pb2 as tpb
from poker.vocab import table_events as ev
from poker.vocab.config import Level, PlayerIn, TableConfig
from poker.vocab.events import HandStarted
from services.dealer import codec
from services.lobby.dealer_client import game_config
from services.lobby.server import filled
from tests.dealer.helpers import SVC, Client, Watcher, auth, count, start_dealer
from tests.tournament import test_service as tournaments

room = tournaments.room  # the lobby and its TournamentService over gRPC, a dealer in memory

MS = 1_000_000  # nanos


def _ms(typed: Any) -> int:
    """A Duration's or Timestamp's milliseconds, computed here (not by the code under test)."""
    return int(typed.seconds) * 1000 + int(typed.nanos) // MS


def _typed_fields(message: Any) -> list[str]:
    """The Duration / Timestamp fields set anywhere in a message (by type, not by name)."""
    found = []
    for fd, value in message.ListFields():
        if fd.type != fd.TYPE_MESSAGE:
            continue
        if fd.message_type.full_name in (timefields.DURATION, timefields.TIMESTAMP):
            found.append(fd.full_name)
        else:
            for item in (value if fd.is_repeated else [value]):
                found.extend(_typed_fields(item))
    return found


def _strip(message: Any) -> None:
    """The message as the code before AIP-142 wrote it: no Duration / Timestamp field."""
    for fd, value in message.ListFields():
        if fd.type != fd.TYPE_MESSAGE:
            continue
        if fd.message_type.full_name in (timefields.DURATION, timefields.TIMESTAMP):
            message.ClearField(fd.name)
        else:
            for item in (value if fd.is_repeated else [value]):
                _strip(item)


def _refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, str]:
    """(code, ErrorInfo reason, BadRequest's field) of a refused call."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    err = info.value
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None, "no grpc-status-details-bin trailer"
    reason, field = "", ""
    for packed in status.details:
        if packed.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            found = error_details_pb2.ErrorInfo()
            packed.Unpack(found)
            reason = found.reason
        elif packed.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            packed.Unpack(bad)
            field = bad.field_violations[0].field
    return err.code(), reason, field


# ------------------------------------------------------------------ the dealer

@pytest.fixture(scope="module")
def dealer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    folder = tmp_path_factory.mktemp("aip142")
    proc = start_dealer(folder / "dealer.sqlite", log_path=folder / "dealer.log")
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def client(dealer: ServiceProcess) -> Iterator[Client]:
    c = Client(dealer.address)
    yield c
    c.close()


def _config(**fields: Any) -> pb.TableConfig:
    """A table config; `time_bank=ms` and the like set a Duration field."""
    typed = {k: fields.pop(k) for k in list(fields) if k in (
        "time_bank", "sit_out_limit", "time_bank_refill", "seed_timeout")}
    config = pb.TableConfig(pause_between_hands_ms=0, **fields)
    for name, value in typed.items():
        duration = getattr(config, name)
        duration.SetInParent()  # set, even when zero
        if isinstance(value, tuple):
            duration.seconds, duration.nanos = value
        else:
            duration.FromMilliseconds(value)
    return config


def _create(client: Client, config: pb.TableConfig) -> pb.CreateTableResponse:
    return client.stub.CreateTable(pb.CreateTableRequest(config=config), metadata=SVC,
                                   timeout=10)


@pytest.mark.parametrize("given", [
    dict(time_bank=7_000),  # the Duration alone (a client of today)
    dict(time_bank_ms=7_000),  # the deprecated integer alone (a client of the current main)
    dict(time_bank=7_000, time_bank_ms=7_000),  # both, equal
], ids=["duration", "integer", "both"])
def test_a_turn_started_carries_the_time_bank_both_ways_and_they_agree(
        client: Client, given: dict[str, int]) -> None:
    reply = _create(client, _config(action_time_ms=10_000, **given))
    # honoured, whichever form: 7 s, not the rule book's default of 30 s
    assert (reply.config.time_bank_ms, _ms(reply.config.time_bank)) == (7_000, 7_000)
    # every time field of the config comes both ways, the defaults too
    assert (reply.config.sit_out_limit_ms, _ms(reply.config.sit_out_limit)) == (
        1_800_000, 1_800_000)
    assert (reply.config.seed_time_ms, _ms(reply.config.seed_timeout)) == (1_000, 1_000)
    tokens = client.seat(reply.table_id, [1000, 1000])
    watcher = Watcher(client, reply.table_id)
    try:
        watcher.wait(lambda evs: count(evs, "turn_started") >= 1)
        event = next(e for e in watcher.events if e.HasField("turn_started"))
        turn = event.turn_started
        assert turn.time_bank_ms == 7_000 and _ms(turn.time_bank) == 7_000
        assert turn.bank_deadline_unix_ms == turn.deadline_unix_ms + 7_000
        assert _ms(turn.bank_deadline_time) == turn.bank_deadline_unix_ms
        # the SDK's attributes stay integers in ms, read from the typed fields
        sdk = convert.event_from_proto(event)
        assert isinstance(sdk, SdkTurnStarted)
        assert (sdk.time_bank_ms, sdk.bank_deadline_unix_ms) == (
            7_000, turn.bank_deadline_unix_ms)
        view = client.view(reply.table_id, tokens[turn.seat])
        assert (view.hand.time_bank_ms, _ms(view.hand.time_bank)) == (7_000, 7_000)
        assert _ms(view.hand.bank_deadline_time) == view.hand.bank_deadline_unix_ms == (
            turn.bank_deadline_unix_ms)
        assert [(s.time_bank_ms, _ms(s.time_bank)) for s in view.seats] == [(7_000, 7_000)] * 2
        assert (view.config.time_bank_ms, _ms(view.config.time_bank)) == (7_000, 7_000)
        assert convert.from_proto(SdkTableView, view).hand.time_bank_ms == 7_000  # type: ignore[union-attr]
    finally:
        watcher.cancel()


def test_both_forms_disagreeing_is_invalid_argument_naming_the_typed_field(
        client: Client) -> None:
    code, reason, field = _refusal(lambda: _create(client, _config(
        time_bank=5_000, time_bank_ms=4_000)))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, "TIME_FIELDS_DISAGREE",
                                     "config.time_bank")
    # an integer field without presence: set means not zero
    code, reason, field = _refusal(lambda: _create(client, _config(
        seed_timeout=3_000, seed_time_ms=2_000)))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, "TIME_FIELDS_DISAGREE",
                                     "config.seed_timeout")
    # a zero Duration against an explicit integer is a disagreement too
    code, _, field = _refusal(lambda: _create(client, _config(
        time_bank=0, time_bank_ms=1_000)))
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "config.time_bank")


@pytest.mark.parametrize("duration", [
    (-1, 0),  # negative
    (0, -5 * MS),  # negative nanos
    (1, -5 * MS),  # the signs disagree: no Duration at all
    (0, 1_000_000_000),  # nanos out of range
    (1, 1),  # finer than a millisecond
    (10**10, 0),  # past what the uint32 of milliseconds holds
    (315_576_000_001, 0),  # past google.protobuf.Duration's own range
], ids=["negative", "negative-nanos", "mixed-signs", "nanos-range", "sub-ms", "too-long",
        "duration-range"])
def test_a_duration_that_is_no_valid_length_of_time_is_refused(
        client: Client, duration: tuple[int, int]) -> None:
    code, reason, field = _refusal(lambda: _create(client, _config(time_bank=duration)))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_TIME",
                                     "config.time_bank")


def test_every_bound_holds_for_both_forms(client: Client) -> None:
    # R35's bank is at most 600000 ms (poker.vocab.config): one millisecond past it is
    # refused the same way whichever form says it; the bound itself is accepted
    refused = []
    for given in (dict(time_bank=600_001), dict(time_bank_ms=600_001)):
        config = _config(**given)
        refused.append(_refusal(lambda config=config: _create(client, config)))
    assert refused[0][0] == refused[1][0] == grpc.StatusCode.INVALID_ARGUMENT
    assert refused[0][1] == refused[1][1]  # the same reason
    assert _create(client, _config(time_bank=600_000)).config.time_bank_ms == 600_000


# ------------------------------------------------------------------- the store

def test_old_event_bytes_with_only_the_integers_read_to_the_same_domain_values() -> None:
    deadline = 1_780_000_000_123
    old = {
        ev.TurnStarted(1, "bet", 4, deadline, can_fold=True, time_bank_ms=7_000,
                       bank_deadline_unix_ms=deadline + 7_000): pb.TableEvent(
            turn_started=pb.TurnStarted(
                seat=1, decision=pb.DECISION_BET, action_number=4, deadline_unix_ms=deadline,
                legal_actions=pb.LegalActions(seat=1, decision=pb.DECISION_BET, can_fold=True),
                time_bank_ms=7_000, bank_deadline_unix_ms=deadline + 7_000)),
        ev.TimeBankUsed(2, 1_500, 3_500): pb.TableEvent(
            time_bank_used=pb.TimeBankUsed(seat=2, used_ms=1_500, left_ms=3_500)),
        ev.DeckCommitted(3, "c0ffee", (0, 1), deadline): pb.TableEvent(
            deck_committed=pb.DeckCommitted(hand_number=3, commitment="c0ffee", seats=[0, 1],
                                            deadline_unix_ms=deadline)),
    }
    for event, message in old.items():
        data = message.SerializeToString()  # what the current main's dealer stored
        assert not _typed_fields(message)
        assert codec.loads(data) == event
        now = codec.dumps(event)  # today's: both forms, read back the same
        assert now != data and _typed_fields(pb.TableEvent.FromString(now))
        assert codec.loads(now) == event


def test_a_hands_stored_config_with_only_the_integers_reads_the_same() -> None:
    config = TableConfig(time_bank_ms=12_000, time_bank_refill_ms=1_000, sit_out_limit_ms=0,
                         seed_time_ms=2_500)
    event = HandStarted("t-1", config, Level(5, 10), (PlayerIn(0, "a", 100),
                                                      PlayerIn(1, "b", 100)), 0)
    message = pb.TableEvent.FromString(codec.dumps(event))
    stored = message.hand_started.config
    assert (_ms(stored.time_bank), _ms(stored.seed_timeout)) == (12_000, 2_500)
    assert stored.HasField("sit_out_limit") and _ms(stored.sit_out_limit) == 0  # 0: none
    _strip(message)
    assert not _typed_fields(message)
    assert codec.loads(message.SerializeToString()) == event


def test_a_dealer_store_written_with_only_the_integers_recovers_the_same(
        tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        table_id = _create(client, _config(action_time_ms=300, time_bank=5_000)).table_id
        tokens = client.seat(table_id, [1000, 1000])
        watcher = Watcher(client, table_id)
        watcher.wait(lambda evs: count(evs, "turn_started") >= 1)
        event = next(e for e in watcher.events if e.HasField("turn_started"))
        turn = event.turn_started
        time.sleep(max(0.0, (turn.deadline_unix_ms + 600) / 1000 - time.time()))
        client.stub.Act(pb.ActRequest(
            table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
            action_number=turn.action_number, kind=pb.ACTION_KIND_CALL),
            metadata=auth(tokens[turn.seat]), timeout=10)
        watcher.wait(lambda evs: count(evs, "time_bank_used") >= 1)
        used = next(e.time_bank_used for e in watcher.events if e.HasField("time_bank_used"))
        assert used.seat == turn.seat and 0 < used.used_ms < 5_000
        assert (_ms(used.time_used), _ms(used.time_left)) == (used.used_ms, used.left_ms)
        watcher.cancel()
    finally:
        client.close()
        proc.stop()
    # The store as the current main would have written it: every payload without its
    # Duration / Timestamp fields.
    store = sqlite3.connect(db)
    rows = store.execute("SELECT sequence, payload FROM events WHERE table_id = ?",
                         (table_id,)).fetchall()
    changed = 0
    for sequence, payload in rows:
        message = pb.TableEvent.FromString(payload)
        _strip(message)
        old = message.SerializeToString()
        assert codec.loads(old) == codec.loads(payload)  # the same domain event
        if old != payload:
            changed += 1
            store.execute("UPDATE events SET payload = ? WHERE table_id = ? AND sequence = ?",
                          (old, table_id, sequence))
    store.commit()
    store.close()
    assert changed >= 3  # the hand's config, the TurnStarted, the TimeBankUsed at least
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        view = client.view(table_id)
        banks = {s.seat: (s.time_bank_ms, _ms(s.time_bank)) for s in view.seats}
        assert banks[used.seat] == (used.left_ms, used.left_ms)  # folded from the old rows
        assert (view.config.time_bank_ms, _ms(view.config.time_bank)) == (5_000, 5_000)
    finally:
        client.close()
        proc.stop()


def test_the_lobbys_stored_config_with_only_the_integers_reads_the_same() -> None:
    # what the current main's lobby kept of a table's game (game_json of the request)
    old = {"seats": 2, "time_bank_ms": 9_000, "sit_out_limit_ms": 60_000}
    config = filled(game_config(old))
    assert (config.time_bank_ms, _ms(config.time_bank)) == (9_000, 9_000)
    assert (config.sit_out_limit_ms, _ms(config.sit_out_limit)) == (60_000, 60_000)
    typed_only = filled(game_config({"seats": 2, "time_bank": "9s"}))
    assert typed_only.time_bank_ms == 9_000  # the typed form alone is read too


# ------------------------------------------------------------------- the lobby

@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[Any]:
    """The LobbyService over gRPC, in process, a dealer in memory; its operator's stub."""
    from poker.serving import Service, start
    from poker.v1 import lobby_pb2_grpc
    from services.lobby.lobby import Lobby
    from services.lobby.server import SERVICE_NAME, LobbyServicer
    from services.lobby.storage import SqliteStorage
    from tests.tournament.fakes import HandDealer

    storage = SqliteStorage(str(tmp_path / "lobby.db"))
    servicer = LobbyServicer(Lobby(storage, HandDealer(), ["d1"]), tournaments.OPERATOR)
    running = start([Service([SERVICE_NAME], lambda s: (
        lobby_pb2_grpc.add_LobbyServiceServicer_to_server(servicer, s)))], "127.0.0.1", 0)
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    stub = lobby_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
    try:
        yield stub
    finally:
        channel.close()
        running.stop(0)
        storage.close()


def test_the_lobby_honours_and_checks_a_tables_durations(lobby: Any) -> None:
    def open_table(config: pb.TableConfig, request_id: str) -> Any:
        return lobby.OpenTable(lpb.OpenTableRequest(
            name="t", config=config, rules=lpb.TableRules(min_buy_in=100, max_buy_in=1000),
            request_id=request_id), metadata=auth(tournaments.OPERATOR), timeout=10)

    table = open_table(_config(seats=2, time_bank=6_000), "o1").table
    assert (table.config.time_bank_ms, _ms(table.config.time_bank)) == (6_000, 6_000)
    code, reason, field = _refusal(lambda: open_table(_config(
        seats=2, time_bank=6_000, time_bank_ms=5_000), "o2"))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, "TIME_FIELDS_DISAGREE",
                                     "config.time_bank")
    code, reason, field = _refusal(lambda: open_table(_config(
        seats=2, sit_out_limit=(-60, 0)), "o3"))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_TIME",
                                     "config.sit_out_limit")


def _structure(**kw: Any) -> tpb.TournamentStructure:
    levels = kw.pop("levels", [tpb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)])
    base: dict[str, Any] = dict(buy_in=100, fee=10, starting_stack=1000, table_size=6,
                                levels=levels)
    base.update(kw)
    return tpb.TournamentStructure(**base)


def test_a_tournament_structure_given_as_durations_and_timestamps_is_honoured(
        room: Any) -> None:
    op = room[0]
    start_ms = (int(time.time()) + 3_600) * 1000 + 250
    level = tpb.TournamentLevel(small_blind=10, big_blind=20)
    level.duration.FromSeconds(90)
    structure = _structure(levels=[level], min_players=2)
    structure.start_time.FromMilliseconds(start_ms)
    structure.action_timeout.FromMilliseconds(5_000)
    made = op.CreateTournament(tpb.CreateTournamentRequest(
        tournament_id="typed", name="typed", structure=structure, request_id="t1")).tournament
    s = made.structure
    assert (s.start_unix_ms, _ms(s.start_time)) == (start_ms, start_ms)
    assert (s.action_time_ms, _ms(s.action_timeout)) == (5_000, 5_000)
    assert (s.levels[0].minutes, _ms(s.levels[0].duration)) == (1.5, 90_000)
    assert (made.level.minutes, _ms(made.level.duration)) == (1.5, 90_000)


@pytest.mark.parametrize("case", ["levels-disagree", "timestamp-range", "negative-timeout",
                                  "zero-level"])
def test_a_tournament_structure_with_bad_times_is_refused(room: Any, case: str) -> None:
    op = room[0]
    level = tpb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)
    structure = _structure(max_players=4, levels=[level])
    if case == "levels-disagree":
        structure.levels[0].duration.FromSeconds(30 * 60)
        expect = ("TIME_FIELDS_DISAGREE", "structure.levels[0].duration")
    elif case == "timestamp-range":
        structure.start_time.seconds = 253_402_300_800  # the year 10000
        expect = ("INVALID_TIME", "structure.start_time")
    elif case == "negative-timeout":
        structure.action_timeout.FromMilliseconds(-1)
        expect = ("INVALID_TIME", "structure.action_timeout")
    else:  # a zero Duration is minutes 0: the structure's own bound refuses it
        structure.levels[0].ClearField("minutes")
        structure.levels[0].duration.SetInParent()
        expect = ("INVALID_ARGUMENT", "levels[0].minutes")
    code, reason, field = _refusal(lambda: op.CreateTournament(tpb.CreateTournamentRequest(
        name="bad", structure=structure, request_id=f"bad-{case}")))
    assert (code, reason, field) == (grpc.StatusCode.INVALID_ARGUMENT, *expect)


def test_get_tournaments_times_are_timestamps_and_durations_that_agree_with_the_ints(
        room: Any) -> None:
    op, players, director, _ = room
    levels = [tpb.TournamentLevel(small_blind=10, big_blind=20, minutes=60),
              tpb.TournamentLevel(small_blind=20, big_blind=40, minutes=60)]  # not the last
    op.CreateTournament(tpb.CreateTournamentRequest(
        tournament_id="sng", name="sng", structure=_structure(max_players=4, levels=levels),
        request_id="c-sng"))
    for name, stub in players.items():
        stub.RegisterTournament(tpb.RegisterTournamentRequest(tournament_id="sng",
                                                              request_id=f"r-{name}"))
    for _ in range(3):  # full: it starts
        director.tick()
        reply = op.GetTournament(tpb.GetTournamentRequest(tournament_id="sng"))
        if reply.tournament.state == tpb.TOURNAMENT_STATE_RUNNING:
            break
    t = reply.tournament
    assert t.state == tpb.TOURNAMENT_STATE_RUNNING and t.started_unix_ms > 0
    assert _ms(t.start_time) == t.started_unix_ms
    assert not t.HasField("end_time") and t.finished_unix_ms == 0  # not yet: unset
    assert t.level_seconds_left > 0
    assert _ms(t.level_time_left) == round(t.level_seconds_left * 1000)
    assert _ms(t.level.duration) == 60 * 60_000 == round(t.level.minutes * 60_000)
    # The SDK reads the typed fields: an answer carrying them alone gives the same ints.
    typed_only = tpb.GetTournamentResponse()
    typed_only.CopyFrom(reply)
    for message, names in ((typed_only.tournament, ("started_unix_ms", "level_seconds_left")),
                           (typed_only.tournament.level, ("minutes",))):
        for name in names:
            message.ClearField(name)
    read = sdk_tournament.get_tournament("sng").read(typed_only)
    assert (read.started_unix_ms, read.level.minutes) == (t.started_unix_ms, 60.0)
    assert read.level_seconds_left == round(t.level_seconds_left * 1000) / 1000
    # cancelled: the end time both ways; every event's time both ways
    op.CreateTournament(tpb.CreateTournamentRequest(
        tournament_id="gone", name="gone", structure=_structure(max_players=4),
        request_id="c-gone"))
    gone = op.CancelTournament(tpb.CancelTournamentRequest(
        tournament_id="gone", request_id="x-gone")).tournament
    assert gone.finished_unix_ms > 0 and _ms(gone.end_time) == gone.finished_unix_ms
    events = [e for r in op._stub.WatchTournament(
        tpb.WatchTournamentRequest(tournament_id="gone"), metadata=op._metadata, timeout=10)
        for e in r.events]
    assert len(events) >= 2
    assert all(e.time_unix_ms > 0 and _ms(e.event_time) == e.time_unix_ms for e in events)


# ------------------------------------------------------------------ the mapping, the SDK

#: (an event, how many typed times its STORE and its WIRE message carry)
_DOMAIN = [
    (ev.TurnStarted(0, "bet", 2, 1_780_000_000_001, time_bank_ms=30_000,
                    bank_deadline_unix_ms=1_780_000_030_001), 2, 2),
    (ev.TurnStarted(0, "bet", 2, 1_780_000_000_001), 0, 0),  # no bank: no twin either
    (ev.TimeBankUsed(1, 999, 0), 1, 1),  # nothing left: unset, as the integer's zero
    (ev.DeckCommitted(1, "c", (0, 1, 2), 1_780_000_001_000), 1, 1),
    (ev.DeckCommitted(1, "c", (0,), -1_500), 1, 1),  # before 1970: nanos stay positive
    (ev.TimeBankUsed(1, 16_384_001, 5), 2, 2),  # many seconds; a few milliseconds
    # the config (the store's alone): its four, time_bank's zero kept (it has presence)
    (HandStarted("t-1", TableConfig(time_bank_ms=0, seed_time_ms=60_000), Level(1, 2),
                 (PlayerIn(0, "a", 10), PlayerIn(1, "b", 10)), 1), 4, 0),
]


@pytest.mark.parametrize(("event", "store", "wire"), _DOMAIN,
                         ids=lambda x: type(x).__name__ if dataclasses.is_dataclass(x) else "")
def test_the_mapping_writes_protobufs_own_bytes_and_both_forms_agree(
        event: Any, store: int, wire: int) -> None:
    for profile, expected in ((mapping.STORE, store), (mapping.WIRE, wire)):
        message = mapping.to_event(event, profile=profile)
        assert mapping.to_event_bytes(event, profile=profile) == message.SerializeToString()
        checked = 0
        for body in _messages(message):
            for twin in timefields.twins(body.DESCRIPTOR).values():
                value = getattr(body, twin.integer.name)
                assert body.HasField(twin.typed.name) == twin.has_integer(body), twin.typed
                if body.HasField(twin.typed.name):
                    assert _ms(getattr(body, twin.typed.name)) == value * twin.unit_ms
                    checked += 1
        assert checked == expected, (profile, checked)
    assert mapping.from_event(mapping.to_event(event)) == event  # the store reads it back


def _messages(message: Any) -> Iterator[Any]:
    yield message
    for fd, value in message.ListFields():
        if fd.type == fd.TYPE_MESSAGE:
            for item in (value if fd.is_repeated else [value]):
                yield from _messages(item)


def test_the_sdk_reads_the_typed_fields_and_keeps_its_integer_attributes() -> None:
    seat = pb.SeatView(seat=2, player_id="ann", stack=990)
    seat.time_bank.FromMilliseconds(4_321)
    assert convert.from_proto(SdkSeatView, seat).time_bank_ms == 4_321
    hand = pb.HandView(hand_id="t-1", hand_number=1, deadline_unix_ms=10)
    hand.time_bank.FromMilliseconds(2_000)
    hand.bank_deadline_time.FromMilliseconds(2_010)
    read = convert.from_proto(SdkHandView, hand)
    assert (read.time_bank_ms, read.bank_deadline_unix_ms) == (2_000, 2_010)
    used = pb.TableEvent(sequence=3, time_bank_used=pb.TimeBankUsed(seat=1))
    used.time_bank_used.time_used.FromMilliseconds(777)
    used.time_bank_used.time_left.FromMilliseconds(223)
    sdk = convert.event_from_proto(used)
    assert isinstance(sdk, SdkTimeBankUsed) and (sdk.used_ms, sdk.left_ms) == (777, 223)
    # ... and an older server's integers alone
    assert convert.from_proto(SdkSeatView, pb.SeatView(seat=2, time_bank_ms=55)).time_bank_ms == 55
    # the SDK's requests carry both forms; None stays unset either way
    config = SdkTableConfig(time_bank_ms=0, sit_out_limit_ms=90_000).to_proto()
    assert (config.time_bank_ms, config.HasField("time_bank"), _ms(config.time_bank)) == (
        0, True, 0)
    assert _ms(config.sit_out_limit) == 90_000
    assert not config.HasField("time_bank_refill") and not config.HasField("time_bank_refill_ms")


# ------------------------------------------------------------------ the protos

#: Every typed time field, and the deprecated integer it replaces (a rename or a
#: renumbering of either fails here and at buf breaking).
PAIRS = {
    "poker.v1.TableConfig.seed_timeout": "seed_time_ms",
    "poker.v1.TableConfig.sit_out_limit": "sit_out_limit_ms",
    "poker.v1.TableConfig.time_bank": "time_bank_ms",
    "poker.v1.TableConfig.time_bank_refill": "time_bank_refill_ms",
    "poker.v1.TurnStarted.time_bank": "time_bank_ms",
    "poker.v1.TurnStarted.bank_deadline_time": "bank_deadline_unix_ms",
    "poker.v1.TimeBankUsed.time_used": "used_ms",
    "poker.v1.TimeBankUsed.time_left": "left_ms",
    "poker.v1.DeckCommitted.deadline_time": "deadline_unix_ms",
    "poker.v1.SeatView.time_bank": "time_bank_ms",
    "poker.v1.HandView.time_bank": "time_bank_ms",
    "poker.v1.HandView.bank_deadline_time": "bank_deadline_unix_ms",
    "poker.v1.TableView.last_hand_end_time": "last_hand_end_unix_ms",
    "poker.v1.TournamentLevel.duration": "minutes",
    "poker.v1.TournamentStructure.start_time": "start_unix_ms",
    "poker.v1.TournamentStructure.action_timeout": "action_time_ms",
    "poker.v1.Tournament.level_time_left": "level_seconds_left",
    "poker.v1.Tournament.start_time": "started_unix_ms",
    "poker.v1.Tournament.end_time": "finished_unix_ms",
    "poker.v1.TournamentEvent.event_time": "time_unix_ms",
}


def _all_messages() -> Iterator[Any]:
    """Every message of every poker.v1 file."""
    import importlib
    import pkgutil

    import poker.v1

    for info in pkgutil.iter_modules(poker.v1.__path__):
        if not info.name.endswith("_pb2"):
            continue
        module = importlib.import_module(f"poker.v1.{info.name}")
        pending = list(module.DESCRIPTOR.message_types_by_name.values())
        while pending:
            message = pending.pop()
            pending.extend(message.nested_types)
            yield message


def test_every_typed_time_field_has_its_deprecated_integer_twin() -> None:
    found = {}
    for message in _all_messages():
        pairs = timefields.twins(message)
        for fd in message.fields:
            if fd.type == fd.TYPE_MESSAGE and fd.message_type.full_name in (
                    timefields.DURATION, timefields.TIMESTAMP):
                twin = next(t for t in pairs.values() if t.typed is fd)  # paired
                assert twin.timestamp == (fd.message_type.full_name == timefields.TIMESTAMP)
                assert twin.integer.GetOptions().deprecated, twin.integer.full_name
                assert 140 <= fd.number <= 149, fd.full_name  # aip's range of numbers
                found[fd.full_name] = twin.integer.name
    assert found == PAIRS



def test_the_timefields_doctests_pass() -> None:
    import doctest

    result = doctest.testmod(timefields)
    assert result.attempted > 0 and result.failed == 0


def test_the_one_step_reader_of_a_millisecond_twin_reads_what_the_general_one_reads() -> None:
    """timefields.Twin.reader: the decoders' fast path for plain-millisecond twins gives
    `read`'s value for every sign and remainder of a Duration and for Timestamps."""
    from google.protobuf import duration_pb2, timestamp_pb2

    found = [twin for message in (pb.TurnStarted, pb.TimeBankUsed, pb.TableConfig)
             for twin in timefields.twins(message.DESCRIPTOR).values()]
    plain = [t for t in found if not t.floating and t.unit_ms == 1]
    assert plain and any(t.timestamp for t in plain) and any(not t.timestamp for t in plain)
    for twin in plain:
        fast = twin.reader()
        assert fast is not twin.read
        for seconds, nanos in [(0, 0), (30, 0), (1, 999_999_999), (0, 1), (5, 500_000),
                               (-1, -999_999), (-3, -1), (1_796_303_958, 122_000_000)]:
            if twin.timestamp and nanos < 0:
                continue  # a Timestamp's nanos are never negative
            typed = (timestamp_pb2.Timestamp if twin.timestamp else duration_pb2.Duration)(
                seconds=seconds, nanos=nanos)
            assert fast(typed) == twin.read(typed), (twin.typed.full_name, seconds, nanos)
