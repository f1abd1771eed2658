"""The lobby's tables, in SQL both SQLite and PostgreSQL accept.

Money lives in `accounts` and moves only by rows of `transfers` (ledger.py);
`operations` are the steps of the work that spans the lobby and a dealer
(buy-in, rebuy, leaving, closing), so a restart can finish or undo them.

Seat tokens are not kept: the dealer gives a buy-in's token again when asked with the
buy-in's request_id (seating.py). A database of an older version, which kept them in
plain text (`seats.seat_token`, `operations.seat_token`), is migrated at start-up: the
columns are blanked and dropped, and the backend drops its old copies of the rows
(`Storage.scrub`). Backups and copies made before are not touched.

Chips are whole numbers within poker/limits.py's bounds. SQLite would store an integer
past 2^63 - 1 as a float, silently: a new database has CHECK constraints on every chip
column, and on SQLite triggers (added to a database of an older version too, since
SQLite cannot add a CHECK to an existing table) refuse any write of a chip column that
is not an integer in range. PostgreSQL's BIGINT refuses an overflow by itself.

`transfers.fingerprint` and `operations.fingerprint` (added to older databases) hold
the hash of the request a row was made for (operations.fingerprint); rows of older
versions have it empty and are compared field by field. `journal` holds the answer
to each request with an id (services/lobby/journal.py); a database without one has
its operations journaled at start.
"""

from __future__ import annotations

import sqlite3
import time

from poker.limits import MAX_CHIPS, MAX_LEDGER_TOTAL
from services.lobby import journal
from services.lobby.storage import Storage, Tx
from services.lobby.tournament import store as tournament_store

_BALANCE = f"BETWEEN {-MAX_LEDGER_TOTAL} AND {MAX_LEDGER_TOTAL}"
_CHIPS = f"BETWEEN 0 AND {MAX_CHIPS}"

STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        balance BIGINT NOT NULL DEFAULT 0 CHECK (balance BETWEEN -4611686018427387904
            AND 4611686018427387904),
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS transfers (
        id {serial},
        idempotency_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        source TEXT NOT NULL REFERENCES accounts(id),
        destination TEXT NOT NULL REFERENCES accounts(id),
        amount BIGINT NOT NULL CHECK (amount > 0 AND amount <= 9007199254740991),
        memo TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL,
        fingerprint TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX IF NOT EXISTS transfers_source ON transfers(source)",
    "CREATE INDEX IF NOT EXISTS transfers_destination ON transfers(destination)",
    """CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        display_name TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        config TEXT NOT NULL,
        dealer TEXT NOT NULL,
        status TEXT NOT NULL,
        button_seat INTEGER,
        button_told INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        closed_at DOUBLE PRECISION
    )""",
    """CREATE TABLE IF NOT EXISTS button_draws (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        card INTEGER NOT NULL,
        drawn_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL REFERENCES players(id),
        state TEXT NOT NULL,
        bought_in BIGINT NOT NULL DEFAULT 0 CHECK (bought_in BETWEEN 0 AND 9007199254740991),
        rebuys INTEGER NOT NULL DEFAULT 0,
        joined_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, player_id)
    )""",
    """CREATE TABLE IF NOT EXISTS operations (
        id TEXT PRIMARY KEY,
        idempotency_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        player_id TEXT NOT NULL DEFAULT '',
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL DEFAULT -1,
        amount BIGINT NOT NULL DEFAULT 0 CHECK (amount BETWEEN 0 AND 9007199254740991),
        state TEXT NOT NULL,
        dealer_request_id TEXT NOT NULL DEFAULT '',
        wait_for_big_blind INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        dealer_sequence BIGINT NOT NULL DEFAULT 0,
        void_hand INTEGER NOT NULL DEFAULT 0,
        result BIGINT NOT NULL DEFAULT 0 CHECK (result BETWEEN 0 AND 9007199254740991),
        lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        error_status TEXT NOT NULL DEFAULT '',
        error TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        fingerprint TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX IF NOT EXISTS operations_state ON operations(state)",
    "CREATE INDEX IF NOT EXISTS operations_seat ON operations(table_id, player_id)",
    journal.TABLE,
    journal.INDEX,
    *tournament_store.STATEMENTS,  # T1-T9: tournaments (services/lobby/tournament/store.py)
    # R34: the last event of each table the lobby followed (services/lobby/following.py)
    """CREATE TABLE IF NOT EXISTS followed (
        table_id TEXT PRIMARY KEY,
        sequence BIGINT NOT NULL DEFAULT 0
    )""",
)

#: Columns added since the first version: (table, column, definition).
ADDED: tuple[tuple[str, str, str], ...] = (
    ("operations", "dealer_request_id", "TEXT NOT NULL DEFAULT ''"),
    ("operations", "fingerprint", "TEXT NOT NULL DEFAULT ''"),
    ("transfers", "fingerprint", "TEXT NOT NULL DEFAULT ''"),
)
#: SQLite only: (table, column, the range it must be in) of every chip column.
WHOLE_CHIPS: tuple[tuple[str, str, str], ...] = (
    ("accounts", "balance", _BALANCE),
    ("transfers", "amount", _CHIPS),
    ("seats", "bought_in", _CHIPS),
    ("operations", "amount", _CHIPS),
    ("operations", "result", _CHIPS),
)


def _sqlite_triggers() -> list[str]:
    """Triggers that refuse a chip column written as anything but an integer in range."""
    made = []
    for table, column, bounds in WHOLE_CHIPS:
        for event in ("INSERT", f"UPDATE OF {column}"):
            name = f"{table}_{column}_{event.split()[0].lower()}_whole"
            made.append(
                f"CREATE TRIGGER IF NOT EXISTS {name} BEFORE {event} ON {table}"
                f" WHEN typeof(NEW.{column}) <> 'integer' OR NEW.{column} NOT {bounds}"
                f" BEGIN SELECT RAISE(ABORT, '{table}.{column} must be a whole number"
                f" {bounds.lower()}'); END")
    return made
#: Columns of older versions that held secrets in plain text: (table, column).
DROPPED: tuple[tuple[str, str], ...] = (("seats", "seat_token"), ("operations", "seat_token"))


def create(storage: Storage) -> None:
    """Creates every table that is missing and migrates the columns of older versions;
    a database without a journal has its operations journaled (services/lobby/journal.py)."""
    journaled = storage.transact(lambda tx: bool(columns(tx, storage.dialect, "journal")))
    storage.ddl(STATEMENTS)
    scrubbed = storage.transact(lambda tx: _migrate(tx, storage.dialect))
    if not journaled:
        now_ms = int(time.time() * 1000)
        storage.transact(lambda tx: journal.migrate(tx, now_ms))
    if scrubbed:
        storage.scrub(scrubbed)


def _migrate(tx: Tx, dialect: str) -> list[str]:
    """Adds and drops columns; returns the tables a secret was taken out of."""
    scrubbed: list[str] = []
    if dialect == "postgresql":
        tx.execute("SELECT pg_advisory_xact_lock(7246)")  # one lobby migrates at a time
    for table, column, definition in ADDED:
        if column not in columns(tx, dialect, table):
            tx.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
    for table, column in DROPPED:
        if column in columns(tx, dialect, table):
            # Blanked first: PostgreSQL's DROP COLUMN only hides a column's data, and the
            # SQLite of an old system cannot drop a column at all (before 3.35).
            tx.execute(f"UPDATE {table} SET {column} = '' WHERE {column} <> ''")
            if dialect != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
                tx.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
            scrubbed.append(table)
    if dialect == "sqlite":
        for sql in _sqlite_triggers():
            tx.execute(sql)
    return scrubbed


def columns(tx: Tx, dialect: str, table: str) -> set[str]:
    """The column names of one of the lobby's tables."""
    if dialect == "sqlite":
        return {str(r["name"]) for r in tx.all(f"PRAGMA table_info({table})")}
    rows = tx.all("SELECT column_name FROM information_schema.columns"
                  " WHERE table_schema = current_schema() AND table_name = ?", (table,))
    return {str(r["column_name"]) for r in rows}
