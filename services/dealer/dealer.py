"""The dealer's tables: create, find, restore after a restart; seat tokens for each seat.

Plain Python over the store and the tables (no gRPC): the servicer in server.py
translates requests into these calls.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import structlog

from services.dealer import codec
from services.dealer.auth import Authenticator, new_token, token_hash
from services.dealer.engine import HandRanker, TableConfig
from services.dealer.errors import AlreadyExists, InvalidArgument, TableNotFound
from services.dealer.store import Store
from services.dealer.tables import Table, TableOptions, now_ms

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

TABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def dump_setup(config: TableConfig, options: TableOptions) -> str:
    """The stored form of a table's configuration and options."""
    import json

    return json.dumps({"config": codec.encode(config), "options": codec.encode(options)})


def load_setup(text: str) -> tuple[TableConfig, TableOptions]:
    import json

    data: dict[str, Any] = json.loads(text)
    return codec.decode(TableConfig, data["config"]), codec.decode(TableOptions, data["options"])


class Dealer:
    """Every open table of this dealer process."""

    def __init__(self, store: Store, auth: Authenticator, ranker: HandRanker | None = None,
                 on_crash: str = "resume") -> None:
        self.store = store
        self.auth = auth
        self.ranker = ranker
        self.on_crash = on_crash
        self.tables: dict[str, Table] = {}
        self._seat_hashes: dict[tuple[str, int], str] = {}

    def restore(self) -> None:
        """Reloads every open table from the store and resumes its hand (call on the loop)."""
        for table_id, setup, _closed in self.store.tables():
            config, options = load_setup(setup)
            table = self._table(table_id, config, options)
            for seat, _player, hashed in self.store.seats(table_id):
                self._tokens(table_id, seat, hashed)
            table.restore(self.store.events(table_id), self.on_crash)
        log.info("tables_restored", tables=len(self.tables))

    def create_table(self, table_id: str, config: TableConfig, options: TableOptions) -> Table:
        if not table_id:
            table_id = "t-" + secrets.token_hex(6)
        if not TABLE_ID.fullmatch(table_id):
            raise InvalidArgument(
                f"table_id: {table_id!r} must be 1-64 letters, digits, '.', '_' or '-'")
        if table_id in self.tables or self.store.table_exists(table_id):
            raise AlreadyExists(f"table {table_id!r} already exists")
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
        if table is None:
            raise TableNotFound(f"no table {table_id!r} at this dealer")
        return table

    def seat_player(self, table_id: str, seat: int | None, player_id: str, stack: int,
                    wait_for_big_blind: bool) -> tuple[int, str]:
        """Seats a player; returns the seat and its token (only its hash is kept)."""
        token = new_token()
        given = self.table(table_id).seat_player(
            seat, player_id, stack, wait_for_big_blind, token_hash(token))
        return given, token

    def shutdown(self) -> None:
        for table in self.tables.values():
            table.shutdown()

    def _table(self, table_id: str, config: TableConfig, options: TableOptions) -> Table:
        def on_tokens(seat: int, hashed: str | None) -> None:
            self._tokens(table_id, seat, hashed)

        table = Table(table_id, config, options, self.store, self.ranker, on_tokens)
        self.tables[table_id] = table
        return table

    def _tokens(self, table_id: str, seat: int, hashed: str | None) -> None:
        old = self._seat_hashes.pop((table_id, seat), None)
        if old is not None:
            self.auth.forget_seat(old)
        if hashed is not None:
            self._seat_hashes[(table_id, seat)] = hashed
            self.auth.register_seat(hashed, table_id, seat)
