"""The test process's start: it runs gRPC on the I/O engine the services run on.

Importing the suite changes no environment variable, so the tests choose the engine
here, as the `poker` command does, before any test module imports grpc; the services
and scripts they start inherit it (poker/grpc_engine.py).
"""

from poker.grpc_engine import prefer_polling_engine

prefer_polling_engine()


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def pg_server():  # type: ignore[no-untyped-def]
    """A PostgreSQL server on 127.0.0.1 for the session (tests/pg_server.py); yields its
    admin DSN. Started on first use only."""
    from tests.pg_server import pg_server as start

    with start() as dsn:
        yield dsn
