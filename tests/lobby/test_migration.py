"""Databases made by the lobby before the hardening (today's schema, copied below as it was):
opened by this lobby, their stored requests (no fingerprint, keyed by the player acted for) are
still answered and still refuse other fields (finding 7); SQLite gets the triggers that keep
every chip column a whole number in range (finding 2), and a balance an old lobby let turn into
a float is reported by AuditLedger, not an INTERNAL error. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, serving

from poker.limits import MAX_CHIPS, MAX_LEDGER_TOTAL
from poker.v1 import lobby_pb2 as pb
from services.lobby import schema
from services.lobby.errors import RequestReused
from services.lobby.lobby import Lobby
from services.lobby.operations import OPERATOR_SCOPE, OpState
from services.lobby.rules import TableRules
from services.lobby.storage import SqliteStorage, Storage, Tx

D1 = "d1:1"

#: services/lobby/schema.py's STATEMENTS at commit 3ef2e80, the schema before the hardening.
OLD_STATEMENTS: tuple[str, ...] = (
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



def old_database(storage: Storage) -> None:
    """An old lobby's database: ann was funded with 800 (request d1), bought in for 300 at t1
    (j1) and rebought 200 (r1), all under the old keys and without fingerprints."""
    storage.ddl(OLD_STATEMENTS)
    now = time.time()
    rules = TableRules(seats=3, min_buy_in=100, max_buy_in=500, max_rebuys=-1).to_json()

    def rows(tx: Tx) -> None:
        for account, kind, held in (("operator", "operator", -800), ("player:ann", "player", 300),
                                    ("table:t1", "table", 500)):
            tx.execute("INSERT INTO accounts (id, kind, balance, created_at) VALUES (?, ?, ?, ?)",
                       (account, kind, held, now))
        tx.execute("INSERT INTO players (id, display_name, token_hash, created_at)"
                   " VALUES ('ann', 'Ann', 'h', ?)", (now,))
        tx.execute("INSERT INTO tables (id, name, config, dealer, status, created_at)"
                   " VALUES ('t1', 't1', ?, ?, 'open', ?)",
                   (json.dumps({"rules": rules, "game": {}}), D1, now))
        tx.execute("INSERT INTO seats (table_id, seat, player_id, state, bought_in, rebuys,"
                   " joined_at) VALUES ('t1', 0, 'ann', 'seated', 500, 1, ?)", (now,))
        for key, kind, source, destination, amount in (
                ("deposit:ann:d1", "deposit", "operator", "player:ann", 800),
                ("op_j:debit", "buy_in", "player:ann", "table:t1", 300),
                ("op_r:debit", "rebuy", "player:ann", "table:t1", 200)):
            tx.execute("INSERT INTO transfers (idempotency_key, kind, source, destination,"
                       " amount, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (key, kind, source, destination, amount, now))
        for op_id, key, kind, amount in (("op_j", "join:ann:j1", "join", 300),
                                         ("op_r", "rebuy:ann:r1", "rebuy", 200)):
            tx.execute("INSERT INTO operations (id, idempotency_key, kind, player_id, table_id,"
                       " seat, amount, state, dealer_request_id, result, created_at, updated_at)"
                       " VALUES (?, ?, ?, 'ann', 't1', 0, ?, 'done', ?, ?, ?, ?)",
                       (op_id, key, kind, amount, op_id, amount, now, now))

    storage.transact(rows)


def test_finding7_an_old_database_is_migrated_and_its_requests_still_answered(
        storage: Storage) -> None:
    old_database(storage)
    lobby = Lobby(storage, FakeDealer(), [D1])
    assert lobby.audit().ok
    assert lobby.deposit("ann", 800, "d1").balance == 300  # the old deposit, not a new one
    with pytest.raises(RequestReused, match="'d1'"):
        lobby.deposit("ann", 900, "d1")
    # The old rebuy, asked for again by ann and by the operator for her: its answer.
    for by in (None, OPERATOR_SCOPE):
        again = lobby.rebuy("ann", "t1", 200, "r1", by=by)
        assert again.state is OpState.DONE and again.result == 200
        with pytest.raises(RequestReused, match="a rebuy of 200"):
            lobby.rebuy("ann", "t1", 300, "r1", by=by)
    with pytest.raises(RequestReused):
        lobby.join("ann", "t2", None, 300, False, "j1")  # another table under the old id
    assert lobby.player("ann").balance == 300 and lobby.audit().ok
    cols = storage.transact(lambda tx: (schema.columns(tx, storage.dialect, "operations"),
                                        schema.columns(tx, storage.dialect, "transfers")))
    assert all("fingerprint" in c for c in cols)
    # New requests are fingerprinted: the same id with other fields is refused from now on.
    lobby.deposit("ann", 50, "d2")
    with pytest.raises(RequestReused):
        lobby.deposit("ann", 51, "d2")
    lobby.stop()


def test_finding2_sqlite_chip_columns_of_an_old_database_refuse_floats(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "old.db"))
    old_database(storage)
    Lobby(storage, FakeDealer(), [D1]).stop()  # migrates
    conn = sqlite3.connect(str(tmp_path / "old.db"))
    for sql in (f"UPDATE accounts SET balance = balance + {2**63 - 1} WHERE id = 'player:ann'",
                "UPDATE accounts SET balance = 1.5 WHERE id = 'player:ann'",
                f"UPDATE accounts SET balance = {MAX_LEDGER_TOTAL + 1} WHERE id = 'operator'",
                f"UPDATE seats SET bought_in = {MAX_CHIPS + 1}",
                f"UPDATE operations SET amount = {2**63 - 1} + 1"):
        with pytest.raises(sqlite3.IntegrityError, match="whole number"):
            conn.execute(sql)
    conn.close()
    storage.close()


def test_finding2_a_new_database_refuses_chips_past_their_bounds(storage: Storage) -> None:
    schema.create(storage)
    storage.transact(lambda tx: tx.execute(
        "INSERT INTO accounts (id, kind, balance, created_at) VALUES ('player:x', 'player', 0, 0)"))
    for sql in (f"UPDATE accounts SET balance = {MAX_LEDGER_TOTAL + 1}",):
        with pytest.raises(Exception, match="(?i)check|whole number"):
            storage.transact(lambda tx, s=sql: tx.execute(s))  # type: ignore[misc]


def test_finding2_an_overflowed_old_ledger_is_reported_not_internal(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    storage = SqliteStorage(str(path))
    old_database(storage)
    # What the old lobby did: Deposit(2^63-1), then a deposit of 1 that SQLite made a float.
    conn = sqlite3.connect(str(path))
    conn.execute(f"UPDATE accounts SET balance = {2**63 - 1} WHERE id = 'player:ann'")
    conn.execute("UPDATE accounts SET balance = balance + 1 WHERE id = 'player:ann'")
    assert conn.execute("SELECT typeof(balance) FROM accounts WHERE id = 'player:ann'"
                        ).fetchone() == ("real",)
    conn.commit()
    conn.close()
    lobby = Lobby(storage, FakeDealer(), [D1])
    with serving(lobby) as channel:
        audit = Client(channel, OPERATOR).AuditLedger(pb.AuditLedgerRequest())
    assert not audit.ok
    assert any("player:ann" in p and "not a whole number" in p for p in audit.problems)
    assert audit.player_balances == 2**63  # exact, from Python's sums
    lobby.stop()
    storage.close()


def test_finding5_huge_names_an_old_lobby_stored_do_not_break_list_tables(
        storage: Storage) -> None:
    old_database(storage)
    storage.transact(lambda tx: tx.execute(
        "UPDATE players SET display_name = ? WHERE id = 'ann'", ("n" * 5_000_000,)))
    storage.transact(lambda tx: tx.execute(
        "UPDATE tables SET name = ? WHERE id = 't1'", ("t" * 5_000_000,)))
    lobby = Lobby(storage, FakeDealer(), [D1])
    with serving(lobby) as channel:
        tables = Client(channel, OPERATOR).ListTables(pb.ListTablesRequest()).tables
    assert len(tables[0].name) == 64 and len(tables[0].seats[0].display_name) == 64
    lobby.stop()
