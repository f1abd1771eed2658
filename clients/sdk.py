"""The synchronous SDK: `LobbyClient` for players, money and tables, `TableClient` for one seat.

Calls have deadlines; the safe ones are retried (see `clients.transport`); a refused
call raises `ServiceError` (a refused decision `ActionRefused`) with the server's
reason and gRPC code. Streams reconnect by themselves and resume after the last
event received; every hand followed has its fair-deck proof checked (R3).

>>> lobby = LobbyClient("127.0.0.1:50053", token="player-token")   # doctest: +SKIP
>>> table = lobby.sit("t-1", buy_in=1000)                           # doctest: +SKIP
>>> view = table.view(); view.my_cards, view.legal                  # doctest: +SKIP
>>> table.raise_to(300)                                             # doctest: +SKIP
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc

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
from clients.convert import from_proto
from clients.errors import ActionRefused, ServiceError, error_from_rpc
from clients.events import Event
from clients.fairdeck import FairDeckChecker, Policy
from clients.models import Action, TableConfig, TableView
from clients.session import Bot, BotSession, Follower, PlayResult, Stop
from clients.tracker import TableTracker
from clients.transport import (
    DEFAULT_TIMEOUT,
    TLS,
    RetryPolicy,
    bearer,
    call,
    open_channel,
)
from poker.v1 import dealer_pb2, dealer_pb2_grpc, lobby_pb2, lobby_pb2_grpc

__all__ = ["LobbyClient", "TableClient"]

#: Codes on which a broken stream is opened again (after the last event received).
RECONNECT_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                             grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN,
                             grpc.StatusCode.CANCELLED})


def new_request_id() -> str:
    """A fresh request id: one per logical request, kept across its retries."""
    return uuid.uuid4().hex


class LobbyClient:
    """The lobby, as the operator (operator token) or as one player (player token).

    Money calls take an optional `request_id`; the SDK makes one when none is given and
    keeps it across retries, so a retried deposit or buy-in happens once.
    """

    def __init__(self, address: str, token: str | None = None, *, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 options: tuple[tuple[str, Any], ...] = ()) -> None:
        self.address, self.token, self.tls, self.timeout = address, token, tls, timeout
        self.retry = retry or RetryPolicy()
        self.channel = open_channel(address, tls, options)
        #: The generated LobbyServiceStub, for anything the SDK does not wrap.
        self.stub = lobby_pb2_grpc.LobbyServiceStub(self.channel)
        self._metadata = bearer(token)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> LobbyClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, name: str, request: Any, retry: bool = True) -> Any:
        return call(getattr(self.stub, name), request, metadata=self._metadata,
                    timeout=self.timeout, retry=self.retry if retry else None, name=name)

    # --------------------------------------------------------------- players, money

    def create_player(self, player_id: str, display_name: str) -> tuple[Player, str]:
        """A new player (balance 0) and their token. Not retried: it is not idempotent."""
        reply = self._call("CreatePlayer", lobby_pb2.CreatePlayerRequest(
            player_id=player_id, display_name=display_name), retry=False)
        return from_proto(Player, reply.player), reply.token

    def issue_token(self, player_id: str) -> str:
        """A new token for a player; the old one stops working."""
        return str(self._call("IssuePlayerToken",
                              lobby_pb2.IssuePlayerTokenRequest(player_id=player_id)).token)

    def player(self, player_id: str = "") -> Player:
        """A player and their balance ("" = the caller, with a player token)."""
        reply = self._call("GetPlayer", lobby_pb2.GetPlayerRequest(player_id=player_id))
        return from_proto(Player, reply.player)

    def deposit(self, player_id: str, amount: int, request_id: str | None = None) -> Player:
        reply = self._call("Deposit", lobby_pb2.DepositRequest(
            player_id=player_id, amount=amount, request_id=request_id or new_request_id()))
        return from_proto(Player, reply.player)

    def withdraw(self, player_id: str, amount: int, request_id: str | None = None) -> Player:
        reply = self._call("Withdraw", lobby_pb2.WithdrawRequest(
            player_id=player_id, amount=amount, request_id=request_id or new_request_id()))
        return from_proto(Player, reply.player)

    def transfers(self, player_id: str = "", limit: int = 0) -> list[Transfer]:
        reply = self._call("ListTransfers", lobby_pb2.ListTransfersRequest(
            player_id=player_id, limit=limit))
        return [from_proto(Transfer, t) for t in reply.transfers]

    # ----------------------------------------------------------------------- tables

    def open_table(self, config: TableConfig, rules: TableRules, *, name: str = "",
                   table_id: str = "", request_id: str | None = None) -> LobbyTable:
        """Opens a table on the least busy dealer. Operator only."""
        reply = self._call("OpenTable", lobby_pb2.OpenTableRequest(
            table_id=table_id, name=name, config=config.to_proto(), rules=rules.to_proto(),
            request_id=request_id or new_request_id()))
        return from_proto(LobbyTable, reply.table)

    def tables(self, include_closed: bool = False) -> list[LobbyTable]:
        reply = self._call("ListTables", lobby_pb2.ListTablesRequest(
            include_closed=include_closed))
        return [from_proto(LobbyTable, t) for t in reply.tables]

    def table(self, table_id: str) -> LobbyTable:
        reply = self._call("GetLobbyTable", lobby_pb2.GetLobbyTableRequest(table_id=table_id))
        return from_proto(LobbyTable, reply.table)

    def close_table(self, table_id: str, void_hand_in_progress: bool = False,
                    request_id: str | None = None) -> tuple[LobbyTable, int]:
        """Closes a table; every stack goes back to its owner. Returns (table, chips returned)."""
        reply = self._call("CloseLobbyTable", lobby_pb2.CloseLobbyTableRequest(
            table_id=table_id, void_hand_in_progress=void_hand_in_progress,
            request_id=request_id or new_request_id()))
        return from_proto(LobbyTable, reply.table), int(reply.chips_returned)

    def join(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
             player_id: str = "", wait_for_big_blind: bool = False,
             request_id: str | None = None) -> Seating:
        """Buys in and takes a seat; the answer carries the seat token and the dealer."""
        request = lobby_pb2.JoinTableRequest(
            table_id=table_id, player_id=player_id, buy_in=buy_in,
            wait_for_big_blind=wait_for_big_blind, request_id=request_id or new_request_id())
        if seat is not None:
            request.seat = seat
        return from_proto(Seating, self._call("JoinTable", request))

    def sit(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
            player_id: str = "", wait_for_big_blind: bool = False,
            dealer_address: str | None = None, **table_options: Any) -> TableClient:
        """`join`, then a `TableClient` for the seat at its dealer (`dealer_address`
        overrides the address the lobby gives, e.g. behind NAT or in compose)."""
        seating = self.join(table_id, buy_in, seat=seat, player_id=player_id,
                            wait_for_big_blind=wait_for_big_blind)
        table_options.setdefault("tls", self.tls)
        return TableClient(dealer_address or seating.dealer_address, table_id,
                           seating.seat_token, seat=seating.seat, **table_options)

    def rebuy(self, table_id: str, amount: int = 0, *, player_id: str = "",
              request_id: str | None = None) -> RebuyResult:
        reply = self._call("Rebuy", lobby_pb2.RebuyRequest(
            table_id=table_id, player_id=player_id, amount=amount,
            request_id=request_id or new_request_id()))
        return from_proto(RebuyResult, reply)

    def leave(self, table_id: str, *, player_id: str = "", request_id: str | None = None,
              wait: float = 30.0) -> LeaveResult:
        """Leaves with the stack. While the player is in a hand the answer is PENDING; the
        SDK asks again with the same request id for up to `wait` seconds."""
        request = lobby_pb2.LeaveTableRequest(table_id=table_id, player_id=player_id,
                                              request_id=request_id or new_request_id())
        deadline = time.monotonic() + wait
        while True:
            result = from_proto(LeaveResult, self._call("LeaveTable", request))
            if result.status is not LeaveStatus.PENDING or time.monotonic() >= deadline:
                return result
            time.sleep(0.1)

    def button_draw(self, table_id: str) -> ButtonDraw | None:
        reply = self._call("GetButtonDraw", lobby_pb2.GetButtonDrawRequest(table_id=table_id))
        return from_proto(ButtonDraw, reply.draw) if reply.HasField("draw") else None

    def audit(self) -> LedgerAudit:
        """The ledger's invariants and sums. Operator only."""
        return from_proto(LedgerAudit, self._call("AuditLedger", lobby_pb2.AuditLedgerRequest()))


class TableClient:
    """One table at its dealer, as a seat (seat token), the auditor, or a spectator (no token).

    `view()` asks the dealer; `state` is the view kept current from the events this client
    received (`events()` or `play()`). Acting: `fold()`, `check()`, `call()`, `bet(n)`,
    `raise_to(n)`, `all_in()`, `show()`, `muck()`, or `act(Action)`.
    `fair_deck`: "raise" (FairDeckViolation stops the stream), "flag" (recorded in
    `fair_deck.violations`), or "off".
    """

    def __init__(self, address: str, table_id: str, token: str | None = None, *,
                 seat: int | None = None, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 fair_deck: Policy | str = "raise",
                 options: tuple[tuple[str, Any], ...] = ()) -> None:
        self.address, self.table_id, self.token, self.seat = address, table_id, token, seat
        self.timeout, self.retry = timeout, retry or RetryPolicy()
        self.channel = open_channel(address, tls, options)
        #: The generated DealerServiceStub, for anything the SDK does not wrap.
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)
        self.fair_deck = None if fair_deck == "off" else FairDeckChecker(fair_deck)  # type: ignore[arg-type]
        self.tracker: TableTracker | None = None
        self.follower: Follower | None = None
        self._metadata = bearer(token)
        self._stream: Any = None
        self._closed = False
        self._lock = threading.Lock()

    def close(self) -> None:
        self._closed = True
        if self._stream is not None:
            self._stream.cancel()
        self.channel.close()

    def __enter__(self) -> TableClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, name: str, request: Any, cls: type[ServiceError] = ServiceError) -> Any:
        return call(getattr(self.stub, name), request, metadata=self._metadata,
                    timeout=self.timeout, retry=self.retry, cls=cls, name=name)

    # -------------------------------------------------------------------- reading

    def view(self) -> TableView:
        """The table as the dealer shows it to this caller now (side pots split)."""
        view = from_proto(TableView, self._call(
            "GetTable", dealer_pb2.GetTableRequest(table_id=self.table_id)).table)
        if view.your_seat is not None:
            self.seat = view.your_seat
        return view

    @property
    def state(self) -> TableView:
        """The view kept current from the events received (a GetTable at first use)."""
        return self._follower().tracker.view()

    @property
    def last_sequence(self) -> int:
        """The sequence number of the last event received."""
        return self.follower.last if self.follower else 0

    def hand_history(self, hand_id: str) -> str:
        """A finished hand in PHH text, as this caller may see it."""
        return str(self._call("GetHandHistory", dealer_pb2.GetHandHistoryRequest(
            table_id=self.table_id, hand_id=hand_id)).phh)

    def _follower(self, after: int | None = None) -> Follower:
        if self.follower is None:
            snapshot = self.view()
            self.tracker = TableTracker(snapshot)
            start = snapshot.sequence if after is None else min(after, snapshot.sequence)
            self.follower = Follower(self.tracker, self.fair_deck, start)
        return self.follower

    # --------------------------------------------------------------------- acting

    def act(self, action: Action, *, hand_id: str | None = None,
            action_number: int | None = None) -> int:
        """Sends a decision; returns the sequence of the last event it caused.

        Without `hand_id`/`action_number` it answers the decision awaited now (from the
        followed state when this client follows the table, else from a fresh view).
        Retried safely; a refusal raises ActionRefused with the dealer's reason.
        """
        if hand_id is None or action_number is None:
            current = self.state if self.follower is not None else self.view()
            if self.follower is not None and not current.is_my_turn:
                current = self.view()
            hand = current.hand
            hand_id = hand.hand_id if hand else ""
            action_number = hand.action_number if hand else 0
        if self.seat is None:
            self.view()
        request = dealer_pb2.ActRequest(
            table_id=self.table_id, seat=self.seat or 0, hand_id=hand_id,
            action_number=action_number, kind=_kind(action), amount=action.amount)
        return int(self._call("Act", request, cls=ActionRefused).sequence)

    def fold(self) -> int:
        return self.act(Action.fold())

    def check(self) -> int:
        return self.act(Action.check())

    def call(self) -> int:
        return self.act(Action.call())

    def bet(self, amount: int) -> int:
        """Bets a total of `amount` (opening the round)."""
        return self.act(Action.bet(amount))

    def raise_to(self, amount: int) -> int:
        """Raises to a total of `amount` this round."""
        return self.act(Action.raise_to(amount))

    def all_in(self) -> int:
        return self.act(Action.all_in())

    def show(self) -> int:
        return self.act(Action.show())

    def muck(self) -> int:
        return self.act(Action.muck())

    def sit_out(self) -> None:
        self._call("SitOut", dealer_pb2.SitOutRequest(table_id=self.table_id,
                                                      seat=self._my_seat()))

    def sit_in(self) -> None:
        self._call("SitIn", dealer_pb2.SitInRequest(table_id=self.table_id,
                                                    seat=self._my_seat()))

    def _my_seat(self) -> int:
        if self.seat is None:
            self.view()
        if self.seat is None:
            raise ServiceError("this client has no seat token", grpc.StatusCode.UNAUTHENTICATED)
        return self.seat

    # -------------------------------------------------------------------- streams

    def drop_stream(self) -> None:
        """Breaks the current stream as a network failure would; it reconnects by itself."""
        if self._stream is not None:
            self._stream.cancel()

    def _reconnect_or_raise(self, err: grpc.RpcError, failures: int, method: str) -> None:
        if self._closed or err.code() not in RECONNECT_CODES or failures >= self.retry.attempts:
            raise error_from_rpc(err, method) from None
        time.sleep(min(self.retry.max_backoff, self.retry.initial_backoff * 2 ** failures))

    def events(self, after: int | None = None) -> Iterator[Event]:
        """The table's events, then live, as typed values, until the table closes (or the
        seat is vacated). Starts after `after`, or after a fresh snapshot (`state`).
        Reconnects by itself and resumes after the last event received."""
        follower = self._follower(after)
        failures = 0
        while True:
            stream = self._stream = self.stub.WatchTable(dealer_pb2.WatchTableRequest(
                table_id=self.table_id, after_sequence=follower.last), metadata=self._metadata)
            try:
                for response in stream:
                    failures = 0
                    yield from follower.accept(response.events)
                return
            except grpc.RpcError as err:
                failures += 1
                self._reconnect_or_raise(err, failures, "WatchTable")
            finally:
                stream.cancel()

    def play(self, bot: Bot, *, hands: int | None = None, until_hand: int | None = None,
             seconds: float | None = None, until: Callable[[TableView], bool] | None = None,
             rebuy: Callable[[], bool] | None = None,
             on_events: Callable[[list[Event]], None] | None = None) -> PlayResult:
        """Plays `bot` at this seat over one Play stream until a stop condition:
        `hands` of its own hands, the table's hand `until_hand`, `seconds`, `until(view)`,
        being busted (unless `rebuy()` returns True), unseated, or the table closing.

        Before its last hand the seat sits out, so it leaves no hand half played.
        """
        follower = self._follower()
        session = BotSession(bot, self._my_seat(), Stop(hands, until_hand, seconds, until),
                             rebuy)
        failures = 0
        while True:
            outbox: queue.SimpleQueue[dealer_pb2.PlayRequest | None] = queue.SimpleQueue()
            outbox.put(dealer_pb2.PlayRequest(start=dealer_pb2.PlayStart(
                table_id=self.table_id, after_sequence=follower.last)))
            stream = self._stream = self.stub.Play(iter(outbox.get, None),
                                                   metadata=self._metadata)
            try:
                why = self._play_stream(stream, outbox, follower, session, on_events)
                session.result.stopped_because = why
                break
            except grpc.RpcError as err:
                failures += 1
                self._reconnect_or_raise(err, failures, "Play")
                session.reconnected()
            finally:
                outbox.put(None)
                stream.cancel()
        session.result.last_sequence = follower.last
        session.result.view = follower.tracker.view()
        return session.result

    def _play_stream(self, stream: Any, outbox: queue.SimpleQueue[Any], follower: Follower,
                     session: BotSession,
                     on_events: Callable[[list[Event]], None] | None) -> str:
        for response in stream:
            events = follower.accept(response.events)
            if on_events is not None and events:
                on_events(events)
            view = follower.tracker.view()
            if response.HasField("action_result"):
                r = response.action_result
                session.on_result(r.action_number, r.code, r.message, view)
            for command, why in session.on_events(events, view):
                if command == "stop":
                    return str(why)
                if command == "sit_out":
                    self.sit_out()
                elif command == "sit_in":
                    self.sit_in()
            if session.stop.until is not None and session.stop.until(view):
                return "until"
            decided = session.decision(view)
            if decided is not None:
                hand_id, number, action = decided
                outbox.put(dealer_pb2.PlayRequest(action=dealer_pb2.PlayAction(
                    hand_id=hand_id, action_number=number, kind=_kind(action),
                    amount=action.amount)))
        return "stream ended"


def _kind(action: Action) -> int:
    return int(dealer_pb2.ActionKind.Value("ACTION_KIND_" + action.kind.name))
