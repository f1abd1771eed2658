"""The lobby's tables, in SQL both SQLite and PostgreSQL accept.

Money lives in `accounts` and moves only by rows of `transfers` (ledger.py);
`operations` are the steps of the work that spans the lobby and a dealer
(buy-in, rebuy, leaving, closing), so a restart can finish or undo them.

Seat tokens are not kept: the dealer gives a buy-in's token again when asked with the
buy-in's request_id (seating.py). A database of an older version, which kept them in
plain text (`seats.seat_token`, `operations.seat_token`), is migrated at start-up: the
columns are blanked and dropped, and the backend drops its old copies of the rows
(`Storage.scrub`). Backups and copies made before are not touched.
"""

from __future__ import annotations

import sqlite3

from services.lobby.storage import Storage, Tx

STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        balance BIGINT NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS transfers (
        id {serial},
        idempotency_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        source TEXT NOT NULL REFERENCES accounts(id),
        destination TEXT NOT NULL REFERENCES accounts(id),
        amount BIGINT NOT NULL CHECK (amount > 0),
        memo TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL
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
        bought_in BIGINT NOT NULL DEFAULT 0,
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
        amount BIGINT NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        dealer_request_id TEXT NOT NULL DEFAULT '',
        wait_for_big_blind INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        dealer_sequence BIGINT NOT NULL DEFAULT 0,
        void_hand INTEGER NOT NULL DEFAULT 0,
        result BIGINT NOT NULL DEFAULT 0,
        lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        error_status TEXT NOT NULL DEFAULT '',
        error TEXT NOT NULL DEFAULT '',
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS operations_state ON operations(state)",
    "CREATE INDEX IF NOT EXISTS operations_seat ON operations(table_id, player_id)",
)

#: Columns added since the first version: (table, column, definition).
ADDED: tuple[tuple[str, str, str], ...] = (
    ("operations", "dealer_request_id", "TEXT NOT NULL DEFAULT ''"),
)
#: Columns of older versions that held secrets in plain text: (table, column).
DROPPED: tuple[tuple[str, str], ...] = (("seats", "seat_token"), ("operations", "seat_token"))


def create(storage: Storage) -> None:
    """Creates every table that is missing and migrates the columns of older versions."""
    storage.ddl(STATEMENTS)
    scrubbed = storage.transact(lambda tx: _migrate(tx, storage.dialect))
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
    return scrubbed


def columns(tx: Tx, dialect: str, table: str) -> set[str]:
    """The column names of one of the lobby's tables."""
    if dialect == "sqlite":
        return {str(r["name"]) for r in tx.all(f"PRAGMA table_info({table})")}
    rows = tx.all("SELECT column_name FROM information_schema.columns"
                  " WHERE table_schema = current_schema() AND table_name = ?", (table,))
    return {str(r["column_name"]) for r in rows}
