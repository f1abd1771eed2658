"""The ledger: double entry, idempotency keys, no overdraft, the sum over all accounts is zero."""

from __future__ import annotations

import threading

import pytest

from services.lobby import ledger, schema
from services.lobby.errors import InsufficientFunds, InvalidArgument, NotFound, RequestReused
from services.lobby.ledger import AccountKind, TransferKind
from services.lobby.storage import Storage, Tx

ANN, BOB = ledger.player_account("ann"), ledger.player_account("bob")
TABLE = ledger.table_account("t1")


@pytest.fixture
def db(storage: Storage) -> Storage:
    schema.create(storage)

    def accounts(tx: Tx) -> None:
        ledger.ensure_operator(tx)
        ledger.open_account(tx, ANN, AccountKind.PLAYER)
        ledger.open_account(tx, BOB, AccountKind.PLAYER)
        ledger.open_account(tx, TABLE, AccountKind.TABLE)

    storage.transact(accounts)
    return storage


def move(db: Storage, key: str, kind: TransferKind, source: str, dest: str, amount: int) -> None:
    db.transact(lambda tx: ledger.transfer(tx, key=key, kind=kind, source=source,
                                           destination=dest, amount=amount))


def balances(db: Storage) -> dict[str, int]:
    return db.transact(lambda tx: {a: ledger.balance(tx, a)
                                   for a in (ledger.OPERATOR, ANN, BOB, TABLE)})


def test_every_movement_is_two_sided_and_sums_to_zero(db: Storage) -> None:
    move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 1000)
    move(db, "b1", TransferKind.BUY_IN, ANN, TABLE, 400)
    move(db, "c1", TransferKind.CASH_OUT, TABLE, ANN, 250)
    move(db, "w1", TransferKind.WITHDRAWAL, ANN, ledger.OPERATOR, 100)
    assert balances(db) == {ledger.OPERATOR: -900, ANN: 750, BOB: 0, TABLE: 150}
    audit = db.transact(ledger.check)
    assert audit.total == 0 and audit.ok


def test_a_retried_transfer_moves_money_once(db: Storage) -> None:
    for _ in range(3):
        move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 500)
    assert balances(db)[ANN] == 500


def test_a_key_reused_for_another_transfer_is_refused(db: Storage) -> None:
    move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 500)
    with pytest.raises(RequestReused, match="already used"):
        move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 600)


def test_no_overdraft_and_nothing_moves_on_refusal(db: Storage) -> None:
    move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 300)
    with pytest.raises(InsufficientFunds, match="ann has 300 chips; the buy-in of 500 needs 200"):
        move(db, "b1", TransferKind.BUY_IN, ANN, TABLE, 500)
    assert balances(db)[ANN] == 300 and balances(db)[TABLE] == 0
    assert db.transact(lambda tx: ledger.find_transfer(tx, "b1")) is None


def test_bad_amounts_and_unknown_accounts(db: Storage) -> None:
    with pytest.raises(InvalidArgument, match="positive"):
        move(db, "x", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 0)
    with pytest.raises(NotFound, match="player:nobody"):
        move(db, "y", TransferKind.DEPOSIT, ledger.OPERATOR, ledger.player_account("nobody"), 5)
    assert db.transact(ledger.check).total == 0


def test_audit_finds_a_balance_changed_behind_the_ledgers_back(db: Storage) -> None:
    move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 100)
    db.transact(lambda tx: tx.execute("UPDATE accounts SET balance = 150 WHERE id = ?", (ANN,)))
    audit = db.transact(ledger.audit)
    assert not audit.ok and audit.total == 50
    assert any("player:ann" in p for p in audit.problems)
    with pytest.raises(ledger.LedgerCorrupt):
        db.transact(ledger.check)


def test_concurrent_transfers_never_overdraw(db: Storage) -> None:
    move(db, "d1", TransferKind.DEPOSIT, ledger.OPERATOR, ANN, 1000)
    refused: list[Exception] = []

    def buy(i: int) -> None:
        try:
            move(db, f"b{i}", TransferKind.BUY_IN, ANN, TABLE, 300)
        except InsufficientFunds as err:
            refused.append(err)

    threads = [threading.Thread(target=buy, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(refused) == 3
    assert balances(db)[ANN] == 100 and balances(db)[TABLE] == 900
    assert db.transact(ledger.check).ok
