"""The double-entry ledger: every chip the lobby knows of sits in an account, moves by a transfer.

Three kinds of account: a player's balance (`player:<id>`), the chips on a table
(`table:<id>`: every stack at the table together, since inside a hand chips change
seats, which is the dealer's business) and the operator (`operator`, the world
outside: deposits come from it, withdrawals go back to it, so its balance is
minus the money in the room). A transfer moves a positive amount from one
account to another in the same database transaction that changes both balances,
so the sum over all accounts is always zero. Only the operator's account may go
below zero.

Limits (poker/limits.py): a transfer moves 1..MAX_CHIPS; a player's balance and a
table's chips stay in 0..MAX_CHIPS; the operator's balance stays in
-MAX_LEDGER_TOTAL..MAX_LEDGER_TOTAL. A transfer that would take either account past
its limit is refused whole, by the same conditional UPDATE that moves the chips, so two
concurrent transfers cannot both pass a check made before either wrote: the debit's
shortfall is `InsufficientFunds`, the credit's excess `LimitReached` (both
FAILED_PRECONDITION), and the caller's transaction rolls back with nothing moved.

Every transfer has an idempotency key: the same key with the same transfer is
answered with the first one and moves nothing; the same key with a different
transfer is refused.

>>> from services.lobby.storage import SqliteStorage
>>> from services.lobby import schema
>>> db = SqliteStorage(":memory:"); schema.create(db)
>>> def story(tx):
...     ensure_operator(tx)
...     open_account(tx, player_account("ann"), AccountKind.PLAYER)
...     transfer(tx, key="d1", kind=TransferKind.DEPOSIT, source=OPERATOR,
...              destination=player_account("ann"), amount=500)
...     return balance(tx, player_account("ann")), audit(tx).total
>>> db.transact(story)
(500, 0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from poker import metrics
from poker.limits import MAX_CHIPS, MAX_LEDGER_TOTAL, quote
from services.lobby.errors import (
    InsufficientFunds,
    InvalidArgument,
    LimitReached,
    NotFound,
    RequestReused,
)
from services.lobby.storage import Tx

OPERATOR = "operator"


class AccountKind(StrEnum):
    """What an account holds."""

    PLAYER = "player"
    TABLE = "table"
    OPERATOR = "operator"
    PRIZE_POOL = "prize_pool"  # T2: a tournament's buy-ins, until paid out or refunded
    HOUSE = "house"  # the house's earnings: R36's rake (`house:rake`), T2's fees (`house:fees`)


#: The lowest and highest balance of each kind of account.
BOUNDS = {
    AccountKind.PLAYER: (0, MAX_CHIPS),
    AccountKind.TABLE: (0, MAX_CHIPS),
    AccountKind.OPERATOR: (-MAX_LEDGER_TOTAL, MAX_LEDGER_TOTAL),
    AccountKind.PRIZE_POOL: (0, MAX_CHIPS),
    AccountKind.HOUSE: (0, MAX_LEDGER_TOTAL),
}


class TransferKind(StrEnum):
    """Why money moved."""

    DEPOSIT = "deposit"  # operator -> player
    WITHDRAWAL = "withdrawal"  # player -> operator
    BUY_IN = "buy_in"  # player -> table
    REBUY = "rebuy"  # player -> table
    CASH_OUT = "cash_out"  # table -> player (leaving, closing)
    REFUND = "refund"  # table -> player (a buy-in or rebuy the dealer did not take)
    RAKE = "rake"  # table -> house (R36: the chips the dealer raked, when the table settles)
    ENTRY = "tournament_entry"  # player -> prize pool (T2: buy-in, rebuy, add-on)
    FEE = "tournament_fee"  # player -> house (T2)
    PRIZE = "prize"  # prize pool -> player (T2)
    ENTRY_REFUND = "tournament_refund"  # prize pool or house -> player (T2: cancelled)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of chips between two accounts."""

    id: int
    key: str
    kind: TransferKind
    source: str
    destination: str
    amount: int
    memo: str
    created_at: float
    fingerprint: str = ""


@dataclass(frozen=True, slots=True)
class Audit:
    """The ledger's health: `ok` when every invariant holds."""

    total: int
    by_kind: dict[str, int]
    problems: list[str] = field(default_factory=list)
    #: R36: the rake the house holds (every table's, as the tables settled).
    rake: int = 0

    @property
    def ok(self) -> bool:
        return self.total == 0 and not self.problems


class LedgerCorrupt(Exception):
    """An invariant of the ledger does not hold: chips were lost or made."""


def player_account(player_id: str) -> str:
    """The account of a player's balance."""
    return f"player:{player_id}"


def table_account(table_id: str) -> str:
    """The account of the chips on a table."""
    return f"table:{table_id}"


#: R36: the house's rake account.
HOUSE_RAKE = "house:rake"
#: T2: the house's account of tournament fees.
HOUSE_FEES = "house:fees"


def open_account(tx: Tx, account_id: str, kind: AccountKind) -> None:
    """Creates an account with balance 0 unless it exists."""
    tx.execute(
        "INSERT INTO accounts (id, kind, balance, created_at) VALUES (?, ?, 0, ?)"
        " ON CONFLICT (id) DO NOTHING",
        (account_id, kind.value, time.time()),
    )


def ensure_operator(tx: Tx) -> None:
    """Creates the operator's account unless it exists."""
    open_account(tx, OPERATOR, AccountKind.OPERATOR)


def balance(tx: Tx, account_id: str) -> int:
    """The balance of an account; NotFound when there is no such account."""
    row = tx.one("SELECT balance FROM accounts WHERE id = ?", (account_id,))
    if row is None:
        raise NotFound(f"there is no account {quote(account_id)}")
    return int(row["balance"])


def transfer(
    tx: Tx,
    *,
    key: str,
    kind: TransferKind,
    source: str,
    destination: str,
    amount: int,
    memo: str = "",
    fingerprint: str = "",
) -> Transfer:
    """Moves `amount` from `source` to `destination` once per key; returns the transfer.

    `fingerprint` (operations.fingerprint) identifies the request behind the key: the
    same key with another fingerprint is refused. A transfer stored without one (an
    older version, or an internal key) is compared by kind, accounts and amount.
    """
    existing = find_transfer(tx, key)
    if existing is not None:
        _check_same(existing, kind, source, destination, amount, fingerprint)
        return existing
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_CHIPS:
        raise InvalidArgument(
            f"an amount must be a positive whole number of chips, at most {MAX_CHIPS}, "
            f"not {quote(amount)}")
    if source == destination:
        raise InvalidArgument(f"a transfer needs two different accounts, not {quote(source)} twice")
    _debit(tx, source, amount, kind)
    _credit(tx, destination, amount, kind)
    now = time.time()
    row = tx.one(
        "INSERT INTO transfers (idempotency_key, kind, source, destination, amount, memo,"
        " created_at, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (key, kind.value, source, destination, amount, memo, now, fingerprint),
    )
    assert row is not None
    metrics.money_moved(kind.value, amount)
    return Transfer(int(row["id"]), key, kind, source, destination, amount, memo, now,
                    fingerprint)


def account_kind(tx: Tx, account_id: str) -> AccountKind:
    """The kind of an account; NotFound when there is no such account."""
    row = tx.one("SELECT kind FROM accounts WHERE id = ?", (account_id,))
    if row is None:
        raise NotFound(f"there is no account {quote(account_id)}")
    return AccountKind(row["kind"])


def _owner(account_id: str) -> str:
    return "the operator" if account_id == OPERATOR else account_id.replace(":", " ", 1)


def _debit(tx: Tx, source: str, amount: int, kind: TransferKind) -> None:
    # The bound is checked by the UPDATE itself: no other writer can slip in between.
    low = BOUNDS[account_kind(tx, source)][0]
    if tx.execute("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance - ? >= ?",
                  (amount, source, amount, low)) == 1:
        return
    have = balance(tx, source)
    what = kind.value.replace("_", "-")
    if source == OPERATOR:
        raise LimitReached(
            f"the {what} of {amount} would take the operator's account ({have}) past its "
            f"limit of {low}: the room holds as many chips as the ledger can count")
    raise InsufficientFunds(
        f"{source.split(':', 1)[-1]} has {have} chips; the {what} of {amount} needs "
        f"{amount - have} more", metadata={"balance": have, "amount": amount,
                                          "needed": amount - have})


def _credit(tx: Tx, destination: str, amount: int, kind: TransferKind) -> None:
    high = BOUNDS[account_kind(tx, destination)][1]
    if tx.execute("UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? <= ?",
                  (amount, destination, amount, high)) == 1:
        return
    have = balance(tx, destination)
    raise LimitReached(
        f"the {kind.value.replace('_', '-')} of {amount} would take {_owner(destination)} "
        f"from {have} past the maximum of {high} chips; nothing was moved"
    )


def _check_same(existing: Transfer, kind: TransferKind, source: str, destination: str,
                amount: int, fingerprint: str) -> None:
    if existing.fingerprint and fingerprint:
        same = existing.fingerprint == fingerprint
    else:
        same = (existing.kind, existing.source, existing.destination, existing.amount) == (
            kind, source, destination, amount)
    if not same:
        raise RequestReused(
            f"request id {quote(existing.key.rsplit(':', 1)[-1])} was already used for a "
            f"{existing.kind.value} of {existing.amount} from {_owner(existing.source)} to "
            f"{_owner(existing.destination)} with other fields; use a new request id for a "
            "new request"
        )


def find_transfer(tx: Tx, key: str) -> Transfer | None:
    """The transfer made with an idempotency key, if any."""
    row = tx.one("SELECT * FROM transfers WHERE idempotency_key = ?", (key,))
    return _transfer(row) if row else None


def transfers_of(tx: Tx, account_id: str, limit: int = 100) -> list[Transfer]:
    """The latest transfers in or out of an account, newest first."""
    rows = tx.all(
        "SELECT * FROM transfers WHERE source = ? OR destination = ? ORDER BY id DESC LIMIT ?",
        (account_id, account_id, limit),
    )
    return [_transfer(r) for r in rows]


def transfers_page(tx: Tx, account_id: str, size: int,
                   before: int | None = None) -> tuple[list[Transfer], bool]:
    """At most `size` transfers in or out of an account, newest first, older than the
    transfer `before` (a keyset: ids only grow); and whether older ones remain."""
    where, params = "(source = ? OR destination = ?)", list[Any]([account_id, account_id])
    if before is not None:
        where += " AND id < ?"
        params.append(before)
    rows = tx.all(f"SELECT * FROM transfers WHERE {where} ORDER BY id DESC LIMIT ?",
                  (*params, size + 1))
    return [_transfer(r) for r in rows[:size]], len(rows) > size


def _transfer(row: dict[str, Any]) -> Transfer:
    return Transfer(
        int(row["id"]), row["idempotency_key"], TransferKind(row["kind"]), row["source"],
        row["destination"], int(row["amount"]), row["memo"], float(row["created_at"]),
        row.get("fingerprint") or "",
    )


#: Transfers summed together by SQL in one group: 1024 amounts of at most MAX_CHIPS add up
#: to less than 2^63, so SQLite's SUM (which fails on an overflow) never overflows.
_SUM_CHUNK = 1024


def audit(tx: Tx) -> Audit:
    """Checks every invariant: sum zero, balances equal their transfers, every balance a
    whole number within its account's bounds. Sums are taken in Python (exact), from SQL
    partial sums that cannot overflow, so a ledger past its limits is reported, not fatal."""
    net: dict[str, int] = {}
    for column, sign in (("destination", 1), ("source", -1)):
        for r in tx.all(f"SELECT {column} AS id, SUM(amount) AS s FROM transfers"
                        f" GROUP BY {column}, id / {_SUM_CHUNK}"):
            net[r["id"]] = net.get(r["id"], 0) + sign * _whole(r["s"])
    by_kind: dict[str, int] = {}
    problems: list[str] = []
    rake = 0
    for r in tx.all("SELECT id, kind, balance FROM accounts ORDER BY id"):
        value, kind = r["balance"], r["kind"]
        if r["id"] == HOUSE_RAKE:
            rake = _whole(value)
        if isinstance(value, float) or not isinstance(value, int):
            problems.append(f"account {r['id']} has balance {value!r}, not a whole number")
        held = _whole(value)
        by_kind[kind] = by_kind.get(kind, 0) + held
        low, high = BOUNDS.get(AccountKind(kind), BOUNDS[AccountKind.OPERATOR])
        if held < 0 and kind != AccountKind.OPERATOR.value:
            problems.append(f"account {r['id']} is overdrawn: {held}")
        elif not low <= held <= high:
            problems.append(f"account {r['id']} has balance {held}, outside {low}..{high}")
        if held != net.get(r["id"], 0):
            problems.append(f"account {r['id']} has balance {held} but its transfers add up "
                            f"to {net.get(r['id'], 0)}")
    return Audit(sum(by_kind.values()), by_kind, problems, rake)


def _whole(value: object) -> int:
    # PostgreSQL's SUM of BIGINT is a Decimal; a float can only come from a SQLite database
    # an older lobby let overflow.
    if value is None:
        return 0
    return int(value)  # type: ignore[call-overload,no-any-return,unused-ignore]


def check(tx: Tx) -> Audit:
    """The audit, raising LedgerCorrupt when an invariant fails."""
    result = audit(tx)
    if not result.ok:
        raise LedgerCorrupt(f"ledger total {result.total}; " + "; ".join(result.problems))
    return result
