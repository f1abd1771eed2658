"""The dealer's durable store: every table's events, in order, in SQLite (WAL mode).

Tables: `tables` (id, configuration, closed flag), `events` (table_id, sequence,
hand_id, time, payload: the codec's JSON), `seats` (the hash of each seat token)
and `acts` (each answered decision, so a retried Act is answered the same way
even across a restart). A batch of writes is one transaction: a table commits an
action's events together, before it streams or acknowledges any of them.

`synchronous=NORMAL`: a committed event survives the dealer being killed (SIGKILL);
`durable=True` (FULL) also survives losing the machine, at a cost per commit. The
database is opened in exclusive locking mode: one dealer process per file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, sequence)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS acts (
    table_id TEXT NOT NULL,
    hand_id TEXT NOT NULL,
    action_number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    PRIMARY KEY (table_id, hand_id, action_number)
) WITHOUT ROWID;
"""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored event."""

    sequence: int
    hand_id: str
    time_ms: int
    payload: str


@dataclass(frozen=True, slots=True)
class ActRecord:
    """An answered decision: who answered what, and the sequence the answer returned."""

    seat: int
    kind: str
    amount: int
    sequence: int


class Store:
    """One SQLite database, used from one thread (the dealer's event loop)."""

    def __init__(self, path: str | Path, durable: bool = False,
                 lock_timeout_s: float = 1.0) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                   timeout=lock_timeout_s)
        # One dealer per database: the exclusive lock keeps a second one out, and
        # spares every commit the shared-memory index of WAL.
        self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.executescript(SCHEMA)
        self._depth = 0

    def close(self) -> None:
        self._db.close()

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
        self._db.execute("COMMIT")

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
        found = self._db.execute("SELECT 1 FROM tables WHERE table_id = ?", (table_id,))
        return found.fetchone() is not None

    def append(self, table_id: str, rows: Sequence[Row]) -> None:
        self._db.executemany(
            "INSERT INTO events (table_id, sequence, hand_id, time_ms, payload)"
            " VALUES (?, ?, ?, ?, ?)",
            [(table_id, r.sequence, r.hand_id, r.time_ms, r.payload) for r in rows],
        )

    def events(self, table_id: str, after: int = 0, limit: int = -1) -> list[Row]:
        """Events with sequence > after, in order."""
        rows = self._db.execute(
            "SELECT sequence, hand_id, time_ms, payload FROM events"
            " WHERE table_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
            (table_id, after, limit),
        ).fetchall()
        return [Row(*r) for r in rows]

    def hand_events(self, table_id: str, hand_id: str) -> list[Row]:
        rows = self._db.execute(
            "SELECT sequence, hand_id, time_ms, payload FROM events"
            " WHERE table_id = ? AND hand_id = ? ORDER BY sequence",
            (table_id, hand_id),
        ).fetchall()
        return [Row(*r) for r in rows]

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

    def put_act(self, table_id: str, hand_id: str, action_number: int, act: ActRecord) -> None:
        self._db.execute(
            "INSERT INTO acts (table_id, hand_id, action_number, seat, kind, amount, sequence)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, hand_id, action_number, act.seat, act.kind, act.amount, act.sequence),
        )

    def act(self, table_id: str, hand_id: str, action_number: int) -> ActRecord | None:
        row = self._db.execute(
            "SELECT seat, kind, amount, sequence FROM acts"
            " WHERE table_id = ? AND hand_id = ? AND action_number = ?",
            (table_id, hand_id, action_number),
        ).fetchone()
        return ActRecord(*row) if row else None
