"""The double-entry ledger: every chip the lobby knows of sits in an account, moves by a transfer.

Three kinds of account: a player's balance (`player:<id>`), the chips on a table
(`table:<id>`: every stack at the table together, since inside a hand chips change
seats, which is the dealer's business) and the operator (`operator`, the world
outside: deposits come from it, withdrawals go back to it, so its balance is
minus the money in the room). A transfer moves a positive amount from one
account to another in the same database transaction that changes both balances,
so the sum over all accounts is always zero. Only the operator's account may go
below zero.

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

from services.lobby.errors import AlreadyExists, InsufficientFunds, InvalidArgument, NotFound
from services.lobby.storage import Tx

OPERATOR = "operator"


class AccountKind(StrEnum):
    """What an account holds."""

    PLAYER = "player"
    TABLE = "table"
    OPERATOR = "operator"


class TransferKind(StrEnum):
    """Why money moved."""

    DEPOSIT = "deposit"  # operator -> player
    WITHDRAWAL = "withdrawal"  # player -> operator
    BUY_IN = "buy_in"  # player -> table
    REBUY = "rebuy"  # player -> table
    CASH_OUT = "cash_out"  # table -> player (leaving, closing)
    REFUND = "refund"  # table -> player (a buy-in or rebuy the dealer did not take)


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


@dataclass(frozen=True, slots=True)
class Audit:
    """The ledger's health: `ok` when every invariant holds."""

    total: int
    by_kind: dict[str, int]
    problems: list[str] = field(default_factory=list)

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
        raise NotFound(f"there is no account {account_id!r}")
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
) -> Transfer:
    """Moves `amount` from `source` to `destination` once per key; returns the transfer."""
    existing = find_transfer(tx, key)
    if existing is not None:
        _check_same(existing, kind, source, destination, amount)
        return existing
    if amount <= 0:
        raise InvalidArgument(f"an amount must be a positive number of chips, not {amount}")
    if source == destination:
        raise InvalidArgument(f"a transfer needs two different accounts, not {source!r} twice")
    _debit(tx, source, amount, kind)
    if tx.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?",
                  (amount, destination)) != 1:
        raise NotFound(f"there is no account {destination!r}")
    now = time.time()
    row = tx.one(
        "INSERT INTO transfers (idempotency_key, kind, source, destination, amount, memo,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (key, kind.value, source, destination, amount, memo, now),
    )
    assert row is not None
    return Transfer(int(row["id"]), key, kind, source, destination, amount, memo, now)


def _debit(tx: Tx, source: str, amount: int, kind: TransferKind) -> None:
    changed = tx.execute(
        "UPDATE accounts SET balance = balance - ?"
        " WHERE id = ? AND (balance >= ? OR kind = ?)",
        (amount, source, amount, AccountKind.OPERATOR.value),
    )
    if changed == 1:
        return
    have = balance(tx, source)  # raises NotFound for an unknown account
    owner = source.split(":", 1)[-1]
    raise InsufficientFunds(
        f"{owner} has {have} chips; the {kind.value.replace('_', '-')} of {amount} needs "
        f"{amount - have} more"
    )


def _check_same(
    existing: Transfer, kind: TransferKind, source: str, destination: str, amount: int
) -> None:
    if (existing.kind, existing.source, existing.destination, existing.amount) != (
        kind, source, destination, amount
    ):
        raise AlreadyExists(
            f"request id {existing.key!r} was already used for a {existing.kind.value} of "
            f"{existing.amount} from {existing.source} to {existing.destination}; "
            "use a new request id for a new request"
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


def _transfer(row: dict[str, Any]) -> Transfer:
    return Transfer(
        int(row["id"]), row["idempotency_key"], TransferKind(row["kind"]), row["source"],
        row["destination"], int(row["amount"]), row["memo"], float(row["created_at"]),
    )


def audit(tx: Tx) -> Audit:
    """Checks every invariant: sum zero, balances equal their transfers, no overdrafts."""
    by_kind = {
        r["kind"]: int(r["total"])
        for r in tx.all("SELECT kind, SUM(balance) AS total FROM accounts GROUP BY kind")
    }
    problems = [
        f"account {r['id']} has balance {r['balance']} but its transfers add up to {r['net']}"
        for r in tx.all(
            "SELECT a.id, a.balance, COALESCE(i.s, 0) - COALESCE(o.s, 0) AS net FROM accounts a"
            " LEFT JOIN (SELECT destination AS id, SUM(amount) AS s FROM transfers"
            "  GROUP BY destination) i ON i.id = a.id"
            " LEFT JOIN (SELECT source AS id, SUM(amount) AS s FROM transfers"
            "  GROUP BY source) o ON o.id = a.id"
            " WHERE a.balance <> COALESCE(i.s, 0) - COALESCE(o.s, 0)"
        )
    ]
    problems += [
        f"account {r['id']} is overdrawn: {r['balance']}"
        for r in tx.all(
            "SELECT id, balance FROM accounts WHERE balance < 0 AND kind <> ?",
            (AccountKind.OPERATOR.value,),
        )
    ]
    return Audit(sum(by_kind.values()), by_kind, problems)


def check(tx: Tx) -> Audit:
    """The audit, raising LedgerCorrupt when an invariant fails."""
    result = audit(tx)
    if not result.ok:
        raise LedgerCorrupt(f"ledger total {result.total}; " + "; ".join(result.problems))
    return result
