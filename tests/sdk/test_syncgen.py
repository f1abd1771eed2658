"""One SDK: the sync clients are generated from the asyncio ones, so they have the same calls
and the same behaviour; the Play streams of both flavours deliver time-limit ticks."""

from __future__ import annotations

import asyncio
import inspect
import queue
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from clients import aio, sdk, syncgen
from clients.streaming import EOF, TICK, AsyncPlayStream, PlayStream

PAIRS = [(sdk.LobbyClient, aio.AsyncLobbyClient), (sdk.TableClient, aio.AsyncTableClient)]


def test_the_sync_sdk_is_generated_from_the_asyncio_one_and_not_stale() -> None:
    fresh = syncgen.generate(syncgen.SOURCE.read_text())
    assert syncgen.TARGET.read_text() == fresh, (
        "clients/sdk.py is stale: edit clients/aio.py, run `make sdk` and commit")


def _public(cls: type) -> dict[str, Any]:
    return {name: member for name, member in vars(cls).items()
            if not name.startswith("_") or name in ("__init__", "__enter__", "__aenter__")}


@pytest.mark.parametrize(("sync", "asyncio_"), PAIRS, ids=["lobby", "table"])
def test_the_sync_and_asyncio_clients_have_the_same_calls(sync: type, asyncio_: type) -> None:
    calls, async_calls = _public(sync), _public(asyncio_)
    assert set(calls) - {"__enter__"} == set(async_calls) - {"__aenter__"}
    for name, member in async_calls.items():
        if not callable(member) or name == "__aenter__":
            continue
        twin = calls[name]
        assert inspect.signature(twin).parameters.keys() == \
            inspect.signature(member).parameters.keys(), name
        assert not inspect.iscoroutinefunction(twin), name
        assert not inspect.isasyncgenfunction(twin), name


def test_state_is_one_behaviour_it_raises_until_the_client_follows_the_table() -> None:
    """`state` asks the dealer nothing, in both clients: before `follow()` (or `events()`,
    `play()`) there is no state to read, and the error says what to call."""
    table = sdk.TableClient("127.0.0.1:1", "t")
    with pytest.raises(RuntimeError, match="view()"):
        table.state  # noqa: B018
    table.close()

    async def main() -> None:
        table = aio.AsyncTableClient("127.0.0.1:1", "t")
        with pytest.raises(RuntimeError, match="view()"):
            table.state  # noqa: B018
        await table.close()

    asyncio.run(main())


class _Echo:
    """A sync bidirectional call that answers each request with itself; cancelled, it
    raises CANCELLED as gRPC's does."""

    def __init__(self, requests: Iterator[Any]) -> None:
        self.answers: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=self._echo, args=(requests,), daemon=True).start()

    def _echo(self, requests: Iterator[Any]) -> None:
        for request in requests:
            self.answers.put(request)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        answer = self.answers.get()
        if answer is _CANCELLED:
            self.answers.put(_CANCELLED)  # a cancelled call stays cancelled
            raise _Cancelled()
        return answer

    def cancel(self) -> None:
        self.answers.put(_CANCELLED)


_CANCELLED = object()


class _Cancelled(grpc.RpcError):  # type: ignore[misc]
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED


class _AsyncEcho:
    """A grpc.aio bidirectional call that answers each request with itself."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()

    async def write(self, request: Any) -> None:
        await self.queue.put(request)

    async def read(self) -> Any:
        return await self.queue.get()

    def done(self) -> bool:
        return False

    def cancel(self) -> None:
        self.queue.put_nowait(EOF)


def test_a_sync_play_stream_reads_on_the_callers_thread_and_ends_at_its_tick() -> None:
    stream = PlayStream(_Echo)
    stream.write("first")
    assert stream.read() == "first" and not stream.spent
    stream.tick_in(0.01)
    assert stream.read() is TICK and stream.spent  # nothing came: the limit is due
    with pytest.raises(grpc.RpcError):  # the stream is over: the client opens a new one
        stream.read()
    stream.cancel()


def test_an_asyncio_play_stream_ticks_without_breaking_and_reads_on() -> None:
    async def main() -> None:
        stream = AsyncPlayStream(_AsyncEcho)
        stream.tick_in(0.01)
        assert await stream.read() is TICK and not stream.spent  # ticks in place
        await stream.write("request")
        assert await stream.read() == "request"
        stream.cancel()

    asyncio.run(main())
