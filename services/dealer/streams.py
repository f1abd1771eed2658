"""The event streams of a table: WatchTable and the bots' Play, for one viewer each.

A stream sends the table's stored events after the viewer's last sequence number,
redacted for the viewer, in batches. What the viewer must act on goes out at once
(its own TurnStarted, an answer to its action, the table closing); anything else
lingers up to `linger` seconds so that the events of several actions share one
message: a table of six bots then costs about one message per action instead of
six, and no viewer waits on an event it needs. Messages go out serialized: each
event's bytes are built once per audience (views.event_frame) and joined, so a
stream never copies or re-encodes an event.

A stream that starts further back than the table keeps in memory catches up from
the store (`History`): pages of `PAGE` events, read, decoded and serialized on the
store's reader threads, at most `CATCHUP_READS` pages at once for the whole dealer,
each page shared by every stream behind it, and at most `CATCHUP_STREAMS` streams
sending history at once (the others wait their turn: sending is what costs the
event loop, and live play must keep it). A stream holds one page at most, and
asks for the next only once its consumer took the last message (gRPC's flow
control): a viewer that stops reading makes the dealer hold one page for it, not
its history. Then it goes on from memory, from the sequence after its last: no gap,
no duplicate.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from poker import mapping
from poker.limits import quote
from poker.status import reason_of, status_of
from poker.v1 import dealer_pb2 as pb
from services.dealer import checks, codec, views
from services.dealer.auth import Caller
from services.dealer.errors import DealerError, InvalidArgument, PermissionDenied
from services.dealer.store import Reader, Store
from services.dealer.tables import Stored, Table

#: Events per streamed message, at most.
BATCH = 256
#: Events a stream catching up reads from the store at once (and holds, at most).
PAGE = 512
#: Pages read from the store at the same time, for all streams: the others wait.
CATCHUP_READS = 2
#: Streams sending history at the same time, for the whole dealer: the others wait
#: their turn, so that live play keeps most of the event loop. A turn is one page
#: (taken in order: streams catching up together go page by page, and each page is
#: read once) or TURN_S seconds, whichever ends first (a viewer that stopped reading
#: holds no turn).
CATCHUP_STREAMS = 2
TURN_S = 1.0
#: Full pages kept for the streams right behind the one that read them.
CACHED_PAGES = 16


class History:
    """A store's old events for streams catching up: aligned pages (sequences
    k*PAGE+1 .. (k+1)*PAGE), read and decoded on the store's reader threads with
    their public frames built there, so that many streams catching up at once cost
    the event loop little more than sending."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self._slots = asyncio.Semaphore(CATCHUP_READS)
        self._turns = asyncio.Semaphore(CATCHUP_STREAMS)
        self._pages: OrderedDict[tuple[str, int], list[Stored]] = OrderedDict()
        self._reading: dict[tuple[str, int], asyncio.Future[list[Stored]]] = {}
        self.reads = 0  # pages read from the store so far

    async def turn(self) -> Turn:
        """A stream's turn to send history (waits for one of CATCHUP_STREAMS)."""
        await self._turns.acquire()
        return Turn(self._turns)

    async def page(self, table: Table, after: int) -> list[Stored]:
        """The page holding the event after `after` (shorter when the log ends in it)."""
        start = after - after % PAGE
        key = (table.table_id, start)
        hit = self._pages.get(key)
        if hit is not None:
            self._pages.move_to_end(key)
            return hit
        reading = self._reading.get(key)
        if reading is None:
            reading = self._reading[key] = asyncio.ensure_future(self._read(table, start, key))
        return await asyncio.shield(reading)

    async def _read(self, table: Table, start: int, key: tuple[str, int]) -> list[Stored]:
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                page = await loop.run_in_executor(self.reader.executor, _read_page,
                                                  self.reader, table, start)
                self.reads += 1
        finally:
            del self._reading[key]
        if len(page) == PAGE:  # a page still being written is read again
            self._pages[key] = page
            if len(self._pages) > CACHED_PAGES:
                self._pages.popitem(last=False)
        return page


class Turn:
    """One of the CATCHUP_STREAMS turns to send history: one page's worth, ended when
    the stream asks for the next (or by itself after TURN_S)."""

    def __init__(self, turns: asyncio.Semaphore) -> None:
        self._turns, self.held = turns, True
        self._timer = asyncio.get_running_loop().call_later(TURN_S, self.end)

    def end(self) -> None:
        if self.held:
            self.held = False
            self._timer.cancel()
            self._turns.release()


def _read_page(reader: Reader, table: Table, start: int) -> list[Stored]:
    """On a reader thread: a page of events, decoded, each public frame built (they only
    read the table's configuration, which never changes)."""
    loads = codec.loads
    page: list[Stored] = []
    for n, r in enumerate(reader.events(table.table_id, start, PAGE), start=1):
        page.append(Stored(r.sequence, r.hand_id, r.time_ms, loads(r.payload),
                           {"payload": r.payload}))
        if n % _SLICE == 0:
            views.shared_frames(page[-_SLICE:], table)
            time.sleep(0)  # the event loop takes the GIL now if it waits for it
    views.shared_frames(page[len(page) - len(page) % _SLICE:], table)
    return page


#: Events a reader thread decodes between two offers of the GIL to the event loop:
#: about 0.5 ms of work (Python's own switch interval, 5 ms, would add that much to
#: every wake-up of a loop waiting for the GIL).
_SLICE = 16


_histories: weakref.WeakKeyDictionary[Store, History] = weakref.WeakKeyDictionary()


def history_of(store: Store) -> History:
    history = _histories.get(store)
    if history is None:
        history = _histories[store] = History(store.reader)
    return history


class Feed:
    """One viewer's cursor on a table's log, woken when the log grows by something it needs.

    `_due` says the events after the cursor must go out now: the viewer is called on,
    the table closed, its linger ran out, or it just connected (its backlog goes at once).
    """

    def __init__(self, table: Table, viewer: views.Viewer, after: int, linger: float,
                 on_due: Callable[[], None] | None = None,
                 on_news: Callable[[], None] | None = None) -> None:
        self.table, self.viewer, self.after, self.linger = table, viewer, after, linger
        self._waiter: asyncio.Future[None] | None = None  # set while the stream waits
        # A shared stream (PlayMany): its wake-up, and its one linger clock for all its
        # feeds (a clock per feed would be set and cancelled on nearly every decision).
        self._on_due, self._on_news = on_due, on_news
        self._due = True
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._page: Sequence[Stored] = ()  # history from the store, when catching up
        self._turn: Turn | None = None  # this stream's turn to send history
        self._reading: asyncio.Future[None] | None = None
        self._failed: BaseException | None = None
        table.subscribe(self._on_commit)

    def close(self) -> None:
        self._cancel()
        self.closed = True
        self.table.unsubscribe(self._on_commit)
        if self._reading is not None:
            self._reading.cancel()
        self._page = ()
        self._end_turn()

    def _on_commit(self, new: Sequence[Stored], called: frozenset[int] | None) -> None:
        # Only what the viewer needs now wakes it; anything else starts (or joins) the
        # linger, and the timer wakes it once for all of them.
        if self._due:
            return
        if called is None or self.linger <= 0 or self.viewer.seat in called:
            self._flush()
        elif self._on_news is not None:
            self._on_news()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.linger, self._flush)

    def _flush(self) -> None:
        self._cancel()
        self._due = True
        self.poke()

    def poke(self) -> None:
        """Wakes the stream to look at what is due and at `urgent()` (a Play result to send)."""
        if self._on_due is not None:
            self._on_due()
            return
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    @property
    def due(self) -> bool:
        """Events after the cursor must go out now."""
        return self._due

    def has_news(self) -> bool:
        """Events after the cursor, due or not."""
        return self.table.last_sequence > self.after

    def next_batch(self) -> Sequence[Stored] | None:
        """Up to BATCH events after the cursor, from memory or the page read; None when
        they must be read from the store first (`read_history`)."""
        if self._failed is not None:
            raise self._failed
        if self.table.moved_to is not None:  # lost: its memory may be ahead of the log
            self.table.check_running()
        recent = self.table.recent_after(self.after, BATCH)
        if recent is not None:
            if self._page or self._turn is not None:  # caught up: from memory on
                self._page = ()
                self._end_turn()
            return recent
        page = self._page
        if page:
            start = self.after + 1 - page[0].sequence
            if 0 <= start < len(page):
                return page[start:start + BATCH]
        return None

    async def read_history(self) -> None:
        """Reads the page after the cursor from the store (the one held before is let go),
        in this stream's turn to send history (waiting for one first)."""
        self._page = ()
        history = history_of(self.table.store)
        self._end_turn()  # one page a turn: the streams waiting go first
        self._turn = await history.turn()
        self._page = await history.page(self.table, self.after)

    def _end_turn(self) -> None:
        if self._turn is not None:
            self._turn.end()
            self._turn = None

    def read_ahead(self) -> None:
        """Reads the page after the cursor in the background; the feed is due once it is
        in (a shared stream sends from it then)."""
        self._due = False
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._read_ahead())

    async def _read_ahead(self) -> None:
        try:
            await self.read_history()
        except Exception as err:  # noqa: BLE001 - raised to the stream by next_batch
            self._failed = err
        finally:
            self._reading = None
            self._due = True
            self.poke()

    def take(self, batch: Sequence[Stored] | None = None,
             shared: tuple[list[bytes | None], bytes | None] | None = None
             ) -> tuple[bytes, bool] | None:
        """The next batch after the cursor, serialized for the viewer, and whether the
        viewer's stream ends with it; None when there is nothing after the cursor.

        `batch` and `shared` (views.shared_frames of it): that batch, already read for
        other viewers at the same cursor (or by `next_batch`)."""
        self._due = False
        self._cancel()
        if batch is None:
            batch = self.next_batch()
            assert batch is not None, "read_history first"
        if not batch:
            return None
        self.after = batch[-1].sequence
        if len(batch) == BATCH:
            self._due = True  # the rest of a backlog follows at once
        page = self._page
        if page and batch[-1] is page[-1]:
            self._page = ()  # sent: the stream holds no history until it asks again
            self._due = True
        if shared is not None and shared[1] is not None:
            return shared[1], False
        return views.events_for(batch, self.viewer, self.table,
                                shared[0] if shared is not None else None)

    async def batches(self, urgent: Callable[[], bool] = lambda: False
                      ) -> AsyncIterator[tuple[bytes, bool]]:
        """(serialized events, the stream ends here) pairs; empty bytes when only `urgent()`."""
        while True:
            if self._due or urgent():
                batch = self.next_batch()
                if batch is None:  # older than memory: one page from the store first
                    await self.read_history()
                    continue
                taken = self.take(batch)
                if taken is not None:
                    yield taken
                    if taken[1]:
                        return
                elif urgent():
                    yield b"", False
                continue
            if self.table.closed and self.after >= self.table.last_sequence:
                return
            self.table.check_running()
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


class DecisionGroup:
    """Group commit across Play streams, when it pays: the decisions that arrive in one
    turn of the event loop, on any stream of any table, applied in one transaction.

    Grouping makes each decision wait for the end of its loop turn (a `call_soon`: the
    streams woken by the same read of the sockets queue theirs before it runs), and it
    saves a commit for each decision after the first of a turn. So the group counts the
    decisions of each turn (one `call_soon` marks the turn's end) and keeps a moving
    average of them, and `commit_s` says what a commit costs the loop (the store's
    moving average, Store.commit_s). Decisions wait, and are applied together inside
    `group` (Store.group: one commit for all, safe because nothing awaits between the
    writes and the commit, so nothing of it is streamed or answered before it is
    durable), once the turns carry GROUP_FROM decisions or more on average, or once
    grouping would save GROUP_SAVES_S of commits a turn ((decisions a turn - 1) x
    commit_s: a commit that is a round trip to PostgreSQL, or an fsync); they are
    applied as they come again when both fall below UNGROUP_BELOW and UNGROUP_SAVES_S.

    Measured on this machine (2 cores, bench/ab.py, always grouping against applying
    each at once): on SQLite a commit costs the loop 20-40 us alone, 70-90 us for a
    group. Heads-up tables under load (bench/table.py, 8 tables) carry 3.3-3.5
    decisions a turn applied at once and 2.2-2.7 grouped, and grouping gained about 9 %
    of hands/s there; six-handed ones (bench/dealer.py, 4 tables) carry 1.6-2.0 applied
    at once and about 1.4 grouped, and grouping lost about 5 % (the wait slows every
    table, and its other seats' lingering events then go out in more messages a
    decision). The bounds sit between those figures. On PostgreSQL a commit is a round
    trip (0.6-0.7 ms on the loop), and grouping pays at six-handed tables too.

    Either way, a stream's decisions keep their order and each is answered on its own
    stream once it is durable; a decision refused is its own stream's result, as when
    applied alone.
    """

    def __init__(self, group: Callable[[], AbstractContextManager[None]] = nullcontext,
                 commit_s: Callable[[], float] = lambda: 0.0) -> None:
        self._group, self._commit_s = group, commit_s
        self._pending: list[tuple[PlaySession, pb.PlayAction]] = []
        self._scheduled = False
        self._in_turn = 0  # decisions added in this turn of the loop
        self._per_turn = 1.0  # their moving average over the turns with any
        self.grouping = False  # whether decisions wait for the turn's end

    def add(self, session: PlaySession, action: pb.PlayAction) -> None:
        self._pending.append((session, action))
        self._in_turn += 1
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._turn_ended)
        if not self.grouping:
            self.flush()

    def _turn_ended(self) -> None:
        """The turn's decisions are in: applies those waiting, and decides whether the
        next turns' wait (the class doc)."""
        self._scheduled = False
        per_turn = self._per_turn = (self._per_turn
                                     + (self._in_turn - self._per_turn) * _AVERAGE_WEIGHT)
        self._in_turn = 0
        saved = (per_turn - 1) * self._commit_s()
        if self.grouping:
            self.grouping = per_turn >= UNGROUP_BELOW or saved >= UNGROUP_SAVES_S
        else:
            self.grouping = per_turn >= GROUP_FROM or saved >= GROUP_SAVES_S
        self.flush()

    def flush(self) -> None:
        """Applies every queued decision now (also called by a stream that ends, so that
        its last decisions are answered before it says it is done)."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        # alone, a decision's own write commits it; several share one commit
        with self._group() if len(pending) > 1 else nullcontext():
            for session, action in pending:
                session.results.append(session._act(action))
        for session, _ in pending:
            session.feed.poke()


#: DecisionGroup: decisions wait for the end of their loop turn once the turns carry
#: GROUP_FROM of them on average or grouping would save GROUP_SAVES_S seconds of commits
#: a turn, and are applied as they come again below both UNGROUP_BELOW and
#: UNGROUP_SAVES_S (apart, so that a figure near one bound does not flip every turn).
GROUP_FROM = 2.5
UNGROUP_BELOW = 1.8
GROUP_SAVES_S = 100e-6
UNGROUP_SAVES_S = 60e-6
#: The weight of a turn in the average of decisions a turn (about the last 20 count).
_AVERAGE_WEIGHT = 0.05


class PlaySession:
    """One bot's Play stream: actions in (applied as they come, or at the end of their
    loop turn with other streams' when `decisions` groups them), events and results out."""

    def __init__(self, table: Table, caller: Caller, viewer: views.Viewer, after: int,
                 linger: float, decisions: DecisionGroup | None = None) -> None:
        self.table, self.caller = table, caller
        self.feed = Feed(table, viewer, after, linger)
        self.results: deque[pb.PlayActionResult] = deque()
        self.done = False
        self.decisions = decisions if decisions is not None else DecisionGroup()

    async def read(self, requests: AsyncIterator[pb.PlayRequest]) -> None:
        try:
            async for request in requests:
                if request.HasField("action"):
                    self.decisions.add(self, request.action)
                elif request.HasField("start"):
                    raise InvalidArgument("start: a Play stream is started once, by its first "
                                          "message; send only actions after it")
        finally:
            self.decisions.flush()
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
            result.reason, metadata = reason_of(err)
            result.metadata.update(metadata)
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
    _raise_refusal(reader, DealerError)


def _raise_refusal(reader: asyncio.Future[None],
                   kind: type[BaseException] = BaseException) -> None:
    """A stream whose requests were refused (the reader failed with a `kind`) ends with
    that status."""
    error = reader.exception() if reader.done() and not reader.cancelled() else None
    if isinstance(error, kind):
        raise error


class PlayManySession:
    """A bot farm's PlayMany stream: many seats, each with its own feed (so its own
    redaction), and one writer that sends everything due in one message.

    Whenever a message goes out it carries every seat's news, not only what woke the
    writer: the message is paid for already, and a seat's lingering events would
    otherwise cost one of their own a few milliseconds later. Under load the messages
    grow instead of multiplying, which is what makes a farm cheaper than its seats'
    separate streams.
    """

    def __init__(self, open_seat: Callable[[pb.PlaySeat], tuple[Table, Caller, views.Viewer]],
                 linger: float,
                 group: Callable[[], AbstractContextManager[None]] = nullcontext) -> None:
        self._open_seat, self.linger, self._group = open_seat, linger, group
        self.feeds: dict[tuple[str, int], tuple[Feed, Caller, bytes]] = {}
        self.results: deque[tuple[Feed | None, int, bytes]] = deque()
        self.done = False
        self._waiter: asyncio.Future[None] | None = None
        self._woken = False
        self._linger: asyncio.TimerHandle | None = None

    def _on_news(self) -> None:
        """A feed has events that may wait: the stream's clock sends them within `linger`
        unless a message goes out before (and takes them along)."""
        if self._linger is None:
            self._linger = asyncio.get_running_loop().call_later(self.linger, self._linger_out)

    def _linger_out(self) -> None:
        self._linger = None
        self.wake()

    def wake(self) -> None:
        self._woken = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def open(self, seat: pb.PlaySeat) -> None:
        """Adds a seat; a refusal raises the error Play would have, naming the seat."""
        table, caller, viewer = self._open_seat(seat)
        key = (table.table_id, caller.seat)
        if key in self.feeds:
            raise InvalidArgument(
                f"open: seat {caller.seat} of table {table.table_id!r} is open on this stream "
                "already")
        if len(self.feeds) >= checks.MAX_STREAM_SEATS:
            raise InvalidArgument(
                f"open: {len(self.feeds)} seats are open on this stream, at most "
                f"{checks.MAX_STREAM_SEATS}: open more on another PlayMany stream")
        feed = Feed(table, viewer, seat.after_sequence, self.linger, self.wake, self._on_news)
        # The SeatEvents fields after `events`: table_id (2) and seat (3), built once.
        suffix = (mapping.length_delimited(_TABLE_ID_FIELD, table.table_id.encode())
                  + _SEAT_FIELD + mapping.varint(caller.seat))
        self.feeds[key] = (feed, caller, suffix)
        self.wake()

    async def read(self, requests: AsyncIterator[pb.PlayManyRequest]) -> None:
        try:
            async for request in requests:
                checks.play_many(request)
                for seat in request.open:
                    self.open(seat)
                if request.actions:
                    with self._group():  # one commit for the request's decisions
                        for action in request.actions:
                            self.results.append(self._act(action))
                    self.wake()
        finally:
            self.done = True
            self.wake()

    def _act(self, action: pb.PlaySeatAction) -> tuple[Feed | None, int, bytes]:
        result = pb.SeatActionResult(table_id=action.table_id, seat=action.seat)
        result.result.action_number = action.action.action_number
        opened = self.feeds.get((action.table_id, action.seat))
        feed = opened[0] if opened else None
        try:
            if opened is None:
                raise PermissionDenied(
                    f"seat {action.seat} of table {quote(action.table_id)} is not open on this "
                    "stream: open it with its seat token first")
            move = action.action
            result.result.sequence = opened[0].table.act(
                opened[1].seat, move.hand_id, move.action_number, views.action_kind(move.kind),
                move.amount)
        except Exception as err:  # noqa: BLE001 - reported in the result, the stream goes on
            code, message = status_of(err)
            result.result.code, result.result.message = code.value[0], message
            result.result.reason, metadata = reason_of(err)
            result.result.metadata.update(metadata)
        frame = mapping.length_delimited(_RESULTS_FIELD, result.SerializeToString())
        return feed, result.result.sequence, frame

    def _message(self) -> bytes:
        if self._linger is not None:  # whatever lingers goes now
            self._linger.cancel()
            self._linger = None
        parts: list[bytes] = []
        # The seats of a table at the same cursor read one batch; its frames are built
        # once and, when no event in it is private, joined once for all of them.
        batches: dict[tuple[int, int], tuple[Sequence[Stored], Any]] = {}
        for key, (feed, _caller, suffix) in list(self.feeds.items()):
            if not (feed.due or feed.has_news()):
                continue
            at = (id(feed.table), feed.after)
            read = batches.get(at)
            if read is None:
                batch = feed.next_batch()
                if batch is None:  # older than memory: the feed reads a page and wakes us
                    feed.read_ahead()
                    continue
                read = batches[at] = (batch, views.shared_frames(batch, feed.table))
            taken = feed.take(*read)
            if taken is None:
                continue
            data, leaving = taken
            parts.append(mapping.length_delimited(_EVENTS_FIELD, data + suffix))
            # A seat vacated (later events of it are another player's), or its table closed
            # and all said: the seat's part of the stream ends.
            if leaving or (feed.table.closed and feed.after >= feed.table.last_sequence):
                feed.close()
                del self.feeds[key]
        # A result goes out with (or after) the events its action caused; only a backlog
        # longer than one batch can hold it back to the next message.
        while self.results:
            actor, sequence, frame = self.results[0]
            if actor is not None and sequence > actor.after and not actor.closed:
                break
            parts.append(frame)
            self.results.popleft()
        return b"".join(parts)

    async def responses(self) -> AsyncIterator[bytes]:
        """Serialized PlayManyResponses."""
        try:
            while True:
                self._woken = False
                data = self._message()
                if data:
                    yield data
                    continue
                if self.done and not self.results:
                    return
                if self._woken or any(feed.due for feed, _c, _s in self.feeds.values()):
                    continue
                for feed, _caller, _suffix in self.feeds.values():
                    feed.table.check_running()
                self._waiter = asyncio.get_running_loop().create_future()
                try:
                    await self._waiter
                finally:
                    self._waiter = None
                # Let what is ready already run first (other tables' hand starts and time-outs,
                # a request read meanwhile): one message then carries all of it, about half
                # as many messages a decision, and the farm answers in fewer requests.
                await asyncio.sleep(0)
        finally:
            if self._linger is not None:
                self._linger.cancel()
            for feed, _caller, _suffix in self.feeds.values():
                feed.close()


#: The tags of the fields framed by hand, from the descriptors: PlayManyResponse's
#: `events` and `results`, SeatEvents' `table_id` and `seat`.
_EVENTS_FIELD = mapping.field_tag(pb.PlayManyResponse, "events")
_RESULTS_FIELD = mapping.field_tag(pb.PlayManyResponse, "results")
_TABLE_ID_FIELD = mapping.field_tag(pb.SeatEvents, "table_id")
_SEAT_FIELD = mapping.field_tag(pb.SeatEvents, "seat")


async def play_many(session: PlayManySession,
                    requests: AsyncIterator[Any]) -> AsyncIterator[bytes]:
    """Runs a PlayMany session until the farm closes its side."""
    reader = asyncio.ensure_future(session.read(requests))
    try:
        async for response in session.responses():
            yield response
            if reader.done() and reader.exception() is not None:
                break
    finally:
        reader.cancel()
    _raise_refusal(reader)
