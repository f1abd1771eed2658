"""WatchTournament by push (services/lobby/tournament/watch.py), over gRPC in process:
an event reaches a watcher as the director appends it, an idle stream reads nothing
from the store, a stream resumes from a sequence number, and the bounds refuse with
RESOURCE_EXHAUSTED (TOO_MANY_WATCHERS) and a RetryInfo."""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from poker.v1 import tournament_pb2 as pb
from poker.v1 import tournament_pb2_grpc
from services.lobby.lobby import Lobby
from services.lobby.storage import SqliteStorage
from services.lobby.tournament.director import Director
from services.lobby.tournament.watch import Watchers
from tests.tournament.fakes import HandDealer, serve_lobby

OPERATOR = "op-secret"


class Room:
    """A lobby and its director in process (no director loop: the test appends events)."""

    def __init__(self, path: str) -> None:
        self.storage = SqliteStorage(path)
        self.reads = 0
        transact = self.storage.transact

        def counted(fn: Callable[..., Any]) -> Any:
            self.reads += 1
            return transact(fn)

        self.storage.transact = counted  # type: ignore[method-assign]
        self.lobby = Lobby(self.storage, HandDealer(), ["d1"])
        self.director = Director(self.lobby.ctx, ["d1"], rng=random.Random(1))
        self.running, self.channel = serve_lobby(self.lobby, self.director, OPERATOR)
        self.stub = tournament_pb2_grpc.TournamentServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.metadata = [("authorization", f"Bearer {OPERATOR}")]
        for i in range(4):
            self.lobby.create_player(f"p{i}", f"P{i}")
            self.lobby.deposit(f"p{i}", 1000, f"d{i}")
        self.stub.CreateTournament(pb.CreateTournamentRequest(
            tournament_id="tn1", name="push", request_id="c1", structure=pb.TournamentStructure(
                buy_in=100, fee=10, starting_stack=1000, table_size=6, max_players=4,
                levels=[pb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)])),
            metadata=self.metadata, timeout=10)

    def register(self, player: str) -> None:
        self.director.register("tn1", player, f"r-{player}")

    def watch(self, after: int = 0, timeout: float = 30) -> Any:
        return self.stub.WatchTournament(pb.WatchTournamentRequest(
            tournament_id="tn1", after_sequence=after), metadata=self.metadata,
            timeout=timeout)

    def close(self) -> None:
        self.channel.close()
        self.running.stop(0)
        self.storage.close()


@pytest.fixture
def room(tmp_path: Any) -> Iterator[Room]:
    r = Room(str(tmp_path / "lobby.db"))
    try:
        yield r
    finally:
        r.close()


def _reader(stream: Any) -> queue.Queue[tuple[float, Any]]:
    """Each event of `stream` as it arrives, with when (monotonic)."""
    got: queue.Queue[tuple[float, Any]] = queue.Queue()

    def run() -> None:
        try:
            for reply in stream:
                for e in reply.events:
                    got.put((time.monotonic(), e))
        except grpc.RpcError:
            pass

    threading.Thread(target=run, daemon=True).start()
    return got


def test_watch_tournament_pushes_each_event_and_reads_nothing_while_idle(room: Room) -> None:
    stream = room.watch()
    got = _reader(stream)
    first = got.get(timeout=5)[1]
    assert first.kind == pb.TOURNAMENT_EVENT_KIND_CREATED and first.sequence == 1
    time.sleep(0.2)  # the stream is waiting now
    before = room.reads
    time.sleep(1.0)
    assert room.reads == before, f"{room.reads - before} store reads in 1 s with no event"
    for player in ("p0", "p1"):
        sent = time.monotonic()
        room.register(player)
        at, event = got.get(timeout=5)
        assert event.kind == pb.TOURNAMENT_EVENT_KIND_REGISTERED and event.player_id == player
        assert at - sent < 0.5, f"the event took {at - sent:.3f} s to arrive"
    stream.cancel()
    # Resumable: from a sequence number on, the rest (and then live).
    tail = room.watch(after=2)
    rest = _reader(tail)
    assert [rest.get(timeout=5)[1].sequence] == [3]
    room.register("p2")
    assert rest.get(timeout=5)[1].player_id == "p2"
    tail.cancel()


def _refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, float, dict[str, str]]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    found = rpc_status.from_call(info.value)
    assert found is not None
    retry, reason, meta = 0.0, "", {}
    for detail in found.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            r = error_details_pb2.RetryInfo()
            detail.Unpack(r)
            retry = r.retry_delay.seconds + r.retry_delay.nanos / 1e9
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            e = error_details_pb2.ErrorInfo()
            detail.Unpack(e)
            reason, meta = e.reason, dict(e.metadata)
    meta["reason"] = reason
    return info.value.code(), info.value.details(), retry, meta


def _wait_for(predicate: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.01)


def test_watch_tournament_bounds_refuse_with_retry_info_and_free_on_cancel(
        room: Room) -> None:
    room.director.watchers.per_tournament, room.director.watchers.total = 2, 3
    streams = [room.watch() for _ in range(2)]
    readers = [_reader(s) for s in streams]
    for r in readers:
        r.get(timeout=5)
    code, text, retry, meta = _refusal(lambda: next(iter(room.watch())))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and "at most 2" in text
    assert retry > 0 and meta["reason"] == "TOO_MANY_WATCHERS" and meta["limit"] == "2"
    assert room.director.watchers.watching("tn1") == 2  # the refused one holds nothing
    streams[0].cancel()  # a cancelled stream frees its place at once
    _wait_for(lambda: room.director.watchers.watching("tn1") == 1)
    again = room.watch()
    _reader(again).get(timeout=5)
    # the lobby's bound: another tournament, the process full
    room.stub.CreateTournament(pb.CreateTournamentRequest(
        tournament_id="tn2", name="other", request_id="c2", structure=pb.TournamentStructure(
            buy_in=100, fee=10, starting_stack=1000, table_size=6, max_players=4,
            levels=[pb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)])),
        metadata=room.metadata, timeout=10)
    other = room.stub.WatchTournament(pb.WatchTournamentRequest(tournament_id="tn2"),
                                      metadata=room.metadata, timeout=30)
    _reader(other).get(timeout=5)
    code, text, retry, meta = _refusal(lambda: next(iter(room.stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id="tn2"), metadata=room.metadata,
        timeout=5))))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and "streams, at most 3" in text
    assert retry > 0 and meta["reason"] == "TOO_MANY_WATCHERS"
    for s in (streams[1], again, other):
        s.cancel()
    _wait_for(lambda: sum(room.director.watchers.watching(t) for t in ("tn1", "tn2")) == 0)


def test_watch_tournament_ends_at_once_when_the_server_stops(room: Room) -> None:
    stream = room.watch()
    got = _reader(stream)
    got.get(timeout=5)
    started = time.monotonic()
    room.director.watchers.close()  # the lobby's on_stopping
    _wait_for(lambda: room.director.watchers.watching("tn1") == 0, 3.0)
    assert time.monotonic() - started < 3.0


def test_watchers_wake_only_for_their_tournament() -> None:
    w = Watchers(per_tournament=2, total=4)
    mine, theirs = w.join("a"), w.join("b")
    woke: list[bool] = []
    thread = threading.Thread(target=lambda: woke.append(mine.wait(0, timeout=2.0)))
    thread.start()
    w.published("b", 5)
    assert not theirs.wait(5, timeout=0.0)
    time.sleep(0.1)
    assert thread.is_alive(), "woken by another tournament's event"
    w.published("a", 1)
    thread.join(2)
    assert woke == [True]
    mine.leave()
    theirs.leave()
    assert w.watching("a") == w.watching("b") == 0


def test_the_watch_and_noted_modules_doctests_pass() -> None:
    import doctest

    from services.lobby.tournament import noted, watch

    for module in (watch, noted):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


@pytest.mark.parametrize("storage", ["postgresql"], indirect=True)
def test_watch_tournament_hears_another_lobby_process_on_postgresql(storage: Any) -> None:
    from services.lobby.tournament.service import structure_of

    here = Lobby(storage, HandDealer(), ["d1"])
    writer = Director(here.ctx, ["d1"])  # the process that appends
    reader = Director(Lobby(storage, HandDealer(), ["d1"]).ctx, ["d1"])  # another one
    reader.listen()
    try:
        assert reader.listener is not None and reader.listener.listening.wait(10)
        assert not reader.watchers.shared  # listening: no reads now and then
        writer.create("pg", structure_of(pb.TournamentStructure(
            buy_in=100, fee=10, starting_stack=1000, table_size=6, max_players=4,
            levels=[pb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)])),
            "c1", "tn1")
        watcher = reader.watchers.join("tn1")
        here.create_player("p0", "P0")
        here.deposit("p0", 1000, "d0")
        sent = time.monotonic()
        writer.register("tn1", "p0", "r-p0")
        assert watcher.wait(1, timeout=5.0), "not told of the other process's event"
        assert time.monotonic() - sent < 1.0
        assert [e.kind for e in reader.events("tn1", 1)] == ["registered"]
        watcher.leave()
    finally:
        reader.stop()


@pytest.mark.parametrize("storage", ["postgresql"], indirect=True)
def test_a_lobby_process_is_woken_by_another_process_s_notification_not_by_its_own(
        storage: Any) -> None:
    """Every notification is published to the watchers; only one another process sent
    wakes the director (`heard`): this process's own changes woke it where they were
    made, and its own ticks are the loop, so hearing them again was one extra pass a
    change. A notification's sender is its server process id (`Notify.pid`)."""
    import psycopg

    from services.lobby.tournament.watch import PgListener

    watchers, heard = Watchers(), []
    listener = PgListener(storage.dsn, watchers, heard=lambda: heard.append(1),
                          own=lambda pid: pid in storage.backend_pids())
    listener.start()
    try:
        assert listener.listening.wait(10)
        mine, theirs = watchers.join("mine"), watchers.join("theirs")
        storage.transact(lambda tx: tx.execute("SELECT pg_notify(?, ?)",
                                               ("tournament_events", "mine 1")))
        assert mine.wait(0, timeout=5.0)  # published all the same
        with psycopg.connect(storage.dsn, autocommit=True) as other:  # another process's
            other.execute("SELECT pg_notify('tournament_events', 'theirs 1')")
        assert theirs.wait(0, timeout=5.0)
        time.sleep(0.2)
        assert heard == [1]  # the other process's only
        assert storage.backend_pids()  # the pool's connections, by server process id
        mine.leave()
        theirs.leave()
    finally:
        listener.stop()
