"""The lobby's request journal (services/lobby/journal.py), on SQLite and PostgreSQL: a repeat
within the retention gets the same answer, a refusal too; the same id with other fields is
INVALID_ARGUMENT, reason REQUEST_ID_REUSED (lobby.proto); entries go after the retention and
past the bound; the answer is written in the transaction of what the request did; a database
of the version before (operations with fingerprints, no journal) is journaled at start and its
requests still answered.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer

from poker.journal import Entry, Key, Retention, prune_all
from services.lobby.errors import NotFound, RequestReused
from services.lobby.journal import LobbyJournal
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import TableRules
from services.lobby.storage import PostgresStorage, SqliteStorage, Storage, Tx

D1 = "d1:1"
RULES = TableRules(seats=3, min_buy_in=100, max_buy_in=1000, max_rebuys=2)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lobby(storage: Storage, dealer: FakeDealer, clock: Clock) -> Iterator[Lobby]:
    room = Lobby(storage, dealer, [D1], retention=Retention(2, 5, clock))
    room.create_player("ann", "Ann")
    room.deposit("ann", 1000, "fund-ann")
    room.open_table("T1", RULES, {}, "open-1", table_id="t1")
    yield room
    room.stop()


def entries(lobby: Lobby) -> list[tuple[str, str, str]]:
    rows = lobby.ctx.tx(lambda tx: tx.all("SELECT call, scope, request_id FROM journal"))
    return sorted((r["call"], r["scope"], r["request_id"]) for r in rows)


def test_a_repeat_gets_the_same_answer_and_a_refusal_the_same_refusal(lobby: Lobby) -> None:
    first = lobby.join("ann", "t1", None, 300, False, "j1")
    again = lobby.join("ann", "t1", None, 300, False, "j1")
    assert (again.id, again.seat, again.state) == (first.id, first.seat, OpState.DONE)
    assert again.seat_token == first.seat_token
    assert lobby.player("ann").balance == 700  # debited once
    with pytest.raises(RequestReused, match="'j1' was already used for a buy-in of 300"):
        lobby.join("ann", "t1", None, 400, False, "j1")
    with pytest.raises(NotFound) as refused:
        lobby.rebuy("ann", "t9", 100, "r1")
    lobby.open_table("T9", RULES, {}, "open-9", table_id="t9")
    with pytest.raises(NotFound) as again_refused:  # journaled: the same answer, now too
        lobby.rebuy("ann", "t9", 100, "r1")
    assert str(again_refused.value) == str(refused.value)
    with pytest.raises(RequestReused, match="'r1'"):
        lobby.rebuy("ann", "t9", 101, "r1")
    assert ("JoinTable", "ann", "j1") in entries(lobby)
    assert ("Rebuy", "ann", "r1") in entries(lobby)


def test_entries_are_pruned_after_the_retention_and_past_the_bound(
        lobby: Lobby, clock: Clock) -> None:
    with pytest.raises(NotFound):
        lobby.join("ann", "t9", None, 300, False, "j1")
    clock.now += 3600
    assert prune_all(lobby.ctx.journal) == 0
    lobby.open_table("T9", RULES, {}, "open-9", table_id="t9")
    clock.now += 3601  # the refusal is past two hours: the request is a new one
    assert prune_all(lobby.ctx.journal) == 2  # the refusal, and the first table's opening
    joined = lobby.join("ann", "t9", None, 300, False, "j1")
    assert joined.state is OpState.DONE and lobby.player("ann").balance == 700
    clock.now += 3 * 3600  # the buy-in's entry goes too; its operation stays
    assert prune_all(lobby.ctx.journal) == 2
    lobby.leave("ann", "t9", "l1")
    again = lobby.join("ann", "t9", None, 300, False, "j1")  # a new request: a new buy-in
    assert again.id != joined.id and again.state is OpState.DONE
    assert lobby.player("ann").balance == 700 and lobby.audit().ok
    for n in range(6):
        clock.now += 1
        lobby.open_table(f"M{n}", RULES, {}, f"m{n}", table_id=f"m{n}")
    assert prune_all(lobby.ctx.journal) == 1  # bounded: the newest five of an RPC stay
    assert [e[2] for e in entries(lobby)] == ["j1", "l1", "m1", "m2", "m3", "m4", "m5"]


def test_the_answer_is_written_in_the_transaction_of_the_effect(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    written = LobbyJournal.put

    def put_then_fail(self: LobbyJournal, key: Key, entry: Entry, tx: Tx | None = None) -> None:
        written(self, key, entry, tx)
        raise RuntimeError("the database went away (injected)")

    monkeypatch.setattr(LobbyJournal, "put", put_then_fail)
    with pytest.raises(RuntimeError, match="injected"):
        lobby.join("ann", "t1", None, 300, False, "j1")
    monkeypatch.undo()
    # Neither the answer nor the buy-in is in the database: no entry, seat, operation or debit.
    assert ("JoinTable", "ann", "j1") not in entries(lobby)
    assert lobby.player("ann").balance == 1000 and not lobby.table("t1").seats
    assert lobby.ctx.tx(lambda tx: tx.all("SELECT id FROM operations WHERE kind = 'join'")) == []
    assert lobby.join("ann", "t1", None, 300, False, "j1").state is OpState.DONE
    assert lobby.player("ann").balance == 700 and lobby.audit().ok


def test_a_database_of_the_version_before_is_journaled_and_keeps_its_answers(
        storage: Storage, dealer: FakeDealer) -> None:
    room = Lobby(storage, dealer, [D1])
    room.create_player("ann", "Ann")
    room.deposit("ann", 1000, "fund-ann")
    room.open_table("T1", RULES, {}, "open-1", table_id="t1")
    first = room.join("ann", "t1", None, 300, False, "j1", by="*")
    left = room.leave("ann", "t1", "l1")
    room.stop()
    # The version before kept no journal: its operations (fingerprinted) were the record.
    storage.transact(lambda tx: tx.execute("DROP TABLE journal"))
    room = Lobby(storage, dealer, [D1])
    assert entries(room) == [("JoinTable", "*", "j1"), ("LeaveTable", "ann", "l1"),
                             ("OpenTable", "*", "open-1")]
    again = room.join("ann", "t1", None, 300, False, "j1", by="*")
    assert (again.id, again.seat, again.state) == (first.id, first.seat, OpState.DONE)
    assert room.leave("ann", "t1", "l1").id == left.id
    assert room.player("ann").balance == 1000  # nothing moved again
    with pytest.raises(RequestReused, match="'j1'"):
        room.join("ann", "t1", None, 400, False, "j1", by="*")
    assert room.open_table("T1", RULES, {}, "open-1", table_id="t1").table_id == "t1"
    assert room.audit().ok
    room.stop()


def test_copies_of_a_request_racing_on_two_lobbies_act_once(storage: Storage) -> None:
    dealer = FakeDealer()
    second: Storage = storage
    if isinstance(storage, PostgresStorage):
        second = PostgresStorage(storage.dsn)
    elif isinstance(storage, SqliteStorage):
        second = SqliteStorage(storage.path)
    rooms = [Lobby(storage, dealer, [D1]), Lobby(second, dealer, [D1])]
    rooms[0].open_table("T1", RULES, {}, "open-1", table_id="t1")
    rooms[0].create_player("ann", "Ann")
    rooms[0].deposit("ann", 1000, "fund-ann")
    answers: list[tuple[str, int]] = []
    start = threading.Barrier(8)

    def copy(i: int) -> None:
        start.wait()
        op = rooms[i % 2].join("ann", "t1", None, 300, False, "j1")
        answers.append((op.id, op.seat))

    threads = [threading.Thread(target=copy, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 8 and len(set(answers)) == 1
    assert rooms[0].player("ann").balance == 700 and rooms[0].audit().ok
    for room in rooms:
        room.stop()
    if second is not storage:
        second.close()
