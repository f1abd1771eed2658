"""The tournament director: registration and money (T1, T2), seats (T3), and the loop that
runs every table of a tournament between its hands (T5-T9).

The lobby owns money and seats, the dealers run the tables. Every tournament table is
held by a deal limit (dealer SetDealLimit): it deals one hand and waits for the director,
which after each hand ranks the players who busted (T8), adds rebuys and add-ons,
breaks tables and balances them (T5, T6), moves players between hands, and releases the
table for its next hand at the level the one clock says (T3, R9: a level starts with
each table's next hand). Hand for hand (T7), a level change and the final table wait
until every table is held: they are the points where every chip is counted.

Money moves through the ledger: buy-ins, rebuys and add-ons to the tournament's prize
pool account, fees to the house; prizes from the pool at the end; refunds when
cancelled. Tournament chips are not money: they live at the dealers' tables and in the
director's document (`Tournament.chips` counts every chip issued).

A move (T5, T6) is a record in `tournament_moves` before the first dealer call:
planned (the player at the first table), unseated (the stack in the record: at no
table), done (seated at the second, in the same transaction as the document). A
restart drives every record that is not done (`recover`): the stack of a player
unseated just before a crash is read back from the first table's events; the second
table's SeatPlayer is sent with the move's request_id, so a repeat seats once.
"""

from __future__ import annotations

import contextlib
import math
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import structlog

from poker.journal import Pending, journaled
from poker.limits import MAX_ID_CHARS, MAX_REPEATED, TOURNAMENT_EVENTS_PER_MESSAGE, quote
from services.lobby import checks, ledger, players
from services.lobby import operations as ops
from services.lobby.dealers import DealerRefused, DealerTable, DealerUnreachable
from services.lobby.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    Unavailable,
)
from services.lobby.journal import RULES, request_key
from services.lobby.ledger import AccountKind, TransferKind
from services.lobby.steps import Ctx, find_stack
from services.lobby.storage import Tx
from services.lobby.tournament import balance as bal
from services.lobby.tournament import store
from services.lobby.tournament.noted import TableNotes
from services.lobby.tournament.payouts import pay
from services.lobby.tournament.places import Place, rank_busts
from services.lobby.tournament.store import (
    BUSTED,
    CANCELLED,
    DONE,
    FINISHED,
    PLANNED,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    STARTING,
    UNSEATED,
    Entry,
    MoveRecord,
    Tournament,
    TTable,
)
from services.lobby.tournament.structure import Structure, check_name
from services.lobby.tournament.watch import PgListener, Watchers

log = structlog.get_logger("services.lobby.tournament")

HOUSE = ledger.HOUSE_FEES
#: ListTournaments answers at most this many (page_size).
MAX_PAGE = MAX_REPEATED
#: A released table that deals no hand for this long is held (its players wait for the
#: big blind, R10): the director goes on without it.
STALL_S = 1.0
#: How often the director looks at the tables still in a hand (one GetTable each): a
#: hand of bots lasts a few hundred milliseconds.
POLL_S = 0.03
#: How often a director with nothing to hurry for looks again: no tournament starting or
#: running, only ones registering (a scheduled start comes sooner if it is due sooner).
#: What changes that wakes it at once: a tournament created, or an entry paid (a
#: sit-and-go may be full), in this process or, on PostgreSQL, in another (its
#: notification); without the notification (the database's LISTEN down) another
#: process's change is seen within this.
IDLE_POLL_S = 1.0
#: How long a lobby process directs a tournament without renewing (another one takes
#: over after it: a restarted lobby waits this long).
LEASE_S = 3.0
#: WatchTournament sends at most this many events in one message (poker/limits.py).
MAX_EVENTS = TOURNAMENT_EVENTS_PER_MESSAGE


def pool_account(tournament_id: str) -> str:
    """T2: the prize pool of a tournament."""
    return f"tournament:{tournament_id}"


def _all_held(views: Mapping[str, Any], held: Mapping[str, Any]) -> bool:
    """Every table in `views` is between hands. Not a count: `held` may still hold a
    table broken in this pass, which must not stand in for one still in its hand."""
    return all(tid in held for tid in views)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _due_in(t: Tournament) -> float:
    """Seconds until a tournament needs the director again: 0 while it starts or runs; a
    scheduled one registering at its start time; math.inf otherwise (a sit-and-go
    registering starts when an entry fills it, and the entry wakes the director)."""
    if t.state in (STARTING, RUNNING):
        return 0.0
    if t.state == REGISTERING and not t.structure.sit_and_go:
        return max(0.0, (t.structure.start_unix_ms - _now_ms()) / 1000)
    return math.inf


class Director:
    """Every tournament of the lobby: the calls, and `tick()` that runs them."""

    def __init__(self, ctx: Ctx, dealers: Sequence[str],
                 rng: random.Random | None = None) -> None:
        self.ctx, self.dealers = ctx, list(dealers)
        self.dealer = HeldViews(ctx.dealer)
        self.rng = rng or random.SystemRandom()
        self.journal = ctx.journal
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._woken = threading.Event()  # stop() or a new tournament: the loop looks now
        self._thread: threading.Thread | None = None
        self._ticked: dict[str, float] = {}
        self._released: dict[str, float] = {}  # table -> when it was last released
        self.holder = f"director-{secrets.token_hex(6)}"
        #: A SQLite file has one lobby process: a restarted one takes over at once.
        self._sole = ctx.storage.dialect == "sqlite"
        self._leases: dict[str, float] = {}  # tournament -> until when (monotonic) it is ours
        self._docs: dict[str, Tournament] = {}  # the tick's copies, of the version saved
        #: WatchTournament's streams, told of every event once its transaction committed
        #: (PostgreSQL: by any lobby process, through LISTEN/NOTIFY: `listen`).
        self.watchers = Watchers(shared=not self._sole)
        self.listener: PgListener | None = None
        ctx.tx(lambda tx: ledger.open_account(tx, HOUSE, AccountKind.HOUSE))
        ctx.tx(store.list_old_tables)  # a database from before ListTables listed them

    def _lock(self, tid: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(tid, threading.RLock())

    def _load(self, tid: str) -> Tournament:
        return self.ctx.tx(lambda tx: store.get(tx, tid))

    def _save(self, t: Tournament, *events: tuple[str, dict[str, Any]],
              also: Callable[[Tx], None] | None = None) -> None:
        seq = t.seq

        def run(tx: Tx) -> None:
            t.seq = seq  # again from the start when the storage retries
            for kind, body in events:
                store.add_event(tx, t, kind, **body)
            if events and not self._sole:
                store.notify(tx, t)
            if also is not None:
                also(tx)
            store.save(tx, t)

        try:
            self.ctx.tx(run)
        except BaseException:
            t.seq = seq
            raise
        store.saved(t)
        if t.seq != seq:
            self.watchers.published(t.tournament_id, t.seq)

    # ------------------------------------------------------------------ operator

    @journaled("CreateTournament", RULES,
               key=lambda a: request_key("CreateTournament", a, "a retried request create "
                                         "one tournament", ops.OPERATOR_SCOPE),
               caller=lambda a: ops.OPERATOR_SCOPE,
               fields=lambda a: {"name": a["name"], "structure": a["structure"].to_json(),
                                 "tournament_id": a["tournament_id"]},
               decode=lambda self, done, a: self.get(done["tournament_id"]),
               journal=lambda self: self.journal)
    def create(self, name: str, structure: Structure, request_id: str,
               tournament_id: str = "", *, entry: Pending | None = None) -> Tournament:
        """T1: announces a tournament; registration opens."""
        assert entry is not None
        check_name(name)
        structure.check()
        if not self.dealers:
            raise FailedPrecondition("the lobby has no dealer to run tournament tables "
                                     "(--dealer)")
        tid = tournament_id or f"tn_{secrets.token_hex(5)}"
        players.check_id("tournament_id", tid)
        if len(tid) > MAX_ID_CHARS - 16:
            raise InvalidArgument(f"tournament_id: at most {MAX_ID_CHARS - 16} characters")
        t = Tournament(tid, name, structure, created_ms=_now_ms())

        def run(tx: Tx) -> None:
            entry.claim(tx)
            if store.exists(tx, tid):
                raise AlreadyExists(f"tournament {quote(tid)} already exists")
            ledger.open_account(tx, pool_account(tid), AccountKind.PRIZE_POOL)
            store.insert(tx, t)
            store.add_event(tx, t, "created", name=name)
            if not self._sole:
                store.notify(tx, t)
            store.save(tx, t)
            entry.record({"tournament_id": tid}, tx)

        self.ctx.tx(run)
        self.watchers.published(tid, t.seq)
        self._woken.set()  # an idle loop directs it now, not after IDLE_POLL_S
        log.info("tournament_created", tournament_id=tid, name=name)
        return self.get(tid)

    @journaled("StartTournament", RULES,
               key=lambda a: request_key("StartTournament", a, "a retried request start the "
                                         "tournament once", ops.OPERATOR_SCOPE),
               caller=lambda a: ops.OPERATOR_SCOPE,
               fields=lambda a: {"tournament_id": a["tournament_id"]},
               decode=lambda self, done, a: self.get(done["tournament_id"]),
               journal=lambda self: self.journal)
    def start(self, tournament_id: str, request_id: str, *,
              entry: Pending | None = None) -> Tournament:
        """Starts now (before the set time, or a sit-and-go not yet full)."""
        assert entry is not None
        with self._lock(tournament_id):
            t = self._load(tournament_id)
            if t.state != REGISTERING:
                raise FailedPrecondition(f"tournament {quote(tournament_id)} is {t.state}; "
                                         "only a tournament still registering can start")
            field = len([e for e in t.entries.values() if e.status == REGISTERED])
            if field < t.structure.min_players:
                raise FailedPrecondition(f"{field} players registered; the tournament needs "
                                         f"at least {t.structure.min_players}")
            self._begin(t, also=lambda tx: entry.record({"tournament_id": tournament_id}, tx))
            self._open(t)
        self._woken.set()  # started: an idle loop drives it now, not after IDLE_POLL_S
        return self.get(tournament_id)

    @journaled("CancelTournament", RULES,
               key=lambda a: request_key("CancelTournament", a, "a retried request cancel "
                                         "once", ops.OPERATOR_SCOPE),
               caller=lambda a: ops.OPERATOR_SCOPE,
               fields=lambda a: {"tournament_id": a["tournament_id"]},
               decode=lambda self, done, a: self.get(done["tournament_id"]),
               journal=lambda self: self.journal)
    def cancel(self, tournament_id: str, request_id: str, *,
               entry: Pending | None = None) -> Tournament:
        """T2: closes its tables and refunds every buy-in, rebuy, add-on and fee."""
        assert entry is not None
        with self._lock(tournament_id):
            t = self._load(tournament_id)
            if t.state in (FINISHED, CANCELLED):
                raise FailedPrecondition(f"tournament {quote(tournament_id)} is {t.state}")
            for table in t.open_tables():
                try:
                    self.dealer.close_table(table.dealer, table.table_id, True)
                except DealerRefused as err:
                    if err.status != "NOT_FOUND" and "closed" not in err.message:
                        raise FailedPrecondition(f"table {table.table_id}: {err.message}") \
                            from None
                table.open = False
            self._cancelled(t, lambda tx: entry.record({"tournament_id": tournament_id}, tx))
        return self.get(tournament_id)

    def _cancelled(self, t: Tournament, also: Callable[[Tx], None] | None = None) -> None:
        owed = [(e, e.paid, e.fees) for e in t.entries.values()]
        pool, fees = t.pool, t.fees

        def refunds(tx: Tx) -> None:  # the same on a retry of the transaction
            t.pool, t.fees = pool, fees
            for e, paid, fee in owed:
                e.paid, e.fees = paid, fee
                self._refund(tx, t, e)
            if also is not None:
                also(tx)

        refunded = sum(e.paid + e.fees for e in t.entries.values())
        t.state, t.finished_ms = CANCELLED, _now_ms()
        self._save(t, ("cancelled", {"refunded": refunded}), also=refunds)
        log.info("tournament_cancelled", tournament_id=t.tournament_id, refunded=refunded)

    def _refund(self, tx: Tx, t: Tournament, e: Entry) -> None:
        tid, who = t.tournament_id, ledger.player_account(e.player_id)
        n = e.entries + e.rebuys + e.add_ons
        if e.paid:
            ledger.transfer(tx, key=f"tn:{tid}:{e.player_id}:refund:{n}",
                            kind=TransferKind.ENTRY_REFUND, source=pool_account(tid),
                            destination=who, amount=e.paid)
        if e.fees:
            ledger.transfer(tx, key=f"tn:{tid}:{e.player_id}:refund-fee:{n}",
                            kind=TransferKind.ENTRY_REFUND, source=HOUSE, destination=who,
                            amount=e.fees)
        t.pool -= e.paid
        t.fees -= e.fees
        e.paid = e.fees = 0

    # ------------------------------------------------------------------ players

    def register(self, tournament_id: str, player_id: str, request_id: str,
                 by: str | None = None) -> Tournament:
        """Registers (and pays the buy-in and fee); during late registration the player
        is seated at the next pass."""
        t: Tournament = _REGISTER(self, tournament_id, player_id, request_id, by)
        return t

    def unregister(self, tournament_id: str, player_id: str, request_id: str,
                   by: str | None = None) -> Tournament:
        t: Tournament = _UNREGISTER(self, tournament_id, player_id, request_id, by)
        return t

    def rebuy(self, tournament_id: str, player_id: str, request_id: str,
              by: str | None = None) -> Tournament:
        t: Tournament = _REBUY(self, tournament_id, player_id, request_id, by)
        return t

    def add_on(self, tournament_id: str, player_id: str, request_id: str,
               by: str | None = None) -> Tournament:
        t: Tournament = _ADD_ON(self, tournament_id, player_id, request_id, by)
        return t

    def re_enter(self, tournament_id: str, player_id: str, request_id: str,
                 by: str | None = None) -> Tournament:
        t: Tournament = _RE_ENTER(self, tournament_id, player_id, request_id, by)
        return t

    def _pay(self, tx: Tx, t: Tournament, e: Entry, amount: int, fee: int, what: str) -> None:
        """Money from the player's balance: `amount` to the pool, `fee` to the house."""
        tid, who = t.tournament_id, ledger.player_account(e.player_id)
        n = e.entries + e.rebuys + e.add_ons
        if amount:
            ledger.transfer(tx, key=f"tn:{tid}:{e.player_id}:{what}:{n}",
                            kind=TransferKind.ENTRY, source=who,
                            destination=pool_account(tid), amount=amount)
        if fee:
            ledger.transfer(tx, key=f"tn:{tid}:{e.player_id}:{what}-fee:{n}",
                            kind=TransferKind.FEE, source=who, destination=HOUSE, amount=fee)
        e.paid += amount
        e.fees += fee
        t.pool += amount
        t.fees += fee

    def _money_call(self, tournament_id: str, player_id: str, entry: Pending,
                    act: Callable[[Tx, Tournament], tuple[str, dict[str, Any]]]) -> Tournament:
        with self._lock(tournament_id):
            def run(tx: Tx) -> int:
                t = store.get(tx, tournament_id)  # read again on every attempt
                entry.claim(tx)
                players.get(tx, player_id)
                kind, body = act(tx, t)
                sequence = store.add_event(tx, t, kind, player_id=player_id, **body)
                if not self._sole:
                    store.notify(tx, t)
                store.save(tx, t)
                entry.record({"tournament_id": tournament_id}, tx)
                return sequence

            self.watchers.published(tournament_id, self.ctx.tx(run))
        self._woken.set()  # a sit-and-go may be full: an idle loop looks now
        return self.get(tournament_id)

    def _late_open(self, t: Tournament) -> bool:
        return t.state == RUNNING and t.level <= t.structure.late_registration_until_level

    def _do_register(self, tournament_id: str, player_id: str, request_id: str,
                     by: str | None, *, entry: Pending | None = None) -> Tournament:
        assert entry is not None

        def act(tx: Tx, t: Tournament) -> tuple[str, dict[str, Any]]:
            s = t.structure
            if t.state not in (REGISTERING, RUNNING) or (t.state == RUNNING
                                                         and not self._late_open(t)):
                raise FailedPrecondition(f"registration is closed: the tournament is {t.state}"
                                         + (f" at level {t.level}, and late registration ends "
                                            f"after level {s.late_registration_until_level}"
                                            if t.state == RUNNING else ""))
            if player_id in t.entries:
                raise FailedPrecondition(f"{player_id} is already registered"
                                         + (" (re-enter after busting: ReEnter)"
                                            if t.entries[player_id].status == BUSTED else ""))
            if s.max_players and len(t.entries) >= s.max_players:
                raise FailedPrecondition(f"the tournament is full ({s.max_players} players)")
            e = t.entries[player_id] = Entry(player_id)
            self._pay(tx, t, e, s.buy_in, s.fee, "buy-in")
            return "registered", {"entries": len(t.entries), "late": t.state == RUNNING}

        return self._money_call(tournament_id, player_id, entry, act)

    def _do_unregister(self, tournament_id: str, player_id: str, request_id: str,
                       by: str | None, *, entry: Pending | None = None) -> Tournament:
        assert entry is not None

        def act(tx: Tx, t: Tournament) -> tuple[str, dict[str, Any]]:
            e = t.entries.get(player_id)
            if e is None:
                raise NotFound(f"{player_id} is not registered")
            if t.state != REGISTERING:
                raise FailedPrecondition("unregistering is allowed only before the start; "
                                         f"the tournament is {t.state}")
            self._refund(tx, t, e)
            del t.entries[player_id]
            return "unregistered", {"entries": len(t.entries)}

        return self._money_call(tournament_id, player_id, entry, act)

    def _do_rebuy(self, tournament_id: str, player_id: str, request_id: str,
                  by: str | None, *, entry: Pending | None = None) -> Tournament:
        assert entry is not None

        def act(tx: Tx, t: Tournament) -> tuple[str, dict[str, Any]]:
            s, e = t.structure, self._playing(t, player_id)
            if not s.max_rebuys:
                raise FailedPrecondition("this tournament has no rebuys")
            if t.level > s.rebuy_until_level:
                raise FailedPrecondition(f"the rebuy period ended after level "
                                         f"{s.rebuy_until_level}; this is level {t.level}")
            if e.rebuys >= s.max_rebuys:
                raise FailedPrecondition(f"{player_id} has made every rebuy allowed "
                                         f"({s.max_rebuys})")
            stack = e.stack + e.pending_chips
            if s.rebuy_only_at_or_below_start and stack > s.starting_stack:
                raise FailedPrecondition(
                    f"rebuy refused: {player_id}'s stack of {stack} is above the starting "
                    f"stack of {s.starting_stack} (T1: a rebuy is allowed at or below it)")
            self._pay(tx, t, e, s.buy_in, s.fee, "rebuy")
            e.rebuys += 1
            e.pending_chips += s.rebuy_stack
            t.chips += s.rebuy_stack
            return "rebuy", {"chips": s.rebuy_stack, "rebuys": e.rebuys}

        return self._money_call(tournament_id, player_id, entry, act)

    def _do_add_on(self, tournament_id: str, player_id: str, request_id: str,
                   by: str | None, *, entry: Pending | None = None) -> Tournament:
        assert entry is not None

        def act(tx: Tx, t: Tournament) -> tuple[str, dict[str, Any]]:
            s, e = t.structure, self._playing(t, player_id)
            if not s.add_on_chips:
                raise FailedPrecondition("this tournament has no add-on")
            if not s.rebuy_until_level <= t.level <= s.rebuy_until_level + 1:
                raise FailedPrecondition(
                    f"the add-on is taken at the end of the rebuy period (levels "
                    f"{s.rebuy_until_level}..{s.rebuy_until_level + 1}); this is level {t.level}")
            if e.add_ons:
                raise FailedPrecondition(f"{player_id} has taken the add-on")
            self._pay(tx, t, e, s.add_on_price, 0, "add-on")
            e.add_ons += 1
            e.pending_chips += s.add_on_chips
            t.chips += s.add_on_chips
            return "add_on", {"chips": s.add_on_chips}

        return self._money_call(tournament_id, player_id, entry, act)

    def _do_re_enter(self, tournament_id: str, player_id: str, request_id: str,
                     by: str | None, *, entry: Pending | None = None) -> Tournament:
        assert entry is not None

        def act(tx: Tx, t: Tournament) -> tuple[str, dict[str, Any]]:
            s, e = t.structure, t.entries.get(player_id)
            if e is None:
                raise NotFound(f"{player_id} is not registered (Register first)")
            if e.status != BUSTED:
                raise FailedPrecondition(f"{player_id} is {e.status}; only a busted player "
                                         "re-enters")
            if not self._late_open(t):
                raise FailedPrecondition("re-entry ends with late registration (after level "
                                         f"{s.late_registration_until_level})")
            if e.entries - 1 >= s.max_re_entries:
                raise FailedPrecondition(f"{player_id} has used every re-entry allowed "
                                         f"({s.max_re_entries})")
            e.entries += 1
            self._pay(tx, t, e, s.buy_in, s.fee, "re-entry")
            e.status, e.place, e.shared, e.busted_at_ms = REGISTERED, 0, 1, 0
            e.table_id, e.seat, e.seat_request = "", -1, ""
            return "re_entered", {"entries": e.entries}

        return self._money_call(tournament_id, player_id, entry, act)

    @staticmethod
    def _playing(t: Tournament, player_id: str) -> Entry:
        e = t.entries.get(player_id)
        if e is None:
            raise NotFound(f"{player_id} is not registered")
        if t.state != RUNNING or e.status != PLAYING:
            raise FailedPrecondition(f"{player_id} is not playing (the tournament is "
                                     f"{t.state}, the player {e.status})")
        return e

    # ------------------------------------------------------------------ reading

    def get(self, tournament_id: str) -> Tournament:
        return self._load(tournament_id)

    def page(self, size: int = 0, token: str = "") -> tuple[list[Tournament], str]:
        size = size or MAX_PAGE
        if not 0 < size <= MAX_PAGE:
            raise InvalidArgument(f"page_size: {size} is not in 1..{MAX_PAGE}")
        checks.text("page_token", token, MAX_ID_CHARS)
        return self.ctx.tx(lambda tx: store.page(tx, size, token))

    def events(self, tournament_id: str, after: int, limit: int = MAX_EVENTS
               ) -> list[store.Event]:
        def run(tx: Tx) -> list[store.Event]:
            store.get(tx, tournament_id)
            return store.events(tx, tournament_id, after, limit)

        return self.ctx.tx(run)

    def seat_of(self, tournament_id: str, player_id: str) -> tuple[Entry, TTable | None, str]:
        """A player's entry, table and seat token (asked of the dealer again with the
        seat's request_id: the same token, nothing changed). Read from the director's copy
        when it is current (asked by every player between tables and at the end)."""
        t = self._current(tournament_id)
        e = t.entries.get(player_id)
        if e is None:
            raise NotFound(f"{player_id} is not registered in {quote(tournament_id)}")
        table = t.tables.get(e.table_id) if e.status == PLAYING else None
        if table is None or not e.seat_request:
            return e, None, ""
        try:
            token = self.dealer.seat_player(table.dealer, table.table_id, e.seat,
                                                e.player_id, e.seat_stack, e.seat_wait,
                                                e.seat_request)
        except (DealerRefused, DealerUnreachable) as err:
            raise Unavailable(f"the seat token of {player_id} at {table.table_id} could not "
                              f"be asked for ({err}); ask again") from None
        return e, table, token

    # ------------------------------------------------------------------ starting

    def _begin(self, t: Tournament, also: Callable[[Tx], None] | None = None) -> None:
        """Draws tables and seats (T3) and records them; `_open` makes them at the dealers."""
        s = t.structure
        field = sorted(e.player_id for e in t.entries.values() if e.status == REGISTERED)
        count = bal.tables_for(len(field), s.table_size)
        dealt = bal.draw_seats(field, count, s.table_size, self.rng)
        for i, group in enumerate(dealt):
            table = self._new_table(t, i)
            for seat, player in group:
                self._assign(t, t.entries[player], table, seat, s.starting_stack, False)
        t.chips = s.starting_stack * len(field)
        t.state = STARTING
        self._save(t, also=also)

    def _new_table(self, t: Tournament, i: int | None = None) -> TTable:
        number = t.next_table
        t.next_table += 1
        counts = {d: 0 for d in self.dealers}
        for table in t.open_tables():
            counts[table.dealer] = counts.get(table.dealer, 0) + 1
        dealer = min(self.dealers, key=lambda d: (counts.get(d, 0), self.dealers.index(d)))
        table = TTable(f"{t.tournament_id}-{number}", number, dealer)
        t.tables[table.table_id] = table
        return table

    @staticmethod
    def _assign(t: Tournament, e: Entry, table: TTable, seat: int, stack: int,
                wait: bool) -> None:
        e.table_id, e.seat, e.stack = table.table_id, seat, stack
        e.seat_request = f"{t.tournament_id}:{e.player_id}:{e.entries}:{table.number}:{seat}"
        e.seat_stack, e.seat_wait = stack, wait

    def game(self, t: Tournament) -> dict[str, Any]:
        """The dealer config of a tournament table (`table_game`)."""
        return table_game(t)

    def _open_table(self, t: Tournament, table: TTable) -> None:
        try:
            self.dealer.create_table(table.dealer, table.table_id, self.game(t))
        except DealerRefused as err:
            if err.status != "ALREADY_EXISTS":
                raise
        self.dealer.set_deal_limit(table.dealer, table.table_id, table.released)

    def _seat(self, t: Tournament, e: Entry) -> None:
        table = t.tables[e.table_id]
        self.dealer.seat_player(table.dealer, table.table_id, e.seat, e.player_id,
                                    e.seat_stack, e.seat_wait, e.seat_request)

    def _open(self, t: Tournament) -> None:
        """STARTING -> RUNNING: every table made and held, every player seated (each call
        repeatable), then the first hands dealt."""
        for table in t.open_tables():
            self._open_table(t, table)
        for e in sorted(t.entries.values(), key=lambda e: e.player_id):
            if e.status == REGISTERED and e.table_id:
                self._seat(t, e)
                e.status = PLAYING
        t.state, t.started_ms = RUNNING, _now_ms()
        self._save(t, ("started", {"players": len(t.players_left()),
                                   "tables": len(t.open_tables()), "pool": t.pool,
                                   "seats": self._seating(t)}))
        log.info("tournament_started", tournament_id=t.tournament_id,
                 players=len(t.players_left()), tables=len(t.open_tables()))

    @staticmethod
    def _seating(t: Tournament) -> list[dict[str, Any]]:
        return [{"player_id": e.player_id, "table_id": e.table_id, "seat": e.seat}
                for e in sorted(t.players_left(), key=lambda e: (e.table_id, e.seat))]

    # ------------------------------------------------------------------ the loop

    def follow(self, follower: Any) -> None:
        """Follows the dealers through the lobby's TableFollower (FollowTables): a table
        in a hand is asked for once, not every pass (services/lobby/tournament/noted.py)."""
        notes = TableNotes(follower)
        follower.subscribe(notes)
        self.dealer.notes = notes

    def listen(self) -> None:
        """PostgreSQL: hears of the events other lobby processes append (watch.py)."""
        dsn = getattr(self.ctx.storage, "dsn", None)
        if not self._sole and dsn and self.listener is None:
            pids = self.ctx.storage.backend_pids  # type: ignore[attr-defined]  # (has dsn)
            # This process's own changes wake the loop where they are made (create, each
            # entry, start), and its ticks are the loop: only another process's wake it.
            self.listener = PgListener(dsn, self.watchers, heard=self._woken.set,
                                       own=lambda pid: pid in pids())
            self.listener.start()

    def start_loop(self, interval: float = POLL_S, idle: float = IDLE_POLL_S) -> None:
        """Ticks every `interval` while a tournament is starting or running, else when the
        next one registering is due to start, at most `idle` apart (a room with no
        tournament under way runs no SQL 33 times a second for nothing); a new tournament
        or entry wakes it (IDLE_POLL_S)."""
        def loop() -> None:
            wait = interval
            while True:
                self._woken.wait(wait)
                self._woken.clear()
                if self._stop.is_set():
                    break
                try:
                    wait = max(interval, min(self.tick(), idle))
                except Exception:  # a bug must not stop every tournament
                    wait = interval
                    log.exception("tournament_tick_failed")

        self.listen()
        self._thread = threading.Thread(target=loop, name="tournament-director", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()
        if self.listener is not None:
            self.listener.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def tick(self) -> float:
        """One pass over every tournament not over; in how many seconds the next pass is
        due: 0 while one this process directs is starting or running (or could not be
        driven: it is tried again at once), else when the first one registering is due
        to start (math.inf when none is: a new entry or tournament wakes the loop)."""
        due = math.inf
        for tid in self.ctx.tx(store.active_ids):
            if not self._leased(tid):
                continue  # another lobby process directs it
            with self._lock(tid):
                try:
                    t = self._current(tid)
                    self._drive(t)
                    due = min(due, _due_in(t))
                except BaseException as err:
                    due = 0.0
                    self._docs.pop(tid, None)  # changed in memory, maybe not saved: read again
                    if not isinstance(err, DealerUnreachable | DealerRefused):
                        raise
                    now = time.monotonic()
                    if now - self._ticked.get(tid, 0.0) > 5.0:
                        self._ticked[tid] = now
                        log.info("tournament_waiting", tournament_id=tid, reason=str(err))
        return due

    def _current(self, tid: str) -> Tournament:
        """The tournament as this director last saved it, unless the row changed since (a
        money call, another lobby process): then read again."""
        kept = self._docs.get(tid)
        row = self.ctx.tx(lambda tx: tx.one("SELECT version FROM tournaments WHERE id = ?",
                                            (tid,)))
        if kept is None or row is None or int(row["version"]) != kept.version:
            kept = self._docs[tid] = self._load(tid)
        return kept

    def _leased(self, tid: str) -> bool:
        """This process directs the tournament: its lease, renewed when half run out."""
        now = time.monotonic()
        if self._leases.get(tid, 0.0) - now > LEASE_S / 2:
            return True
        if self.ctx.tx(lambda tx: store.take_lease(tx, tid, self.holder, LEASE_S,
                                                   force=self._sole)):
            self._leases[tid] = now + LEASE_S
            return True
        self._leases.pop(tid, None)
        return False

    def _drive(self, t: Tournament) -> None:
        s = t.structure
        if t.state == REGISTERING:
            field = sum(1 for e in t.entries.values() if e.status == REGISTERED)
            if s.sit_and_go and field >= s.max_players:
                self._begin(t)
                self._open(t)
            elif not s.sit_and_go and _now_ms() >= s.start_unix_ms:
                if field >= s.min_players:
                    self._begin(t)
                    self._open(t)
                else:
                    self._cancelled(t)
            return
        if t.state == STARTING:
            self._open(t)
            return
        self._recover_moves(t)
        self._run(t)

    def _run(self, t: Tournament) -> None:
        s = t.structure
        views = {table.table_id: self.dealer.table(table.dealer, table.table_id)
                 for table in t.open_tables()}
        held = {tid: v for tid, v in views.items() if self._held(t.tables[tid], v)}
        for tid, view in held.items():
            if view.hands_played >= t.tables[tid].released:
                self.dealer.keep(tid, view)  # it deals no hand until the director says
        everyone = _all_held(views, held)
        clock = s.clock((_now_ms() - t.started_ms) / 1000)
        sync = t.hand_for_hand or clock.index != t.level or bal.final_table_due(
            self._seats(t, views))
        if sync and not everyone:
            return  # every table finishes its hand first (T7; a level; the final table)
        if everyone:
            self._count_chips(t, views)
        # T8: one group a hand, and one for all the hands of a round of hand for hand
        # (T7); a hand running when hand for hand began is alone. Groups are placed in
        # the order their hands ended (a round: its last hand), the first out lowest.
        groups: dict[tuple[str, int], tuple[list[tuple[str, int]], list[int]]] = {}
        for tid, view in held.items():
            table = t.tables[tid]
            if view.hands_played > table.seen:
                key = ("round", table.round) if table.round else (tid, table.seen)
                busted, ends = groups.setdefault(key, ([], []))
                busted.extend(self._after_hand(t, table, view))
                ends.append(view.hand_ended_ms)
        for busted, _ in sorted(groups.values(), key=lambda g: max(g[1])):  # stable on a tie
            if busted:
                self._bust(t, busted)
        if len(t.players_left()) <= 1 and not any(e.status == REGISTERED
                                                   for e in t.entries.values()):
            self._finish(t, views)
            return
        if clock.index != t.level:
            t.level = clock.index
            level = s.levels[clock.index]
            kind = "break" if level.is_break else "level_up"
            self._save(t, (kind, {"level": clock.index, "small_blind": level.small_blind,
                                  "big_blind": level.big_blind, "ante": level.ante,
                                  "minutes": level.minutes}))
        self._hand_for_hand(t)
        views = self._reseat(t, views, held)
        if clock.on_break:
            return
        if t.hand_for_hand and not _all_held(views, held):
            return  # T7: a table broken this pass must not stand in for one in its hand
        self._release(t, views, held)

    def _held(self, table: TTable, view: DealerTable) -> bool:
        """Between hands and dealing no more: the hand released was played, or the table
        cannot deal (fewer than two players with chips), or it did not deal for a second
        (its players wait for the big blind)."""
        if view.hand_running:
            return False
        if view.hands_played >= table.released:
            return True
        if sum(1 for s in view.seats.values() if s.stack > 0) < 2:
            return True
        return time.monotonic() - self._released.get(table.table_id, 0.0) > STALL_S

    def _seats(self, t: Tournament, views: dict[str, DealerTable]) -> list[bal.TableSeats]:
        by: dict[str, dict[int, str]] = {tid: {} for tid in views}
        for e in t.players_left():
            if e.table_id in by:
                by[e.table_id][e.seat] = e.player_id
        return [bal.TableSeats(tid, t.tables[tid].number, by[tid], views[tid].button,
                               t.structure.table_size) for tid in views]

    def _after_hand(self, t: Tournament, table: TTable, view: DealerTable
                    ) -> list[tuple[str, int]]:
        """A table's hand is over: its busted players (with their stacks at its start),
        the stacks now, rebuys and add-ons added."""
        busted: list[tuple[str, int]] = []
        t.hands += view.hands_played - table.seen
        table.seen, table.button = view.hands_played, view.button
        for e in t.players_left():
            if e.table_id != table.table_id:
                continue
            seat = view.seats.get(e.seat)
            if seat is None or seat.player_id != e.player_id:
                continue  # being moved: the move's record has the stack
            if seat.stack == 0 and not e.pending_chips:
                busted.append((e.player_id, e.stack))
                continue
            e.stack = seat.stack
            if e.pending_chips:
                key = f"{t.tournament_id}:{e.player_id}:chips:{e.chips_keys}"
                e.stack = self.dealer.add_chips(table.dealer, table.table_id, e.seat,
                                                    e.pending_chips, key)
                e.chips_keys += 1
                e.pending_chips = 0
        self._save(t)
        return busted

    def _bust(self, t: Tournament, busts: list[tuple[str, int]]) -> None:
        """T8: the players of one hand (or one round of hand for hand) who busted."""
        left_before = len(t.players_left())
        places = rank_busts(busts, left_before)
        now = _now_ms()
        gone: list[tuple[str, int]] = []
        for p in places:
            e = t.entries[p.player_id]
            e.status, e.place, e.shared, e.busted_at_ms = BUSTED, p.place, p.shared, now
            gone.append((e.table_id, e.seat))
        self._save(t, *[("busted", {"player_id": p.player_id, "place": p.place,
                                    "shared": p.shared, "table_id": t.entries[p.player_id]
                                    .table_id}) for p in places])
        for tid, seat in gone:
            table = t.tables[tid]
            with contextlib.suppress(DealerRefused):  # already gone (a pass before a crash)
                self.dealer.unseat_player(table.dealer, tid, seat)

    def _count_chips(self, t: Tournament, views: dict[str, DealerTable]) -> None:
        """Every chip issued is at a table or bought and on its way (all tables held)."""
        at_tables = sum(s.stack for v in views.values() for s in v.seats.values())
        pending = sum(e.pending_chips for e in t.entries.values())
        t.chip_checks += 1
        if at_tables + pending != t.chips:
            problem = (f"level {t.level}: {at_tables} chips at the tables + {pending} bought "
                       f"!= {t.chips} issued")
            t.chip_errors.append(problem)
            log.error("tournament_chips_lost", tournament_id=t.tournament_id, problem=problem)

    def _hand_for_hand(self, t: Tournament) -> None:
        """T7: hand for hand while the next bust changes the money (the bubble, and each
        pay jump the operator marked)."""
        left = len(t.players_left())
        paid = len(t.structure.shares(self._field(t)))
        near = left > 1 and (left - 1 == paid or left - 1 in t.structure.pay_jumps) \
            and len(t.open_tables()) > 1
        if near != t.hand_for_hand:
            t.hand_for_hand = near
            self._save(t, ("hand_for_hand", {"on": near, "players_left": left}))

    @staticmethod
    def _field(t: Tournament) -> int:
        return sum(e.entries for e in t.entries.values())

    def _reseat(self, t: Tournament, views: dict[str, DealerTable],
                held: dict[str, DealerTable]) -> dict[str, DealerTable]:
        """Late registrations seated; the final table, a table broken, tables balanced."""
        seats = self._seats(t, views)
        if bal.final_table_due(seats):
            # T6: the final table is drawn once every table is between hands; breaking a
            # table into another (the busts of this pass made it due) would skip the draw.
            return self._final_table(t, views) if _all_held(views, held) else views
        broken = bal.table_to_break(seats)
        if broken is not None and broken in held:
            self._break(t, broken, seats, views)
            views = {tid: v for tid, v in views.items() if tid != broken}
            seats = self._seats(t, views)
        elif broken is not None:
            return views  # it breaks once its hand is over
        for m in bal.balance_moves(seats):
            if m.from_table in held:
                self._move(t, m, views[m.from_table], "balance")
        counts = [x.count for x in self._seats(t, views)]
        if counts:  # after this pass's moves: T5 holds once every table is between hands
            gap = max(counts) - min(counts)
            t.max_gap = max(t.max_gap, gap)
            if _all_held(views, held):
                t.max_gap_held = max(t.max_gap_held, gap)
        for e in sorted(t.entries.values(), key=lambda e: e.player_id):
            if e.status == REGISTERED and t.state == RUNNING:
                self._seat_late(t, e, self._seats(t, views))
        return views

    def _seat_late(self, t: Tournament, e: Entry, seats: list[bal.TableSeats]) -> None:
        if e.seat_request and e.table_id in t.tables and t.tables[e.table_id].open:
            self._seat(t, e)  # assigned before a crash: the same seat, the same request
            e.status = PLAYING
            t.chips += e.seat_stack
            self._save(t, ("seated", {"player_id": e.player_id, "table_id": e.table_id,
                                      "seat": e.seat, "late": True}))
            return
        target = min(seats, key=lambda x: (x.count, x.number))
        if target.count >= t.structure.table_size:
            table = self._new_table(t)
            self._save(t)
            self._open_table(t, table)
            seat, stack = 0, t.structure.starting_stack
        else:
            table = t.tables[target.table_id]
            seat, stack = bal.newcomer_seat(target), t.structure.starting_stack
        self._assign(t, e, table, seat, stack, True)
        self._save(t)
        self._seat(t, e)
        e.status = PLAYING
        t.chips += stack
        self._save(t, ("seated", {"player_id": e.player_id, "table_id": table.table_id,
                                  "seat": seat, "late": True}))

    def _break(self, t: Tournament, broken: str, seats: list[bal.TableSeats],
               views: dict[str, DealerTable]) -> None:
        """T6: the table breaks; its players are seated by draw into the open seats."""
        moves = bal.break_moves(seats, broken, self.rng)
        self._save(t, ("table_broken", {"table_id": broken, "players": len(moves)}))
        for m in moves:
            self._move(t, m, views[broken], "break")
        self._close(t, t.tables[broken])

    def _close(self, t: Tournament, table: TTable) -> None:
        try:
            self.dealer.close_table(table.dealer, table.table_id, False)
        except DealerRefused as err:
            if err.status != "NOT_FOUND" and "closed" not in err.message:
                raise
        table.open = False
        self._save(t)

    def _final_table(self, t: Tournament, views: dict[str, DealerTable]
                     ) -> dict[str, DealerTable]:
        """T6: every table breaks into a new final table, seats drawn, button drawn (R4)."""
        final = self._new_table(t)
        final.final = True
        t.final_table = final.table_id
        self._save(t, ("final_table", {"table_id": final.table_id,
                                       "players": len(t.players_left())}))
        self._open_table(t, final)
        left = sorted(e.player_id for e in t.players_left())
        [dealt] = bal.draw_seats(left, 1, t.structure.table_size, self.rng)
        for seat, player in dealt:
            e = t.entries[player]
            m = bal.Move(player, e.table_id, e.seat, final.table_id, seat)
            self._move(t, m, views[e.table_id], "final table", wait=False)
        for tid in list(views):
            self._close(t, t.tables[tid])
        return {final.table_id: self.dealer.table(final.dealer, final.table_id)}

    def _release(self, t: Tournament, views: dict[str, DealerTable],
                 held: dict[str, DealerTable]) -> None:
        """Each held table deals its next hand, at the clock's level (T3)."""
        level = t.structure.blind_index(t.level)
        if t.hand_for_hand and held:
            t.rounds += 1
        for tid in views:
            table = t.tables[tid]
            view = held.get(tid)
            if view is None:
                continue
            if table.level != level:
                self.dealer.set_level(table.dealer, tid, level,
                                          f"{tid}:level:{level}")
                table.level = level
            table.released = view.hands_played + 1
            table.round = t.rounds if t.hand_for_hand else 0
            self.dealer.set_deal_limit(table.dealer, tid, table.released)
            self._released[tid] = time.monotonic()
        self._save(t)

    # ------------------------------------------------------------------ moves

    def _move(self, t: Tournament, m: bal.Move, view: DealerTable, why: str,
              wait: bool = True) -> None:
        """Moves a player between hands, chips and all (see the module doc)."""
        t.moves += 1
        record = MoveRecord(f"{t.tournament_id}:m{t.moves}", t.tournament_id, m.player_id,
                            m.from_table, m.from_seat, view.sequence, m.to_table, m.to_seat,
                            0, 0 if wait else -1, PLANNED, why)
        self._save(t, also=lambda tx: store.add_move(tx, record))
        self._drive_move(t, record)

    def _recover_moves(self, t: Tournament) -> None:
        for record in self.ctx.tx(lambda tx: store.pending_moves(tx, t.tournament_id)):
            self._drive_move(t, record)

    def _drive_move(self, t: Tournament, m: MoveRecord) -> None:
        dealer = self.dealer
        source = t.tables[m.from_table]
        if m.state == PLANNED:
            view = dealer.table(source.dealer, source.table_id)
            seat = view.seats.get(m.from_seat)
            if seat is not None and seat.player_id == m.player_id:
                m.stack = dealer.unseat_player(source.dealer, source.table_id, m.from_seat).stack
                self.ctx.fault("tournament_move_unseated")  # test hook: die at no table
            else:  # unseated before a crash: the stack is in the table's events
                found = find_stack(dealer.events(source.dealer, source.table_id,
                                                 m.from_sequence, view.sequence),
                                   "unseated", m.from_seat, m.player_id)
                if found is None:
                    raise FailedPrecondition(f"move {m.id}: {m.player_id} is neither at "
                                             f"{m.from_table} nor unseated from it")
                m.stack = found.stack
            m.state = UNSEATED
            self.ctx.tx(lambda tx: store.update_move(tx, m))
        target = t.tables[m.to_table]
        wait = m.attempt >= 0
        for _ in range(3):
            try:
                dealer.seat_player(target.dealer, target.table_id, m.to_seat, m.player_id,
                                   m.stack, wait, m.request_id)
                self.ctx.fault("tournament_move_seated")  # test hook: seated, not recorded
                break
            except DealerRefused as err:
                if err.status not in ("ALREADY_EXISTS", "FAILED_PRECONDITION"):
                    raise
                view = dealer.table(target.dealer, target.table_id)
                free = [s for s in range(t.structure.table_size) if s not in view.seats]
                if not free:
                    raise
                m.to_seat, m.attempt = free[0], (m.attempt + 1 if wait else m.attempt - 1)
                self.ctx.tx(lambda tx: store.update_move(tx, m))
        e = t.entries[m.player_id]
        e.table_id, e.seat, e.stack = m.to_table, m.to_seat, m.stack
        e.seat_request, e.seat_stack, e.seat_wait = m.request_id, m.stack, wait
        m.state = DONE
        body = {"player_id": m.player_id, "from_table": m.from_table,
                "from_seat": m.from_seat, "to_table": m.to_table, "to_seat": m.to_seat,
                "stack": m.stack, "why": m.why}
        self._save(t, ("moved", body), also=lambda tx: store.update_move(tx, m))
        log.info("tournament_player_moved", tournament_id=t.tournament_id,
                 player_id=m.player_id, from_table=m.from_table, to_table=m.to_table,
                 chips=m.stack, why=m.why)

    # ------------------------------------------------------------------ the end

    def _finish(self, t: Tournament, views: dict[str, DealerTable]) -> None:
        """T9: one player holds every chip: places, payouts through the ledger, results."""
        [winner] = t.players_left() or [None]  # type: ignore[list-item]
        if winner is not None:
            winner.status, winner.place, winner.shared = BUSTED, 1, 1
            table = views.get(winner.table_id)
            if table is not None:
                seat = table.seats.get(winner.seat)
                winner.stack = seat.stack if seat else winner.stack
            if winner.stack != t.chips:
                t.chip_errors.append(f"the winner holds {winner.stack} chips of {t.chips}")
        finishers = [Place(e.player_id, e.place, e.shared) for e in t.entries.values()
                     if e.place]
        shares = t.structure.shares(self._field(t))
        prizes = pay(t.pool, shares, finishers)
        for open_table in t.open_tables():
            with contextlib.suppress(DealerRefused):
                self.dealer.close_table(open_table.dealer, open_table.table_id, False)
            open_table.open = False

        pool = t.pool

        def payouts(tx: Tx) -> None:
            for player, amount in sorted(prizes.items()):
                t.entries[player].prize = amount
                if amount:
                    ledger.transfer(tx, key=f"tn:{t.tournament_id}:{player}:prize",
                                    kind=TransferKind.PRIZE, source=pool_account(t.tournament_id),
                                    destination=ledger.player_account(player), amount=amount)
            t.pool = pool - sum(prizes.values())

        results = [{"player_id": e.player_id, "place": e.place, "shared": e.shared,
                    "prize": prizes.get(e.player_id, 0)}
                   for e in sorted(t.entries.values(), key=lambda e: (e.place, e.player_id))]
        t.state, t.finished_ms = FINISHED, _now_ms()
        self._save(t, ("finished", {"results": results, "hands": t.hands, "moves": t.moves,
                                    "chip_errors": t.chip_errors}), also=payouts)
        log.info("tournament_finished", tournament_id=t.tournament_id,
                 winner=winner.player_id if winner else None, hands=t.hands, moves=t.moves,
                 get_table_calls=self.dealer.asked)  # by this process, every tournament


class HeldViews:
    """The dealer, with the views of tables held between hands kept: a held table does not
    change until the director acts on it, so it is not asked for again each pass. With
    the lobby's follower (`notes`, services/lobby/tournament/noted.py) the view of a
    table in a hand is kept too, until its dealer notes a change (the hand ended). Every
    call that acts on a table forgets its view."""

    def __init__(self, dealer: Any) -> None:
        self._dealer, self._kept = dealer, dict[str, DealerTable]()
        self._running: dict[str, tuple[DealerTable, float]] = {}
        self.notes: TableNotes | None = None
        self.asked = 0  # GetTable calls made

    def keep(self, table_id: str, view: DealerTable) -> None:
        self._kept[table_id] = view

    def table(self, address: str, table_id: str) -> DealerTable:
        kept = self._kept.get(table_id)
        if kept is not None:
            return kept
        notes, running = self.notes, self._running.get(table_id)
        if running is not None and notes is not None and notes.current(
                table_id, running[0].sequence, running[1]):
            return running[0]
        found: DealerTable = self._dealer.table(address, table_id)
        self.asked += 1
        if notes is not None and found.hand_running and notes.live():
            self._running[table_id] = (found, time.monotonic())
        else:
            self._running.pop(table_id, None)
        return found

    def events(self, address: str, table_id: str, after: int, until: int) -> Any:
        return self._dealer.events(address, table_id, after, until)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._dealer, name)

        def acting(address: str, table_id: str, *args: Any, **kw: Any) -> Any:
            self._kept.pop(table_id, None)
            self._running.pop(table_id, None)
            try:
                return method(address, table_id, *args, **kw)
            finally:
                self._kept.pop(table_id, None)
                self._running.pop(table_id, None)

        return acting


#: Options of a tournament table that other parts of the dealer define (T3: R5's `dead`
#: button rule; T4: absent players dealt in): set here once their TableConfig fields exist.
#: What every tournament table sets (JSON names of poker.v1.TableConfig): T3's `dead`
#: button rule (R5) and T4's absent players dealt in. No rake (R36's default: none).
TOURNAMENT_TABLE_OPTIONS: dict[str, Any] = {
    "buttonRule": "BUTTON_RULE_DEAD",
    "absentDealtIn": True,
}


def table_game(t: Tournament) -> dict[str, Any]:
    """The dealer config of a tournament table: its levels, no pause between hands
    (the director holds the table), T3's dead button, no rake, T4's absent players
    dealt in (the options other parts of the dealer add: set when the dealer has them)."""
    s = t.structure
    game: dict[str, Any] = {
        "seats": s.table_size,
        "levels": [{"smallBlind": lv.small_blind, "bigBlind": lv.big_blind,
                    "ante": lv.ante} for lv in s.dealer_levels()],
        "anteForm": "ANTE_FORM_BIG_BLIND" if s.ante_big_blind else "ANTE_FORM_EACH_PLAYER",
        "pauseBetweenHandsMs": 0,
    }
    if s.action_time_ms:
        game["actionTimeMs"] = s.action_time_ms
    game.update(TOURNAMENT_TABLE_OPTIONS)
    return game


def _bind(director_method: str, call: str, what: str) -> Any:
    method = getattr(Director, director_method)
    wrapped = journaled(
        call, RULES,
        key=lambda a: request_key(call, a, what),
        caller=lambda a: ops.scope(a.get("by"), a["player_id"]),
        fields=lambda a: {"tournament_id": a["tournament_id"], "player_id": a["player_id"]},
        decode=lambda self, done, a: self.get(done["tournament_id"]),
        journal=lambda self: self.journal)(method)
    return wrapped


_REGISTER = _bind("_do_register", "RegisterTournament", "a retried request register once")
_UNREGISTER = _bind("_do_unregister", "UnregisterTournament", "a retried request unregister "
                    "once")
_REBUY = _bind("_do_rebuy", "TournamentRebuy", "a retried request rebuy once")
_ADD_ON = _bind("_do_add_on", "TournamentAddOn", "a retried request take one add-on")
_RE_ENTER = _bind("_do_re_enter", "ReEnterTournament", "a retried request re-enter once")

__all__ = ["Director", "pool_account", "HOUSE"]
