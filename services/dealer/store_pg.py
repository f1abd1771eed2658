"""The dealer's store on PostgreSQL (`poker serve dealer --dsn ...`): the interface of
services.dealer.store's `Store` (and its `Reader`, `JournalTable`), shared by every
dealer of a room.

The same tables as the SQLite store (`tables`, `events`, `seats`, `snapshots`,
`journal`), plus `leases` and `dealers` (services.dealer.lease: which dealer owns
which table) and `dealer_meta` (the schema version and the payload format, see
`check_versions`). The payloads are stored as the table shell hands them over (the
store's one encode/decode pair is services.dealer.codec `dumps`/`loads`, called by
tables.py, not here): a BYTEA column, text payloads kept as their UTF-8 bytes
(`_to_db`/`_from_db` are the only place that knows).

**Group commit.** A write is not sent when the table makes it: it is buffered, and
the transaction is sent at its commit in one pipelined exchange (the fencing check,
then every statement and COMMIT, two round trips whatever the writes). A PlayMany
request's decisions over many tables (`group()`) are one transaction, as on SQLite.
A commit costs about 0.1-0.3 ms of the event loop on a local server
(bench/dealer.py --dsn prints the figures), against tens of microseconds for SQLite.

**Fencing.** Every transaction that writes a table's rows first locks that table's
lease row `FOR KEY SHARE` where the row still names this process as owner at the
epoch it adopted the table at (`dealer_fence`, in the same transaction). A table
whose lease moved on is not in the answer: its writes are dropped from the
transaction, nothing of it lands, and `on_lost(table_id)` is called (the dealer
stops serving it). The lock makes an adopter's `UPDATE leases` wait until this
commit ends, so the adopter reads every event this process committed, and none
lands after it read: the adoption changes the epoch, which the unique index
`leases_epoch` makes a key, and PostgreSQL takes `FOR UPDATE` for an update of a key,
which waits for `FOR KEY SHARE`. A renewal changes `expires_at` alone (`FOR NO KEY
UPDATE`, which does not wait for it), so the lease keeper's renewal never waits for the
dealer's own writes (with `FOR SHARE` it did, up to its 1 s lock timeout). A paused
process holding the lock is cut off by the server (`idle_in_transaction_session_timeout`).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import structlog

from poker.journal import INDEX, PRUNE_BATCH, TABLE, Entry, Key, Retention
from services.dealer import store as sqlite_store
from services.dealer.errors import TableMoved
from services.dealer.store import (
    CALLS,
    ActRecord,
    Row,
    Snapshot,
    StoreFormatError,
    closed_seat,
    commit_average,
    find_act,
    put_act,
)

log = structlog.get_logger(__name__)

#: The version of this module's tables (dealer_meta 'schema'): 1 is the first. A
#: database stamped with a later version is refused (`check_versions`); an earlier
#: one would be migrated here, in `_migrate`, step by step.
PG_SCHEMA_VERSION = 1

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS dealer_meta (
    key TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    closed BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    sequence BIGINT NOT NULL,
    hand_id TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    payload BYTEA NOT NULL,
    epoch BIGINT NOT NULL,
    PRIMARY KEY (table_id, sequence)
);
CREATE INDEX IF NOT EXISTS events_hand ON events (table_id, hand_id);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
-- A closed table's seat tokens, found by hash (store.closed_seat); an index, no new version.
CREATE INDEX IF NOT EXISTS seats_token ON seats (token_hash);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY,
    sequence BIGINT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases (owner);
-- Makes the epoch a key for row locks: an adoption (epoch + 1) waits for a fence's FOR
-- KEY SHARE, a renewal (expires_at) does not. Made on the first start of this version.
CREATE UNIQUE INDEX IF NOT EXISTS leases_epoch ON leases (table_id, epoch);
CREATE TABLE IF NOT EXISTS dealers (
    owner TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL
);
{TABLE};
{INDEX};
CREATE OR REPLACE FUNCTION dealer_fence(who TEXT, ids TEXT[], epochs BIGINT[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE lost TEXT[];
BEGIN
    -- The lease rows first (an adopter's UPDATE holding one is waited for), then the check
    -- on what is committed now. KEY SHARE: an adoption (a key update, see leases_epoch)
    -- waits for this transaction; a renewal of expires_at does not.
    PERFORM 1 FROM leases WHERE table_id = ANY(ids) ORDER BY table_id FOR KEY SHARE;
    lost := ARRAY(SELECT m.t FROM unnest(ids, epochs) AS m(t, e) WHERE NOT EXISTS (
        SELECT 1 FROM leases l WHERE l.table_id = m.t AND l.epoch = m.e AND l.owner = who));
    IF cardinality(lost) > 0 THEN
        RAISE EXCEPTION 'dealer_fenced' USING DETAIL = array_to_string(lost, ',');
    END IF;
END $$;
"""

#: A payload in format 1 (the codec's JSON) is text; a later format's is bytes.
TEXT_PAYLOADS = sqlite_store.PAYLOAD_FORMAT == 1


def _to_db(payload: str | bytes) -> bytes:
    return payload.encode() if isinstance(payload, str) else payload


def _from_db(data: Any) -> Any:
    return bytes(data).decode() if TEXT_PAYLOADS else bytes(data)


def connect(dsn: str, autocommit: bool = True) -> Any:
    """A connection to the room's database (a paused holder of a lock is cut off)."""
    import psycopg

    conn = psycopg.connect(dsn, autocommit=autocommit)
    conn.execute("SET idle_in_transaction_session_timeout = '3s'")
    return conn


def check_versions(conn: Any, where: str) -> None:
    """Stamps a new database; refuses one written by a newer dealer (schema or payload
    format), as the SQLite store does with its user_version, and one whose events are in
    an older payload format (no conversion in place yet: the dealer of that format)."""
    wanted = {"schema": PG_SCHEMA_VERSION, "format": sqlite_store.PAYLOAD_FORMAT}
    found = dict(conn.execute("SELECT key, value FROM dealer_meta").fetchall())
    for key, version in wanted.items():
        have = int(found.get(key, version))
        if have > version:
            raise StoreFormatError(
                f"{where}: the dealer database's {key} is version {have}, written by a newer "
                f"dealer; this dealer reads {version} and earlier. Run the newer dealer on "
                "it; do not downgrade a room's database in place")
    older = int(found.get("format", wanted["format"]))
    if older < wanted["format"]:
        if conn.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None:
            raise StoreFormatError(
                f"{where}: the dealer database's events are in payload format {older}; this "
                f"dealer reads and writes format {wanted['format']} and does not convert a "
                "PostgreSQL store in place: run the dealer of that format on it")
        conn.execute("UPDATE dealer_meta SET value = %s WHERE key = 'format'",
                     (wanted["format"],))  # no event yet: nothing to convert
    for key, version in wanted.items():
        conn.execute("INSERT INTO dealer_meta (key, value) VALUES (%s, %s)"
                     " ON CONFLICT (key) DO NOTHING", (key, version))


_INSERT_EVENT = ("INSERT INTO events (table_id, sequence, hand_id, time_ms, payload, epoch)"
                 " VALUES (%s, %s, %s, %s, %s, %s)")
_INSERT_ENTRY = ("INSERT INTO journal (call, scope, request_id, fingerprint, what, answer, at_ms)"
                 " VALUES (%s, %s, %s, %s, %s, %s, %s)")
_APPEND_ENTRY = _INSERT_ENTRY + sqlite_store.APPENDING
#: The fencing check (the first statement of every transaction): the lease rows of its
#: tables locked until the commit, and an error naming those no longer this process's
#: at their epoch, which undoes the whole transaction.
_FENCE = "SELECT dealer_fence(%s, %s::text[], %s::bigint[])"


class Fenced(TableMoved):
    """The table's lease moved on: this write did not land (services.dealer.lease). Its
    caller is sent on (TABLE_MOVED): asked again, this dealer names the new owner."""

    reason = "TABLE_MOVED"

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id, "")


class PgStore:
    """The dealer's store on PostgreSQL, written from the event loop (module docstring)."""

    def __init__(self, dsn: str, owner: str, retention: Retention | None = None,
                 lease_s: float = 10.0) -> None:
        self.path = dsn
        self.owner = owner  # this process (services.dealer.lease.owner_id)
        self.lease_s = lease_s
        self.format = sqlite_store.PAYLOAD_FORMAT
        self.journal = PgJournalTable(self, retention or Retention())
        import psycopg

        self._psycopg = psycopg
        self._db = connect(dsn)
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(15150)")  # one creator at a time
            self._db.execute(SCHEMA)
            check_versions(self._db, "--dsn")
        #: The epoch of each table this process owns (set by services.dealer.lease).
        self.epochs: dict[str, int] = {}
        #: Called with a table's id when a write finds its lease gone (the dealer drops it).
        self.on_lost: Callable[[str], None] = lambda table_id: None
        self._depth = 0
        self._ops: list[tuple[str | None, str, Any, bool]] = []
        self._journal_pending: dict[tuple[str, ...], Entry] = {}
        # Tables created in the open transaction: owned (`epochs`) once it commits. Owned
        # before, the lease keeper's round (a thread) could renew a lease row not yet
        # committed, find none, and drop the new table as lost.
        self._creating: list[str] = []
        self.commits = 0
        self.commit_s = 0.0  # a round trip's moving average (store.Store.commit_s)
        self._cursor: Any = None
        self.reader = PgReader(dsn)

    def close(self) -> None:
        self.reader.close()
        self._db.close()

    # ----------------------------------------------------------------- transactions

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for everything written inside (nested batches join it)."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._discard()
            raise
        self._depth = 0
        self._flush()

    @contextmanager
    def group(self) -> Iterator[None]:
        """Group commit (store.Store.group): the writes of several tables' decisions in
        one transaction. A table fenced off is dropped from it (`on_lost`); any other
        failure of the commit stops the dealer, as on SQLite."""
        if self._depth:
            yield
            return
        self._depth = 1
        try:
            yield
        finally:
            self._depth = 0
            involved = sorted({t for t, *_ in self._ops if t is not None})
            try:
                self._flush(raise_fenced=False)
            except self._psycopg.OperationalError as err:
                # The connection was cut (a pause past the server's timeout): none of it
                # landed, and those tables' memory is ahead of the log: they are dropped,
                # and adopted again from the log once their leases run out.
                log.warning("store_group_commit_lost", error=str(err)[:200], tables=involved)
                for table_id in involved:
                    self.epochs.pop(table_id, None)
                    self.on_lost(table_id)
            except BaseException as err:  # noqa: BLE001 - see Store.group
                log.critical("store_group_commit_failed", error=repr(err),
                             hint="stopping; a restart reloads what is durable")
                os._exit(70)

    def write(self, table_id: str, rows: Iterable[tuple[int, str, int, Any]],
              also: Callable[[], None] | None = None) -> None:
        """Events (sequence, hand_id, time_ms, payload) and what `also` writes, in one
        transaction (or in the open batch). Raises Fenced when this process no longer
        owns the table: nothing of it is written."""
        epoch = self.epochs.get(table_id)
        if epoch is None:
            raise Fenced(table_id)
        mark = len(self._ops)
        journal_mark = dict(self._journal_pending) if self._depth else None
        outer = self._depth
        self._depth += 1
        try:
            self._ops.append((table_id, _INSERT_EVENT,
                              [(table_id, s, h, t, _to_db(p), epoch) for s, h, t, p in rows],
                              True))
            if also is not None:
                also()
        except BaseException:
            self._depth -= 1
            del self._ops[mark:]  # a failed write undoes itself only
            if journal_mark is not None:
                self._journal_pending = journal_mark
            if not outer:
                self._journal_pending.clear()
            raise
        self._depth -= 1
        if not outer:
            self._flush()

    def _op(self, table_id: str | None, sql: str, params: Any, many: bool = False) -> None:
        self._ops.append((table_id, sql, params, many))
        if not self._depth:
            self._flush()

    def _discard(self) -> None:
        self._ops.clear()
        self._journal_pending.clear()
        self._creating.clear()

    def _flush(self, raise_fenced: bool = True) -> None:
        """Sends the buffered transaction (`_send`); the tables the fence names lost are
        left out and the rest sent again, then reported (`on_lost`)."""
        ops, self._ops = self._ops, []
        creating, self._creating = self._creating, []
        self._journal_pending.clear()
        if not ops:
            return
        lost: set[str] = set()
        while True:
            try:
                self._send([op for op in ops if op[0] not in lost])
                break
            except self._psycopg.errors.RaiseException as err:
                if not str(err).startswith("dealer_fenced"):
                    raise
                named = {t for t in (err.diag.message_detail or "").split(",") if t}
                if not named - lost:
                    raise
                lost |= named  # the others' writes go again, without those
        self.commits += 1
        for table_id in creating:
            self.epochs[table_id] = 1  # its lease row is committed: the keeper renews it
        for table_id in lost:
            self.epochs.pop(table_id, None)
            log.warning("table_fenced", table_id=table_id,
                        hint="its lease moved on: none of this write landed")
            self.on_lost(table_id)
        if lost and raise_fenced:
            raise Fenced(sorted(lost)[0])

    def _send(self, ops: list[tuple[str | None, str, Any, bool]]) -> None:
        """One transaction in one round trip: the statements joined in one simple query
        (PostgreSQL runs them as one implicit transaction: all of it lands or none), the
        fence first. Waiting on the server costs the event loop one round trip a commit
        however many decisions it holds, the group commit's whole point."""
        involved = sorted({t for t, *_ in ops if t is not None})
        cur = self._client_cursor()
        text = [cur.mogrify(_FENCE, (self.owner, involved,
                                     [self.epochs.get(t, -1) for t in involved]))
                ] if involved else []
        for _table, sql, params, many in ops:
            if not many:
                text.append(cur.mogrify(sql, params))
            elif params:
                head, _, values = sql.partition(" VALUES ")
                text.append(head + " VALUES " + ",".join(
                    cur.mogrify(values, row) for row in params))
        if not text:
            return
        try:
            began = time.perf_counter()
            cur.execute(";\n".join(text).encode())
            self.commit_s = commit_average(self.commit_s, time.perf_counter() - began)
        except BaseException:
            if self._db.broken or self._db.closed:  # cut off (a pause past a timeout)
                self._db = connect(self.path)
                self._cursor = None
            raise

    def _client_cursor(self) -> Any:
        if self._cursor is None:
            self._cursor = self._psycopg.ClientCursor(self._db)
        return self._cursor

    # --------------------------------------------------------------------- tables

    def create_table(self, table_id: str, config: str, created_ms: int) -> None:
        """The table and its lease, owned by this process at epoch 1 once committed."""
        self._creating.append(table_id)
        self._op(None, "INSERT INTO tables (table_id, config, created_ms) VALUES (%s, %s, %s)",
                 (table_id, config, created_ms))
        self._op(None, "INSERT INTO leases (table_id, owner, epoch, expires_at) VALUES"
                 " (%s, %s, 1, now() + make_interval(secs => %s))",
                 (table_id, self.owner, self.lease_s))

    def close_table(self, table_id: str) -> None:
        self._op(table_id, "UPDATE tables SET closed = TRUE WHERE table_id = %s", (table_id,))

    def tables(self, include_closed: bool = False) -> list[tuple[str, str, bool]]:
        """(table_id, config, closed) of the tables this process owns, oldest first."""
        rows = self._db.execute(
            "SELECT t.table_id, t.config, t.closed FROM tables t JOIN leases l USING (table_id)"
            " WHERE l.owner = %s" + ("" if include_closed else " AND NOT t.closed")
            + " ORDER BY t.created_ms, t.table_id", (self.owner,)).fetchall()
        return [(t, c, bool(closed)) for t, c, closed in rows]

    def setup(self, table_id: str) -> tuple[str, bool] | None:
        """A table's stored configuration and closed flag, whoever owns it."""
        row = self._db.execute("SELECT config, closed FROM tables WHERE table_id = %s",
                               (table_id,)).fetchone()
        return (row[0], bool(row[1])) if row else None

    def table_exists(self, table_id: str) -> bool:
        return self.setup(table_id) is not None

    def append(self, table_id: str, rows: Sequence[Row]) -> None:
        epoch = self.epochs.get(table_id, 0)
        self._op(table_id, _INSERT_EVENT, [(table_id, r.sequence, r.hand_id, r.time_ms,
                                            _to_db(r.payload), epoch) for r in rows], True)

    def events(self, table_id: str, after: int = 0, limit: int = -1) -> list[Row]:
        return _events(self._db, table_id, after, limit)

    def hand_events(self, table_id: str, hand_id: str) -> list[Row]:
        rows = self._db.execute(
            "SELECT sequence, hand_id, time_ms, payload FROM events"
            " WHERE table_id = %s AND hand_id = %s ORDER BY sequence", (table_id, hand_id))
        return [Row(s, h, t, _from_db(p)) for s, h, t, p in rows.fetchall()]

    def put_hand(self, table_id: str, hand_id: str, first: int, last: int) -> None:
        """Store.put_hand: nothing to write here, the `events_hand` index finds a hand's
        rows (one index entry an event; SQLite's store keeps a row a hand instead, which
        costs its hot path less)."""

    def put_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        self._op(table_id, "INSERT INTO snapshots (table_id, sequence, version, state)"
                 " VALUES (%s, %s, %s, %s) ON CONFLICT (table_id) DO UPDATE SET"
                 " sequence = EXCLUDED.sequence, version = EXCLUDED.version,"
                 " state = EXCLUDED.state",
                 (table_id, snapshot.sequence, snapshot.version, snapshot.state))

    def snapshot(self, table_id: str) -> Snapshot | None:
        row = self._db.execute("SELECT sequence, version, state FROM snapshots"
                               " WHERE table_id = %s", (table_id,)).fetchone()
        return Snapshot(*row) if row else None

    def put_seat(self, table_id: str, seat: int, player_id: str, token_hash: str) -> None:
        self._op(table_id, "INSERT INTO seats (table_id, seat, player_id, token_hash)"
                 " VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, seat) DO UPDATE SET"
                 " player_id = EXCLUDED.player_id, token_hash = EXCLUDED.token_hash",
                 (table_id, seat, player_id, token_hash))

    def delete_seat(self, table_id: str, seat: int) -> None:
        self._op(table_id, "DELETE FROM seats WHERE table_id = %s AND seat = %s",
                 (table_id, seat))

    def seats(self, table_id: str) -> list[tuple[int, str, str]]:
        rows = self._db.execute("SELECT seat, player_id, token_hash FROM seats"
                                " WHERE table_id = %s ORDER BY seat", (table_id,)).fetchall()
        return [(int(s), p, h) for s, p, h in rows]

    def closed_seat(self, token_hash: str) -> tuple[str, int] | None:
        """Of the whole room: a closed table never changes, so any dealer serves it
        read-only, whoever closed it."""
        return closed_seat(self._db, "%s", token_hash)

    def put_act(self, table_id: str, hand_id: str, action_number: int, act: ActRecord) -> None:
        put_act(self.journal, table_id, hand_id, action_number, act)

    def act(self, table_id: str, hand_id: str, action_number: int) -> ActRecord | None:
        return find_act(self.journal, table_id, hand_id, action_number)


def _events(db: Any, table_id: str, after: int, limit: int) -> list[Row]:
    rows = db.execute(
        "SELECT sequence, hand_id, time_ms, payload FROM events"
        " WHERE table_id = %s AND sequence > %s ORDER BY sequence LIMIT %s",
        (table_id, after, None if limit < 0 else limit)).fetchall()
    return [Row(s, h, t, _from_db(p)) for s, h, t, p in rows]


class PgJournalTable:
    """poker.journal's adapter for the `journal` table (store.JournalTable's twin): an
    entry put in the open transaction is found before it commits."""

    def __init__(self, store: PgStore, retention: Retention) -> None:
        self.store, self.retention = store, retention

    def find(self, key: Key, tx: object = None) -> Entry | None:
        pending = self.store._journal_pending
        found = pending.get((key.call, key.scope, key.request_id))
        if found is None:
            row = self.store._db.execute(
                "SELECT fingerprint, what, answer, at_ms FROM journal"
                " WHERE call = %s AND scope = %s AND request_id = %s",
                (key.call, key.scope, key.request_id)).fetchone()
            found = Entry(*row) if row else None
        more = pending.get((key.call, key.scope, key.request_id, "+"))
        if more is not None:  # appended in the open transaction (`append`)
            found = more if found is None else Entry(
                found.fingerprint, found.what, found.answer + more.answer, found.at_ms)
        return found

    def put(self, key: Key, entry: Entry, tx: object = None) -> None:
        # An act is the table's (fenced with it); the other calls' scope is a table too
        # or the dealer's (""), unfenced.
        table = key.scope if key.scope in self.store.epochs else None
        self.store._journal_pending[(key.call, key.scope, key.request_id)] = entry
        self.store._op(table, _INSERT_ENTRY, (key.call, key.scope, key.request_id,
                                              entry.fingerprint, entry.what, entry.answer,
                                              entry.at_ms))

    def append(self, call: str, scope: str, request_id: str, answer: str) -> None:
        """store.JournalTable.append: what is appended in the open transaction is kept
        apart (under the key and "+") until it commits, and `find` adds it."""
        table = scope if scope in self.store.epochs else None
        pending = self.store._journal_pending
        more = (call, scope, request_id, "+")
        before = pending.get(more)
        at_ms = self.retention.now_ms() if before is None else before.at_ms
        pending[more] = Entry("", "", answer if before is None else before.answer + answer,
                              at_ms)
        self.store._op(table, _APPEND_ENTRY, (call, scope, request_id, "", "", answer, at_ms))

    def put_alone(self, key: Key, entry: Entry) -> None:
        with self.store.batch():
            self.put(key, entry)

    def prune(self, limit: int = PRUNE_BATCH) -> int:
        """store.JournalTable.prune, on PostgreSQL (its own transaction)."""
        key, gone = "(call, scope, request_id)", 0
        db = self.store._db
        with db.transaction():
            for call in CALLS:
                if gone < limit:
                    gone += db.execute(
                        f"DELETE FROM journal WHERE {key} IN (SELECT {key[1:-1]} FROM journal"
                        " WHERE call = %s AND at_ms < %s LIMIT %s)",
                        (call, self.retention.cutoff_ms(), limit - gone)).rowcount
                if gone < limit:
                    gone += db.execute(
                        f"DELETE FROM journal WHERE {key} IN (SELECT {key[1:-1]} FROM journal"
                        " WHERE call = %s ORDER BY at_ms DESC LIMIT %s OFFSET %s)",
                        (call, limit - gone, self.retention.max_entries)).rowcount
        return int(gone)


class PgReader:
    """store.Reader's twin: events read on threads of their own, a connection each."""

    def __init__(self, dsn: str, threads: int = 2) -> None:
        self.dsn = dsn
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="store-reader")
        self._local = threading.local()
        self._opened: list[Any] = []
        self._lock = threading.Lock()

    def events(self, table_id: str, after: int, limit: int) -> list[Row]:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.dsn)
            with self._lock:
                self._opened.append(db)
        return _events(db, table_id, after, limit)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            for db in self._opened:
                db.close()
            self._opened.clear()
