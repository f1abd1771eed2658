"""Streams catching up from far back: pages from the store read off the event loop, a
bounded number at once, one page held per stream, then live with no gap and no duplicate."""

from __future__ import annotations

import asyncio
import math
import threading
from pathlib import Path
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import streams, views
from services.dealer.auth import AUDITOR, SPECTATOR, Authenticator, Caller
from services.dealer.dealer import Dealer
from services.dealer.store import Store
from services.dealer.tables import RECENT_EVENTS, Table
from tests.dealer.test_snapshots import _play


async def _long_history(path: Path, hands: int) -> tuple[Dealer, Table]:
    dealer = Dealer(Store(path), Authenticator("svc", "aud"), None, "resume")
    table = await _play(dealer, hands, seed=11)
    assert table.last_sequence > 3 * RECENT_EVENTS  # most of it only in the store
    return dealer, table


async def _keep_playing(dealer: Dealer, table: Table, stop: asyncio.Event) -> int:
    """Answers every turn (check, call, fold or muck) until `stop`, and between hands sits
    everyone in and tops up a busted stack (so that hands go on); the hands begun."""
    begun, n = table.hands_played, 0
    while not stop.is_set():
        n += 1
        turn, hand = table.turn, table.hand
        if turn is not None and hand is not None:
            kind = ("muck" if turn.decision == "show_or_muck" else
                    "check" if turn.can_check else "call" if turn.can_call else "fold")
            table.act(turn.seat, hand.hand_id, turn.action_number, kind, 0)
        elif hand is None:
            for seat, state in list(table.seats.items()):
                if state.sitting_out:
                    table.sit_in(seat)
                if state.stack == 0:
                    dealer.add_chips(table.table_id, seat, 500, f"live-{n}-{seat}")
        await asyncio.sleep(0.001)
    return table.hands_played - begun


class _Counting:
    """Wraps the store reader's `events`: pages read, and the most read at once."""

    def __init__(self, store: Store) -> None:
        self.original = store.reader.events
        self.calls = self.running = self.most = 0
        self.lock = threading.Lock()
        store.reader.events = self  # type: ignore[method-assign, assignment]

    def __call__(self, *args: Any) -> Any:
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return self.original(*args)
        finally:
            with self.lock:
                self.running -= 1


def test_many_watchers_from_0_get_the_whole_log_in_order_while_the_table_plays(
        tmp_path: Path) -> None:
    async def run() -> None:
        dealer, table = await _long_history(tmp_path / "d.sqlite", 260)
        counting = _Counting(dealer.store)
        seat = next(iter(table.seats))
        viewers = ([views.viewer_for(SPECTATOR, table)] * 30
                   + [views.viewer_for(AUDITOR, table)] * 5
                   + [views.viewer_for(Caller("seat", table.table_id, seat), table)] * 5)
        stop = asyncio.Event()

        async def watch(viewer: views.Viewer) -> list[int]:
            got: list[int] = []
            async for data in streams.watch(table, viewer, 0, 0.0):  # until the table closes
                got.extend(e.sequence for e in pb.WatchTableResponse.FromString(data).events)
            return got

        player = asyncio.ensure_future(_keep_playing(dealer, table, stop))
        history = table.last_sequence
        watchers = [asyncio.ensure_future(watch(v)) for v in viewers]
        while table.last_sequence < history + 400:  # live play goes on meanwhile
            assert not player.done(), player.exception()
            await asyncio.sleep(0.01)
        stop.set()
        played = await player
        table.close(void_hand=True)
        seen = await asyncio.wait_for(asyncio.gather(*watchers), 60)
        for got in seen:
            assert got == list(range(1, table.last_sequence + 1))
        assert played > 0
        pages = math.ceil((history - RECENT_EVENTS) / streams.PAGE)  # the rest is in memory
        # Shared pages: about one read of each, not one per stream; never more at once
        # than the bound.
        assert pages <= counting.calls < 4 * pages
        assert counting.most <= streams.CATCHUP_READS
        table.shutdown()
        dealer.store.close()

    asyncio.run(run())


def test_a_stream_that_is_not_read_holds_one_page_not_its_history(tmp_path: Path) -> None:
    async def run() -> None:
        dealer, table = await _long_history(tmp_path / "d.sqlite", 200)
        counting = _Counting(dealer.store)
        feed = streams.Feed(table, views.viewer_for(SPECTATOR, table), 0, 0.0)
        batches = feed.batches()
        first, _ = await anext(batches)
        assert len(pb.WatchTableResponse.FromString(first).events) == streams.BATCH
        await asyncio.sleep(0.2)  # the consumer stalls: nothing is read ahead for it
        assert counting.calls == 1 and len(feed._page) == streams.PAGE
        sizes, after = [], streams.BATCH
        async for data, _ in batches:
            events = pb.WatchTableResponse.FromString(data).events
            assert events[0].sequence == after + 1
            after = events[-1].sequence
            sizes.append(len(feed._page))
            if after >= table.last_sequence:
                break
        assert max(sizes) <= streams.PAGE
        assert feed._page == ()  # caught up: the stream holds no history any more
        history = streams.history_of(dealer.store)
        assert len(history._pages) <= streams.CACHED_PAGES
        feed.close()
        table.shutdown()
        dealer.store.close()

    asyncio.run(run())


def test_a_play_many_seat_catches_up_from_pages_too(tmp_path: Path) -> None:
    async def run() -> None:
        dealer, table = await _long_history(tmp_path / "d.sqlite", 150)
        seat = next(iter(table.seats))
        caller = Caller("seat", table.table_id, seat)

        def open_seat(_seat: pb.PlaySeat) -> tuple[Table, Caller, views.Viewer]:
            return table, caller, views.viewer_for(caller, table)

        session = streams.PlayManySession(open_seat, 0.0)
        session.open(pb.PlaySeat(table_id=table.table_id, after_sequence=0))
        got: list[int] = []
        responses = session.responses()
        while not got or got[-1] < table.last_sequence:
            data = await asyncio.wait_for(anext(responses), 10)
            for batch in pb.PlayManyResponse.FromString(data).events:
                got.extend(e.sequence for e in batch.events)
        assert got == list(range(1, table.last_sequence + 1))
        await responses.aclose()  # type: ignore[attr-defined]
        table.shutdown()
        dealer.store.close()

    asyncio.run(run())
