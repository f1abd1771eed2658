"""The lobby's tables, in SQL both SQLite and PostgreSQL accept.

Money lives in `accounts` and moves only by rows of `transfers` (ledger.py);
`operations` are the steps of the work that spans the lobby and a dealer
(buy-in, rebuy, leaving, closing), so a restart can finish or undo them.
"""

from __future__ import annotations

from services.lobby.storage import Storage

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
        seat_token TEXT NOT NULL DEFAULT '',
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
        seat_token TEXT NOT NULL DEFAULT '',
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
)


def create(storage: Storage) -> None:
    """Creates every table that is missing."""
    storage.ddl(STATEMENTS)
