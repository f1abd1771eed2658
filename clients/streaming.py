"""Play streams: responses, their end, their error and time-limit ticks read as one sequence.

A bot's Play stream (and a farm's PlayMany stream) is read by a pump task that puts
every response in an inbox, then `EOF` when the server ends the stream, or the error
that broke it. The client reads the inbox; a time limit puts `TICK` there, so the limit
acts even when no response comes (an idle table), and the stream stays open. The sync
`PlayStream` reads on the caller's thread instead (a thread hand-off a response costs
about 0.1 ms of CPU, bench/sdk_sync.py); its tick ends the stream once (`spent`).
`AsyncPlayStream` and `PlayStream` are the two flavours of the same thing:
`clients/sdk.py` is generated from `clients/aio.py` (`clients/syncgen.py`), which
renames one into the other.

>>> async def play(stub, requests):                                     # doctest: +SKIP
...     stream = AsyncPlayStream(stub.Play)
...     for request in requests:
...         await stream.write(request)
...     stream.tick_in(5.0)
...     while (item := await stream.read()) is not EOF:
...         if item is TICK: ...                         # five seconds went by
...     stream.cancel()
"""

from __future__ import annotations

import asyncio
import inspect
import queue
import threading
from collections.abc import Callable
from typing import Any

import grpc

from clients.models import Action, TableView
from clients.session import Bot, BotSession, Table

__all__ = [
    "EOF", "TICK", "AsyncBotAdapter", "AsyncPlayStream", "BotAdapter", "PlayStream",
    "StreamDropped", "as_rpc_error", "pump",
]

#: In an inbox: a time limit is due.
TICK: Any = object()
#: In an inbox: the server ended the stream (grpc.aio's own end-of-stream marker).
EOF: Any = grpc.aio.EOF


async def pump(stream: Any, inbox: asyncio.Queue[Any]) -> None:
    """Reads a grpc.aio stream into `inbox`; its end (`EOF`) or its error goes there too.
    A stream cancelled under it (`drop_stream()`) puts an `asyncio.CancelledError`."""
    try:
        while True:
            response = await stream.read()
            inbox.put_nowait(response)
            if response is EOF:
                return
    except (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError) as err:
        if isinstance(err, asyncio.CancelledError) and stream.done() is False:
            raise  # the pump itself is cancelled, not the stream
        inbox.put_nowait(err if not isinstance(err, asyncio.CancelledError)
                         else asyncio.CancelledError())


class AsyncPlayStream:
    """A grpc.aio bidirectional stream read by a `pump` task into an inbox."""

    def __init__(self, method: Callable[..., Any], metadata: Any = None) -> None:
        self.call = method() if metadata is None else method(metadata=metadata)
        self._inbox: asyncio.Queue[Any] = asyncio.Queue()
        self._reader = asyncio.ensure_future(pump(self.call, self._inbox))
        self._timer: asyncio.TimerHandle | None = None
        #: Always False: an asyncio stream ticks in place (see `PlayStream.spent`).
        self.spent = False

    async def write(self, request: Any) -> None:
        await self.call.write(request)

    async def read(self) -> Any:
        """The next response, `EOF` or `TICK`; raises the error that broke the stream."""
        item = await self._inbox.get()
        if isinstance(item, BaseException):
            raise item
        if item is TICK:
            self._timer = None
        return item

    def read_ready(self) -> list[Any]:
        """Everything in the inbox already (errors and ends included, not raised)."""
        items = []
        while not self._inbox.empty():
            items.append(self._inbox.get_nowait())
        return items

    def tick_in(self, seconds: float) -> None:
        """Puts `TICK` in the inbox in `seconds` (replacing a tick not yet due)."""
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(seconds, self._inbox.put_nowait, TICK)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._reader.cancel()
        self.call.cancel()


class PlayStream:
    """`AsyncPlayStream` for a synchronous stub: requests go through a queue the gRPC
    request iterator reads; `read()` takes the next response on the caller's thread (no
    hand-off). A sync read cannot wait with a timeout, so a tick ends the stream: the
    timer cancels the call, `read()` returns `TICK` once, and `spent` tells the client to
    go on on a new stream (resuming after the last event, as after a reconnect)."""

    def __init__(self, method: Callable[..., Any], metadata: Any = None) -> None:
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        requests = iter(self._outbox.get, None)
        self.call = method(requests) if metadata is None else method(requests, metadata=metadata)
        self._responses = iter(self.call)
        self._timer: threading.Timer | None = None
        self._ticked = threading.Event()
        #: True once the stream ended at its tick: play goes on on a new stream.
        self.spent = False

    def write(self, request: Any) -> None:
        self._outbox.put(request)

    def read(self) -> Any:
        """The next response, `EOF` or `TICK`; raises the error that broke the stream."""
        try:
            return next(self._responses, EOF)
        except grpc.RpcError:
            if not self._ticked.is_set() or self.spent:
                raise
            self.spent = True
            return TICK

    def read_ready(self) -> list[Any]:
        """Nothing: a sync stream has no inbox (`read` takes each response as it comes)."""
        return []

    def tick_in(self, seconds: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(seconds, self._tick)
        self._timer.daemon = True
        self._timer.start()

    def _tick(self) -> None:
        self._ticked.set()
        self.call.cancel()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._outbox.put(None)
        self.call.cancel()


class AsyncBotAdapter:
    """Lets BotSession (synchronous) use a bot whose `act` is a coroutine: the answer is
    awaited just before the session asks for it (`prepare`). A plain bot passes through."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.awaits = inspect.iscoroutinefunction(bot.act)
        self.ready: dict[tuple[str, int], Action] = {}

    def act(self, view: TableView) -> Action:
        hand = view.hand
        key = (hand.hand_id, hand.action_number) if hand else ("", 0)
        if key in self.ready:
            return self.ready.pop(key)
        return self.bot.act(view)

    async def prepare(self, session: BotSession, table: Table) -> None:
        """Awaits the bot's answer when the session is about to ask for one."""
        key = session.decision_due(table) if self.awaits else None
        if key is None or key in session.answers or key in self.ready:
            return
        view = table if isinstance(table, TableView) else table.view()
        self.ready = {key: await self.bot.act(view)}  # type: ignore[misc]


class BotAdapter:
    """`AsyncBotAdapter` for the sync clients: a bot answers when the session asks."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def act(self, view: TableView) -> Action:
        return self.bot.act(view)

    def prepare(self, session: BotSession, table: Table) -> None:
        """Nothing to prepare: a sync bot's `act` is called by the session itself."""


class StreamDropped(grpc.RpcError):  # type: ignore[misc]
    """A stream cancelled by `drop_stream()`: seen as CANCELLED, which reconnects."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED

    def details(self) -> str:
        return "stream dropped"


def as_rpc_error(err: BaseException) -> Any:
    """The RpcError a broken stream raised, or `StreamDropped` for a cancelled one."""
    return err if isinstance(err, grpc.RpcError) else StreamDropped()
