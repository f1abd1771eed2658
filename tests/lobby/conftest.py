"""Fixtures of the lobby's tests: a database per test on both backends (SQLite and
PostgreSQL, on the session's server: tests/conftest.py's `pg_server`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lobby_fakes import FakeDealer
from lobby_pg import fresh_pg_dsn

from services.lobby.storage import PostgresStorage, SqliteStorage, Storage


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """An empty database of each backend."""
    db: Storage
    if request.param == "sqlite":
        db = SqliteStorage(str(tmp_path / "lobby.db"))
    else:
        db = PostgresStorage(fresh_pg_dsn(request.getfixturevalue("pg_server")))
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def dealer() -> FakeDealer:
    """The in-memory dealer (lobby_fakes.py), fresh for each test."""
    return FakeDealer()
