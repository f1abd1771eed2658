"""A PostgreSQL server of the test session's own, shared by every test package
(the lobby's storage tests, the dealer's PostgreSQL store, tests/scale).

The binaries are looked for under /usr/lib/postgresql/*/bin; when there are none,
`apt-get install postgresql` installs them. A cluster is made with initdb in a
temporary folder owned by the `postgres` user (PostgreSQL refuses to run as root),
started on a free loopback port, and stopped when the session ends. Anything that
goes wrong fails the tests loudly; nothing is skipped.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def fresh_pg_dsn(admin_dsn: str) -> str:
    """A new, empty schema on the test server: the DSN that works in it."""
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{admin_dsn} options='-c search_path={schema}'"


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


@contextmanager
def pg_server() -> Iterator[str]:
    """A PostgreSQL server on 127.0.0.1 for the session; yields its admin DSN."""
    bin_dir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="poker-pg-"))
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


