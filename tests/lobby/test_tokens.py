"""Seat tokens are never stored by the lobby, on SQLite and PostgreSQL: a retried JoinTable and
a player sat out while leaving get the token by asking the dealer again with the buy-in's
request_id; a database of an older version, which kept tokens in plain text, is migrated.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lobby_fakes import FakeDealer, ann_and_bob_at_t1

from services.lobby import schema
from services.lobby.errors import FailedPrecondition
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import TableRules
from services.lobby.storage import SqliteStorage, Storage, Tx

D1 = "dealer-1:50051"
RULES = TableRules(seats=3, min_buy_in=100, max_buy_in=1000)
TABLES = ("accounts", "transfers", "players", "tables", "button_draws", "seats", "operations")


@pytest.fixture
def room(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    lobby = ann_and_bob_at_t1(Lobby(storage, dealer, [D1]), RULES)
    yield lobby
    lobby.stop()


def stored_text(storage: Storage) -> str:
    """Every value of every row of the lobby's tables, as text."""
    def read(tx: Tx) -> str:
        return "\n".join(repr(row) for table in TABLES for row in tx.all(f"SELECT * FROM {table}"))

    return storage.transact(read)


def file_bytes(storage: Storage) -> bytes:
    """The SQLite database file and its write-ahead log, byte for byte."""
    assert isinstance(storage, SqliteStorage)
    files = [Path(storage.path), Path(f"{storage.path}-wal")]
    return b"".join(f.read_bytes() for f in files if f.exists())


def test_no_seat_token_is_stored_after_a_join(storage: Storage, room: Lobby,
                                               dealer: FakeDealer) -> None:
    joined = room.join("ann", "t1", None, 300, False, "j1")
    token = joined.seat_token
    assert token and token == dealer.tables[(D1, "t1")].seats[0][2]
    assert token not in stored_text(storage)
    if storage.dialect == "sqlite":
        assert token.encode() not in file_bytes(storage)
    # A retried JoinTable still answers with the token: the dealer gives it again.
    again = room.join("ann", "t1", None, 300, False, "j1")
    assert again.state is OpState.DONE and again.seat_token == token
    assert [e.kind for e in dealer.tables[(D1, "t1")].events] == ["seated"]
    assert token not in stored_text(storage)


def test_R31_a_player_leaving_during_a_hand_is_sat_out_with_the_token_asked_again(
    room: Lobby, dealer: FakeDealer
) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    dealer.hand_running = True
    assert room.leave("ann", "t1", "l1").state is OpState.REQUESTED
    assert dealer.tables[(D1, "t1")].sat_out == {0}  # SitOut took ann's own seat token
    dealer.hand_running = False
    assert room.recover() == 0 and room.player("ann").balance == 1000


def _as_an_older_version(storage: Storage, token: str) -> None:
    """Turns the schema into the one older versions had, with the token in plain text."""
    def run(tx: Tx) -> None:
        for table in ("seats", "operations"):
            tx.execute(f"ALTER TABLE {table} ADD COLUMN seat_token TEXT NOT NULL DEFAULT ''")
            tx.execute(f"UPDATE {table} SET seat_token = ?", (token,))
        tx.execute("ALTER TABLE operations DROP COLUMN dealer_request_id")

    storage.transact(run)
    assert token in stored_text(storage)


def test_an_older_schema_loses_its_plaintext_tokens_at_start_up(
    storage: Storage, room: Lobby, dealer: FakeDealer
) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    old_token = "older-version-plaintext-seat-token"
    _as_an_older_version(storage, old_token)
    upgraded = Lobby(storage, dealer, [D1])  # start-up migrates
    found = storage.transact(lambda tx: (schema.columns(tx, storage.dialect, "seats"),
                                         schema.columns(tx, storage.dialect, "operations")))
    assert "seat_token" not in found[0] and "seat_token" not in found[1]
    assert "dealer_request_id" in found[1]
    assert old_token not in stored_text(storage)
    if storage.dialect == "sqlite":
        assert old_token.encode() not in file_bytes(storage)
    # The buy-in recorded before the upgrade has no request_id: its token cannot be asked for.
    assert upgraded.player("ann").balance == 700 and upgraded.audit().ok
    with pytest.raises(FailedPrecondition, match="older lobby"):
        upgraded.join("ann", "t1", 0, 300, False, "j1")
    Lobby(storage, dealer, [D1])  # a second start-up finds nothing to migrate
    assert old_token not in stored_text(storage)
