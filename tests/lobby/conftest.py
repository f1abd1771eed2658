"""Fixtures of the lobby's tests: a real PostgreSQL server for the session, and a database per test
on both backends (SQLite and PostgreSQL).

PostgreSQL: the binaries are looked for under /usr/lib/postgresql/*/bin; when there
are none, `apt-get install postgresql` installs them. A cluster is made with
initdb in a temporary folder owned by the `postgres` user (PostgreSQL refuses to
run as root), started on a free loopback port, and stopped when the session ends.
Anything that goes wrong fails the tests loudly; nothing is skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from lobby_fakes import FakeDealer
from lobby_pg import fresh_pg_dsn

from services.lobby.storage import PostgresStorage, SqliteStorage, Storage


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "-q", "postgresql"]):
            done = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if done.returncode:
                pytest.fail(f"{' '.join(cmd)} failed; the lobby's PostgreSQL tests need it:\n"
                            f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        pytest.fail("PostgreSQL is not installed and apt-get did not install it")
    return found[-1].parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


def _run(cmd: list[str]) -> None:
    done = subprocess.run(_as_postgres(cmd), capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"{' '.join(cmd)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server on 127.0.0.1 for the session; yields its admin DSN."""
    bin_dir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="lobby-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", _free_port()
    _run([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "lobby",
          "--no-sync", "-E", "UTF8"])
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
               " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
    _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-o", options,
          "-w", "-t", "60", "start"])
    try:
        yield f"host=127.0.0.1 port={port} user=lobby dbname=postgres"
    finally:
        subprocess.run(_as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                                     "-w", "stop"]), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


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
