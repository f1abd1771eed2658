"""Where the dealer keeps its tables: the one place the store's backend is chosen.

`--db PATH` (the default): an embedded SQLite store (services.dealer.store), this
process's tables alone. `--dsn ...`: the room's PostgreSQL store
(services.dealer.store_pg), shared by several dealers, each table leased by one of
them (services.dealer.lease). `Placement` ties the lease keeper to the dealer: it
adopts expired tables at start and then as they expire, drops the tables it finds
lost (`tables_lost` in the log), and tells a client of a table held elsewhere where
it is (TABLE_MOVED, poker.moved).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

import structlog

from services.dealer.lease import LEASE_S, RENEW_S, Leases, Round, owner_address, owner_id

log = structlog.get_logger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The PostgreSQL store's and the lease's flags (`poker serve dealer`)."""
    env = os.environ.get
    parser.add_argument("--dsn", default=env("POKER_DEALER_DSN"),
                        help="PostgreSQL store shared by the room's dealers, a libpq DSN "
                             "(env POKER_DEALER_DSN); instead of --db. Each table is leased "
                             "by one dealer; a table whose dealer dies is adopted by another")
    parser.add_argument("--advertise", default=env("POKER_DEALER_ADVERTISE"),
                        metavar="HOST:PORT",
                        help="with --dsn: the address clients reach this dealer at, given "
                             "in TABLE_MOVED redirects (default --host:--port; env "
                             "POKER_DEALER_ADVERTISE)")
    parser.add_argument("--name", default=env("POKER_DEALER_NAME", ""),
                        help="with --dsn: this dealer's name in the dealers table (default "
                             "the host name; env POKER_DEALER_NAME)")
    parser.add_argument("--lease-seconds", type=float,
                        default=float(env("POKER_DEALER_LEASE_SECONDS", str(LEASE_S))),
                        help="with --dsn: how long a table's lease lasts unrenewed: a dead "
                             "dealer's tables are adopted this long after its last renewal")
    parser.add_argument("--lease-renew-seconds", type=float,
                        default=float(env("POKER_DEALER_LEASE_RENEW_SECONDS", str(RENEW_S))),
                        help="with --dsn: how often the leases are renewed (at most half "
                             "of --lease-seconds)")


def open_store(args: argparse.Namespace) -> tuple[Any, Placement | None]:
    """The store the flags name, and its placement (None for SQLite)."""
    from poker import journal

    retention = journal.retention_from_args(args)
    dsn = getattr(args, "dsn", None)
    if not dsn:
        from services.dealer.store import Store

        return Store(args.db, durable=args.durable, retention=retention), None
    from services.dealer.store_pg import PgStore

    if not args.advertise and not args.port:
        raise ValueError("--dsn with --port 0: give --advertise HOST:PORT, the address "
                         "other dealers send this dealer's clients to")
    owner = owner_id()
    store = PgStore(dsn, owner, retention, lease_s=args.lease_seconds)
    leases = Leases(dsn, owner, args.name or owner.split(":")[0],
                    args.advertise or f"{args.host}:{args.port}",
                    args.lease_seconds, args.lease_renew_seconds)
    return store, Placement(store, leases)


class Placement:
    """The lease keeper and the dealer, together (module docstring)."""

    def __init__(self, store: Any, leases: Leases) -> None:
        self.store, self.leases = store, leases
        self.dealer: Any = None
        self.adopted = 0

    def start(self, dealer: Any) -> None:
        """At start, on the loop: adopts every expired table, then keeps renewing."""
        self.dealer = dealer
        dealer.locate = self.locate
        self.store.on_lost = self._lost_at_write
        while True:  # ADOPT_BATCH at a time
            found = self.leases.round(list(self.store.epochs))
            self.on_round(found)
            if not found.adopted:
                break
        self.leases.start(asyncio.get_running_loop(), lambda: list(self.store.epochs),
                          self.on_round)

    def stop(self) -> None:
        self.leases.stop(release=True)

    def locate(self, table_id: str) -> str | None:
        """The address of the dealer that owns `table_id` (see lease.owner_address); ""
        when it is this one: asked only for a table not in memory, so one it dropped as
        lost while its lease is still its own. Its clients are told to ask again in a
        moment (no live owner yet) rather than sent back here in a loop, until the lease
        runs out and the table is adopted again from its log."""
        address = owner_address(self.store._db, table_id)
        return "" if address == self.leases.address else address

    def on_round(self, found: Round) -> None:
        """On the loop: a lease round's adoptions and losses."""
        if found.lost:
            for table_id in found.lost:
                self.store.epochs.pop(table_id, None)
            self._drop(found.lost, "renewal")
        started = time.perf_counter()
        for table_id, epoch in found.adopted:
            setup = self.store.setup(table_id)
            if setup is None or setup[1]:
                continue
            self.store.epochs[table_id] = epoch
            old = self.dealer.tables.pop(table_id, None)
            if old is not None:  # lost and won back: fold it again from the log
                old.lose("")
            try:
                self.dealer.restore_table(table_id, setup[0])
            except Exception:  # noqa: BLE001 - one table must not stop the others
                log.exception("table_adoption_failed", table_id=table_id)
                continue
            self.adopted += 1
        if found.adopted:
            log.info("tables_adopted", tables=[t for t, _ in found.adopted],
                     epochs=[e for _, e in found.adopted],
                     seconds=round(time.perf_counter() - started, 3))

    def _lost_at_write(self, table_id: str) -> None:
        self._drop([table_id], "write refused")

    def _drop(self, table_ids: list[str], how: str) -> None:
        dropped = []
        for table_id in table_ids:
            try:
                address = self.locate(table_id) or ""
            except Exception:  # noqa: BLE001 - the redirect names no address then
                address = ""
            if self.dealer.lose(table_id, address):
                dropped.append(table_id)
        if dropped:
            log.warning("tables_lost", tables=dropped, how=how,
                        hint="their leases moved to another dealer: nothing more of them is "
                             "written here; their clients are sent there (TABLE_MOVED)")
