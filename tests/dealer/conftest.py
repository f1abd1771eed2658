"""Fixtures of the dealer's tests: one dealer process per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from poker.procs import ServiceProcess
from tests.dealer.helpers import Client, start_dealer

try:  # the rule engine lands separately; until it does, only the unit tests run
    from services.dealer.engine import Hand  # noqa: F401
    from services.evaluator.core import evaluate  # noqa: F401
except ImportError:
    collect_ignore = ["test_api.py", "test_play.py", "test_recovery.py", "test_evaluators.py"]


@pytest.fixture(scope="module")
def dealer(tmp_path_factory: pytest.TempPathFactory,
           request: pytest.FixtureRequest) -> Iterator[ServiceProcess]:
    """A dealer for the module; a module's DEALER_ARGS adds command-line options."""
    folder = tmp_path_factory.mktemp("dealer")
    extra = getattr(request.module, "DEALER_ARGS", ())
    proc = start_dealer(folder / "dealer.sqlite", *extra, log_path=folder / "dealer.log")
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def client(dealer: ServiceProcess) -> Iterator[Client]:
    c = Client(dealer.address)
    yield c
    c.close()


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    return tmp_path / "dealer.log"
