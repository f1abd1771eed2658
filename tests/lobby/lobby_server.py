"""A LobbyService served in process for the servicer's tests, and a stub that sends a token."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest

from poker.serving import Service, start
from poker.v1 import lobby_pb2_grpc
from services.lobby.lobby import Lobby
from services.lobby.server import SERVICE_NAME, LobbyServicer

OPERATOR = "operator-secret"


class Client:
    """A stub that sends one token (or none) with every call."""

    def __init__(self, channel: grpc.Channel, token: str | None) -> None:
        self._stub = lobby_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
        self._metadata = [("authorization", f"Bearer {token}")] if token else []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._stub, name)
        return lambda request: method(request, metadata=self._metadata, timeout=10)


@contextmanager
def serving(lobby: Lobby) -> Iterator[grpc.Channel]:
    """The lobby behind a LobbyServicer (operator token OPERATOR) on a free loopback port,
    and a channel to it; the server stops on exit (the lobby is the caller's)."""
    servicer = LobbyServicer(lobby, OPERATOR)
    running = start([Service([SERVICE_NAME], lambda s: lobby_pb2_grpc
                             .add_LobbyServiceServicer_to_server(servicer, s))], "127.0.0.1", 0)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield channel
    finally:
        running.stop(0)


def code_of(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    """The status code and details of the refusal `call` must meet."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details()
