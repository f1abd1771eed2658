"""Fixtures of the tournament tests: a database of each backend (tests/lobby/conftest.py's
`storage`, on the session's PostgreSQL server of tests/conftest.py), and an in-memory
dealer that plays hands on command."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_LOBBY = Path(__file__).resolve().parents[1] / "lobby"
sys.path.insert(0, str(_LOBBY))
_spec = importlib.util.spec_from_file_location("lobby_conftest", _LOBBY / "conftest.py")
assert _spec is not None and _spec.loader is not None
_lobby = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_lobby)

storage = _lobby.storage

from tests.tournament.fakes import HandDealer  # noqa: E402


@pytest.fixture
def hand_dealer() -> Iterator[HandDealer]:
    yield HandDealer()
