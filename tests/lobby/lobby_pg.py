"""A fresh PostgreSQL schema per test on the session's server (see conftest.pg_server)."""

from __future__ import annotations

import secrets


def fresh_pg_dsn(admin_dsn: str) -> str:
    """A new, empty schema on the test server: the DSN that works in it."""
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{admin_dsn} options='-c search_path={schema}'"
