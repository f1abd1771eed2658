"""The test process's start: it runs gRPC on the I/O engine the services run on.

Importing the suite changes no environment variable, so the tests choose the engine
here, as the `poker` command does, before any test module imports grpc; the services
and scripts they start inherit it (poker/grpc_engine.py).
"""

from poker.grpc_engine import prefer_polling_engine

prefer_polling_engine()


from collections import deque  # noqa: E402
from collections.abc import Generator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

#: Lines of each process's log a failed test's report shows, and at most how many logs.
LOG_TAIL_LINES, LOG_TAIL_FILES = 200, 16


def log_tails(folders: list[Path], lines: int = LOG_TAIL_LINES) -> list[tuple[str, str]]:
    """(section title, the last `lines` lines) of each process's log (`*.log`, at any
    depth) in `folders`: what a failed test's report shows, since the folders are gone
    once the run ends."""
    logs: dict[Path, str] = {}  # each log once, named from the first folder holding it
    for folder in folders:
        if folder.is_dir():
            for log in sorted(folder.rglob("*.log")):
                logs.setdefault(log, str(log.relative_to(folder)))
    sections = []
    for log, name in list(logs.items())[:LOG_TAIL_FILES]:
        with log.open(errors="replace") as f:
            tail = deque(f, maxlen=lines)
        sections.append((f"{name}, its last {len(tail)} lines", "".join(tail)))
    return sections


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules holding a long test (marked `slow`) run first, each whole and in its
    place among them: pytest-xdist then hands the long tests out while every worker is
    still busy, instead of one worker playing a minute-long test at the end while the
    other waits. A module stays together, so its module fixtures are set up once. The
    order is the same in every worker (xdist checks that)."""
    slow = {item.nodeid.split("::", 1)[0] for item in items
            if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in slow)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, Any, Any]:
    """A failed test (a time-out included) reports the end of every process's log its
    suite (the `suite` fixture's folder) or its `tmp_path` holds: a flake seen once in CI
    can then be read afterwards."""
    report = yield
    if report.when == "call" and report.failed:
        funcargs = getattr(item, "funcargs", {})
        folders = [Path(f) for f in (getattr(funcargs.get("suite"), "folder", None),
                                     funcargs.get("tmp_path")) if f is not None]
        for title, text in log_tails(folders):
            report.sections.append((title, text))
    return report


@pytest.fixture(scope="session")
def pg_server():  # type: ignore[no-untyped-def]
    """A PostgreSQL server on 127.0.0.1 for the session (tests/pg_server.py); yields its
    admin DSN. Started on first use only."""
    from tests.pg_server import pg_server as start

    with start() as dsn:
        yield dsn
