"""The dealer's PostgreSQL store in process: the Store interface, its version stamp and
refusal, and fencing at the store (services/dealer/store_pg.py, lease.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg
import pytest

from poker.journal import Entry, Key, Retention
from services.dealer.lease import Leases, owner_address
from services.dealer.store import ActRecord, Row, Snapshot, StoreFormatError
from services.dealer.store_pg import PG_SCHEMA_VERSION, Fenced, PgStore
from tests.pg_server import fresh_pg_dsn


@pytest.fixture
def dsn(pg_server: str) -> str:
    return fresh_pg_dsn(pg_server)


def _meta(conn: psycopg.Connection) -> dict[str, int]:
    """The database's version stamps (dealer_meta)."""
    return {str(k): int(v) for k, v in conn.execute("SELECT key, value FROM dealer_meta")}


def _table(store: PgStore, table_id: str) -> None:
    with store.batch():
        store.create_table(table_id, '{"c": 1}', 0)


def test_pg_store_keeps_what_the_sqlite_store_keeps(dsn: str) -> None:
    store = PgStore(dsn, "a", Retention())
    try:
        _table(store, "t1")
        store.write("t1", [(1, "", 10, b'{"e": 1}'), (2, "t1-1", 11, b'{"e": 2}')],
                    lambda: store.put_act("t1", "t1-1", 1, ActRecord(0, "call", 20, 2)))
        with store.batch():
            store.put_seat("t1", 0, "p0", "hash0")
            store.put_snapshot("t1", Snapshot(2, 3, "{}"))
        assert store.events("t1") == [Row(1, "", 10, b'{"e": 1}'), Row(2, "t1-1", 11, b'{"e": 2}')]
        assert store.events("t1", after=1, limit=1) == [Row(2, "t1-1", 11, b'{"e": 2}')]
        assert store.reader.events("t1", 0, 10) == store.events("t1")
        assert store.hand_events("t1", "t1-1") == [Row(2, "t1-1", 11, b'{"e": 2}')]
        assert store.act("t1", "t1-1", 1) == ActRecord(0, "call", 20, 2)
        assert store.seats("t1") == [(0, "p0", "hash0")]
        assert store.snapshot("t1") == Snapshot(2, 3, "{}")
        assert [t for t, _c, _closed in store.tables()] == ["t1"]
        # A journal entry put in the open transaction is found before it commits.
        with store.batch():
            store.journal.put(Key("set_level", "t1", "r1"), Entry("f", "w", "{}", 1))
            assert store.journal.find(Key("set_level", "t1", "r1")) is not None
        assert store.journal.find(Key("set_level", "t1", "r1")) == Entry("f", "w", "{}", 1)
        # A failed write undoes itself only.
        with pytest.raises(RuntimeError), store.batch():
            store.write("t1", [(3, "", 12, "{}")], lambda: (_ for _ in ()).throw(RuntimeError))
        assert len(store.events("t1")) == 2
    finally:
        store.close()


def test_pg_store_refuses_a_database_of_a_newer_dealer(dsn: str) -> None:
    PgStore(dsn, "a").close()  # stamps it
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert _meta(conn)["schema"] == PG_SCHEMA_VERSION
        conn.execute("UPDATE dealer_meta SET value = %s WHERE key = 'schema'",
                     (PG_SCHEMA_VERSION + 1,))
    with pytest.raises(StoreFormatError, match="newer dealer"):
        PgStore(dsn, "a")


def test_pg_store_opens_a_database_it_wrote_before(dsn: str) -> None:
    first = PgStore(dsn, "a")
    _table(first, "t1")
    first.write("t1", [(1, "", 10, b'{"e": 1}')])
    first.close()
    with psycopg.connect(dsn, autocommit=True) as conn:
        # The payload format main 1aac27e stamped (each event's TableEvent): the SQLite
        # store's format 3 (its `hands` rows) is no change of a PostgreSQL room's data.
        assert _meta(conn)["format"] == 2
    again = PgStore(dsn, "a")
    try:
        assert again.events("t1") == [Row(1, "", 10, b'{"e": 1}')]
    finally:
        again.close()


def _adopt(dsn: str, owner: str, lease_s: float = 0.2) -> Leases:
    leases = Leases(dsn, owner, owner, f"{owner}:1", lease_s=lease_s, renew_s=lease_s / 2)
    return leases


def test_fencing_a_write_after_the_lease_moved_lands_nothing(dsn: str) -> None:
    a = PgStore(dsn, "a", lease_s=0.2)
    lost: list[str] = []
    a.on_lost = lost.append
    try:
        _table(a, "t1")
        _table(a, "t2")
        a.write("t1", [(1, "", 10, "{}")])
        time.sleep(0.3)  # a paused: its leases run out
        found = _adopt(dsn, "b").round([])
        assert sorted(found.adopted) == [("t1", 2), ("t2", 2)]
        with pytest.raises(Fenced):
            a.write("t1", [(2, "", 11, "{}")])
        assert lost == ["t1"] and "t1" not in a.epochs
        assert [r.sequence for r in a.events("t1")] == [1]
        with psycopg.connect(dsn) as conn:
            assert owner_address(conn, "t1") == "b:1"  # where its clients are sent
    finally:
        a.close()


def test_fencing_a_group_commit_drops_the_lost_table_only(dsn: str) -> None:
    a = PgStore(dsn, "a", lease_s=0.3)
    lost: list[str] = []
    a.on_lost = lost.append
    try:
        _table(a, "t1")
        _table(a, "t2")
        time.sleep(0.4)
        keeper = _adopt(dsn, "a", lease_s=5)
        with psycopg.connect(dsn, autocommit=True) as conn:  # b takes t1 alone
            conn.execute("UPDATE leases SET owner = 'b', epoch = epoch + 1 WHERE table_id = 't1'")
        assert keeper.round(["t1", "t2"]).lost == ["t1"]
        with a.group():
            a.write("t1", [(1, "", 10, "{}")])
            a.write("t2", [(1, "", 10, "{}")])
        assert lost == ["t1"]
        assert a.events("t1") == [] and len(a.events("t2")) == 1
    finally:
        a.close()


def test_a_new_table_is_owned_once_its_creation_commits_and_a_round_between_keeps_it(
        dsn: str) -> None:
    """The lease keeper's round (a thread) renews the tables the store owns. A table was
    owned as soon as its creation was buffered, so a round before the commit found no
    lease row and dropped the new table as lost; its JoinTable then kept hearing
    TABLE_MOVED to its own dealer (a CI run of b3c2524, tests/scale/test_failover.py)."""
    a = PgStore(dsn, "a", lease_s=5)
    keeper = _adopt(dsn, "a", lease_s=5)
    try:
        with a.batch():
            a.create_table("t1", '{"c": 1}', 0)
            assert "t1" not in a.epochs  # not yet committed: not the keeper's to renew
            assert keeper.round(list(a.epochs)).lost == []
        assert a.epochs == {"t1": 1}
        assert keeper.round(list(a.epochs)).lost == []
        a.write("t1", [(1, "", 10, "{}")])  # owned: its writes pass the fence
        assert [r.sequence for r in a.events("t1")] == [1]
    finally:
        a.close()


def test_a_table_this_dealer_leases_but_does_not_hold_is_no_redirect_to_itself(
        dsn: str) -> None:
    """Placement.locate is asked for tables not in memory: one this dealer still leases
    (dropped as lost) answers "" (no live owner yet: ask again), not its own address,
    which sent the table's clients back to it in a loop; another dealer's table answers
    that dealer's address."""
    from services.dealer.placement import Placement

    a = PgStore(dsn, "a", lease_s=5)
    a_keeper, b_keeper = _adopt(dsn, "a", lease_s=5), _adopt(dsn, "b", lease_s=5)
    try:
        _table(a, "mine")
        a_keeper.round(list(a.epochs))
        b_keeper.round([])
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("INSERT INTO tables (table_id, config, created_ms)"
                         " VALUES ('theirs', '{}', 0)")
            conn.execute("INSERT INTO leases (table_id, owner, epoch, expires_at)"
                         " VALUES ('theirs', 'b', 1, now() + interval '5 seconds')")
        placement = Placement(a, a_keeper)
        assert placement.locate("mine") == ""
        assert placement.locate("theirs") == "b:1"
        assert placement.locate("nowhere") is None
    finally:
        a.close()


def test_a_lease_is_adopted_once_by_one_of_two_dealers(dsn: str) -> None:
    a = PgStore(dsn, "a", lease_s=0.1)
    try:
        _table(a, "t1")
    finally:
        a.close()
    time.sleep(0.2)
    b, c = _adopt(dsn, "b", 5), _adopt(dsn, "c", 5)
    won = b.round([]).adopted + c.round([]).adopted
    assert won == [("t1", 2)]


def test_pg_store_refuses_events_of_an_older_payload_format(dsn: str) -> None:
    first = PgStore(dsn, "a")
    _table(first, "t1")
    first.write("t1", [(1, "", 10, '{"e": 1}')])
    first.close()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("UPDATE dealer_meta SET value = value - 1 WHERE key = 'format'")
    with pytest.raises(StoreFormatError, match="older|payload format"):
        PgStore(dsn, "a")


def test_a_renewal_later_than_half_the_lease_is_logged(dsn: str) -> None:
    """lease.Leases.start: a round that renews more than lease_s / 2 after the last one
    (a loaded machine, a slow database) logs lease_renewed_late, once per late round; an
    operator sees tables near expiry before another dealer adopts them."""
    import asyncio
    import threading

    from structlog.testing import capture_logs

    calls, done = [], threading.Event()

    def mine() -> list[str]:
        calls.append(time.monotonic())
        if len(calls) == 3:
            time.sleep(0.7)  # the round stalls: 0.25 + 0.7 s since the last renewal
        if len(calls) == 6:
            done.set()
        return []

    PgStore(dsn, "a").close()  # the schema
    leases = _adopt(dsn, "a", lease_s=1.0)
    leases.renew_s = 0.25
    loop = asyncio.new_event_loop()
    try:
        with capture_logs() as logs:
            leases.start(loop, mine, lambda found: None)
            assert done.wait(10)
            leases.stop(release=False)
    finally:
        loop.close()
    late = [e for e in logs if e["event"] == "lease_renewed_late"]
    assert not [e for e in logs if e["event"] == "lease_round_failed"]
    assert len(late) == 1 and late[0]["seconds"] > 0.5 and late[0]["lease_seconds"] == 1.0


def test_pg_store_journals_a_hands_decisions_in_one_entry_found_before_it_commits(
        dsn: str) -> None:
    store = PgStore(dsn, "a", Retention())
    try:
        _table(store, "t1")
        store.write("t1", [(1, "t1-1", 10, b"e")],
                    lambda: store.put_act("t1", "t1-1", 1, ActRecord(0, "call", 20, 1)))
        with store.batch():  # a group: appended, not committed yet, and found
            store.write("t1", [(2, "t1-1", 11, b"e")],
                        lambda: store.put_act("t1", "t1-1", 2, ActRecord(1, "raise", 60, 2)))
            assert store.act("t1", "t1-1", 2) == ActRecord(1, "raise", 60, 2)
            assert store.act("t1", "t1-1", 1) == ActRecord(0, "call", 20, 1)
            with pytest.raises(RuntimeError):  # a failed write's line goes with it
                store.write("t1", [(3, "t1-1", 12, b"e")], lambda: _fail(lambda: store.put_act(
                    "t1", "t1-1", 3, ActRecord(0, "call", 40, 3))))
            assert store.act("t1", "t1-1", 3) is None
        assert [store.act("t1", "t1-1", n) for n in (1, 2, 3)] == [
            ActRecord(0, "call", 20, 1), ActRecord(1, "raise", 60, 2), None]
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT call, request_id FROM journal WHERE scope = 't1'"
                                ).fetchall() == [("hand_acts", "t1-1")]
            # An entry of the version before (one a decision) is still read.
            conn.execute("INSERT INTO journal VALUES ('act', 't1', 't1-0/4', '', '',"
                         " '[1,\"fold\",0,9]', 1)")
        assert store.act("t1", "t1-0", 4) == ActRecord(1, "fold", 0, 9)
    finally:
        store.close()


def _fail(first: Callable[[], None]) -> None:
    """Writes `first`, then fails."""
    first()
    raise RuntimeError("injected")


def test_pg_store_names_the_seats_of_closed_tables_to_every_dealer(dsn: str) -> None:
    """A closed table's seat tokens read on after a restart, found by their hash
    (services.dealer.auth): every dealer of the room finds them, whoever closed the
    table."""
    a, b = PgStore(dsn, "a", Retention()), PgStore(dsn, "b", Retention())
    try:
        for table_id in ("open", "shut"):
            _table(a, table_id)
            with a.batch():
                a.put_seat(table_id, 0, "p0", f"{table_id}-hash0")
                a.put_seat(table_id, 3, "p3", f"{table_id}-hash3")
        with a.batch():
            a.close_table("shut")
        assert [b.closed_seat(f"shut-hash{seat}") for seat in (0, 3)] == [("shut", 0),
                                                                          ("shut", 3)]
        assert b.closed_seat("open-hash0") is None  # an open table's: its dealer knows it
        assert b.closed_seat("shut-hash1") is None
        assert b.setup("shut") == ('{"c": 1}', True) and b.setup("open") == ('{"c": 1}', False)
    finally:
        a.close()
        b.close()


def test_a_write_holding_the_fence_holds_up_an_adoption_but_not_the_owners_renewal(
        dsn: str) -> None:
    """The fence (dealer_fence, taken by every write transaction) blocks the adopter's
    UPDATE until the write ends, and lets the lease keeper renew meanwhile: a long write
    (a group commit over many tables) no longer delays the renewal past its lock timeout.
    A database made before the unique index on (table_id, epoch) gets it on opening."""
    with psycopg.connect(dsn, autocommit=True) as conn:  # as the version before left it
        PgStore(dsn, "a").close()
        conn.execute("DROP INDEX IF EXISTS leases_epoch")
    a = PgStore(dsn, "a")
    try:
        _table(a, "t1")
        keeper = _adopt(dsn, "a", lease_s=5)
        with psycopg.connect(dsn) as writer:  # a write transaction holding the fence
            writer.execute("SELECT dealer_fence('a', ARRAY['t1'], ARRAY[1::bigint])")
            began = time.monotonic()
            found = keeper.round(["t1"])  # renews under its 1 s lock timeout
            assert found.lost == [] and time.monotonic() - began < 0.9
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("UPDATE leases SET expires_at = now() - interval '1 s'")
            assert _adopt(dsn, "b", lease_s=5).round([]).adopted == []  # waits, deferred
            writer.rollback()
        assert _adopt(dsn, "b", lease_s=5).round([]).adopted == [("t1", 2)]
    finally:
        a.close()
