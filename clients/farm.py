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
from clients.errors import error_from_rpc
from clients.events import Event
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
            await seat.client.follow()
            seat.follower = seat.client.follower
            assert seat.follower is not None
            number = await seat.client._my_seat()
            seat.adapter = AsyncBotAdapter(seat.bot)
            seat.session = BotSession(seat.adapter, number, stop, seat.rebuy, "PlayMany")
            seat.key = (seat.client.table_id, number)
            me = seat.follower.tracker.view().me
            if me is not None and me.sitting_out:
                await seat.client.sit_in()
            config = seat.follower.tracker.view().config
            if config is not None and config.player_seeded_decks:
                await seat.client.commit_seeds()  # R39: its seeds go by themselves
        by_key = {seat.key: seat for seat in self.seats}
        reconnector = Reconnector(self.reconnect_for)
        while any(not seat.stopped for seat in self.seats):
            stream = self._stream = AsyncPlayStream(self.stub.PlayMany)
            try:
                await stream.write(pb.PlayManyRequest(open=[
                    pb.PlaySeat(table_id=s.client.table_id, seat_token=s.client.token or "",
                                after_sequence=s.follower.last if s.follower else 0)
                    for s in self.seats if not s.stopped]))
                # Decisions awaited before this stream (or unanswered when it broke).
                await self._send(stream, await self._steps(
                    [(s, [], []) for s in self.seats if not s.stopped]))
                await self._run(stream, by_key, reconnector)
            except (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError) as err:
                if isinstance(err, asyncio.CancelledError) and not self._dropping:
                    raise
                self._dropping = False
                pause = reconnector.pause(as_rpc_error(err).code())
                if pause is None:
                    raise error_from_rpc(as_rpc_error(err), "PlayMany") from None
                before = self.route.address
                if self.route.after(as_rpc_error(err)) and self.route.address != before:
                    await self._use_dealer(self.route.address)
                await asyncio.sleep(pause)
                for seat in self.seats:
                    if seat.session is not None:
                        seat.session.reconnected()
            finally:
                stream.cancel()
        results = {}
        for seat in self.seats:
            assert seat.session is not None and seat.follower is not None
            seat.session.result.last_sequence = seat.follower.last
            seat.session.result.view = seat.follower.tracker.view()
            results[seat.key] = seat.session.result
        return results

    async def _run(self, stream: AsyncPlayStream, by_key: dict[Key, FarmSeat],
                   reconnector: Reconnector) -> None:
        ticking = False
        while any(not seat.stopped for seat in self.seats):
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
                    for seat in self.seats:
                        if not seat.stopped:
                            news.setdefault(seat.key, (seat, [], []))
                else:
                    reconnector.ok()
                    self._accept(item, by_key, news)
            work = list(news.values())
            if broken is not None:
                # The responses before the break are in the trackers already: their seats'
                # sessions must see them too (hands counted, decks proven); decisions
                # go out again on the next stream.
                await self._steps(work)
                raise broken
            await self._send(stream, await self._steps(work))

    def _accept(self, response: pb.PlayManyResponse, by_key: dict[Key, FarmSeat],
                news: dict[Key, Work]) -> None:
        """Each seat's new events and results in a response, folded into its tracker and
        added to `news`."""
        # The seats of a table receive the same events, each its own copy (with only its own
        # hole cards), in the same response: each event is converted once, and the (frozen)
        # Event is shared by the seats whose copy is equal.
        shared: dict[str, dict[int, tuple[Any, Event]]] = {}  # by table id, then sequence
        for batch in response.events:
            table_id = batch.table_id
            seat = by_key.get((table_id, batch.seat))
            if seat is None or seat.stopped or seat.follower is None:
                continue
            seen = shared.get(table_id)
            if seen is None:
                seen = shared[table_id] = {}
            events = seat.follower.accept(batch.events, _converter(seen))
            if seat.on_events is not None and events:
                seat.on_events(events)
            _work(news, seat)[1].extend(events)
        for answer in response.results:
            seat = by_key.get((answer.table_id, answer.seat))
            if seat is None or seat.stopped:
                continue
            _work(news, seat)[2].append(answer.result)

    async def _steps(self, work: list[Work]
                     ) -> list[pb.PlaySeatAction]:
        actions = []
        for seat, events, answers in work:
            session, follower = seat.session, seat.follower
            assert session is not None and follower is not None
            # The session builds the seat's view from its tracker only when it needs one.
            tracker = follower.tracker
            for answer in answers:  # raises ActionRefused for a live refusal
                session.on_result(answer.action_number, answer.code, answer.message, tracker,
                                  answer.reason, dict(answer.metadata))
            if seat.adapter is not None:
                await seat.adapter.prepare(session, tracker)
            step = session.step(events, tracker)
            for name in step.calls:
                await getattr(seat.client, name)()
            if step.stop is not None:
                seat.stopped = True
                session.result.stopped_because = step.stop
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
    """A whole field of bots: one `play_tournament` each ((player id, token) pairs), all at
    once, table clients of one dealer sharing one channel. Returns every finish."""
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
