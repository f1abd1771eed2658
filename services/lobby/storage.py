"""Where the lobby keeps its state: SQLite (a file) by default, PostgreSQL given a DSN.

Both backends offer one operation, `transact(fn)`: `fn` runs inside one
serializable transaction and gets a `Tx` to read and write with; it is retried
from the start when the database reports a conflict with another writer (several
lobby processes on one PostgreSQL), so `fn` must do nothing but database work.
SQL is written once with `?` placeholders; `{serial}` in DDL becomes each
backend's auto-increment key.
"""

from __future__ import annotations

import queue
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from poker.errors import Category, PokerError

T = TypeVar("T")
Row = dict[str, Any]

#: How often a conflicting transaction is tried before the conflict is raised.
MAX_ATTEMPTS = 20


class StorageConflict(PokerError):
    """A transaction kept conflicting with concurrent writers. Not a LobbyError: the
    lobby's own retries (recovery) let it through; its caller retries the request."""

    category, reason = Category.ABORTED, "STORAGE_CONFLICT"


class Tx(Protocol):
    """The view of the database inside one transaction."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Runs a statement; returns the number of rows it changed."""
        ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, as a dict, or None."""
        ...

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, as dicts."""
        ...


class Storage(Protocol):
    """A database the lobby can run transactions on."""

    dialect: str

    def transact(self, fn: Callable[[Tx], T]) -> T:
        """Runs `fn` in one serializable transaction, retried on conflict."""
        ...

    def ddl(self, statements: Sequence[str]) -> None:
        """Creates the schema (idempotent)."""
        ...

    def scrub(self, tables: Sequence[str]) -> None:
        """After secrets were blanked or dropped from `tables`: removes the old copies the
        backend keeps on disk (SQLite: its write-ahead log; PostgreSQL: old row versions)."""
        ...

    def close(self) -> None:
        """Releases connections."""
        ...


class _SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, tuple(params)).rowcount

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = self._conn.execute(sql, tuple(params)).fetchone()
        return dict(row) if row is not None else None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [dict(r) for r in self._conn.execute(sql, tuple(params)).fetchall()]


class SqliteStorage:
    """SQLite in WAL mode; writers are serialized with BEGIN IMMEDIATE."""

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self._conn = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=30.0
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        # Deleted and overwritten content is zeroed, not left in free space in the file.
        self._conn.execute("PRAGMA secure_delete=ON")
        self._lock = threading.Lock()

    def transact(self, fn: Callable[[Tx], T]) -> T:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(_SqliteTx(self._conn))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            return result

    def ddl(self, statements: Sequence[str]) -> None:
        def run(tx: Tx) -> None:
            for sql in statements:
                tx.execute(sql.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT"))

        self.transact(run)

    def scrub(self, tables: Sequence[str]) -> None:
        # The log holds earlier versions of the pages: copy it in and cut it to nothing.
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = self._conn.execute(_pg_sql(sql), tuple(params))
        return int(cur.rowcount)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._conn.execute(_pg_sql(sql), tuple(params)).fetchone()
        return row

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = self._conn.execute(_pg_sql(sql), tuple(params)).fetchall()
        return rows


def _pg_sql(sql: str) -> str:
    # The lobby's SQL never contains a literal '?' or '%'.
    return sql.replace("?", "%s")


class PostgresStorage:
    """PostgreSQL at SERIALIZABLE isolation, a small pool of connections per process."""

    dialect = "postgresql"

    def __init__(self, dsn: str, pool_size: int = 8) -> None:
        import psycopg  # only the PostgreSQL backend needs it

        self._psycopg = psycopg
        self.dsn = dsn
        self._pool: queue.LifoQueue[Any] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(pool_size)
        self._all: list[Any] = []
        self._lock = threading.Lock()
        with self._connection():
            pass  # fail at start, not at the first request, when the DSN is wrong

    def backend_pids(self) -> frozenset[int]:
        """The server process ids of this pool's open connections: a notification sent
        by one of them (`Notify.pid`) is this process's own."""
        with self._lock:
            return frozenset(c.info.backend_pid for c in self._all if not c.closed)

    def _connect(self) -> Any:
        from psycopg.rows import dict_row

        conn = self._psycopg.connect(self.dsn, row_factory=dict_row, autocommit=False)
        conn.isolation_level = self._psycopg.IsolationLevel.SERIALIZABLE
        with self._lock:
            self._all.append(conn)
        return conn

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        with self._slots:
            try:
                conn = self._pool.get_nowait()
            except queue.Empty:
                conn = self._connect()
            if conn.closed:
                conn = self._connect()
            try:
                yield conn
            finally:
                self._pool.put(conn)

    def transact(self, fn: Callable[[Tx], T]) -> T:
        errors = self._psycopg.errors
        # A unique key two writers raced for is a conflict too: the retry sees the winner's row.
        retryable = (errors.SerializationFailure, errors.DeadlockDetected, errors.UniqueViolation)
        for attempt in range(MAX_ATTEMPTS):
            with self._connection() as conn:
                try:
                    result = fn(_PgTx(conn))
                    conn.commit()
                    return result
                except retryable:
                    conn.rollback()
                except BaseException:
                    conn.rollback()
                    raise
            time.sleep(random.uniform(0, 0.002 * 2**min(attempt, 6)))
        raise StorageConflict(f"transaction still conflicting after {MAX_ATTEMPTS} attempts; "
                              "retry with the same request_id")

    def ddl(self, statements: Sequence[str]) -> None:
        def run(tx: Tx) -> None:
            # Several lobby processes may start together: one creates the schema.
            tx.execute("SELECT pg_advisory_xact_lock(7246)")
            for sql in statements:
                tx.execute(sql.format(serial="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"))

        self.transact(run)

    def scrub(self, tables: Sequence[str]) -> None:
        # DROP COLUMN only hides a column and an UPDATE leaves the old row versions behind:
        # VACUUM FULL writes each table anew (outside a transaction, locking it meanwhile).
        with self._connection() as conn:
            conn.autocommit = True
            try:
                for table in tables:
                    conn.execute(f"VACUUM FULL {table}")
            finally:
                conn.autocommit = False

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()


def open_storage(dsn: str | None, path: str | None) -> Storage:
    """PostgreSQL when a DSN is given, else SQLite at `path` (":memory:" allowed)."""
    if dsn:
        return PostgresStorage(dsn)
    return SqliteStorage(path or "lobby.db")
