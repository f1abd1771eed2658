"""A fresh PostgreSQL schema per test on the session's server (tests/pg_server.py)."""

from __future__ import annotations

from tests.pg_server import fresh_pg_dsn

__all__ = ["fresh_pg_dsn"]
