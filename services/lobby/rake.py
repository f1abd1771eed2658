"""The house's rake in the lobby's ledger (R36), and the operator's rake report.

The dealer takes the rake out of the pots (services/dealer/engine/rake.py): the
chips leave the players' stacks but stay in the table's account, since the lobby
only learns of stacks when they come back (LeaveTable, CloseLobbyTable). When a
raked table settles (it closes, every stack credited), what its account still holds
is the rake it took: one RAKE transfer moves it to the house's account
(`house:rake`). So, at every moment, deposits - withdrawals = balances + table
chips (stacks and rake not yet settled) + the house's rake, and the audit sums to
zero. A table without a rake keeps the old rule: chips left over are logged as
unaccounted, never moved.

The report sums the RAKE transfers by table and by UTC day (the day the table
settled), oldest day first, paged.

>>> from services.lobby.storage import SqliteStorage
>>> from services.lobby import schema
>>> db = SqliteStorage(":memory:"); schema.create(db)
>>> def story(tx):
...     ledger.open_account(tx, ledger.table_account("t1"), ledger.AccountKind.TABLE)
...     ledger.ensure_operator(tx)
...     ledger.transfer(tx, key="k", kind=ledger.TransferKind.DEPOSIT, source=ledger.OPERATOR,
...                     destination=ledger.table_account("t1"), amount=30)
...     return settle(tx, "t1", "close1"), report(tx, 10, "")[0][0].amount
>>> db.transact(story)
(30, 30)
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from poker import paging
from services.lobby import ledger
from services.lobby.errors import InvalidArgument
from services.lobby.storage import Tx

#: RakeReport's page size at most (and its default).
MAX_PAGE = 1000


def raked(game: dict[str, Any]) -> bool:
    """Whether a table's dealer config (the lobby's stored JSON of it) takes a rake."""
    rake = game.get("rake")
    return isinstance(rake, dict) and bool(rake.get("basis_points"))


def settle(tx: Tx, table_id: str, key: str) -> int:
    """Moves what a settled raked table's account still holds to the house; the amount."""
    left = ledger.balance(tx, ledger.table_account(table_id))
    if left <= 0:
        return 0
    ledger.open_account(tx, ledger.HOUSE_RAKE, ledger.AccountKind.HOUSE)
    ledger.transfer(tx, key=f"{key}:rake", kind=ledger.TransferKind.RAKE,
                    source=ledger.table_account(table_id), destination=ledger.HOUSE_RAKE,
                    amount=left, memo=f"R36 rake of table {table_id}")
    return left


@dataclass(frozen=True, slots=True)
class RakeLine:
    """The rake one table took, credited to the house on one UTC day."""

    table_id: str
    day: str  # YYYY-MM-DD
    amount: int


def report(tx: Tx, page_size: int, page_token: str) -> tuple[list[RakeLine], str]:
    """One page of rake by day and table, oldest day first, and the next page's token: a
    keyset token (poker.paging) holding the last (day, table) given, so a table settling
    while a client pages neither repeats a line nor skips one (AIP-158)."""
    page = paging.read(page_size, page_token, scope="RakeReport", default=MAX_PAGE,
                       maximum=MAX_PAGE, error=InvalidArgument)
    # One RAKE transfer a raked table (it settles once): summed here, the same SQL on
    # SQLite and PostgreSQL.
    sums: dict[tuple[str, str], int] = {}
    for r in tx.all("SELECT source, created_at, amount FROM transfers WHERE kind = ?",
                    (ledger.TransferKind.RAKE.value,)):
        day = datetime.datetime.fromtimestamp(float(r["created_at"]), datetime.UTC)
        key = (day.date().isoformat(), r["source"].split(":", 1)[1])
        sums[key] = sums.get(key, 0) + int(r["amount"])
    after = None if page.after is None else (str(page.after[0]), str(page.after[-1]))
    rest = [item for item in sorted(sums.items()) if after is None or item[0] > after]
    shown, more = paging.split(rest, page.size)
    lines = [RakeLine(table_id, day, amount) for (day, table_id), amount in shown]
    return lines, paging.token(list(shown[-1][0]), "RakeReport") if more else ""
