"""The lobby as plain Python: players and money, tables and seats, and the recovery pass.

`server.py` is a thin gRPC adapter over `Lobby`; the tests use `Lobby` directly with
a fake dealer. Every method either finishes its work or raises a `LobbyError`
saying what to do; work that spans a dealer and cannot finish now is completed or
undone by `recover()`, which runs at start-up and then every second, and which also
takes busted players who cannot or did not rebuy off their tables (R30).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from poker import metrics, paging
from poker.journal import Key, Pending, Pruner, Retention, journaled
from poker.limits import MAX_REPEATED, quote
from services.lobby import (
    checks,
    following,
    leaving,
    ledger,
    players,
    rake,
    schema,
    seating,
    tables,
)
from services.lobby import operations as ops
from services.lobby.dealers import Dealer, DealerRefused, DealerUnreachable, Level
from services.lobby.draw import ButtonDraw
from services.lobby.errors import AlreadyExists, InvalidArgument, LobbyError, NotFound
from services.lobby.follower import BustWatch, FreedWatch, TableFollower
from services.lobby.journal import RULES, request_key
from services.lobby.ledger import Audit, Transfer, TransferKind
from services.lobby.operations import Operation, OpKind, OpState
from services.lobby.players import Player
from services.lobby.rake import RakeLine
from services.lobby.rules import TableRules
from services.lobby.steps import Ctx, drive_leased, error_name, error_of, log, refusal, unreachable
from services.lobby.storage import Storage, Tx
from services.lobby.tables import Table, TableStatus

#: How often the recovery loop looks for busted players who must leave (R30): one
#: GetTable per open table with players each time.
BUSTED_PASS_S = 2.0
#: The tables opened while followed that R34's full passes skip, at most (beyond, the
#: oldest are read again, as any table: a bound on this process's memory).
MAX_OPENED_FOLLOWED = 100_000
#: ListTables answers at most this many tables (ListTablesRequest.page_size).
MAX_TABLES_PAGE = MAX_REPEATED
#: ListTransfers's page when the request says no size.
DEFAULT_TRANSFERS_PAGE = 100


class Lobby:
    """Players, balances, tables and seats, over one database and a set of dealers."""

    def __init__(self, storage: Storage, dealer: Dealer, dealers: Sequence[str],
                 lease_seconds: float = 15.0,
                 draw_deck: Callable[[], Sequence[int]] | None = None,
                 fault: Callable[[str], None] | None = None,
                 retention: Retention | None = None) -> None:
        schema.create(storage)
        storage.transact(ledger.ensure_operator)
        self.ctx = Ctx(storage, dealer, lease_seconds, draw_deck, fault or (lambda _: None),
                       retention or Retention())
        self.dealers = list(dealers)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pruner: Pruner | None = None
        self._busted: leaving.Busted = {}
        self.events: following.TableEvents = following.PolledEvents(dealer)  # R34
        self._next_busted_pass = 0.0
        #: FollowTables (services.lobby.follower): R30 looks only where a player busted.
        self.follower: TableFollower | None = None
        self.bust_watch = BustWatch()
        self.freed_watch = FreedWatch()  # R34: tables where a seat was freed
        #: The follower's `connections` before the last R34 / R30 pass that read every
        #: table (None: none yet): passes limited to noted tables need it current.
        self._full_follow_mark: int | None = None
        self._full_pass_mark: int | None = None
        #: R34: the tables this process opened while their dealer's FollowTables stream
        #: was up, each with its dealer and the follower's `connections` then. Every note
        #: of theirs has reached this process since, so a pass over every table need not
        #: read their events while no stream has (re)connected (`_noted_throughout`).
        self._opened_followed: dict[str, tuple[str, int]] = {}

    # Players and money -----------------------------------------------------------------

    def create_player(self, player_id: str, display_name: str) -> tuple[Player, str]:
        return self.ctx.tx(lambda tx: players.create(tx, player_id, display_name))

    def issue_token(self, player_id: str) -> str:
        return self.ctx.tx(lambda tx: players.issue_token(tx, player_id))

    def player_for_token(self, token: str) -> str | None:
        return self.ctx.tx(lambda tx: players.by_token(tx, token))

    def player(self, player_id: str) -> Player:
        return self.ctx.tx(lambda tx: players.get(tx, player_id))

    def deposit(self, player_id: str, amount: int, request_id: str) -> Player:
        return self.ctx.tx(
            lambda tx: players.move(tx, player_id, amount, request_id, TransferKind.DEPOSIT))

    def withdraw(self, player_id: str, amount: int, request_id: str) -> Player:
        return self.ctx.tx(
            lambda tx: players.move(tx, player_id, amount, request_id, TransferKind.WITHDRAWAL))

    def transfers(self, player_id: str, limit: int = 100) -> list[Transfer]:
        if not 0 < limit <= checks.MAX_TRANSFERS:
            raise InvalidArgument(f"limit: {limit} is not in 1..{checks.MAX_TRANSFERS}")
        return self.transfers_page(player_id, limit)[0]

    def transfers_page(self, player_id: str, size: int = 0, token: str = "",
                       size_field: str = "page_size") -> tuple[list[Transfer], str]:
        """One page of a player's transfers, newest first (size 0: 100), and the next
        token (poker/paging.py: keyset on the transfer id, opaque, checked)."""
        scope = f"ListTransfers:{player_id}"
        asked = paging.read(size, token, scope=scope, default=DEFAULT_TRANSFERS_PAGE,
                            maximum=checks.MAX_TRANSFERS, error=InvalidArgument,
                            size_field=size_field)

        def run(tx: Tx) -> tuple[list[Transfer], str]:
            players.get(tx, player_id)
            after = None if asked.after is None else int(asked.after[0])
            found, more = ledger.transfers_page(tx, ledger.player_account(player_id),
                                                asked.size, after)
            return found, (paging.token([found[-1].id], scope) if more else "")

        return self.ctx.tx(run)

    def audit(self) -> Audit:
        found = self.ctx.tx(ledger.audit)
        metrics.audited(found.ok, len(found.problems), found.total)
        return found

    def buy_ins_pending(self) -> int:
        """Joins and rebuys begun and not yet finished or undone (a metrics gauge)."""
        return sum(op.kind in (OpKind.JOIN, OpKind.REBUY)
                   for op in self.ctx.tx(lambda tx: ops.pending(tx)))

    def rake_report(self, page_size: int, page_token: str) -> tuple[list[RakeLine], str]:
        """R36: the house's rake by table and day (services/lobby/rake.py)."""
        return self.ctx.tx(lambda tx: rake.report(tx, page_size, page_token))

    # Tables ----------------------------------------------------------------------------

    @journaled("OpenTable", RULES,
               key=lambda a: request_key("OpenTable", a, "a retried request open one table",
                                         ops.OPERATOR_SCOPE),
               caller=lambda a: ops.OPERATOR_SCOPE,
               fields=lambda a: {"table_id": a["table_id"], "name": a["name"],
                                 "rules": a["rules"].to_json(), "game": a["game"]},
               legacy=lambda a: (Key("OpenTable", ops.OPERATOR_SCOPE, a["request_id"]),
                                 {"table_id": a["table_id"]}),
               decode=lambda self, done, a: self._opened(self.ctx.op(done["op"]), False),
               journal=lambda self: self.ctx.journal)
    def open_table(self, name: str, rules: TableRules, game: dict[str, Any],
                   request_id: str, table_id: str = "", *,
                   entry: Pending | None = None) -> Table:
        """Books a table on the least busy dealer and creates it there."""
        assert entry is not None
        if table_id:
            players.check_id("table_id", table_id)
        checks.name("name", name)
        key = f"open:{request_id}"

        def begin(tx: Tx) -> Operation:
            entry.claim(tx)
            new_id = table_id or f"t_{secrets.token_hex(6)}"
            players.check_id("table_id", new_id)
            if tables.exists(tx, new_id):
                raise AlreadyExists(f"table {quote(new_id)} already exists")
            tables.insert(tx, new_id, name or new_id, rules, game,
                          tables.place(tx, self.dealers))
            op = ops.create(tx, key, OpKind.OPEN, new_id, OpState.REQUESTED,
                            lease_seconds=self.ctx.lease_seconds, fingerprint=entry.fingerprint)
            entry.record({"op": op.id}, tx, ops.describe(op))
            return op

        return self._opened(self.ctx.tx(begin), True)

    def _opened(self, op: Operation, owned: bool) -> Table:
        """OpenTable's answer: the table, once its operation ended."""
        if not op.final:
            op = drive_leased(self.ctx, op, self._drive_open, owned)
        if op.state is OpState.FAILED:
            raise error_of(op)
        return self.table(op.table_id)

    def _drive_open(self, op: Operation) -> Operation:
        table = self.ctx.table(op.table_id)
        game = {**table.game, "seats": table.rules.seats}
        self.ctx.tx(lambda tx: ops.update(tx, op.id, attempts=op.attempts + 1))
        followed = self._stream_mark(table.dealer)
        try:
            self.ctx.dealer.create_table(table.dealer, table.table_id, game)
        except DealerRefused as err:
            if not (err.status == "ALREADY_EXISTS" and op.attempts > 0):
                return self._open_failed(op, refusal(err, "opening the table"))
        except DealerUnreachable:
            raise unreachable(table, "the table is booked and opens as soon as it answers") \
                from None
        else:  # created now (not by an earlier attempt): followed from its first event?
            if followed is not None and self._stream_mark(table.dealer) == followed:
                self._opened_followed[table.table_id] = (table.dealer, followed)
                while len(self._opened_followed) > MAX_OPENED_FOLLOWED:  # oldest: read
                    del self._opened_followed[next(iter(self._opened_followed))]

        def run(tx: Tx) -> Operation:
            tables.set_status(tx, table.table_id, TableStatus.OPEN)
            return ops.update(tx, op.id, state=OpState.DONE)

        log.info("table_opened", table_id=table.table_id, dealer=table.dealer)
        return self.ctx.tx(run)

    def _open_failed(self, op: Operation, err: LobbyError) -> Operation:
        def run(tx: Tx) -> Operation:
            tables.delete(tx, op.table_id)
            return ops.update(tx, op.id, state=OpState.FAILED, error_status=error_name(err),
                              error=str(err))

        return self.ctx.tx(run)

    def table(self, table_id: str) -> Table:
        return self.ctx.table(table_id)

    def tables(self, include_closed: bool = False) -> list[Table]:
        return self.ctx.tx(lambda tx: tables.listing(tx, include_closed))

    def tables_page(self, include_closed: bool, size: int = 0, token: str = "",
                    tournament_id: str = "") -> tuple[list[Any], str]:
        """One page of tables, oldest first (size 0: MAX_TABLES_PAGE), and the next token
        (poker/paging.py: keyset, opaque, checked): the cash tables (`Table`) and the
        tournament tables (`listing.TournamentTable`), or `tournament_id`'s only."""
        from services.lobby.tournament import listing

        scope = f"ListTables:{'all' if include_closed else 'open'}"
        if tournament_id:
            scope += f":tournament={tournament_id}"
        asked = paging.read(size, token, scope=scope, default=MAX_TABLES_PAGE,
                            maximum=MAX_TABLES_PAGE, error=InvalidArgument)
        return self.ctx.tx(lambda tx: listing.page(tx, include_closed, asked, scope,
                                                   tournament_id))

    def any_table(self, table_id: str) -> Any:
        """A cash table (`Table`) or a tournament's (`listing.TournamentTable`) by id, as
        ListTables lists them; NotFound when there is none."""
        from services.lobby.tournament import listing

        return self.ctx.tx(lambda tx: listing.one(tx, table_id))

    def button_draw(self, table_id: str) -> ButtonDraw | None:
        def run(tx: Tx) -> ButtonDraw | None:
            tables.get(tx, table_id)
            return tables.recorded_draw(tx, table_id)

        return self.ctx.tx(run)

    def close_table(self, table_id: str, void_hand: bool, request_id: str) -> Operation:
        return leaving.close(self.ctx, table_id, void_hand, request_id)

    def set_table_level(self, table_id: str, level_index: int, request_id: str = "") -> Level:
        """R9: the operator forces the level the table's next hand plays; the dealer checks
        the index against the table's schedule (its own defaults included). The request_id
        goes to the dealer, which answers a repeat of it without setting the level again."""
        if request_id:
            checks.request_id(request_id)
        table = self.table(table_id)
        tables.require_open(table)
        try:
            level = self.ctx.dealer.set_level(table.dealer, table_id, level_index, request_id)
        except DealerRefused as err:
            raise refusal(err, "setting the level") from None
        except DealerUnreachable:
            raise unreachable(table, "the level was not set; send the request again") from None
        log.info("table_level_set", table_id=table_id, level_index=level_index,
                 small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante)
        return level

    # Seats -----------------------------------------------------------------------------

    # `by`: whose request id it is: ops.OPERATOR_SCOPE for the operator's, None for the
    # player's own (operations.scope).

    def join(self, player_id: str, table_id: str, seat: int | None, buy_in: int,
             wait_for_big_blind: bool, request_id: str, by: str | None = None,
             resume: bool = False) -> Operation:
        return seating.join(self.ctx, player_id, table_id, seat, buy_in, wait_for_big_blind,
                            request_id, by, resume)

    def rebuy(self, player_id: str, table_id: str, amount: int, request_id: str,
              by: str | None = None) -> Operation:
        return seating.rebuy(self.ctx, player_id, table_id, amount, request_id, by)

    def leave(self, player_id: str, table_id: str, request_id: str,
              by: str | None = None) -> Operation:
        return leaving.leave(self.ctx, player_id, table_id, request_id, by)

    # Recovery --------------------------------------------------------------------------

    def recover(self, force: bool = False) -> int:
        """Drives every unfinished operation once; returns how many are still unfinished.

        `force` takes over leases (at start-up with SQLite, whose file has one lobby).
        """
        pending = self.ctx.tx(lambda tx: ops.pending(tx))
        for op in pending:
            if force:
                self.ctx.tx(lambda tx, i=op.id: ops.release(tx, i))  # type: ignore[misc]
            try:
                self._drive(op)
            except (LobbyError, DealerUnreachable, DealerRefused) as err:
                log.info("recovery_pending", op_id=op.id, kind=op.kind.value,
                         table_id=op.table_id, reason=str(err))
            except Exception:  # a bug must not stop the recovery of the rest
                log.exception("recovery_failed", op_id=op.id, kind=op.kind.value)
        seating.tell_buttons(self.ctx)
        now = time.monotonic()
        if now >= self._next_busted_pass:
            self._next_busted_pass = now + BUSTED_PASS_S
            try:
                self.send_busted_away(now)
            except Exception:  # a bug here must not stop the recovery
                log.exception("busted_pass_failed")
            try:
                self.follow_tables()
            except Exception:  # a bug here must not stop the recovery
                log.exception("follow_pass_failed")
        return len(self.ctx.tx(lambda tx: ops.pending(tx)))

    def send_busted_away(self, now: float | None = None) -> list[tuple[Operation, str]]:
        """R30: busted players who cannot or did not rebuy in time leave their tables
        (`leaving.send_busted_away`); `recover()` does it every BUSTED_PASS_S seconds."""
        limited, mark = self._limited(self._full_pass_mark)
        # The noted busts, and the busts a pass saw that no note named (before the
        # streams, or while one was down) until they are settled; else every table.
        only = self.bust_watch.tables() | {t for t, _, _ in self._busted} if limited else None
        found = leaving.send_busted_away(
            self.ctx, self._busted, time.monotonic() if now is None else now, only)
        if not limited:
            self._full_pass_mark = mark
        return found

    def _limited(self, full_mark: int | None) -> tuple[bool, int]:
        """Whether a pass may read only the tables the followed notes name (the streams
        are up and none reconnected since the last pass over every table, `full_mark`),
        and the mark a pass over every table records now."""
        follower = self.follower
        if follower is None:
            return False, 0
        mark = follower.connections  # before the pass: a reconnection during it counts
        return full_mark is not None and follower.live_since(full_mark), mark

    def follow(self, follower: TableFollower) -> None:
        """Follows the dealers' table-level events (FollowTables) from now on: R30's pass
        asks only the tables where a player busted (every table at the first pass, while
        a dealer's stream is down, and once after it reconnects)."""
        self.follower, self._full_pass_mark, self._full_follow_mark = follower, None, None
        follower.subscribe(self.bust_watch)
        follower.subscribe(self.freed_watch)
        follower.start()

    def follow_tables(self) -> list[Operation]:
        """R34: credits the stacks of players the dealers took off for sitting out past
        their tables' limits (`following.follow`); `recover()` does it every BUSTED_PASS_S
        seconds. With FollowTables (`follow`), a pass reads only the tables where a seat
        was freed since the last one (every table at the first pass, once after a stream
        reconnects and while one is down), so an idle room costs it nothing. A pass over
        every table skips those this process opened while their stream was up and that
        stream has stayed up: all their notes came."""
        limited, mark = self._limited(self._full_follow_mark)
        only = self.freed_watch.take() if limited else None
        if limited and not only:
            return []
        unread: dict[str, int] = {}
        skip = set() if limited else self._noted_throughout()
        found = following.follow(self.ctx, self.events, only, unread, skip)
        self.freed_watch.again(unread)
        if not limited:
            self._full_follow_mark = mark
        return found

    def _stream_mark(self, address: str) -> int | None:
        """The follower's `connections` while `address`'s FollowTables stream is up, else
        None (no follower, or that stream is down)."""
        follower = self.follower
        if follower is None or address not in follower.connected:
            return None
        return follower.connections

    def _noted_throughout(self) -> set[str]:
        """The tables opened while their dealer's stream was up, which has stayed up
        since (no stream reconnected): their notes all came, so R34's pass over every
        table skips them. The others are forgotten: a reconnection may have lost notes."""
        live = {table_id: (address, mark)
                for table_id, (address, mark) in self._opened_followed.items()
                if self._stream_mark(address) == mark}
        self._opened_followed = live
        return set(live)

    def _drive(self, op: Operation) -> Operation:
        steps: dict[OpKind, Callable[[Operation], Operation]] = {
            OpKind.OPEN: self._drive_open,
            OpKind.JOIN: lambda o: seating.drive_join(self.ctx, o),
            OpKind.REBUY: lambda o: seating.drive_rebuy(self.ctx, o),
            OpKind.LEAVE: lambda o: leaving.drive_leave(self.ctx, o),
            OpKind.CLOSE: lambda o: leaving.drive_close(self.ctx, o),
        }
        return drive_leased(self.ctx, op, steps[op.kind], owned=False, wait=0.0)

    def start_recovery(self, interval: float = 1.0) -> None:
        """Runs `recover()` now (taking over leases with SQLite) and then every `interval`."""
        self.recover(force=self.ctx.storage.dialect == "sqlite")

        def loop() -> None:
            while not self._stop.wait(interval):
                try:
                    self.recover()
                except Exception:
                    log.exception("recovery_loop_failed")

        self._thread = threading.Thread(target=loop, name="lobby-recovery", daemon=True)
        self._thread.start()
        self._pruner = Pruner(self.ctx.journal)
        self._pruner.start()

    def stop(self) -> None:
        self._stop.set()
        if self._pruner is not None:
            self._pruner.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)


__all__ = ["Lobby", "NotFound", "error_of"]
