"""The sync SDK: `LobbyClient` for players, money and tables, `TableClient` for one seat.

GENERATED from clients/aio.py by clients/syncgen.py (`make sdk`): edit aio.py, not this.
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

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import grpc

from clients import calls as c
from clients import tournament as tn
from clients.accounts import (
    ButtonDraw,
    LeaveResult,
    LeaveStatus,
    LedgerAudit,
    LobbyTable,
    Player,
    RakeLine,
    RebuyResult,
    Seating,
    TableRules,
    Transfer,
)
from clients.errors import ActionRefused, ServiceError, Unauthenticated, error_from_rpc
from clients.events import Event
from clients.fairdeck import FairDeckChecker, Policy
from clients.models import Action, Level, TableConfig, TableView
from clients.moves import MAX_MOVES, MOVE_PAUSE_S, DealerRoute
from clients.seeds import SeedChain, seed_refused
from clients.session import Bot, BotSession, Follower, PlayResult, Stop
from clients.streaming import EOF, TICK, BotAdapter, PlayStream, as_rpc_error
from clients.tracker import TableTracker
from clients.transport import (
    DEFAULT_TIMEOUT,
    TLS,
    Reconnector,
    RetryPolicy,
    bearer,
    call,
    open_channel,
)
from poker.v1 import dealer_pb2_grpc, lobby_pb2_grpc, tournament_pb2_grpc

__all__ = ["LobbyClient", "TableClient"]

T = TypeVar("T")
#: What a broken stream raises: its error, a cancel (`drop_stream()`), a write on a
#: stream that broke under it.
BROKEN = (grpc.RpcError, asyncio.CancelledError, asyncio.InvalidStateError)


class LobbyClient:
    """The lobby, as the operator (operator token) or as one player (player token).

    Money calls take an optional `request_id`; the SDK makes one when none is given and
    keeps it across retries, so a retried deposit or buy-in happens once.

    >>> op = LobbyClient("127.0.0.1:50053", token="operator-token")   # doctest: +SKIP
    >>> ann, ann_token = op.create_player("ann", "Ann")               # doctest: +SKIP
    >>> (op.deposit("ann", 5_000)).balance                            # doctest: +SKIP
    5000
    """

    def __init__(self, address: str, token: str | None = None, *, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 options: tuple[tuple[str, Any], ...] = (),
                 channel: grpc.Channel | None = None) -> None:
        self.address, self.token, self.tls, self.timeout = address, token, tls, timeout
        self.retry = retry or RetryPolicy()
        #: Several clients (a field's players) may share one channel: `close()` leaves it.
        self._own_channel = channel is None
        self.channel = channel or open_channel(address, tls, options)
        #: The generated LobbyServiceStub, for anything the SDK does not wrap.
        self.stub = lobby_pb2_grpc.LobbyServiceStub(self.channel)  # type: ignore[no-untyped-call]
        #: The generated TournamentServiceStub (clients/tournament.py).
        self.tournaments = tournament_pb2_grpc.TournamentServiceStub(  # type: ignore[no-untyped-call]
            self.channel)
        self._metadata = bearer(token)

    def close(self) -> None:
        if self._own_channel:
            self.channel.close()

    def __enter__(self) -> LobbyClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _do(self, spec: c.Call[T]) -> T:
        stub = self.tournaments if hasattr(self.tournaments, spec.method) else self.stub
        reply = call(getattr(stub, spec.method), spec.request,
                     metadata=self._metadata, timeout=self.timeout,
                     retry=self.retry if spec.retry else None, name=spec.method)
        return spec.read(reply)

    # --------------------------------------------------------------- players, money

    def create_player(self, player_id: str, display_name: str) -> tuple[Player, str]:
        """A new player (balance 0) and their token. Operator only; not retried."""
        return self._do(c.create_player(player_id, display_name))

    def issue_token(self, player_id: str) -> str:
        """A new token for a player; the old one stops working. Operator only."""
        return self._do(c.issue_token(player_id))

    def player(self, player_id: str = "") -> Player:
        """A player and their balance ("" = the caller, with a player token)."""
        return self._do(c.get_player(player_id))

    def deposit(self, player_id: str, amount: int,
                request_id: str | None = None) -> Player:
        """Credits a balance from outside. Operator only."""
        return self._do(c.deposit(player_id, amount, request_id))

    def withdraw(self, player_id: str, amount: int,
                 request_id: str | None = None) -> Player:
        """Debits a balance to outside. Operator only."""
        return self._do(c.withdraw(player_id, amount, request_id))

    def transfers(self, player_id: str = "", limit: int = 0) -> list[Transfer]:
        """A player's latest transfers, newest first."""
        return self._do(c.transfers(player_id, limit))

    # ----------------------------------------------------------------------- tables

    def open_table(self, config: TableConfig, rules: TableRules, *, name: str = "",
                   table_id: str = "", request_id: str | None = None) -> LobbyTable:
        """Opens a table on the least busy dealer. Operator only."""
        return self._do(c.open_table(config, rules, name, table_id, request_id))

    def tables(self, include_closed: bool = False, *,
               tournament_id: str = "") -> list[LobbyTable]:
        """Every table, cash and tournament (`LobbyTable.tournament_id`), oldest first:
        ListTables page after page (AIP-158); `tournament_id`: that tournament's only
        (NOT_FOUND for an unknown one)."""
        found, token = self._do(c.list_tables(include_closed, "", tournament_id))
        while token:
            page, token = self._do(c.list_tables(include_closed, token, tournament_id))
            found += page
        return found

    def table(self, table_id: str) -> LobbyTable:
        return self._do(c.get_lobby_table(table_id))

    def close_table(self, table_id: str, void_hand_in_progress: bool = False,
                    request_id: str | None = None) -> tuple[LobbyTable, int]:
        """Closes a table; every stack goes back to its owner. Returns (table, chips returned)."""
        return self._do(c.close_table(table_id, void_hand_in_progress, request_id))

    def set_table_level(self, table_id: str, level_index: int,
                        request_id: str | None = None) -> Level:
        """Operator: the table's next hand plays this level of its schedule (R9); the
        schedule counts on from there. Returns that level. Retried under one request id
        (a fresh one unless given), so a retry never sets the level twice."""
        return self._do(c.set_table_level(table_id, level_index, request_id))

    def join(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
             player_id: str = "", wait_for_big_blind: bool = False,
             request_id: str | None = None, resume: bool = False) -> Seating:
        """Buys in and takes a seat; the answer carries the seat token and the dealer.
        `resume`: a player seated there already gets that seat back (nothing bought)."""
        return self._do(c.join(table_id, buy_in, seat, player_id, wait_for_big_blind,
                               request_id, resume))

    def sit(self, table_id: str, buy_in: int = 0, *, seat: int | None = None,
            player_id: str = "", wait_for_big_blind: bool = False,
            dealer_address: str | None = None, resume: bool = True,
            **table_options: Any) -> TableClient:
        """`join`, then a table client for the seat at its dealer (`dealer_address`
        overrides the address the lobby gives, e.g. behind NAT or in compose). A player
        who sits there already resumes that seat (`resume`; False: ALREADY_EXISTS)."""
        seating = self.join(table_id, buy_in, seat=seat, player_id=player_id,
                            wait_for_big_blind=wait_for_big_blind, resume=resume)
        table_options.setdefault("tls", self.tls)
        client = TableClient(dealer_address or seating.dealer_address, table_id,
                             seating.seat_token, seat=seating.seat, **table_options)
        client.seating, client.lobby, client.player_id = seating, self, player_id
        return client

    def rebuy(self, table_id: str, amount: int = 0, *, player_id: str = "",
              request_id: str | None = None) -> RebuyResult:
        """Adds chips to an empty stack between hands (R30)."""
        return self._do(c.rebuy(table_id, amount, player_id, request_id))

    def leave(self, table_id: str, *, player_id: str = "", request_id: str | None = None,
              wait: float = 30.0) -> LeaveResult:
        """Leaves with the stack (R31). While the player is in a hand the answer is PENDING;
        the SDK asks again with the same request id for up to `wait` seconds."""
        spec = c.leave(table_id, player_id, request_id or c.new_request_id())
        deadline = time.monotonic() + wait
        while True:
            result = self._do(spec)
            if result.status is not LeaveStatus.PENDING or time.monotonic() >= deadline:
                return result
            time.sleep(0.1)

    def button_draw(self, table_id: str) -> ButtonDraw | None:
        """The recorded button draw (R4), once the table had two players."""
        return self._do(c.button_draw(table_id))

    def audit(self) -> LedgerAudit:
        """The ledger's invariants and sums. Operator only."""
        return self._do(c.audit())

    def rake_report(self, page_size: int = 0,
                    page_token: str = "") -> tuple[list[RakeLine], str]:
        """R36: the house's rake by table and day, one page, and the next page's token
        (empty on the last). Operator only."""
        return self._do(c.rake_report(page_size, page_token))
    # ------------------------------------------------------------------ tournaments

    def create_tournament(self, tournament_id: str, name: str,
                          structure: tn.TournamentStructure | Any,
                          request_id: str | None = None) -> tn.Tournament:
        """Announces a tournament (T1; a `TournamentStructure` or its message). Operator only."""
        return self._do(tn.create(name, structure, tournament_id, request_id))

    def start_tournament(self, tournament_id: str,
                         request_id: str | None = None) -> tn.Tournament:
        """Starts a tournament now (the tables are drawn). Operator only."""
        return self._do(tn.start(tournament_id, request_id))

    def cancel_tournament(self, tournament_id: str,
                          request_id: str | None = None) -> tn.Tournament:
        """Cancels a tournament, refunding every buy-in, rebuy, add-on and fee. Operator only."""
        return self._do(tn.cancel(tournament_id, request_id))

    def register(self, tournament_id: str, *, player_id: str = "",
                 request_id: str | None = None) -> tn.Tournament:
        """Registers for a tournament, paying buy-in and fee (T1, T2); the Tournament."""
        return self._do(tn.register(tournament_id, player_id, request_id))

    def tournament_call(self, method: str, tournament_id: str, *, player_id: str = "",
                        request_id: str | None = None) -> tn.Tournament:
        """UnregisterTournament, TournamentRebuy, TournamentAddOn or ReEnterTournament."""
        return self._do(tn.player_call(method, tournament_id, player_id, request_id))

    def tournament(self, tournament_id: str) -> tn.Tournament:
        """A tournament now (GetTournament)."""
        return self._do(tn.get_tournament(tournament_id))

    def list_tournaments(self, page_size: int = 0,
                         page_token: str = "") -> tn.TournamentPage:
        """One page of tournaments (ListTournaments) and the next page's token."""
        return self._do(tn.list_tournaments(page_size, page_token))

    def watch_tournament(self, tournament_id: str, after_sequence: int = 0
                         ) -> Iterator[tn.TournamentEvent]:
        """WatchTournament: the events after `after_sequence`, then live, until the
        tournament is over. Reconnects by itself, resuming after the last event received."""
        reconnector = Reconnector()
        while True:
            stream = self.tournaments.WatchTournament(tn.watch(tournament_id, after_sequence),
                                                      metadata=self._metadata)
            try:
                for reply in stream:
                    reconnector.ok()
                    for message in reply.events:
                        event = tn.event_of(message)
                        after_sequence = event.sequence
                        yield event
                return
            except grpc.RpcError as err:
                pause = reconnector.pause(err.code())
                if pause is None:
                    raise error_from_rpc(err, "WatchTournament") from None
                time.sleep(pause)
            finally:
                stream.cancel()

    def tournament_seat(self, tournament_id: str,
                        player_id: str = "") -> tn.TournamentSeating:
        """Where the player plays now, with the seat token (GetTournamentSeat)."""
        return self._do(tn.tournament_seat(tournament_id, player_id))

    def play_tournament(self, tournament_id: str, bot: Bot, *, player_id: str = "",
                        poll: float = 0.05, channel_for: Callable[[str], Any] | None
                        = None, dealer_address: Callable[[str], str] | None = None,
                        patience: float = 120.0,
                        **table_options: Any) -> tn.TournamentFinish:
        """Plays a registered player's tournament to its end: at each table the lobby
        seats them (moved between hands: unseated there, seated here, T5, T6), until
        they are out and the tournament is over; returns their place and prize. A lobby
        that does not answer (restarting) is asked again for up to `patience` seconds."""
        tables: list[str] = []
        down_since: float | None = None
        while True:
            try:
                seat = self.tournament_seat(tournament_id, player_id)
                down_since = None
            except ServiceError as err:
                if err.code not in (grpc.StatusCode.UNAVAILABLE,
                                    grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                down_since = down_since or time.monotonic()
                if time.monotonic() - down_since > patience:
                    raise
                time.sleep(0.5)
                continue
            if tn.over(seat.state):
                return tn.finish_of(player_id, seat, tuple(tables))
            if seat.status == tn.PLAYING and seat.seat_token:
                address = (dealer_address(seat.dealer_address) if dealer_address
                           else seat.dealer_address)
                options = dict(table_options)
                if channel_for is not None:
                    options["channel"] = channel_for(address)
                table = TableClient(address, seat.table_id, seat.seat_token,
                                    seat=seat.seat, **options)
                if not tables or tables[-1] != seat.table_id:
                    tables.append(seat.table_id)
                try:
                    table.play(bot)
                except ServiceError:
                    pass  # moved or closed under the stream: ask the lobby again
                finally:
                    table.close()
            # Out (waiting for the end and the prize): ask seldom; else soon (being moved).
            time.sleep(poll if seat.status != tn.FINISHED else max(poll, 2.0))


class TableClient:
    """One table at its dealer, as a seat (seat token), the auditor, or a spectator (no token).

    `view()` asks the dealer; `state` is the view kept current from the events this client
    received (`events()` or `play()`). Acting: `fold()`, `check()`, `call()`, `bet(n)`,
    `raise_to(n)`, `all_in()`, `show()`, `muck()`, or `act(Action)`.
    `fair_deck`: "raise" (FairDeckViolation stops the stream), "flag" (recorded in
    `fair_deck.violations`), or "off". Several clients may share one channel (one
    connection to the dealer): pass it as `channel`; `close()` leaves a shared channel open.
    """

    def __init__(self, address: str, table_id: str, token: str | None = None, *,
                 seat: int | None = None, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 fair_deck: Policy | str = "raise", reconnect_for: float = 30.0,
                 options: tuple[tuple[str, Any], ...] = (),
                 channel: grpc.Channel | None = None, dealers: Sequence[str] = ()) -> None:
        self.address, self.table_id, self.token, self.seat = address, table_id, token, seat
        #: Where the table is served: followed on TABLE_MOVED, and through `dealers` (the
        #: room's other dealers) when this one does not answer (clients.moves).
        self.route = DealerRoute(address, dealers)
        self._tls, self._options = tls, options
        #: Set by `LobbyClient.sit`: the seating, and the lobby `play(leave=True)` leaves by.
        self.seating: Seating | None = None
        self.lobby: LobbyClient | None = None
        self.player_id = ""
        self.timeout, self.retry = timeout, retry or RetryPolicy()
        self.reconnect_for = reconnect_for
        self._own_channel = channel is None
        self.channel = channel or open_channel(address, tls, options)
        #: The generated DealerServiceStub, for anything the SDK does not wrap.
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

    def close(self) -> None:
        self._closed = True
        if self._stream is not None:
            self._stream.cancel()
        if self._own_channel:
            self.channel.close()

    def __enter__(self) -> TableClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _do(self, spec: c.Call[T], cls: type[ServiceError] = ServiceError) -> T:
        def followed(request: Any, **kw: Any) -> Any:  # to the table's dealer
            for _ in range(MAX_MOVES):
                try:
                    return getattr(self.stub, spec.method)(request, **kw)
                except grpc.RpcError as err:
                    if not self._relocate(err):
                        raise
            return getattr(self.stub, spec.method)(request, **kw)

        reply = call(followed, spec.request,
                     metadata=self._metadata, timeout=self.timeout,
                     retry=self.retry if spec.retry else None, cls=cls,
                     name=spec.method)
        return spec.read(reply)

    # -------------------------------------------------------------------- reading

    def view(self) -> TableView:
        """The table as the dealer shows it to this caller now (side pots split)."""
        view = self._do(c.get_table(self.table_id))
        if view.your_seat is not None:
            self.seat = view.your_seat
        return view

    @property
    def state(self) -> TableView:
        """The view kept current from the events this client received. It asks the dealer
        nothing: before the client follows the table (`follow()`, `events()`, `play()`)
        it raises RuntimeError (`view()` asks the dealer)."""
        if self.tracker is None:
            raise RuntimeError("this client follows no events yet: call view() to ask the "
                               "dealer, or follow() (events(), play()) to keep `state`")
        return self.tracker.view()

    @property
    def last_sequence(self) -> int:
        """The sequence number of the last event received."""
        return self.follower.last if self.follower else 0

    def hand_history(self, hand_id: str) -> str:
        """A finished hand in PHH text, as this caller may see it."""
        return self._do(c.hand_history(self.table_id, hand_id))

    def follow(self, after: int | None = None) -> TableView:
        """Starts following the table from a fresh snapshot (`view()`), once; returns
        `state`. `events()` and `play()` read on from there."""
        self._follower(after)
        return self.state

    def _follower(self, after: int | None = None) -> Follower:
        if self.follower is None:
            snapshot = self.view()
            self.tracker = TableTracker(snapshot)
            start = snapshot.sequence if after is None else min(after, snapshot.sequence)
            self.follower = Follower(self.tracker, self.fair_deck, start)
        return self.follower

    def _my_seat(self) -> int:
        if self.seat is None:
            self.view()
        if self.seat is None:
            raise ServiceError("this client has no seat token", grpc.StatusCode.UNAUTHENTICATED)
        return self.seat

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
        seat = self._my_seat()
        return self._do(c.act(self.table_id, seat, hand_id, action_number, action),
                        cls=ActionRefused)

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

    def run_it(self, times: int) -> int:
        """R38: answers a RUN_IT decision: run the rest of the board `times` (1 or 2)."""
        return self.act(Action.run_it(times))

    def sit_out(self, after_hand: int | None = None) -> int | None:
        """Sits out from the next hand on (no cards, no blinds); with `after_hand`, once
        the table's hand of that number has ended, the seat being dealt every hand up to
        it (SitOutScheduled). Returns the last hand the seat is dealt when `after_hand`
        was given: the one asked for, or the hand begun last when that one had begun
        already. A dealer that does not know `after_hand` sits the seat out from the next
        hand: the seat is then sat in again at once (nothing held; unless the events this
        client follows had it sitting out already) and None returned."""
        seat = self._my_seat()
        me = self.tracker.view().me if self.tracker is not None else None
        was_out = me is not None and me.sitting_out
        last = self._do(c.sit_out(self.table_id, seat, after_hand))
        if after_hand is not None and last is None and not was_out:
            self._do(c.sit_in(self.table_id, seat))
        return last

    def sit_out_if_seated(self, after_hand: int | None = None) -> int | None:
        """Sits out as `sit_out` does, and a seat already taken off the table is no error:
        the lobby can unseat a busted player (R30) between the hand's end and this call,
        and the dealer then no longer knows the seat's token (UNAUTHENTICATED). Either way
        the seat is dealt no more. A bot's play sits out with this when it stops, and asks
        ahead for the hand it stops after (`after_hand`)."""
        with contextlib.suppress(Unauthenticated):  # gone: PlayerUnseated is on its stream
            return self.sit_out(after_hand)
        return None

    def sit_in(self, wait_for_big_blind: bool = False) -> None:
        """Is dealt in again from the next hand on; back after a blind passed the seat,
        posts the big blind live (and a missed small blind dead) or, with
        `wait_for_big_blind`, waits for it (R33)."""
        self._do(c.sit_in(self.table_id, self._my_seat(), wait_for_big_blind))

    def set_straddle(self, straddle: bool = True) -> None:
        """R37: straddles from the next hand on whenever left of the big blind (False: no
        more). Only where the table allows straddles."""
        self._do(c.set_straddle(self.table_id, self._my_seat(), straddle))

    def commit_seeds(self) -> None:
        """R39: commits a fresh chain of seeds (once per seating; play() does it when the
        table uses player-seeded decks). A chain committed already (by another client of
        this seat) leaves this client without one: its seeds then count as empty."""
        follower = self._follower()
        if self.seed_chain is not None:
            return
        self.seed_chain = follower.seeds = SeedChain()
        try:
            self._do(c.commit_seeds(self.table_id, self._my_seat(),
                                    self.seed_chain.head))
        except ServiceError as err:
            if err.code != grpc.StatusCode.ALREADY_EXISTS:
                raise

    def send_seed(self) -> None:
        """R39: this seat's seed for the hand awaiting it (the session calls it on
        DeckCommitted); nothing when there is no chain or the seed time is over. A
        refusal that only costs this hand's seed (`clients.seeds.seed_refused`: too late,
        or a link the dealer does not take, as one that takes no skip after a burned
        seed) leaves it empty rather than stopping play; any other is raised."""
        chain, seat = self.seed_chain, self.seat
        due = chain.due(seat) if chain is not None and seat is not None else None
        if due is None:
            return
        try:
            self._do(c.reveal_seed(self.table_id, seat, *due))  # type: ignore[arg-type]
        except ServiceError as err:
            if not seed_refused(err):
                raise

    # -------------------------------------------------------------------- streams

    def _stream_follower(self, after: int | None) -> Follower:
        """This client's follower, or, to read again from an earlier `after`, a separate one
        (its own state from an empty table; the fair-deck check stays with this client's)."""
        if self.follower is None or after is None or after == self.follower.last:
            return self._follower(after)
        empty = TableView(table_id=self.table_id, your_seat=self.seat)
        return Follower(TableTracker(empty), None, after)

    def drop_stream(self) -> None:
        """Breaks the current stream as a network failure would; it reconnects by itself."""
        if self._stream is not None:
            self._dropping = True
            self._stream.cancel()

    def _relocate(self, error: Any) -> bool:
        """After a failed call: whether to try again, at the table's dealer now (a moved
        table's new owner, or the next of `dealers` when this one is gone)."""
        before = self.route.address
        if not self.route.after(error):
            return False
        if self.route.address != before:
            self.use_dealer(self.route.address)
        else:
            time.sleep(MOVE_PAUSE_S)
        return True

    def use_dealer(self, address: str, channel: grpc.Channel | None = None) -> None:
        """Talks to the table's dealer at `address` from now on (over `channel` when
        given, shared; else a channel of this client's own)."""
        old = self.channel if self._own_channel else None
        self.address = self.route.address = address
        self._own_channel = channel is None
        self.channel = channel or open_channel(address, self._tls, self._options)
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)  # type: ignore[no-untyped-call]
        if old is not None:
            old.close()

    def _reconnect(self, err: BaseException, reconnector: Reconnector,
                   method: str) -> None:
        """After a broken stream: waits to reconnect, or raises what broke it. A task
        cancelled from outside (not by `drop_stream()`) is not a broken stream."""
        if isinstance(err, asyncio.CancelledError) and not self._dropping:
            raise err
        self._dropping = False
        rpc_error = as_rpc_error(err)
        pause = reconnector.pause(rpc_error.code())
        if pause is None:
            raise error_from_rpc(rpc_error, method) from None
        before = self.route.address
        if self.route.after(rpc_error) and self.route.address != before:
            self.use_dealer(self.route.address)  # the table moved: resume there
        time.sleep(pause)

    def events(self, after: int | None = None) -> Iterator[Event]:
        """The table's events, then live, as typed values, until the table closes (or the
        seat is vacated, or `close()`). Starts after `after`, or after a fresh snapshot
        (`follow()`). Reconnects by itself and resumes after the last event received."""
        follower = self._stream_follower(after)
        reconnector = Reconnector(self.reconnect_for)
        while True:
            stream = self._stream = self.stub.WatchTable(c.watch(self.table_id, follower.last),
                                                         metadata=self._metadata)
            try:
                for response in stream:
                    reconnector.ok()
                    for event in follower.accept(response.events):  # noqa: UP028 (sync)
                        yield event
                return
            except BROKEN as err:
                if self._closed:
                    return  # close() ended the stream
                self._reconnect(err, reconnector, "WatchTable")
            finally:
                stream.cancel()

    def play(self, bot: Bot, *, hands: int | None = None, until_hand: int | None = None,
             seconds: float | None = None,
             until: Callable[[TableView], bool] | None = None,
             rebuy: Callable[[], bool] | None = None,
             on_events: Callable[[list[Event]], None] | None = None,
             after: int | None = None, leave: bool = False) -> PlayResult:
        """Plays `bot` at this seat over one Play stream until a stop condition:
        `hands` of its own hands, the table's hand `until_hand`, `seconds`, `until(view)`,
        being busted (unless `rebuy()` returns True), unseated, or the table closing.

        The seat sits out after its last hand, so it leaves no hand half played, and
        stops once every hand it played has its deck revealed. The dealer is asked ahead
        (`sit_out(after_hand=...)`): for `until_hand` as play begins, for `hands` as the
        next-to-last hand starts (for the table's next hand, which deals the seat as a
        rule; when it does not, the seat sits in again and sits out as its last hand
        starts, and a SitOut crossing the next deal then finishes that hand too).
        `after`: resume from this sequence number (e.g. another client's `last_sequence`);
        default: from a fresh snapshot. `on_events` sees every new event, in order.
        `bot.act` returns an Action (an asyncio client's bot may make it a coroutine);
        `rebuy` is a plain callable (it runs between hands).
        `leave`: at the end, leave the table through the lobby this client was seated by
        (`LobbyClient.sit`): the stack goes back to the balance (`result.left`).
        """
        follower = self._follower(after)
        adapter = BotAdapter(bot)
        session = BotSession(adapter, self._my_seat(),
                             Stop(hands, until_hand, seconds, until), rebuy)
        config = follower.tracker.view().config
        if config is not None and config.player_seeded_decks:
            self.commit_seeds()
        me = follower.tracker.view().me
        if me is not None and me.sitting_out:
            self.sit_in()
        reconnector = Reconnector(self.reconnect_for)
        while True:
            stream = self._stream = PlayStream(self.stub.Play, self._metadata)
            try:
                stream.write(c.play_start(self.table_id, follower.last))
                view = follower.tracker.view()  # a decision awaited before this stream
                adapter.prepare(session, view)
                pending = session.decision(view)
                if pending is not None:
                    stream.write(c.play_action(*pending))
                why = self._play_stream(stream, adapter, follower, session, on_events,
                                        reconnector)
                if why is None:  # the stream ended at its tick: go on on a new one
                    session.sent_keys.clear()
                    continue
                session.result.stopped_because = why
                break
            except BROKEN as err:
                if self._closed:
                    session.result.stopped_because = "client closed"
                    break
                self._reconnect(err, reconnector, "Play")
                session.reconnected()
            finally:
                stream.cancel()
        session.result.last_sequence = follower.last
        session.result.view = follower.tracker.view()
        if leave:
            if self.lobby is None:
                raise ServiceError("play(leave=True) needs a client from LobbyClient.sit()",
                                   grpc.StatusCode.FAILED_PRECONDITION)
            session.result.left = self.lobby.leave(self.table_id,
                                                   player_id=self.player_id)
        return session.result

    def _play_stream(self, stream: PlayStream, adapter: BotAdapter,
                     follower: Follower, session: BotSession,
                     on_events: Callable[[list[Event]], None] | None,
                     reconnector: Reconnector) -> str | None:
        """Plays on one stream; returns why the bot stops, or None when the stream ended
        at its tick (`PlayStream.spent`) and play goes on on a new one."""
        # A time limit acts even when no event comes (an idle table): the stream reads a
        # TICK when it is due.
        left = session.time_left()
        if left is not None:
            stream.tick_in(left)
        while True:
            item = stream.read()
            if item is EOF:
                return "stream ended"
            events, result = [], None
            if item is not TICK:
                reconnector.ok()
                events = follower.accept(item.events)
                if on_events is not None and events:
                    on_events(events)
                result = item.action_result if item.HasField("action_result") else None
            tracker = follower.tracker  # the session builds a view only when it needs one
            adapter.prepare(session, tracker)
            step = session.step(events, tracker, result)
            for name, *args in step.calls:
                getattr(self, name)(*args)
            if step.stop is not None:
                return step.stop
            if stream.spent:
                return None  # a decision due goes out on the next stream
            if step.send is not None:
                stream.write(c.play_action(*step.send))
