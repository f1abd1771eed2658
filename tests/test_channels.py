"""Every client channel of the suite reconnects quickly after its server comes back
(poker.tls.RECONNECT_OPTIONS): the lobby's to its dealers (calls and FollowTables), the
dealer's to its evaluators, the SDK's and the tools'. With gRPC's default backoff (1 s
growing to 120 s) a lobby answered UNAVAILABLE for a dealer that had been serving again
for a second already (a clean-clone failure of tests/sdk/test_farm.py)."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from clients import transport
from poker import healthcheck, procs
from poker.tls import RECONNECT_OPTIONS
from services.dealer.ranking import RemoteRanker
from services.lobby.dealer_client import GrpcDealer
from services.lobby.follower import TableFollower

ADDRESS = "127.0.0.1:1"  # nothing listens: the channels are only opened


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[tuple[str, Any]]]]:
    """The (address, options) of every plaintext channel opened during the test."""
    seen: list[tuple[str, list[tuple[str, Any]]]] = []
    real = grpc.insecure_channel

    def insecure_channel(target: str, options: Any = None, **kw: Any) -> grpc.Channel:
        seen.append((target, list(options or ())))
        return real(target, options=options, **kw)

    monkeypatch.setattr(grpc, "insecure_channel", insecure_channel)
    return seen


def _reconnects_quickly(options: list[tuple[str, Any]]) -> bool:
    return all(option in options for option in RECONNECT_OPTIONS)


def test_the_lobby_s_channels_to_its_dealers_reconnect_quickly(opened: list[Any]) -> None:
    GrpcDealer("token")._stub(ADDRESS)
    follower = TableFollower([ADDRESS], "token")
    follower.start()
    follower.stop()
    assert [a for a, _ in opened] == [ADDRESS, ADDRESS]
    assert all(_reconnects_quickly(options) for _, options in opened), opened


def test_the_dealer_s_evaluator_channels_the_sdk_s_and_the_tools_reconnect_quickly(
        opened: list[Any]) -> None:
    RemoteRanker([ADDRESS]).close()
    transport.open_channel(ADDRESS).close()
    healthcheck.open_channel(ADDRESS).close()
    with pytest.raises(grpc.FutureTimeoutError):
        procs.wait_healthy(ADDRESS, timeout=0.05)
    assert len(opened) == 4
    assert all(_reconnects_quickly(options) for _, options in opened), opened
    # A backoff that stays short: at most 2 s between two attempts to connect.
    assert dict(RECONNECT_OPTIONS)["grpc.max_reconnect_backoff_ms"] <= 2000
