"""The asyncio SDK: `AsyncLobbyClient` and `AsyncTableClient`, the sync clients' twins on grpc.aio.

Same calls, same values, same guarantees (deadlines, safe retries, streams that resume
after the last event, fair-deck checks); every call is a coroutine and `events()` an
async iterator. A bot's `act` may be a plain method or a coroutine.

>>> async def main() -> None:                                              # doctest: +SKIP
...     async with AsyncLobbyClient(LOBBY, token=TOKEN) as lobby:
...         table = await lobby.sit("t-1", buy_in=1000)
...         result = await table.play(CallingStation(), hands=20)
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import grpc

from clients import calls as c
from clients.accounts import (
    ButtonDraw,
    LeaveResult,
    LeaveStatus,
    LedgerAudit,
    LobbyTable,
    Player,
    RebuyResult,
    Seating,
    TableRules,
    Transfer,
)
from clients.errors import ActionRefused, ServiceError, error_from_rpc
from clients.events import Event
from clients.fairdeck import FairDeckChecker, Policy
from clients.models import Action, Level, TableConfig, TableView
from clients.seeds import SeedChain
from clients.session import Bot, BotSession, Follower, PlayResult, Stop
from clients.tracker import TableTracker
from clients.transport import (
    DEFAULT_TIMEOUT,
    TLS,
    Reconnector,
    RetryPolicy,
    bearer,
    call_async,
    open_aio_channel,
)
from poker.v1 import dealer_pb2_grpc, lobby_pb2_grpc

__all__ = ["AsyncLobbyClient", "AsyncTableClient"]

T = TypeVar("T")


class AsyncLobbyClient:
    """`clients.sdk.LobbyClient` on asyncio; see there for each call."""

    def __init__(self, address: str, token: str | None = None, *, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 options: tuple[tuple[str, Any], ...] = ()) -> None:
        self.address, self.token, self.tls, self.timeout = address, token, tls, timeout
        self.retry = retry or RetryPolicy()
        self.channel = open_aio_channel(address, tls, options)
        #: The generated LobbyServiceStub (grpc.aio), for anything the SDK does not wrap.
        self.stub = lobby_pb2_grpc.LobbyServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self._metadata = bearer(token)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncLobbyClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _do(self, spec: c.Call[T]) -> T:
        reply = await call_async(getattr(self.stub, spec.method), spec.request,
                                 metadata=self._metadata, timeout=self.timeout,
                                 retry=self.retry if spec.retry else None, name=spec.method)
        return spec.read(reply)

    async def create_player(self, player_id: str, display_name: str) -> tuple[Player, str]:
        return await self._do(c.create_player(player_id, display_name))

    async def issue_token(self, player_id: str) -> str:
        return await self._do(c.issue_token(player_id))

    async def player(self, player_id: str = "") -> Player:
        return await self._do(c.get_player(player_id))

    async def deposit(self, player_id: str, amount: int,
                      request_id: str | None = None) -> Player:
        return await self._do(c.deposit(player_id, amount, request_id))

    async def withdraw(self, player_id: str, amount: int,
                       request_id: str | None = None) -> Player:
        return await self._do(c.withdraw(player_id, amount, request_id))

    async def transfers(self, player_id: str = "", limit: int = 0) -> list[Transfer]:
        return await self._do(c.transfers(player_id, limit))

    async def open_table(self, config: TableConfig, rules: TableRules, *, name: str = "",
                         table_id: str = "", request_id: str | None = None) -> LobbyTable:
        return await self._do(c.open_table(config, rules, name, table_id, request_id))

    async def tables(self, include_closed: bool = False) -> list[LobbyTable]:
        return await self._do(c.list_tables(include_closed))

    async def table(self, table_id: str) -> LobbyTable:
        return await self._do(c.get_lobby_table(table_id))

    async def close_table(self, table_id: str, void_hand_in_progress: bool = False,
                          request_id: str | None = None) -> tuple[LobbyTable, int]:
        return await self._do(c.close_table(table_id, void_hand_in_progress, request_id))

    async def set_table_level(self, table_id: str, level_index: int,
                              request_id: str | None = None) -> Level:
        return await self._do(c.set_table_level(table_id, level_index, request_id))

    async def join(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
                   player_id: str = "", wait_for_big_blind: bool = False,
                   request_id: str | None = None) -> Seating:
        return await self._do(c.join(table_id, buy_in, seat, player_id, wait_for_big_blind,
                                     request_id))

    async def sit(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
                  player_id: str = "", wait_for_big_blind: bool = False,
                  dealer_address: str | None = None,
                  **table_options: Any) -> AsyncTableClient:
        seating = await self.join(table_id, buy_in, seat=seat, player_id=player_id,
                                  wait_for_big_blind=wait_for_big_blind)
        table_options.setdefault("tls", self.tls)
        return AsyncTableClient(dealer_address or seating.dealer_address, table_id,
                                seating.seat_token, seat=seating.seat, **table_options)

    async def rebuy(self, table_id: str, amount: int = 0, *, player_id: str = "",
                    request_id: str | None = None) -> RebuyResult:
        return await self._do(c.rebuy(table_id, amount, player_id, request_id))

    async def leave(self, table_id: str, *, player_id: str = "", request_id: str | None = None,
                    wait: float = 30.0) -> LeaveResult:
        spec = c.leave(table_id, player_id, request_id or c.new_request_id())
        deadline = time.monotonic() + wait
        while True:
            result = await self._do(spec)
            if result.status is not LeaveStatus.PENDING or time.monotonic() >= deadline:
                return result
            await asyncio.sleep(0.1)

    async def button_draw(self, table_id: str) -> ButtonDraw | None:
        return await self._do(c.button_draw(table_id))

    async def audit(self) -> LedgerAudit:
        return await self._do(c.audit())


class AsyncTableClient:
    """`clients.sdk.TableClient` on asyncio; see there for each call."""

    def __init__(self, address: str, table_id: str, token: str | None = None, *,
                 seat: int | None = None, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 fair_deck: Policy | str = "raise", reconnect_for: float = 30.0,
                 options: tuple[tuple[str, Any], ...] = (),
                 channel: grpc.aio.Channel | None = None) -> None:
        self.address, self.table_id, self.token, self.seat = address, table_id, token, seat
        self.timeout, self.retry = timeout, retry or RetryPolicy()
        self.reconnect_for = reconnect_for
        #: Several clients may share one channel (one connection to the dealer): pass it in;
        #: a shared channel is not closed by `close()`.
        self._own_channel = channel is None
        self.channel = channel or open_aio_channel(address, tls, options)
        #: The generated DealerServiceStub (grpc.aio), for anything the SDK does not wrap.
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.fair_deck = (None if fair_deck == "off"
                          else FairDeckChecker(fair_deck))  # type: ignore[arg-type]
        self.tracker: TableTracker | None = None
        self.follower: Follower | None = None
        #: R39: this seat's chain of deck seeds, made when it plays a player-seeded table.
        self.seed_chain: SeedChain | None = None
        self._metadata = bearer(token)
        self._stream: Any = None
        self._closed = False
        self._dropping = False

    async def close(self) -> None:
        self._closed = True
        if self._stream is not None:
            self._stream.cancel()
        if self._own_channel:
            await self.channel.close()

    async def __aenter__(self) -> AsyncTableClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _do(self, spec: c.Call[T], cls: type[ServiceError] = ServiceError) -> T:
        reply = await call_async(getattr(self.stub, spec.method), spec.request,
                                 metadata=self._metadata, timeout=self.timeout,
                                 retry=self.retry if spec.retry else None, cls=cls,
                                 name=spec.method)
        return spec.read(reply)

    async def view(self) -> TableView:
        view = await self._do(c.get_table(self.table_id))
        if view.your_seat is not None:
            self.seat = view.your_seat
        return view

    @property
    def state(self) -> TableView:
        """The view kept current from the events received (after `events()` or `play()`)."""
        if self.tracker is None:
            raise RuntimeError("no events followed yet: await view(), or iterate events()")
        return self.tracker.view()

    @property
    def last_sequence(self) -> int:
        return self.follower.last if self.follower else 0

    async def hand_history(self, hand_id: str) -> str:
        return await self._do(c.hand_history(self.table_id, hand_id))

    async def _follower(self, after: int | None = None) -> Follower:
        if self.follower is None:
            snapshot = await self.view()
            self.tracker = TableTracker(snapshot)
            start = snapshot.sequence if after is None else min(after, snapshot.sequence)
            self.follower = Follower(self.tracker, self.fair_deck, start)
        return self.follower

    async def _my_seat(self) -> int:
        if self.seat is None:
            await self.view()
        if self.seat is None:
            raise ServiceError("this client has no seat token", grpc.StatusCode.UNAUTHENTICATED)
        return self.seat

    async def act(self, action: Action, *, hand_id: str | None = None,
                  action_number: int | None = None) -> int:
        if hand_id is None or action_number is None:
            current = self.state if self.follower is not None else await self.view()
            if self.follower is not None and not current.is_my_turn:
                current = await self.view()
            hand = current.hand
            hand_id = hand.hand_id if hand else ""
            action_number = hand.action_number if hand else 0
        seat = await self._my_seat()
        return await self._do(c.act(self.table_id, seat, hand_id, action_number, action),
                              cls=ActionRefused)

    async def fold(self) -> int:
        return await self.act(Action.fold())

    async def check(self) -> int:
        return await self.act(Action.check())

    async def call(self) -> int:
        return await self.act(Action.call())

    async def bet(self, amount: int) -> int:
        return await self.act(Action.bet(amount))

    async def raise_to(self, amount: int) -> int:
        return await self.act(Action.raise_to(amount))

    async def all_in(self) -> int:
        return await self.act(Action.all_in())

    async def show(self) -> int:
        return await self.act(Action.show())

    async def muck(self) -> int:
        return await self.act(Action.muck())

    async def sit_out(self) -> None:
        await self._do(c.sit_out(self.table_id, await self._my_seat()))

    async def sit_in(self) -> None:
        await self._do(c.sit_in(self.table_id, await self._my_seat()))

    async def commit_seeds(self) -> None:
        """As `TableClient.commit_seeds` (R39)."""
        follower = await self._follower()
        if self.seed_chain is not None:
            return
        self.seed_chain = follower.seeds = SeedChain()
        try:
            await self._do(c.commit_seeds(self.table_id, await self._my_seat(),
                                          self.seed_chain.head))
        except ServiceError as err:
            if err.code != grpc.StatusCode.ALREADY_EXISTS:
                raise

    async def send_seed(self) -> None:
        """As `TableClient.send_seed` (R39)."""
        chain, seat = self.seed_chain, self.seat
        due = chain.due(seat) if chain is not None and seat is not None else None
        if due is None:
            return
        try:
            await self._do(c.reveal_seed(self.table_id, seat, *due))  # type: ignore[arg-type]
        except ServiceError as err:
            if err.code != grpc.StatusCode.FAILED_PRECONDITION:  # too late: an empty seed
                raise

    async def _stream_follower(self, after: int | None) -> Follower:
        """This client's follower, or, to read again from an earlier `after`, a separate one
        (its own state from an empty table; the fair-deck check stays with this client's)."""
        if self.follower is None or after is None or after == self.follower.last:
            return await self._follower(after)
        empty = TableView(table_id=self.table_id, your_seat=self.seat)
        return Follower(TableTracker(empty), None, after)

    def drop_stream(self) -> None:
        """Breaks the current stream as a network failure would; it reconnects by itself."""
        if self._stream is not None:
            self._dropping = True
            self._stream.cancel()

    async def _reconnect_or_raise(self, err: grpc.RpcError, reconnector: Reconnector,
                                  method: str) -> None:
        pause = None if self._closed else reconnector.pause(err.code())
        if pause is None:
            raise error_from_rpc(err, method) from None
        await asyncio.sleep(pause)

    async def events(self, after: int | None = None) -> AsyncIterator[Event]:
        """The table's events as typed values, then live; resumes by itself after a break."""
        follower = await self._stream_follower(after)
        reconnector = Reconnector(self.reconnect_for)
        while True:
            stream = self._stream = self.stub.WatchTable(c.watch(self.table_id, follower.last),
                                                         metadata=self._metadata)
            try:
                async for response in stream:
                    reconnector.ok()
                    for event in follower.accept(response.events):
                        yield event
                return
            except (grpc.RpcError, asyncio.CancelledError) as err:
                if isinstance(err, asyncio.CancelledError) and not self._dropping:
                    raise  # the task itself is cancelled: not a broken stream
                self._dropping = False
                await self._reconnect_or_raise(_as_rpc(err), reconnector, "WatchTable")
            finally:
                stream.cancel()

    async def play(self, bot: Bot, *, hands: int | None = None, until_hand: int | None = None,
                   seconds: float | None = None,
                   until: Callable[[TableView], bool] | None = None,
                   rebuy: Callable[[], bool] | None = None,
                   on_events: Callable[[list[Event]], None] | None = None,
                   after: int | None = None) -> PlayResult:
        """As `TableClient.play`; `bot.act` may return an Action or an awaitable of one.
        `rebuy` must be a plain callable here (it runs between hands)."""
        follower = await self._follower(after)
        session = BotSession(_SyncBot(bot), await self._my_seat(),
                             Stop(hands, until_hand, seconds, until), rebuy)
        config = follower.tracker.view().config
        if config is not None and config.player_seeded_decks:
            await self.commit_seeds()
        me = follower.tracker.view().me
        if me is not None and me.sitting_out:
            await self.sit_in()
        reconnector = Reconnector(self.reconnect_for)
        while True:
            stream = self._stream = self.stub.Play(metadata=self._metadata)
            try:
                await stream.write(c.play_start(self.table_id, follower.last))
                view = follower.tracker.view()  # a decision awaited before this stream
                if inspect.iscoroutinefunction(bot.act) and view.legal is not None:
                    await _SyncBot.prepare(session, bot, view)
                pending = session.decision(view)
                if pending is not None:
                    await stream.write(c.play_action(*pending))
                session.result.stopped_because = await self._play_stream(
                    stream, bot, follower, session, on_events, reconnector)
                break
            except (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError) as err:
                # InvalidStateError: a write on a stream that broke under it
                if isinstance(err, asyncio.CancelledError) and not self._dropping:
                    raise  # the task itself is cancelled: not a broken stream
                self._dropping = False
                await self._reconnect_or_raise(_as_rpc(err), reconnector, "Play")
                session.reconnected()
            finally:
                stream.cancel()
        session.result.last_sequence = follower.last
        session.result.view = follower.tracker.view()
        return session.result

    async def _play_stream(self, stream: Any, bot: Bot, follower: Follower,
                           session: BotSession,
                           on_events: Callable[[list[Event]], None] | None,
                           reconnector: Reconnector) -> str:
        # One reader task feeds a queue; a timer puts a tick there when a time limit is due,
        # so the limit acts even when no event comes (an idle table).
        inbox: asyncio.Queue[Any] = asyncio.Queue()
        reader = asyncio.ensure_future(_pump(stream, inbox))
        loop = asyncio.get_running_loop()
        left = session.time_left()
        timer = None if left is None else loop.call_later(left, inbox.put_nowait, _TICK)
        awaits_act = inspect.iscoroutinefunction(bot.act)
        try:
            while True:
                item = await inbox.get()
                if isinstance(item, BaseException):
                    raise item
                if item is grpc.aio.EOF:
                    return "stream ended"
                events, result = [], None
                if item is not _TICK:
                    reconnector.ok()
                    events = follower.accept(item.events)
                    if on_events is not None and events:
                        on_events(events)
                    result = item.action_result if item.HasField("action_result") else None
                tracker = follower.tracker  # the session builds a view only when it needs one
                if awaits_act and session.decision_due(tracker):
                    await _SyncBot.prepare(session, bot, tracker.view())
                step = session.step(events, tracker, result)
                for name in step.calls:
                    await getattr(self, name)()
                if step.stop is not None:
                    return step.stop
                if step.send is not None:
                    await stream.write(c.play_action(*step.send))
        finally:
            if timer is not None:
                timer.cancel()
            reader.cancel()


_TICK = object()


async def _pump(stream: Any, inbox: asyncio.Queue[Any]) -> None:
    """Reads a stream into `inbox`; its end (EOF) or its error goes there too."""
    try:
        while True:
            response = await stream.read()
            inbox.put_nowait(response)
            if response is grpc.aio.EOF:
                return
    except (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError) as err:
        if isinstance(err, asyncio.CancelledError) and stream.done() is False:
            raise
        inbox.put_nowait(err if not isinstance(err, asyncio.CancelledError)
                         else asyncio.CancelledError())


class _SyncBot:
    """Lets BotSession (synchronous) use a bot whose `act` is a coroutine: the answer is
    awaited just before the session asks for it."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.ready: dict[tuple[str, int], Action] = {}

    def act(self, view: TableView) -> Action:
        hand = view.hand
        key = (hand.hand_id, hand.action_number) if hand else ("", 0)
        if key in self.ready:
            return self.ready.pop(key)
        return self.bot.act(view)

    @staticmethod
    async def prepare(session: BotSession, bot: Bot, view: TableView) -> None:
        wrapper = session.bot
        assert isinstance(wrapper, _SyncBot) and view.hand is not None
        key = (view.hand.hand_id, view.hand.action_number)
        if key in session.answers or key in wrapper.ready:
            return
        wrapper.ready = {key: await bot.act(view)}  # type: ignore[misc]


def _as_rpc(err: BaseException) -> Any:
    if isinstance(err, grpc.RpcError):
        return err
    return _Cancelled()


class _Cancelled(grpc.RpcError):  # type: ignore[misc]
    """A stream cancelled by `drop_stream()`: seen as CANCELLED, which reconnects."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED

    def details(self) -> str:
        return "stream dropped"
