"""The event streams of a table: WatchTable and the bots' Play, for one viewer each.

A stream sends the table's stored events after the viewer's last sequence number,
redacted for the viewer, in batches. What the viewer must act on goes out at once
(its own TurnStarted, an answer to its action, the table closing); anything else
lingers up to `linger` seconds so that the events of several actions share one
message: a table of six bots then costs about one message per action instead of
six, and no viewer waits on an event it needs. Messages go out serialized: each
event's bytes are built once per audience (views.event_frame) and joined, so a
stream never copies or re-encodes an event.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import views
from services.dealer.auth import Caller
from services.dealer.errors import status_of
from services.dealer.tables import Stored, Table

#: Events per streamed message, at most.
BATCH = 256


class Feed:
    """One viewer's cursor on a table's log, woken when the log grows by something it needs.

    `_due` says the events after the cursor must go out now: the viewer is called on,
    the table closed, its linger ran out, or it just connected (its backlog goes at once).
    """

    def __init__(self, table: Table, viewer: views.Viewer, after: int, linger: float) -> None:
        self.table, self.viewer, self.after, self.linger = table, viewer, after, linger
        self._waiter: asyncio.Future[None] | None = None  # set while the stream waits
        self._due = True
        self._timer: asyncio.TimerHandle | None = None
        table.subscribe(self._on_commit)

    def close(self) -> None:
        self._cancel()
        self.table.unsubscribe(self._on_commit)

    def _on_commit(self, new: Sequence[Stored], called: frozenset[int] | None) -> None:
        # Only what the viewer needs now wakes it; anything else starts (or joins) the
        # linger, and the timer wakes it once for all of them.
        if self._due:
            return
        if called is None or self.linger <= 0 or self.viewer.seat in called:
            self._flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.linger, self._flush)

    def _flush(self) -> None:
        self._cancel()
        self._due = True
        self.poke()

    def poke(self) -> None:
        """Wakes the stream to look at what is due and at `urgent()` (a Play result to send)."""
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def batches(self, urgent: Callable[[], bool] = lambda: False
                      ) -> AsyncIterator[tuple[bytes, bool]]:
        """(serialized events, the stream ends here) pairs; empty bytes when only `urgent()`."""
        while True:
            if self._due or urgent():
                self._due = False
                self._cancel()
                batch = self.table.events_after(self.after, BATCH)
                if batch:
                    self.after = batch[-1].sequence
                    if len(batch) == BATCH:
                        self._due = True  # the rest of a backlog follows at once
                    data, leaving = views.events_for(batch, self.viewer, self.table)
                    yield data, leaving
                    if leaving:
                        return
                elif urgent():
                    yield b"", False
                continue
            if self.table.closed and self.after >= self.table.last_sequence:
                return
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


async def watch(table: Table, viewer: views.Viewer, after: int,
                linger: float) -> AsyncIterator[bytes]:
    """WatchTable: the viewer's events after `after`, then live, until the table closes.

    Each item is a serialized WatchTableResponse."""
    feed = Feed(table, viewer, after, linger)
    try:
        async for data, _leaving in feed.batches():
            yield data
    finally:
        feed.close()


class PlaySession:
    """One bot's Play stream: actions in (applied as they come), events and results out."""

    def __init__(self, table: Table, caller: Caller, viewer: views.Viewer, after: int,
                 linger: float) -> None:
        self.table, self.caller = table, caller
        self.feed = Feed(table, viewer, after, linger)
        self.results: deque[pb.PlayActionResult] = deque()
        self.done = False

    async def read(self, requests: AsyncIterator[pb.PlayRequest]) -> None:
        try:
            async for request in requests:
                if request.HasField("action"):
                    self.results.append(self._act(request.action))
                    self.feed.poke()
        finally:
            self.done = True
            self.feed.poke()

    def _act(self, action: pb.PlayAction) -> pb.PlayActionResult:
        result = pb.PlayActionResult(action_number=action.action_number)
        try:
            result.sequence = self.table.act(self.caller.seat, action.hand_id,
                                             action.action_number, views.action_kind(action.kind),
                                             action.amount)
        except Exception as err:  # noqa: BLE001 - reported in the result, the stream goes on
            code, message = status_of(err)
            result.code, result.message = code.value[0], message
        return result

    def _result_due(self) -> bool:
        # A result goes out with (or after) the events it caused.
        return bool(self.results) and self.results[0].sequence <= self.table.last_sequence

    async def responses(self) -> AsyncIterator[bytes]:
        """Serialized PlayResponses."""
        try:
            async for data, _leaving in self.feed.batches(self._urgent):
                if self.results and self.results[0].sequence <= self.feed.after:
                    data += views.result_frame(self.results.popleft())
                if data:
                    yield data
                if self.done and not self.results:
                    return
        finally:
            self.feed.close()

    def _urgent(self) -> bool:
        return self._result_due() or (self.done and not self.results)


async def play(session: PlaySession, requests: AsyncIterator[Any]) -> AsyncIterator[bytes]:
    """Runs a Play session: reads actions concurrently, yields serialized responses until
    the bot leaves."""
    reader = asyncio.ensure_future(session.read(requests))
    try:
        async for response in session.responses():
            yield response
    finally:
        reader.cancel()
