"""The event streams of a table: WatchTable and the bots' Play, for one viewer each.

A stream sends the table's stored events after the viewer's last sequence number,
redacted for the viewer, in batches. What the viewer must act on goes out at once
(its own TurnStarted, an answer to its action, the table closing); anything else
lingers up to `linger` seconds so that the events of several actions share one
message: a table of six bots then costs about one message per action instead of
six, and no viewer waits on an event it needs.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import events as ev
from services.dealer import views
from services.dealer.auth import Caller
from services.dealer.errors import status_of
from services.dealer.tables import Stored, Table

#: Events per streamed message, at most.
BATCH = 256


class Feed:
    """One viewer's cursor on a table's log, woken whenever the log grows."""

    def __init__(self, table: Table, viewer: views.Viewer, after: int, linger: float) -> None:
        self.table, self.viewer, self.after, self.linger = table, viewer, after, linger
        self.wake = asyncio.Event()
        self._deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        table.subscribe(self._on_commit)

    def close(self) -> None:
        self._cancel()
        self.table.unsubscribe(self._on_commit)

    def _on_commit(self, new: Sequence[Stored], called: frozenset[int] | None) -> None:
        # Only what the viewer needs now wakes it; anything else starts (or joins) the
        # linger, and the timer wakes it once for all of them.
        if called is None or self.linger <= 0 or self.viewer.seat in called:
            self.wake.set()
        elif self._deadline is None:
            loop = asyncio.get_running_loop()
            self._deadline = loop.time() + self.linger
            self._timer = loop.call_later(self.linger, self.wake.set)

    async def batches(self, urgent: Callable[[], bool] = lambda: False
                      ) -> AsyncIterator[tuple[list[pb.TableEvent], bool]]:
        """(messages, the stream ends here) pairs; an empty list when only `urgent()` called."""
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()
            batch = self.table.events_after(self.after, BATCH)
            now_needed = urgent() or self._needs(batch)
            if (batch and not now_needed and self._deadline is not None
                    and loop.time() < self._deadline):
                await self.wake.wait()
                continue
            if batch or now_needed:
                self._cancel()
                if batch:
                    self.after = batch[-1].sequence
                messages, leaving = views.events_for(batch, self.viewer, self.table)
                yield messages, leaving
                if leaving:
                    return
                continue
            if self.table.closed:
                return
            await self.wake.wait()

    def _needs(self, batch: Sequence[Stored]) -> bool:
        if not batch:
            return False
        if self.linger <= 0 or len(batch) >= BATCH or self.table.closed:
            return True
        seat = self.viewer.seat
        return any(
            (isinstance(s.event, ev.TurnStarted | ev.PlayerUnseated) and s.event.seat == seat)
            or isinstance(s.event, ev.TableClosed)
            for s in batch)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._deadline = None


async def watch(table: Table, viewer: views.Viewer, after: int,
                linger: float) -> AsyncIterator[pb.WatchTableResponse]:
    """WatchTable: the viewer's events after `after`, then live, until the table closes."""
    feed = Feed(table, viewer, after, linger)
    try:
        async for messages, _leaving in feed.batches():
            yield pb.WatchTableResponse(events=messages)
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
                    self.feed.wake.set()
        finally:
            self.done = True
            self.feed.wake.set()

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

    async def responses(self) -> AsyncIterator[pb.PlayResponse]:
        try:
            async for messages, _leaving in self.feed.batches(self._urgent):
                response = pb.PlayResponse(events=messages)
                if self.results and self.results[0].sequence <= self.feed.after:
                    response.action_result.CopyFrom(self.results.popleft())
                if messages or response.HasField("action_result"):
                    yield response
                if self.done and not self.results:
                    return
        finally:
            self.feed.close()

    def _urgent(self) -> bool:
        return self._result_due() or (self.done and not self.results)


async def play(session: PlaySession, requests: AsyncIterator[Any]
               ) -> AsyncIterator[pb.PlayResponse]:
    """Runs a Play session: reads actions concurrently, yields responses until the bot leaves."""
    reader = asyncio.ensure_future(session.read(requests))
    try:
        async for response in session.responses():
            yield response
    finally:
        reader.cancel()
