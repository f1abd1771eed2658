"""The dealer's tables: create, find, restore after a restart; seat tokens for each seat.

Plain Python over the store and the tables (no gRPC): the servicer in server.py
translates requests into these calls.

SeatPlayer and SetLevel with a request_id, and AddChips (always keyed), are carried
out once (poker/journal.py's `journaled`). The store's journal keeps the answer with
the request's fingerprint: a seating's answer in the transaction that writes its
PlayerSeated event (a level's with its LevelSet, a rebuy's with its ChipsAdded), a
refusal in a transaction of its own before the refusal is sent. A repeat within the
retention (--journal-retention-hours) finds it and gets the same answer without
acting; the same id with other fields is INVALID_ARGUMENT. That is what lets the
lobby send a call again when the answer was lost: if the first copy arrives first,
the repeat gets its answer; if the repeat arrives first, it is carried out (or
refused) and the first copy, arriving late, gets that answer. Either way the call
acts at most once and both copies agree.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import grpc
import structlog

from poker.journal import Entry, Journal, Key, Pending, Rules, describe, fingerprint, journaled
from poker.limits import MAX_ID_CHARS, quote
from services.dealer import codec
from services.dealer.auth import Authenticator, new_token, token_hash
from services.dealer.engine import HandRanker, Level, TableConfig
from services.dealer.errors import (
    AlreadyExists,
    DealerError,
    InvalidArgument,
    Remembered,
    RequestReused,
    TableMoved,
    TableNotFound,
    TokenLost,
)
from services.dealer.store import Row, Store
from services.dealer.tables import SNAPSHOT_VERSION, Table, TableOptions, now_ms

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

TABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: The longest request_id or idempotency key the dealer remembers.
MAX_REQUEST_ID = MAX_ID_CHARS


def dump_setup(config: TableConfig, options: TableOptions) -> str:
    """The stored form of a table's configuration and options."""
    import json

    return json.dumps({"config": codec.encode(config), "options": codec.encode(options)})


def load_setup(text: str) -> tuple[TableConfig, TableOptions]:
    import json

    data: dict[str, Any] = json.loads(text)
    return codec.decode(TableConfig, data["config"]), codec.decode(TableOptions, data["options"])


def _key(call: str, scope: str, field: str, request_id: str, required: bool = False) -> Key | None:
    if not request_id:
        if required:
            raise InvalidArgument(f"{field}: required, so a retried rebuy adds chips once")
        return None
    if len(request_id) > MAX_REQUEST_ID:
        raise InvalidArgument(f"{field}: at most {MAX_REQUEST_ID} characters, not "
                              f"{len(request_id)}")
    return Key(call, scope, request_id)


def _reused(key: Key, done: Entry) -> DealerError:
    field = "idempotency_key" if key.call == "add_chips" else "request_id"
    return RequestReused(f"{field} {quote(key.request_id)} was used for another request "
                         f"({done.what}); use a new one for a new request")


def _refused(err: Exception) -> str | None:
    if isinstance(err, RequestReused | Remembered) or not isinstance(err, DealerError):
        return None  # an answer to another request, or already journaled
    log.info("request_refused", code=err.code.name, reason=str(err))
    return str(err.code.name)


#: The mark that a store's ChipsAdded keys are journaled (a call never pruned: else
#: they would come back).
_CHIP_KEYS_JOURNALED = Key("migration", "", "chip_keys")


#: How the dealer answers from its journal: a reused id is INVALID_ARGUMENT (dealer.proto).
RULES = Rules(errors=(DealerError,), code_of=_refused,
              refused_again=lambda code, message: Remembered(grpc.StatusCode[code], message),
              reused=_reused)


class Dealer:
    """Every open table of this dealer process, and the closed ones used last."""

    #: Closed tables kept folded in memory, the ones used last: a closed table never
    #: changes, so an older one is dropped and folded again from the store on its next
    #: use (`table`). Without a bound a dealer that runs for months would hold every
    #: table it ever closed, and any caller naming closed tables would add to it.
    closed_in_memory = 256

    def __init__(self, store: Store, auth: Authenticator, ranker: HandRanker | None = None,
                 on_crash: str = "resume", full_replay: bool = False) -> None:
        self.store = store
        self.auth = auth
        auth.closed_seat = store.closed_seat  # a closed table's tokens: asked of the store
        self.ranker = ranker
        self.on_crash = on_crash
        self.full_replay = full_replay
        self.tables: dict[str, Table] = {}
        self._closed: OrderedDict[str, None] = OrderedDict()  # closed, in self.tables: LRU
        self._seat_hashes: dict[tuple[str, int], str] = {}
        #: Where a table this dealer does not hold is served (a shared PostgreSQL store:
        #: services.dealer.placement): its owner's address, "" for none yet, None: no table.
        self.locate: Callable[[str], str | None] | None = None
        #: Called with every table this dealer takes on (created, restored, adopted).
        self.on_table: list[Callable[[Table], None]] = []

    def restore(self) -> None:
        """Reloads every open table from the store and resumes its hand (call on the loop).

        A table starts from its latest snapshot and folds the events after it; one with
        none (a store written before snapshots, or `full_replay`) folds its whole log and,
        between hands, is snapshotted then. A closed table is not folded now, and its
        seats are not loaded: its seat tokens read on (GetTable, GetHandHistory,
        WatchTable), each found in the store when it comes (auth.Authenticator), and the
        table is folded on its first use (`table`)."""
        started = time.perf_counter()
        folded = from_snapshots = 0
        for table_id, setup, _closed in self.store.tables():
            rows, snapshotted = self.restore_table(table_id, setup)
            folded += rows
            from_snapshots += snapshotted
        self._journal_chip_keys()
        log.info("tables_restored", tables=len(self.tables), from_snapshots=from_snapshots,
                 events_folded=folded, seconds=round(time.perf_counter() - started, 3))

    def restore_table(self, table_id: str, setup: str) -> tuple[int, bool]:
        """Loads one table from the store and resumes (or voids) its hand: at start, or
        when this dealer adopts it (services.dealer.lease). Returns the events folded
        and whether it started from a snapshot."""
        config, options = load_setup(setup)
        table = self._table(table_id, config, options)
        for seat, _player, hashed in self.store.seats(table_id):
            self._tokens(table_id, seat, hashed)
        rows, state = self._stored(table_id)
        table.restore(rows, self.on_crash, state)
        if state is None and table.hand is None and not table.closed:
            table.save_snapshot()
        return len(rows), state is not None

    def lose(self, table_id: str, address: str = "") -> bool:
        """The table is another dealer's now: it stops here (its streams end with
        TABLE_MOVED) and its seat tokens are forgotten. False if it was not here."""
        table = self.tables.pop(table_id, None)
        self._closed.pop(table_id, None)
        if table is None:
            return False
        table.lose(address)
        for (t, seat) in [k for k in self._seat_hashes if k[0] == table_id]:
            self._tokens(t, seat, None)
        return True

    def _journal_chip_keys(self) -> None:
        """Once per store: the rebuys of a store written before the journal (answered
        then from their ChipsAdded events) become journal entries."""
        if self.store.journal.find(_CHIP_KEYS_JOURNALED) is not None:
            return
        now, made = self.store.journal.retention.now_ms(), 0
        with self.store.batch():
            for table_id, table in self.tables.items():
                for key, (seat, amount, stack) in table.state.chip_keys.items():
                    k = Key("add_chips", table_id, key)
                    if self.store.journal.find(k) is None:
                        fields = {"seat": seat, "amount": amount}
                        self.store.journal.put(k, Entry(
                            fingerprint("add_chips", "", fields), describe(fields),
                            json.dumps({"stack": stack}, sort_keys=True), now))
                        made += 1
            self.store.journal.put(_CHIP_KEYS_JOURNALED, Entry("", "", "{}", now))
        log.info("chip_keys_journaled", entries=made)

    def create_table(self, table_id: str, config: TableConfig, options: TableOptions) -> Table:
        if not table_id:
            table_id = "t-" + secrets.token_hex(6)
        if not TABLE_ID.fullmatch(table_id):
            raise InvalidArgument(
                f"table_id: {quote(table_id)} must be 1-64 letters, digits, '.', '_' or '-'")
        if table_id in self.tables or self.store.table_exists(table_id):
            raise AlreadyExists(f"table {quote(table_id)} already exists")
        if options.deck_seed is not None and not config.test_mode:
            raise InvalidArgument("deck_seed: a fixed deck is allowed only in test mode (R2)")
        with self.store.batch():
            self.store.create_table(table_id, dump_setup(config, options), now_ms())
        log.info("table_created", table_id=table_id, seats=config.seats,
                 test_mode=config.test_mode)
        return self._table(table_id, config, options)

    def table(self, table_id: str) -> Table:
        if not table_id:
            raise InvalidArgument("table_id: required")
        table = self.tables.get(table_id)
        if table is not None:
            if table_id in self._closed:
                self._closed.move_to_end(table_id)
            return table
        # One store read for a table not in memory: an id the store lacks is no table of
        # the room (a shared store holds every dealer's), so it is not looked for further.
        found = self.store.setup(table_id)
        if found is not None and found[1]:
            return self._closed_table(table_id, found[0])
        if found is not None and self.locate is not None:
            address = self.locate(table_id)
            if address is not None:
                raise TableMoved(table_id, address)
        raise TableNotFound(f"no table {quote(table_id)} at this dealer")

    def _closed_table(self, table_id: str, setup: str) -> Table:
        """A closed table of the store that is not in memory (this dealer restarted since
        it closed, or another closed it), folded now for read-only use. A closed table
        never changes, so any dealer may serve it, whoever owned it."""
        table = self._table(table_id, *load_setup(setup))  # its tokens: auth asks the store
        table.fold(*self._stored(table_id))  # only folded: nothing resumes or writes
        log.info("closed_table_loaded", table_id=table_id)
        self._keep_closed(table_id)
        return table

    def close_table(self, table_id: str, void_hand: bool) -> list[tuple[int, str, int]]:
        """CloseTable: the stacks the table closes with (refused if it is closed)."""
        table = self.table(table_id)
        stacks = table.close(void_hand)
        self._keep_closed(table_id)
        return stacks

    def _keep_closed(self, table_id: str) -> None:
        """A closed table stays among the `closed_in_memory` used last; the oldest goes."""
        self._closed[table_id] = None
        self._closed.move_to_end(table_id)
        while len(self._closed) > self.closed_in_memory:
            oldest, _ = self._closed.popitem(last=False)
            self.tables.pop(oldest, None)

    def _stored(self, table_id: str) -> tuple[list[Row], dict[str, Any] | None]:
        """A table's stored state to fold: the events after its latest snapshot and the
        snapshot's state (every event and None without a usable snapshot)."""
        snapshot = None if self.full_replay else self.store.snapshot(table_id)
        state = None
        if snapshot is not None and snapshot.version == SNAPSHOT_VERSION:
            state = json.loads(snapshot.state)
        after = snapshot.sequence if snapshot is not None and state is not None else 0
        return self.store.events(table_id, after=after), state

    @property
    def journal(self) -> Journal:
        return self.store.journal

    @journaled("seat_player", RULES,
               key=lambda a: _key("seat_player", "", "request_id", a["request_id"]),
               fields=lambda a: {k: a[k] for k in ("table_id", "seat", "player_id", "stack",
                                                   "wait_for_big_blind")},
               decode=lambda self, done, a: self._seated_again(a["request_id"], done))
    def seat_player(self, table_id: str, seat: int | None, player_id: str, stack: int,
                    wait_for_big_blind: bool, request_id: str = "", *,
                    entry: Pending | None = None) -> tuple[int, str]:
        """Seats a player; returns the seat and its token (only its hash is kept).

        With a request_id the answer is journaled (module docstring): the token is
        derived from the service token and a random nonce, so a repeat gets it again.
        """
        if entry is None:
            token = new_token()
            given = self.table(table_id).seat_player(
                seat, player_id, stack, wait_for_big_blind, token_hash(token))
            return given, token
        nonce = secrets.token_urlsafe(24)
        token = self.auth.seat_token_for(nonce)
        hashed = token_hash(token)

        def record(given: int) -> None:
            entry.record({"seat": given, "nonce": nonce, "token_hash": hashed})

        given = self.table(table_id).seat_player(
            seat, player_id, stack, wait_for_big_blind, hashed, record)
        return given, token

    @journaled("add_chips", RULES,
               key=lambda a: _key("add_chips", a["table_id"], "idempotency_key", a["key"],
                                  required=True),
               fields=lambda a: {"seat": a["seat"], "amount": a["amount"]},
               decode=lambda self, done, a: int(done["stack"]))
    def add_chips(self, table_id: str, seat: int, amount: int, key: str, *,
                  entry: Pending | None = None) -> int:
        """A rebuy, once per key at a table; returns the stack after it (journaled with
        its ChipsAdded event)."""
        assert entry is not None

        def record(stack: int) -> None:
            entry.record({"stack": stack})

        return self.table(table_id).add_chips(seat, amount, key, record)

    @journaled("set_level", RULES,
               key=lambda a: _key("set_level", a["table_id"], "request_id", a["request_id"]),
               fields=lambda a: {"level_index": a["index"]},
               decode=lambda self, done, a: self.table(a["table_id"]).config.levels[
                   int(done["level_index"])])
    def set_level(self, table_id: str, index: int, request_id: str = "", *,
                  entry: Pending | None = None) -> Level:
        """R9: the table's next hand plays level `index`. With a request_id the answer is
        journaled with the LevelSet event: a repeat is answered without setting again."""
        table = self.table(table_id)
        if entry is None:
            return table.set_level(index)

        def record() -> None:
            entry.record({"level_index": index})

        return table.set_level(index, record)

    def _seated_again(self, request_id: str, done: dict[str, Any]) -> tuple[int, str]:
        token = self.auth.seat_token_for(done["nonce"])
        if token_hash(token) != done["token_hash"]:
            raise TokenLost(
                f"request_id {quote(request_id)} seated its player at seat {done['seat']}, but its "
                "seat token cannot be given again: the dealer's service token changed since. "
                "The seat stands; unseat the player to return the stack")
        return int(done["seat"]), token

    def shutdown(self) -> None:
        for table in self.tables.values():
            table.shutdown()

    def _table(self, table_id: str, config: TableConfig, options: TableOptions) -> Table:
        def on_tokens(seat: int, hashed: str | None) -> None:
            self._tokens(table_id, seat, hashed)

        table = Table(table_id, config, options, self.store, self.ranker, on_tokens)
        self.tables[table_id] = table
        for hook in self.on_table:
            hook(table)
        return table

    def _tokens(self, table_id: str, seat: int, hashed: str | None) -> None:
        old = self._seat_hashes.pop((table_id, seat), None)
        if old is not None:
            table = self.tables.get(table_id)
            if hashed is None and table is not None and table.closed:
                self.auth.close_seat(old)  # read-only use goes on (issue 13)
            else:
                self.auth.forget_seat(old)
        if hashed is not None:
            self._seat_hashes[(table_id, seat)] = hashed
            self.auth.register_seat(hashed, table_id, seat)
