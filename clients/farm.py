"""`BotFarm`: many bots, at many seats and tables of one dealer, over one PlayMany stream.

A process that runs many bots would otherwise open one Play stream per seat, and every
event of a table would travel once per seat it has there, each in a message of its own.
The farm opens one stream to the dealer for all of them: the dealer sends everything
due in one message, and the farm sends every decision of that message back in one
request. Each bot still sees only its own seat's view: the dealer redacts each seat's
events for that seat, and each seat has its own tracker, fair-deck check and
`BotSession`, exactly as `AsyncTableClient.play` would.

>>> async def main() -> None:                                              # doctest: +SKIP
...     farm = BotFarm(dealer_address)
...     for seating in seatings:
...         farm.add(seating.table_id, seating.seat_token, CallingStation())
...     results = await farm.play(hands=100)
...     await farm.close()

A farm can also run a changing set of seats, as a tournament field needs (players
moved to other tables, T5, T6): `serve()` keeps its stream open while `join(table_id,
token, bot)` plays one more seat on it until that seat's stop (unseated, busted, the
table closed) and returns its PlayResult; `clients.field.play_field` runs a whole
field so, one farm per dealer.

>>> async def seat_after_seat(farm: BotFarm, seatings) -> None:           # doctest: +SKIP
...     serving = farm.serve()
...     results = await asyncio.gather(*(farm.join(s.table_id, s.seat_token, RandomBot())
...                                      for s in seatings))
...     farm.stop_serving()
...     await serving
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc

from clients.aio import AsyncLobbyClient, AsyncTableClient
from clients.calls import seat_action
from clients.convert import event_from_proto
from clients.errors import ServiceError, error_from_rpc
from clients.events import Event, PlayerUnseated, TableClosed
from clients.fairdeck import Policy
from clients.models import TableView
from clients.moves import DealerRoute
from clients.session import Bot, BotSession, Follower, PlayResult, Stop
from clients.streaming import EOF, TICK, AsyncBotAdapter, AsyncPlayStream, as_rpc_error
from clients.tournament import TournamentFinish
from clients.transport import TLS, Reconnector, open_aio_channel
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc

__all__ = ["BotFarm", "FarmSeat", "play_field"]

#: How long a joined seat waits for the farm's last player at its (table, seat) to leave
#: the stream before the farm opens a new stream without them.
RELEASE_WAIT_S = 5.0
#: A seat of the farm: (table id, seat number).
Key = tuple[str, int]
#: What one response brought a seat: (the seat, its new events, its action results).
Work = tuple["FarmSeat", list[Event], list[Any]]


@dataclass
class FarmSeat:
    """One bot of the farm: its table client (for unary calls and the view), its session."""

    client: AsyncTableClient
    bot: Bot
    on_events: Callable[[list[Event]], None] | None
    rebuy: Callable[[], bool] | None
    session: BotSession | None = None
    follower: Follower | None = None
    stopped: bool = False
    key: Key = ("", 0)  # (table id, seat), known once the farm plays
    adapter: AsyncBotAdapter | None = None  # awaits the bot's act when it is a coroutine
    #: A joined seat's end (`BotFarm.join`): its PlayResult once it stops.
    done: asyncio.Future[PlayResult] | None = None
    #: Set once the dealer closed the seat's part of the stream (its player unseated, or
    #: the table closed): until then a stopped joined seat holds its (table, seat).
    released: asyncio.Event | None = None
    leaving: bool = False  # the events that close its part of the stream came


class BotFarm:
    """Bots at seats of one dealer, played over one PlayMany stream."""

    def __init__(self, address: str, *, tls: TLS | None = None,
                 fair_deck: Policy | str = "raise", reconnect_for: float = 30.0,
                 channel: grpc.aio.Channel | None = None, dealers: Sequence[str] = ()) -> None:
        self.address, self.fair_deck, self.reconnect_for = address, fair_deck, reconnect_for
        #: Followed when the tables move (TABLE_MOVED) or the dealer is gone (`dealers`:
        #: the room's other dealers): clients.moves. The farm's tables move together.
        self.route = DealerRoute(address, dealers)
        self._tls = tls
        self._own_channel = channel is None
        self.channel = channel or open_aio_channel(address, tls)
        #: The generated DealerServiceStub (grpc.aio).
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.seats: list[FarmSeat] = []
        self._stream: Any = None
        self._dropping = False
        self._by_key: dict[Key, FarmSeat] = {}
        self._opening: list[FarmSeat] = []  # joined while a stream is open: open them on it
        self._serving = False  # keeps streaming with no seat (for seats yet to join)
        self._in_field = False  # seats join and leave (serve): a refusal stops one seat
        self._failed: BaseException | None = None
        self._woken: asyncio.Event | None = None

    def add(self, table_id: str, token: str, bot: Bot, *,
            on_events: Callable[[list[Event]], None] | None = None,
            rebuy: Callable[[], bool] | None = None) -> AsyncTableClient:
        """Adds a bot at the seat `token` names; returns that seat's table client, whose
        `fair_deck` and `state` follow the farm's play."""
        client = AsyncTableClient(self.address, table_id, token, channel=self.channel,
                                  dealers=self.route.dealers,
                                  fair_deck=self.fair_deck, reconnect_for=self.reconnect_for)
        self.seats.append(FarmSeat(client, bot, on_events, rebuy))
        return client

    async def close(self) -> None:
        if self._stream is not None:
            self._stream.cancel()
        for seat in self.seats:
            await seat.client.close()
        if self._own_channel:
            await self.channel.close()

    async def _use_dealer(self, address: str) -> None:
        """The farm's tables are at `address` now: one channel there for the farm and
        its seats' clients (the old one closes if the farm opened it)."""
        old = self.channel if self._own_channel else None
        self.address, self._own_channel = address, True
        self.channel = open_aio_channel(address, self._tls)
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        for seat in self.seats:
            await seat.client.use_dealer(address, self.channel)
        if old is not None:
            await old.close()

    def drop_stream(self) -> None:
        """Breaks the stream as a network failure would; it reconnects by itself."""
        if self._stream is not None:
            self._dropping = True
            self._stream.cancel()

    async def play(self, *, hands: int | None = None, until_hand: int | None = None,
                   seconds: float | None = None,
                   until: Callable[[TableView], bool] | None = None) -> dict[Key, PlayResult]:
        """Plays every seat until its stop (as `AsyncTableClient.play`: after `hands` of its
        own hands, the table's hand `until_hand`, `seconds`, or `until(view)`); returns
        each seat's PlayResult by (table id, seat)."""
        stop = Stop(hands, until_hand, seconds, until)
        for seat in self.seats:
            await self._prepare(seat, stop)
        self._by_key = {seat.key: seat for seat in self.seats}
        await self._loop()
        results = {}
        for seat in self.seats:
            results[seat.key] = self._result(seat)
        return results

    # ------------------------------------------------------------ a changing field

    def serve(self) -> asyncio.Task[None]:
        """Starts keeping the farm's stream open for the seats that `join` it, until
        `stop_serving()` once none plays; the task ends then (or raises when a stream
        fails for good, and so does every `join` waiting)."""
        self._serving = self._in_field = True
        self._woken = asyncio.Event()
        return asyncio.ensure_future(self._serve())

    async def _serve(self) -> None:
        try:
            await self._loop()
        except BaseException as err:
            self._failed = err
            for seat in self.seats:
                if seat.done is not None and not seat.done.done():
                    seat.done.set_exception(err if isinstance(err, Exception)
                                            else ServiceError("the farm stopped",
                                                              grpc.StatusCode.CANCELLED))
            raise
        finally:
            self._serving = False
            self._woken = None

    def stop_serving(self) -> None:
        """The task of `serve()` ends once no seat plays."""
        self._serving = False
        self._wake()

    async def join(self, table_id: str, token: str, bot: Bot, *,
                   seat: int | None = None) -> PlayResult:
        """Plays `bot` at the seat `token` names on the farm's stream (while `serve()`
        runs) until the seat stops: unseated (moved), busted, the table closed, or a
        refusal (its `stopped_because` says); returns its PlayResult. A token that no
        longer holds a seat raises ServiceError before anything is opened."""
        self._check_serving()
        held = next((s for s in self.seats if s.stopped and s.client.table_id == table_id
                     and s.client.token == token), None)
        loop = asyncio.get_running_loop()
        if held is not None and held.follower is not None:
            # The same seat again (it stopped, e.g. "no one else at the table plays", and
            # its part of the stream is open still): a new session on it, no new open.
            held.bot, held.stopped, held.done = bot, False, loop.create_future()
            held.adapter = AsyncBotAdapter(bot)
            held.session = BotSession(held.adapter, held.key[1], Stop(), None, "PlayMany")
            farm_seat = held
            self._wake()
            await self._guarded(farm_seat, self._sit_in_if_out(farm_seat))
        else:
            client = AsyncTableClient(self.address, table_id, token, seat=seat,
                                      channel=self.channel, dealers=self.route.dealers,
                                      fair_deck=self.fair_deck, reconnect_for=self.reconnect_for)
            farm_seat = FarmSeat(client, bot, None, None, done=loop.create_future(),
                                 released=asyncio.Event())
            view = await client.follow()  # raises for a stale token
            if view.closed:  # nothing to play (a tournament's end): nothing opened
                return PlayResult(last_sequence=view.sequence, view=view,
                                  stopped_because="table closed")
            await self._prepare(farm_seat, Stop())
            # A player seated where another of the farm's just left: that seat's part of
            # the stream must end first (the dealer closes it with the unseat's events).
            while (other := self._by_key.get(farm_seat.key)) is not None:
                self._check_serving()
                assert other.released is not None
                try:
                    await asyncio.wait_for(other.released.wait(), RELEASE_WAIT_S)
                except TimeoutError:
                    if other.stopped:  # never closed by the dealer (a token replaced):
                        self.drop_stream()  # a new stream opens the seats that play only
            self._check_serving()
            self.seats.append(farm_seat)
            self._by_key[farm_seat.key] = farm_seat
            self._opening.append(farm_seat)
            self._wake()
        assert farm_seat.done is not None
        return await farm_seat.done

    def _check_serving(self) -> None:
        if self._failed is not None or not self._serving:
            raise ServiceError("the farm does not serve" + (
                f": {self._failed!r}" if self._failed is not None else " (serve() it first)"),
                grpc.StatusCode.UNAVAILABLE)

    def _wake(self) -> None:
        if self._woken is not None:
            self._woken.set()
        if self._stream is not None:
            self._stream.tick_in(0)  # the stream's reader wakes (TICK) and opens joiners

    # ------------------------------------------------------------------ the stream

    async def _prepare(self, seat: FarmSeat, stop: Stop) -> None:
        await seat.client.follow()
        seat.follower = seat.client.follower
        assert seat.follower is not None
        number = await seat.client._my_seat()
        seat.adapter = AsyncBotAdapter(seat.bot)
        seat.session = BotSession(seat.adapter, number, stop, seat.rebuy, "PlayMany")
        seat.key = (seat.client.table_id, number)
        await self._sit_in_if_out(seat)
        config = seat.follower.tracker.view().config
        if config is not None and config.player_seeded_decks:
            await seat.client.commit_seeds()  # R39: its seeds go by themselves

    @staticmethod
    async def _sit_in_if_out(seat: FarmSeat) -> None:
        assert seat.follower is not None
        me = seat.follower.tracker.view().me
        if me is not None and me.sitting_out:
            await seat.client.sit_in()

    def _result(self, seat: FarmSeat) -> PlayResult:
        assert seat.session is not None and seat.follower is not None
        seat.session.result.last_sequence = seat.follower.last
        seat.session.result.view = seat.follower.tracker.view()
        return seat.session.result

    async def _loop(self) -> None:
        """Streams until every seat stopped (and, serving, until `stop_serving()`)."""
        reconnector = Reconnector(self.reconnect_for)
        while True:
            if self._woken is not None:
                self._woken.clear()
            # A stopped seat is open on no new stream: its place is free.
            for seat in [s for s in self.seats if s.stopped and s.done is not None]:
                self._release(seat)
            live = [s for s in self.seats if not s.stopped]
            if not live:
                if not self._serving or self._woken is None:
                    return
                await self._woken.wait()
                continue
            self._opening.clear()  # every seat joined so far opens with the stream
            stream = self._stream = AsyncPlayStream(self.stub.PlayMany)
            try:
                await stream.write(pb.PlayManyRequest(open=[
                    pb.PlaySeat(table_id=s.client.table_id, seat_token=s.client.token or "",
                                after_sequence=s.follower.last if s.follower else 0)
                    for s in live]))
                # Decisions awaited before this stream (or unanswered when it broke).
                await self._send(stream, await self._steps([(s, [], []) for s in live]))
                await self._run(stream, reconnector)
            except (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError) as err:
                if isinstance(err, asyncio.CancelledError) and not self._dropping:
                    raise
                self._dropping = False
                pause = reconnector.pause(as_rpc_error(err).code())
                if pause is None:
                    if not (self._in_field and await self._drop_refused()):
                        raise error_from_rpc(as_rpc_error(err), "PlayMany") from None
                    pause = 0.0  # the seats refused stopped; the others go on at once
                else:
                    before = self.route.address
                    if self.route.after(as_rpc_error(err)) and self.route.address != before:
                        await self._use_dealer(self.route.address)
                await asyncio.sleep(pause)
                for seat in self.seats:
                    if seat.session is not None:
                        seat.session.reconnected()
            finally:
                stream.cancel()
                self._stream = None

    async def _drop_refused(self) -> bool:
        """After the dealer refused the stream: stops the seats it refuses now (a token
        unseated, a table closed: the stream's `open` of one seat ends it for all), so the
        others go on on a new stream. False when each seat still holds."""
        dropped = False
        for seat in [s for s in self.seats if not s.stopped]:
            try:
                view = await seat.client.view()
                if not view.closed:
                    continue
                why = "table closed"
            except ServiceError as err:
                if err.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    continue
                why = f"refused: {err}"
            self._stop(seat, why)
            dropped = True
        return dropped

    def _stop(self, seat: FarmSeat, why: str) -> None:
        """A seat stops; a joined one's `join` returns its result."""
        seat.stopped = True
        if seat.session is not None:
            seat.session.result.stopped_because = why
        if seat.done is not None and not seat.done.done():
            seat.done.set_result(self._result(seat))

    def _release(self, seat: FarmSeat) -> None:
        """The dealer closed a joined seat's part of the stream: it leaves the farm."""
        if seat in self.seats:
            self.seats.remove(seat)
        if self._by_key.get(seat.key) is seat:
            del self._by_key[seat.key]
        if seat.released is not None:
            seat.released.set()

    async def _guarded(self, seat: FarmSeat, call: Any) -> None:
        """A seat's unary call; in a field a refusal stops that seat, not the farm."""
        try:
            await call
        except ServiceError as err:
            if not self._in_field:
                raise
            self._stop(seat, f"refused: {err}")

    async def _run(self, stream: AsyncPlayStream, reconnector: Reconnector) -> None:
        ticking = False
        while any(not seat.stopped for seat in self.seats):
            if self._opening:  # joined while this stream runs
                opening, self._opening = self._opening, []
                await stream.write(pb.PlayManyRequest(open=[
                    pb.PlaySeat(table_id=s.client.table_id, seat_token=s.client.token or "",
                                after_sequence=s.follower.last if s.follower else 0)
                    for s in opening]))
                await self._send(stream, await self._steps([(s, [], []) for s in opening]))
            if not ticking:
                left = [s.session.time_left() for s in self.seats
                        if not s.stopped and s.session is not None]
                due = [x for x in left if x is not None]
                if due:
                    stream.tick_in(min(due))
                    ticking = True
            # Everything already received is answered together: one request for the
            # decisions of several responses (under load the dealer's messages queue up).
            items = [await stream.read(), *stream.read_ready()]
            news: dict[Key, Work] = {}
            broken: BaseException | None = None
            for item in items:
                if isinstance(item, BaseException) or item is EOF:
                    broken = item if isinstance(item, BaseException) else _Ended()
                    break
                if item is TICK:
                    ticking = False
                    if self._in_field:
                        continue  # a joined seat's wake-up: its open is at the loop's top
                    for seat in self.seats:
                        if not seat.stopped:
                            news.setdefault(seat.key, (seat, [], []))
                else:
                    reconnector.ok()
                    self._accept(item, news)
            work = list(news.values())
            if broken is not None:
                # The responses before the break are in the trackers already: their seats'
                # sessions must see them too (hands counted, decks proven); decisions
                # go out again on the next stream.
                await self._steps(work)
                raise broken
            await self._send(stream, await self._steps(work))

    def _accept(self, response: pb.PlayManyResponse, news: dict[Key, Work]) -> None:
        """Each seat's new events and results in a response, folded into its tracker and
        added to `news`."""
        # The seats of a table receive the same events, each its own copy (with only its own
        # hole cards), in the same response: each event is converted once, and the (frozen)
        # Event is shared by the seats whose copy is equal.
        shared: dict[str, dict[int, tuple[Any, Event]]] = {}  # by table id, then sequence
        released: list[FarmSeat] = []
        for batch in response.events:
            table_id = batch.table_id
            seat = self._by_key.get((table_id, batch.seat))
            if seat is None or seat.follower is None or (seat.stopped and seat.done is None):
                continue
            seen = shared.get(table_id)
            if seen is None:
                seen = shared[table_id] = {}
            events = seat.follower.accept(batch.events, _converter(seen))
            if seat.done is not None and _leaves(seat.key[1], events):
                seat.leaving = True
                released.append(seat)
            if seat.stopped:
                continue  # a joined seat that stopped: its tracker follows, no one plays
            if seat.on_events is not None and events:
                seat.on_events(events)
            _work(news, seat)[1].extend(events)
        for answer in response.results:
            seat = self._by_key.get((answer.table_id, answer.seat))
            if seat is None or seat.stopped:
                continue
            _work(news, seat)[2].append(answer.result)
        for seat in released:
            if seat.stopped:
                self._release(seat)  # else once its session saw the events too (_steps)

    async def _steps(self, work: list[Work]
                     ) -> list[pb.PlaySeatAction]:
        actions = []
        for seat, events, answers in work:
            session, follower = seat.session, seat.follower
            assert session is not None and follower is not None
            # The session builds the seat's view from its tracker only when it needs one.
            tracker = follower.tracker
            try:
                for answer in answers:  # raises ActionRefused for a live refusal
                    session.on_result(answer.action_number, answer.code, answer.message,
                                      tracker, answer.reason, answer.metadata)
            except ServiceError as err:
                if not self._in_field:
                    raise
                self._stop(seat, f"refused: {err}")  # in a field: this seat, not the farm
            if seat.stopped:
                continue
            if seat.adapter is not None:
                await seat.adapter.prepare(session, tracker)
            step = session.step(events, tracker)
            for name, *args in step.calls:
                await self._guarded(seat, getattr(seat.client, name)(*args))
            if step.stop is not None or seat.stopped:
                if not seat.stopped:
                    self._stop(seat, step.stop or "")
                if seat.leaving:
                    self._release(seat)
            elif step.send is not None:
                actions.append(seat_action(seat.client.table_id, session.seat, *step.send))
        return actions

    @staticmethod
    async def _send(stream: Any, actions: list[pb.PlaySeatAction]) -> None:
        if actions:
            await stream.write(pb.PlayManyRequest(actions=actions))


def _converter(seen: dict[int, tuple[Any, Event]]) -> Callable[[Any], Event]:
    """`event_from_proto` for the events of one table, each converted once for its seats:
    `seen` holds each sequence's message and event."""
    def convert(message: Any) -> Event:
        sequence = message.sequence
        first = seen.get(sequence)
        if first is not None and first[0] == message:
            return first[1]
        event = event_from_proto(message)
        seen[sequence] = (message, event)
        return event
    return convert


def _leaves(seat: int, events: list[Event]) -> bool:
    """Whether these events end a seat's part of a PlayMany stream (the dealer's rule,
    services/dealer/views.py): its player unseated, or the table closed."""
    return any((isinstance(e, PlayerUnseated) and e.stack.seat == seat)
               or isinstance(e, TableClosed) for e in events)


def _work(news: dict[Key, Work], seat: FarmSeat) -> Work:
    work = news.get(seat.key)
    if work is None:
        work = news[seat.key] = (seat, [], [])
    return work


class _Ended(grpc.RpcError):  # type: ignore[misc]
    """The dealer ended the stream while seats still play: reconnect."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "the dealer ended the PlayMany stream"


async def play_field(lobby: str, tokens: Sequence[tuple[str, str]], tournament_id: str,
                     make_bot: Callable[[str], Any], *, dealer_address: Callable[[str], str]
                     | None = None, **table_options: Any) -> list[TournamentFinish]:
    """A whole field of bots, one Play stream a bot: one `play_tournament` each ((player
    id, token) pairs), all at once, table clients of one dealer sharing one channel.
    Returns every finish. `clients.field.play_field` plays a field through BotFarms (one
    PlayMany stream a dealer) and, with `streams="play"`, through this."""
    channels: dict[str, Any] = {}

    def channel(address: str) -> Any:
        if address not in channels:
            channels[address] = open_aio_channel(address, table_options.get("tls"))
        return channels[address]

    clients = [AsyncLobbyClient(lobby, token) for _, token in tokens]
    try:
        return list(await asyncio.gather(*(
            client.play_tournament(tournament_id, make_bot(player_id), player_id=player_id,
                                   channel_for=channel, dealer_address=dealer_address,
                                   **table_options)
            for client, (player_id, _) in zip(clients, tokens, strict=True))))
    finally:
        for client in clients:
            await client.close()
        for ch in channels.values():
            await ch.close()
