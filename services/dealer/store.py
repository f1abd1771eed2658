"""The dealer's durable store: every table's events, in order, in SQLite (WAL mode).

Tables: `tables` (id, configuration, closed flag), `events` (table_id, sequence,
hand_id, time, payload: the event's serialized TableEvent, `codec.dumps`; the payload
format is the database's `user_version`, STORE_FORMAT, and an older store is migrated
when it opens), `seats` (the hash of each seat token),
`journal` (poker/journal.py: the answer given to each SeatPlayer and SetLevel
request_id, each AddChips key and each answered decision, so a retried call is answered
the same way even across a restart, for the retention; `JournalTable` is its adapter)
`snapshots`
(each table's state after its latest hand, written with that hand's last events: a
restart folds the snapshot and the events after it, not the whole log) and `hands`
(where each finished hand's events lie in the log, written with them too: a hand's
history reads that range, not every event of its table). A batch of
writes is one transaction: a table commits an action's events together, before it
streams or acknowledges any of them.

Streams catching up on old events read them through `Reader`: connections of its
own, on threads of its own (SQLite's WAL lets readers run beside the writer), so a
long history is never read on the event loop.

`synchronous=NORMAL`: a committed event survives the dealer being killed (SIGKILL);
`durable=True` (FULL) also survives losing the machine, at a cost per commit.

Checkpoints (copying the WAL into the database, with two fsyncs) run on a thread
of their own with a second connection, never on the event loop: a checkpoint on
the loop stalled every table for the length of an fsync (several milliseconds,
hundreds of times a minute at full speed). A background checkpoint cannot catch up
with a writer that never pauses, so once the WAL passes `restart_mb` the thread
restarts it, holding writers back for one short checkpoint. One dealer process per
file: the store takes an exclusive `flock` on the database file.

A store of an older version kept answers in `answers` and decisions in `acts`: at
start their rows move into `journal` (their retention starts then) and the two tables
are dropped.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from poker.journal import (
    INDEX,
    PRUNE_BATCH,
    TABLE,
    Entry,
    Key,
    Retention,
    describe,
    fingerprint,
)
from services.dealer import codec

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    hand_id TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    payload BLOB NOT NULL,
    PRIMARY KEY (table_id, sequence)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
-- A closed table's seat tokens read on (auth.Authenticator.closed_seat): found by hash.
-- Made on the first start of the version that asks by hash (an index: no format change).
CREATE INDEX IF NOT EXISTS seats_token ON seats (token_hash);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY,
    sequence INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    hand_id TEXT NOT NULL,
    first_sequence INTEGER NOT NULL,
    last_sequence INTEGER NOT NULL,
    PRIMARY KEY (table_id, hand_id)
) WITHOUT ROWID;
"""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored event."""

    sequence: int
    hand_id: str
    time_ms: int
    payload: bytes  # codec.dumps: the event's serialized TableEvent (format 2)


@dataclass(frozen=True, slots=True)
class ActRecord:
    """An answered decision: who answered what, and the sequence the answer returned."""

    seat: int
    kind: str
    amount: int
    sequence: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's state (JSON, in the format `version`) once its events up to `sequence`
    are folded. It holds table state (seats, stacks, button, keys), no encoded event, so
    the payload migration (format 1 -> 2) leaves it valid: the sequences stay."""

    sequence: int
    version: int
    state: str


#: The store's format (`PRAGMA user_version`). 3: each finished hand has its row in
#: `hands` (where its events lie in the log, written with the hand's last events), so
#: GetHandHistory reads that range instead of every event of the table. 2: each event's
#: serialized `TableEvent` (services.dealer.codec.dumps, poker.mapping's STORE profile).
#: 1 (and 0, a store from before the stamp) held the codec's JSON of each event. An older
#: store is migrated in place when it opens, a step at a time (`_migrate_payloads` to 2,
#: `_index_hands` to 3). A store stamped with a later format is refused: this dealer
#: would misread it.
STORE_FORMAT = 3
#: The formats whose payloads are JSON text (codec.loads_json).
_JSON_FORMATS = (0, 1)
#: The format of each event's payload since format 2: its serialized TableEvent. The
#: PostgreSQL store stamps this one ('format' in dealer_meta): format 3's `hands` rows
#: are SQLite's alone (PostgreSQL indexes events by hand).
PAYLOAD_FORMAT = 2
#: Rows a migration converts between two progress lines in the log.
MIGRATE_PAGE = 20_000


class StoreFormatError(RuntimeError):
    """A store written by a newer dealer (a payload format this one cannot read)."""


def _check_format(db: sqlite3.Connection, path: str) -> int:
    """The store's format after opening: a new store is stamped STORE_FORMAT, an older
    one migrated to it (format 0/1 -> 2 -> 3), a newer one refused."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    if found > STORE_FORMAT:
        raise StoreFormatError(
            f"{path}: the store is in format {found}, written by a newer dealer; this dealer "
            f"reads format {STORE_FORMAT} and earlier. Start the newer dealer on it (or give "
            "this one another --db path); do not downgrade a store in place")
    if found in _JSON_FORMATS:
        _migrate_payloads(db, path, found)
    if found < 3:
        _index_hands(db, path)
    return STORE_FORMAT


@contextmanager
def _step(db: sqlite3.Connection, to_format: int) -> Iterator[None]:
    """One migration step's transaction: what it writes and the stamp `to_format`
    together, or (interrupted, failed) nothing of it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute(f"PRAGMA user_version={to_format}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _migrate_payloads(db: sqlite3.Connection, path: str, found: int) -> None:
    """Rewrites every JSON payload (format 0/1) as its TableEvent bytes and stamps the store
    format 2, in one transaction: interrupted, nothing of it stands and the next start
    does it again; a row already converted (a BLOB) is left as it is. Sequences, hands and
    times are untouched, so snapshots (table state at a sequence, no encoded event) and the
    journal stay valid. A progress line every MIGRATE_PAGE rows."""
    total = int(db.execute("SELECT count(*) FROM events WHERE typeof(payload) = 'text'")
                .fetchone()[0])
    started = time.monotonic()
    if total:
        log.info("store_migrating", path=path, rows=total, from_format=found,
                 to_format=PAYLOAD_FORMAT)
    with _step(db, PAYLOAD_FORMAT):
        done, after = 0, ("", 0)
        while True:
            page = db.execute(
                "SELECT table_id, sequence, payload FROM events WHERE (table_id, sequence) > (?, ?)"
                " AND typeof(payload) = 'text' ORDER BY table_id, sequence LIMIT ?",
                (*after, MIGRATE_PAGE)).fetchall()
            if not page:
                break
            db.executemany("UPDATE events SET payload = ? WHERE table_id = ? AND sequence = ?",
                           [(codec.dumps(codec.loads_json(text)), table_id, sequence)
                            for table_id, sequence, text in page])
            done += len(page)
            after = (page[-1][0], page[-1][1])
            if total > MIGRATE_PAGE:
                log.info("store_migrating", path=path, done=done, rows=total)
    if total:
        log.info("store_migrated", path=path, rows=done, to_format=PAYLOAD_FORMAT,
                 seconds=round(time.monotonic() - started, 3))


def _index_hands(db: sqlite3.Connection, path: str) -> None:
    """Format 2 -> 3: a `hands` row for every hand of the log (its first and last
    sequence), read MIGRATE_PAGE sequences of a table at a time (a progress line each
    MIGRATE_PAGE events), and the stamp, in one transaction: interrupted, nothing of it
    stands and the next start does it again. The hand a table stopped in gets its row
    too; the write that ends it widens the row (_PUT_HAND merges), as for any hand."""
    tables = db.execute("SELECT table_id, max(sequence) FROM events GROUP BY table_id"
                        " ORDER BY table_id").fetchall()
    started = time.monotonic()
    if tables:
        log.info("store_migrating", path=path, tables=len(tables), from_format=2, to_format=3)
    with _step(db, STORE_FORMAT):
        done = reported = 0
        for table_id, top in tables:
            for low in range(0, top, MIGRATE_PAGE):
                found = db.execute(
                    "SELECT hand_id, min(sequence), max(sequence), count(*) FROM events"
                    " WHERE table_id = ? AND sequence > ? AND sequence <= ? AND hand_id <> ''"
                    " GROUP BY hand_id", (table_id, low, low + MIGRATE_PAGE)).fetchall()
                db.executemany(_PUT_HAND, [(table_id, hand_id, first, last)
                                           for hand_id, first, last, _ in found])
                done += sum(n for *_, n in found)
                if done - reported >= MIGRATE_PAGE:
                    reported = done
                    log.info("store_migrating", path=path, events=done, table_id=table_id)
        hands = db.execute("SELECT count(*) FROM hands").fetchone()[0]
    if tables:
        log.info("store_migrated", path=path, hands=hands, to_format=STORE_FORMAT,
                 seconds=round(time.monotonic() - started, 3))


#: A hand's span, written or widened (a page of a migration, or a hand's end after the
#: migration gave the hand it found running the part it had then).
_PUT_HAND = ("INSERT INTO hands (table_id, hand_id, first_sequence, last_sequence)"
             " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, hand_id) DO UPDATE SET"
             " first_sequence = min(first_sequence, excluded.first_sequence),"
             " last_sequence = max(last_sequence, excluded.last_sequence)")


#: A finished hand's events: the range of the log its `hands` row names.
HAND_EVENTS = ("SELECT sequence, hand_id, time_ms, payload FROM events WHERE table_id = ?"
               " AND sequence BETWEEN ? AND ? AND hand_id = ? ORDER BY sequence")

#: The weight of one commit in a store's `commit_s` (about the last 20 count).
COMMIT_WEIGHT = 0.05


def commit_average(average: float, seconds: float) -> float:
    """A store's `commit_s` after a commit of `seconds`: the moving average, each commit
    counted at most four times the average plus 50 us, so that a rare slow one (a WAL
    checkpoint's, a disk's hiccup) hardly moves it, while commits slow every time (a
    round trip to a server, an fsync) raise it within a few dozen."""
    return average + (min(seconds, 4 * average + 50e-6) - average) * COMMIT_WEIGHT

_INSERT_EVENT = ("INSERT INTO events (table_id, sequence, hand_id, time_ms, payload)"
                 " VALUES (?, ?, ?, ?, ?)")


class Store:
    """One SQLite database, written from one thread (the dealer's event loop)."""

    def __init__(self, path: str | Path, durable: bool = False,
                 lock_timeout_s: float = 1.0, checkpoint_every: int = 256,
                 restart_mb: int = 64, retention: Retention | None = None) -> None:
        self.path = str(path)
        self.journal = JournalTable(self, retention or Retention())
        self._lock_fd = _lock(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=lock_timeout_s)
            self._db.execute("PRAGMA journal_mode=WAL")
            synchronous = "FULL" if durable else "NORMAL"
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job
            # A restarted WAL is cut back to its limit: the file stays about that size.
            self._db.execute(f"PRAGMA journal_size_limit={restart_mb * 1024 * 1024}")
            self._db.executescript(f"{SCHEMA}\n{TABLE} WITHOUT ROWID;\n{INDEX};")
            self.format = _check_format(self._db, self.path)
            self._migrate()
        except BaseException:
            os.close(self._lock_fd)
            raise
        self._depth = 0
        #: In a group: the connection's total_changes at its BEGIN while nothing has been
        #: written in it (`write` takes no savepoint then); None otherwise.
        self._untouched: int | None = None
        self._commits = 0
        #: The moving average of a commit's time on the loop, in seconds (commit_average):
        #: what a group commit saves for each decision it adds (streams.DecisionGroup).
        self.commit_s = 0.0
        self._checkpoint_every = checkpoint_every
        self._checkpointer = Checkpointer(self.path, synchronous, restart_mb * 1024 * 1024)
        self._checkpointer.start()
        self.reader = Reader(self.path, self._db)

    def close(self) -> None:
        self.reader.close()
        self._checkpointer.stop()
        self._db.close()  # the last connection: SQLite checkpoints and removes the WAL
        os.close(self._lock_fd)

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
        self._db.execute("BEGIN")
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._db.execute("ROLLBACK")
            raise
        self._depth = 0
        self._commit()

    @contextmanager
    def group(self) -> Iterator[None]:
        """Group commit: the writes of several tables' decisions (a PlayMany request's)
        in one transaction, one commit for all of them.

        Unlike `batch`, each table folds its events into memory as it writes them, before
        the group commits. That is safe because nothing runs between the writes and the
        commit (no await): no stream sends and no call returns what is not durable yet.
        If the commit itself fails, memory is ahead of the log and cannot be taken back,
        so the dealer stops: a restart reloads exactly what is durable, and nothing of
        the group was streamed or acknowledged.
        """
        if self._depth:
            yield
            return
        self._db.execute("BEGIN")
        self._depth = 1
        self._untouched = self._db.total_changes
        try:
            yield
        finally:
            self._depth = 0
            self._untouched = None
            try:
                self._commit()
            except BaseException as err:  # noqa: BLE001 - see the docstring
                log.critical("store_group_commit_failed", error=repr(err),
                             hint="stopping; a restart reloads what is durable")
                os._exit(70)

    def write(self, table_id: str, rows: Iterable[tuple[int, str, int, bytes]],
              also: Callable[[], None] | None = None) -> None:
        """Events (sequence, hand_id, time_ms, payload) and what `also` writes, in one
        transaction (or in the open batch)."""
        db = self._db
        if self._depth:
            # Inside a batch a failed write undoes itself only (its table applies nothing
            # of it), and the batch's other writes stand.
            if db.total_changes == self._untouched:
                # A group's first write (most groups hold one: a Play decision, a PlayMany
                # request of one): nothing to keep but itself, so no savepoint (two
                # statements fewer a decision); failed, the transaction is rolled back
                # whole and the group goes on in a fresh one.
                try:
                    self._put(table_id, rows, also)
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    db.execute("BEGIN")
                    self._untouched = db.total_changes
                    raise
                return
            db.execute("SAVEPOINT write")
            try:
                self._put(table_id, rows, also)
            except BaseException:
                db.execute("ROLLBACK TO write")
                db.execute("RELEASE write")
                raise
            db.execute("RELEASE write")
            return
        db.execute("BEGIN")
        self._depth = 1
        try:
            self._put(table_id, rows, also)
        except BaseException:
            self._depth = 0
            db.execute("ROLLBACK")
            raise
        self._depth = 0
        self._commit()

    def _put(self, table_id: str, rows: Iterable[tuple[int, str, int, bytes]],
             also: Callable[[], None] | None) -> None:
        """A write's statements, in whatever transaction or savepoint `write` opened."""
        self._db.executemany(_INSERT_EVENT, [(table_id, *row) for row in rows])
        if also is not None:
            also()

    def _commit(self) -> None:
        try:
            began = time.perf_counter()
            self._db.execute("COMMIT")
            self.commit_s = commit_average(self.commit_s, time.perf_counter() - began)
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._commits += 1
        if self._commits % self._checkpoint_every == 0:
            self._checkpointer.wanted.set()

    def create_table(self, table_id: str, config: str, created_ms: int) -> None:
        self._db.execute(
            "INSERT INTO tables (table_id, config, created_ms) VALUES (?, ?, ?)",
            (table_id, config, created_ms),
        )

    def close_table(self, table_id: str) -> None:
        self._db.execute("UPDATE tables SET closed = 1 WHERE table_id = ?", (table_id,))

    def tables(self, include_closed: bool = False) -> list[tuple[str, str, bool]]:
        """(table_id, config, closed) of every table, oldest first."""
        rows = self._db.execute(
            "SELECT table_id, config, closed FROM tables"
            + ("" if include_closed else " WHERE closed = 0")
            + " ORDER BY created_ms, table_id"
        ).fetchall()
        return [(t, c, bool(closed)) for t, c, closed in rows]

    def table_exists(self, table_id: str) -> bool:
        return self.setup(table_id) is not None

    def setup(self, table_id: str) -> tuple[str, bool] | None:
        """A table's stored configuration and closed flag; None when there is no such table."""
        row = self._db.execute("SELECT config, closed FROM tables WHERE table_id = ?",
                               (table_id,)).fetchone()
        return (row[0], bool(row[1])) if row else None

    def append(self, table_id: str, rows: Sequence[Row]) -> None:
        self._db.executemany(
            _INSERT_EVENT, [(table_id, r.sequence, r.hand_id, r.time_ms, r.payload) for r in rows])

    def events(self, table_id: str, after: int = 0, limit: int = -1) -> list[Row]:
        """Events with sequence > after, in order."""
        rows = self._db.execute(
            "SELECT sequence, hand_id, time_ms, payload FROM events"
            " WHERE table_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
            (table_id, after, limit),
        ).fetchall()
        return [Row(*r) for r in rows]

    def hand_events(self, table_id: str, hand_id: str) -> list[Row]:
        """The events of a finished hand (none for a hand in progress or unknown): the
        range its `hands` row names, read by the primary key."""
        span = self._db.execute(
            "SELECT first_sequence, last_sequence FROM hands WHERE table_id = ? AND hand_id = ?",
            (table_id, hand_id)).fetchone()
        if span is None:
            return []
        rows = self._db.execute(HAND_EVENTS, (table_id, *span, hand_id)).fetchall()
        return [Row(*r) for r in rows]

    def put_hand(self, table_id: str, hand_id: str, first: int, last: int) -> None:
        """Where a finished hand's events lie (first..last sequence), written with them
        (a row there already is widened to it)."""
        self._db.execute(_PUT_HAND, (table_id, hand_id, first, last))

    def put_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Keeps the table's latest snapshot (the one before is replaced)."""
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (table_id, sequence, version, state)"
            " VALUES (?, ?, ?, ?)",
            (table_id, snapshot.sequence, snapshot.version, snapshot.state),
        )

    def snapshot(self, table_id: str) -> Snapshot | None:
        row = self._db.execute(
            "SELECT sequence, version, state FROM snapshots WHERE table_id = ?", (table_id,),
        ).fetchone()
        return Snapshot(*row) if row else None

    def put_seat(self, table_id: str, seat: int, player_id: str, token_hash: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO seats (table_id, seat, player_id, token_hash)"
            " VALUES (?, ?, ?, ?)",
            (table_id, seat, player_id, token_hash),
        )

    def delete_seat(self, table_id: str, seat: int) -> None:
        self._db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    def seats(self, table_id: str) -> list[tuple[int, str, str]]:
        """(seat, player_id, token_hash) of the table's seated players."""
        rows = self._db.execute(
            "SELECT seat, player_id, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        ).fetchall()
        return [(int(s), p, h) for s, p, h in rows]

    def closed_seat(self, token_hash: str) -> tuple[str, int] | None:
        """(table_id, seat) of the closed table's seat whose token hashes to `token_hash`
        (`closed_seat`)."""
        return closed_seat(self._db, "?", token_hash)

    def put_act(self, table_id: str, hand_id: str, action_number: int, act: ActRecord) -> None:
        """Journals an answered decision (compared field by field: no fingerprint)."""
        put_act(self.journal, table_id, hand_id, action_number, act)

    def act(self, table_id: str, hand_id: str, action_number: int) -> ActRecord | None:
        return find_act(self.journal, table_id, hand_id, action_number)

    def _migrate(self) -> None:
        """Moves the rows of an older version's `answers` and `acts` into the journal."""
        names = {r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not names & {"answers", "acts"}:
            return
        now = self.journal.retention.now_ms()
        rows: list[tuple[str, str, str, str, str, str, int]] = []
        if "answers" in names:
            for call, scope, request_id, request, answer in self._db.execute(
                    "SELECT call, scope, request_id, request, answer FROM answers"):
                fields = json.loads(request)
                given = json.loads(answer)
                if "code" in given:  # a refusal
                    answer = json.dumps({"refused": given}, sort_keys=True)
                rows.append((call, scope, request_id, fingerprint(call, "", fields),
                             describe(fields), answer, now))
        self._db.execute("BEGIN")
        try:
            self._db.executemany(_INSERT_ENTRY.replace("INSERT", "INSERT OR IGNORE"), rows)
            if "acts" in names:  # one row a decision: copied in SQL, not through memory
                self._db.execute(
                    "INSERT OR IGNORE INTO journal (call, scope, request_id, fingerprint, what,"
                    " answer, at_ms) SELECT 'act', table_id, hand_id || '/' || action_number,"
                    " '', '', json_array(seat, kind, amount, sequence), ? FROM acts", (now,))
            self._db.execute("DROP TABLE IF EXISTS answers")
            self._db.execute("DROP TABLE IF EXISTS acts")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        log.info("journal_migrated", answers=len(rows))


_INSERT_ENTRY = ("INSERT INTO journal (call, scope, request_id, fingerprint, what, answer, at_ms)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?)")
#: An entry, or where its key has one, its answer appended to that one's (the entry's time
#: stays the first's, so the age index is left alone). The same SQL on PostgreSQL.
APPENDING = (" ON CONFLICT (call, scope, request_id)"
             " DO UPDATE SET answer = journal.answer || excluded.answer")
_APPEND_ENTRY = _INSERT_ENTRY + APPENDING

#: The journal's call for a hand's decisions: one entry a hand (scope the table, id the
#: hand), each answered decision appending its line (`act_line`). A decision's write
#: updates that row, instead of inserting a row and its age-index entry a decision.
HAND_ACTS = "hand_acts"
#: The call of the version before (up to 1416e2b): one entry a decision, id
#: "<hand>/<number>", answer `act_answer`'s. Still read (`find_act`) until pruned.
ACT = "act"


def put_act(journal: Any, table_id: str, hand_id: str, action_number: int,
            act: ActRecord) -> None:
    """Appends a decision's line to its hand's journal entry, in the open write (every
    store's journal adapter has `append`)."""
    journal.append(HAND_ACTS, table_id, hand_id, act_line(action_number, act))


def find_act(journal: Any, table_id: str, hand_id: str, action_number: int
             ) -> ActRecord | None:
    """The answered decision `action_number` of a hand, from its hand's entry or, for a
    decision journaled by the version before, from its own; None when neither has it."""
    done = journal.find(Key(HAND_ACTS, table_id, hand_id))
    if done is not None:
        prefix = f"[{int(action_number)},"
        for line in done.answer.splitlines():
            if line.startswith(prefix):
                _, seat, kind, amount, sequence = json.loads(line)
                return ActRecord(int(seat), str(kind), int(amount), int(sequence))
    old = journal.find(Key(ACT, table_id, f"{hand_id}/{action_number}"))
    if old is None:
        return None
    seat, kind, amount, sequence = json.loads(old.answer)
    return ActRecord(int(seat), str(kind), int(amount), int(sequence))


def act_line(action_number: int, act: ActRecord) -> str:
    """A decision's line in its hand's entry: the JSON array [number, seat, kind, amount,
    sequence] and a newline."""
    return f"[{int(action_number)},{act_answer(act)[1:]}\n"


def act_answer(act: ActRecord) -> str:
    """A decision's answer, the JSON array [seat, kind, amount, sequence] (every store's),
    written without json.dumps's encoder set-up: this runs for every decision."""
    return f"[{int(act.seat)},{_json_string(act.kind)},{int(act.amount)},{int(act.sequence)}]"


_json_string = json.encoder.encode_basestring_ascii


#: `closed_seat`'s query, a placeholder to fill ("?" for SQLite, "%s" for PostgreSQL):
#: by the `seats_token` index, one row or none.
CLOSED_SEAT = ("SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.table_id = s.table_id"
               " WHERE s.token_hash = {} AND t.closed LIMIT 1")
#: CLOSED_SEAT for each store's placeholder, filled once.
_CLOSED_SEAT_FOR = {placeholder: CLOSED_SEAT.format(placeholder) for placeholder in ("?", "%s")}


def closed_seat(db: Any, placeholder: str, token_hash: str) -> tuple[str, int] | None:
    """(table_id, seat) of the seat of a closed table whose token hashes to `token_hash`,
    in a store's database, SQLite's or PostgreSQL's; None when no closed table has it.
    CloseTable keeps a table's seat rows, so its players' tokens read on (GetTable,
    WatchTable, their own hands' history); `closed` is an integer in one store, a
    boolean in the other, and both read it as a truth."""
    row = db.execute(_CLOSED_SEAT_FOR[placeholder], (token_hash,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))

#: The calls the journal answers: each is pruned on its own (others, marks, never).
CALLS = ("seat_player", "add_chips", "set_level", HAND_ACTS, ACT)


class JournalTable:
    """poker.journal's adapter for the store's `journal` table (written on the loop)."""

    def __init__(self, store: Store, retention: Retention) -> None:
        self.store, self.retention = store, retention

    def find(self, key: Key, tx: object = None) -> Entry | None:
        row = self.store._db.execute(
            "SELECT fingerprint, what, answer, at_ms FROM journal"
            " WHERE call = ? AND scope = ? AND request_id = ?",
            (key.call, key.scope, key.request_id)).fetchone()
        return Entry(*row) if row else None

    def put(self, key: Key, entry: Entry, tx: object = None) -> None:
        self.store._db.execute(_INSERT_ENTRY, (key.call, key.scope, key.request_id,
                                               entry.fingerprint, entry.what, entry.answer,
                                               entry.at_ms))

    def append(self, call: str, scope: str, request_id: str, answer: str) -> None:
        """Writes an entry of `answer` (no fingerprint: the caller compares the fields
        itself) stamped now, or appends `answer` to the key's entry (APPENDING). Plain
        values, no Key or Entry: this runs for every decision (put_act)."""
        self.store._db.execute(_APPEND_ENTRY, (call, scope, request_id, "", "", answer,
                                              self.retention.now_ms()))

    def put_alone(self, key: Key, entry: Entry) -> None:
        with self.store.batch():
            self.put(key, entry)

    def prune(self, limit: int = PRUNE_BATCH) -> int:
        """Deletes at most `limit` entries: older than the retention, or past a call's
        newest max_entries (one transaction)."""
        key, gone = "(call, scope, request_id)", 0
        with self.store.batch():
            db = self.store._db
            for call in CALLS:
                if gone < limit:
                    gone += db.execute(
                        f"DELETE FROM journal WHERE {key} IN (SELECT {key[1:-1]} FROM journal"
                        " WHERE call = ? AND at_ms < ? LIMIT ?)",
                        (call, self.retention.cutoff_ms(), limit - gone)).rowcount
                if gone < limit:
                    gone += db.execute(
                        f"DELETE FROM journal WHERE {key} IN (SELECT {key[1:-1]} FROM journal"
                        " WHERE call = ? ORDER BY at_ms DESC LIMIT ? OFFSET ?)",
                        (call, limit - gone, self.retention.max_entries)).rowcount
        return int(gone)


class Reader:
    """Reads events off the event loop: `executor`'s threads, each with a read-only
    connection of its own (an in-memory store has one connection: it reads on that)."""

    def __init__(self, path: str, db: sqlite3.Connection, threads: int = 2) -> None:
        self.path, self._shared = path, db
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="store-reader")
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection:
        if self.path == ":memory:" or self.path.startswith("file:"):
            return self._shared
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                 timeout=5.0)
            self._local.db = db
            with self._lock:
                self._opened.append(db)
        return db

    def events(self, table_id: str, after: int, limit: int) -> list[Row]:
        """Store.events, for a reader thread."""
        rows = self._connection().execute(
            "SELECT sequence, hand_id, time_ms, payload FROM events"
            " WHERE table_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
            (table_id, after, limit),
        ).fetchall()
        return [Row(*r) for r in rows]

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            for db in self._opened:
                db.close()
            self._opened.clear()


def _lock(path: str) -> int:
    """An exclusive lock on the database file for this process (one dealer per file)."""
    if path == ":memory:" or path.startswith("file:"):
        return os.open(os.devnull, os.O_RDONLY)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise sqlite3.OperationalError(
            f"database is locked: {path} is open in another dealer process") from None
    return fd


class Checkpointer(threading.Thread):
    """Copies the WAL into the database off the event loop (PASSIVE checkpoints, which
    never block the writer), when asked and at least once a second; restarts the WAL
    once it is past `restart_bytes`."""

    def __init__(self, path: str, synchronous: str, restart_bytes: int) -> None:
        super().__init__(name="store-checkpointer", daemon=True)
        self.path, self.synchronous, self.restart_bytes = path, synchronous, restart_bytes
        self.wanted = threading.Event()
        self.checkpoints = self.restarts = 0
        self._stopping = False

    def stop(self) -> None:
        self._stopping = True
        self.wanted.set()
        if self.is_alive():
            self.join(timeout=10)

    def run(self) -> None:
        if self.path == ":memory:":
            return
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                             timeout=5.0)
        try:
            db.execute(f"PRAGMA synchronous={self.synchronous}")
            while not self._stopping:
                self.wanted.wait(1.0)
                self.wanted.clear()
                if self._stopping:
                    break
                try:
                    self._checkpoint(db)
                except sqlite3.Error as err:  # the writer goes on; the next round retries
                    log.warning("checkpoint_failed", db=self.path, error=str(err))
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        _busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.checkpoints += 1
        if frames * page_size >= self.restart_bytes and copied == frames:
            db.execute("PRAGMA wal_checkpoint(RESTART)")
            self.restarts += 1
