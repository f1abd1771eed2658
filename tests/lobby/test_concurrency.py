"""Several lobby processes on one PostgreSQL (and threads on SQLite): seats and money stay right
when joins race, and each module's docstring example runs.
"""

from __future__ import annotations

import doctest
import importlib
import threading
from collections.abc import Callable

import pytest
from lobby_fakes import FakeDealer

from services.lobby.errors import LobbyError
from services.lobby.lobby import Lobby
from services.lobby.rules import TableRules
from services.lobby.storage import PostgresStorage, SqliteStorage, Storage

D1 = "dealer-1:50051"


def test_racing_joins_fill_each_seat_once(storage: Storage) -> None:
    dealer = FakeDealer()
    # Two lobbies on one database: on PostgreSQL as two processes would be (own connections).
    second: Storage = storage
    if isinstance(storage, PostgresStorage):
        second = PostgresStorage(storage.dsn)
    elif isinstance(storage, SqliteStorage):
        second = SqliteStorage(storage.path)
    rooms = [Lobby(storage, dealer, [D1]), Lobby(second, dealer, [D1])]
    rooms[0].open_table("T", TableRules(seats=4, min_buy_in=100, max_buy_in=100), {}, "o",
                        table_id="t1")
    names = [f"p{i}" for i in range(10)]
    for name in names:
        rooms[0].create_player(name, name)
        rooms[0].deposit(name, 100, f"fund-{name}")
    refused: list[str] = []

    def join(i: int) -> Callable[[], None]:
        def run() -> None:
            try:
                rooms[i % 2].join(names[i], "t1", None, 100, False, "j")
            except LobbyError as err:
                refused.append(str(err))
        return run

    threads = [threading.Thread(target=join(i)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    table = rooms[0].table("t1")
    assert len(table.seats) == 4 and len(refused) == 6
    assert sorted(dealer.stacks(D1, "t1")) == [0, 1, 2, 3]
    audit = rooms[1].audit()
    assert audit.ok and audit.by_kind["table"] == 400 and audit.by_kind["player"] == 600
    if second is not storage:
        second.close()


@pytest.mark.parametrize("module", ["ledger", "draw", "rules", "checks"])
def test_docstring_examples_run(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"services.lobby.{module}"))
    assert tried and not failures
