"""Table ownership by lease, for dealers sharing one PostgreSQL store (--dsn).

Every table has a row in `leases` (services.dealer.store_pg's schema): the process
that owns it (`owner`: a dealer process, unique to one start), an `epoch` that grows
by one each time the table changes hands, and `expires_at`, on the database's clock
(no two machines' clocks are compared). A dealer renews all its leases in one
statement every `renew_s` seconds, each for `lease_s` seconds; `dealers` holds each
live process's address (for redirects: services.dealer.moved).

A table whose lease expired (its dealer died, froze or lost the network) is
adopted by a live dealer: one conditional `UPDATE ... WHERE expires_at < now()`
makes it the owner at the next epoch, only one dealer can win it, and the winner
folds its log (snapshot + the events after it) and resumes or voids the hand it
stood in (the `--on-crash` policy), as a restarted dealer does.

Fencing is in the store: every transaction locks the lease rows of the tables it
writes `FOR KEY SHARE` where they still hold this process's owner and epoch, and
drops the writes of any that do not (store_pg.PgStore._flush); the adopter's
`UPDATE` (a new epoch: a key update) waits for that lock, so nothing the old owner
commits lands after the adopter read the log, while a renewal (`expires_at` alone)
does not wait for it. A process that finds a table gone (here, at renewal, or in
the store, at a write) stops serving it: `on_lost`, which logs `tables_lost`.

The lease work runs on a thread of its own with its own connection: a renewal
never waits for the event loop, nor the loop for it; what it finds is handed to
the loop (`loop.call_soon_threadsafe`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import structlog

from poker import metrics
from services.dealer.store_pg import connect

log = structlog.get_logger(__name__)

#: Defaults of --lease-seconds and --lease-renew-seconds.
LEASE_S = 6.0
RENEW_S = 1.5
#: At most this many tables adopted per round (a round repeats at once when it had more).
ADOPT_BATCH = 200


def owner_id() -> str:
    """This process's owner name in `leases`: the host, the pid and a nonce (a restarted
    dealer is another owner: it adopts its old tables only once their leases expired)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Round:
    """What one round found: tables adopted (id, epoch), tables found lost."""

    adopted: list[tuple[str, int]]
    lost: list[str]


class Leases:
    """The lease keeper of one dealer process (module docstring)."""

    def __init__(self, dsn: str, owner: str, name: str, address: str,
                 lease_s: float = LEASE_S, renew_s: float = RENEW_S,
                 adopt: bool = True) -> None:
        if renew_s * 2 > lease_s:
            raise ValueError(f"--lease-renew-seconds {renew_s} must be at most half of "
                             f"--lease-seconds {lease_s}: a renewal may be late once")
        self.dsn, self.owner, self.name, self.address = dsn, owner, name, address
        self.lease_s, self.renew_s, self.adopt = lease_s, renew_s, adopt
        self.rounds = 0
        self._db: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --------------------------------------------------------------- one round

    def round(self, mine: list[str]) -> Round:
        """Registers this dealer, renews its leases, names those of `mine` it lost and
        adopts expired ones (each a transaction of its own)."""
        if self._db is None:
            self._db = connect(self.dsn)
            self._db.execute("SET lock_timeout = '1s'")
        db, secs = self._db, self.lease_s
        db.execute("INSERT INTO dealers (owner, name, address, seen_at) VALUES (%s, %s, %s, now())"
                   " ON CONFLICT (owner) DO UPDATE SET seen_at = now(), address = EXCLUDED.address",
                   (self.owner, self.name, self.address))
        # Only the tables the dealer serves: one it dropped (a failed group commit) runs
        # out and is adopted again from its log.
        held = {t for (t,) in db.execute(
            "UPDATE leases SET expires_at = now() + make_interval(secs => %s)"
            " WHERE owner = %s AND table_id = ANY(%s) RETURNING table_id",
            (secs, self.owner, mine)).fetchall()}
        lost = [t for t in mine if t not in held]
        if lost:  # created since `mine` was read, or really gone: ask for these only
            still = {t for (t,) in db.execute(
                "SELECT table_id FROM leases WHERE table_id = ANY(%s) AND owner = %s",
                (lost, self.owner)).fetchall()}
            lost = [t for t in lost if t not in still]
        adopted: list[tuple[str, int]] = []
        if self.adopt:
            expired = [t for (t,) in db.execute(
                "SELECT l.table_id FROM leases l JOIN tables t USING (table_id)"
                " WHERE l.expires_at < now() AND NOT t.closed ORDER BY random() LIMIT %s",
                (ADOPT_BATCH,)).fetchall()]
            for table_id in expired:
                try:
                    row = db.execute(
                        "UPDATE leases SET owner = %s, epoch = epoch + 1,"
                        " expires_at = now() + make_interval(secs => %s)"
                        " WHERE table_id = %s AND expires_at < now() RETURNING epoch",
                        (self.owner, secs, table_id)).fetchone()
                except Exception as err:  # noqa: BLE001 - a lock held: the next round
                    log.info("lease_adopt_deferred", table_id=table_id, error=str(err)[:200])
                    continue
                if row is not None:
                    adopted.append((table_id, int(row[0])))
        self.rounds += 1
        return Round(adopted, lost)

    # ------------------------------------------------------------ on a thread

    def start(self, loop: asyncio.AbstractEventLoop, mine: Callable[[], list[str]],
              on_round: Callable[[Round], None]) -> None:
        """Runs a round every `renew_s` seconds on a thread; `on_round` runs on `loop`."""

        def run() -> None:
            metrics.set_lease_state("holding")
            renewed = time.monotonic()
            while not self._stop.wait(self.renew_s):
                try:
                    tables = mine()
                    found = self.round(tables)
                except Exception as err:  # noqa: BLE001 - the database away: try again
                    log.warning("lease_round_failed", error=str(err)[:300])
                    metrics.set_lease_state("renewing_late")
                    self._reset()
                    continue
                now = time.monotonic()
                late = now - renewed > self.lease_s / 2
                if late:  # half the lease gone unrenewed: the tables were near expiry
                    log.warning("lease_renewed_late", seconds=round(now - renewed, 3),
                                lease_seconds=self.lease_s, tables=len(tables))
                renewed = now
                metrics.set_lease_state("lost" if found.lost else
                                        "renewing_late" if late else "holding")
                metrics.set_tables_owned(len(tables) - len(found.lost) + len(found.adopted))
                for _ in found.adopted:
                    metrics.table_adopted()
                for _ in found.lost:
                    metrics.table_lost()
                if found.adopted or found.lost:
                    loop.call_soon_threadsafe(on_round, found)

        self._thread = threading.Thread(target=run, name="dealer-leases", daemon=True)
        self._thread.start()

    def _reset(self) -> None:
        try:
            if self._db is not None:
                self._db.close()
        finally:
            self._db = None

    def stop(self, release: bool = True) -> None:
        """Stops renewing; `release`: this process's leases expire now (a graceful stop:
        the other dealers adopt its tables at their next round, not `lease_s` later)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.renew_s + 5)
        if release:
            try:
                db = connect(self.dsn)
                with db:
                    db.execute("UPDATE leases SET expires_at = now() WHERE owner = %s",
                               (self.owner,))
                    db.execute("DELETE FROM dealers WHERE owner = %s", (self.owner,))
            except Exception as err:  # noqa: BLE001 - they expire by themselves
                log.warning("lease_release_failed", error=str(err)[:300])
        self._reset()


def owner_address(db: Any, table_id: str) -> str | None:
    """The address of the live dealer that owns `table_id` now; "" when its lease has
    expired (no live owner yet: ask again in a moment); None when there is no such table."""
    row = db.execute(
        "SELECT l.expires_at > now(), d.address FROM leases l"
        " LEFT JOIN dealers d ON d.owner = l.owner WHERE l.table_id = %s", (table_id,)).fetchone()
    if row is None:
        return None
    live, address = row
    return str(address) if live and address else ""
