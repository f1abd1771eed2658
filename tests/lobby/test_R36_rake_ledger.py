"""R36 in the lobby's ledger, on SQLite and PostgreSQL: a raked table's leftover chips go to
the house's rake account when it settles, the audit sums to zero and reports the rake, the
report pages by table and day; an old lobby's database (no house account) takes it too.
The whole story with a real dealer is tests/lobby/test_R36_rake_e2e.py.
"""

from __future__ import annotations

import pytest
from test_migration import old_database

from services.lobby import ledger, rake, schema
from services.lobby.errors import InvalidArgument
from services.lobby.ledger import OPERATOR, TransferKind
from services.lobby.storage import Storage, Tx


def fund_table(tx: Tx, table_id: str, chips: int) -> None:
    ledger.ensure_operator(tx)
    ledger.open_account(tx, ledger.table_account(table_id), ledger.AccountKind.TABLE)
    ledger.transfer(tx, key=f"fund-{table_id}", kind=TransferKind.DEPOSIT, source=OPERATOR,
                    destination=ledger.table_account(table_id), amount=chips)


def test_R36_settle_moves_the_rake_to_the_house_once(storage: Storage) -> None:
    schema.create(storage)
    storage.transact(lambda tx: fund_table(tx, "t1", 45))
    assert storage.transact(lambda tx: rake.settle(tx, "t1", "close-t1")) == 45
    assert storage.transact(lambda tx: rake.settle(tx, "t1", "close-t1")) == 0  # nothing left
    audit = storage.transact(ledger.audit)
    assert audit.ok and audit.total == 0 and audit.rake == 45
    assert storage.transact(lambda tx: ledger.balance(tx, ledger.HOUSE_RAKE)) == 45


def test_R36_report_pages_by_day_and_table(storage: Storage) -> None:
    schema.create(storage)
    for i, chips in enumerate((10, 20, 30)):
        storage.transact(lambda tx, i=i, chips=chips: (fund_table(tx, f"t{i}", chips),
                                                       rake.settle(tx, f"t{i}", f"c{i}")))
    page, token = storage.transact(lambda tx: rake.report(tx, 2, ""))
    rest, end = storage.transact(lambda tx: rake.report(tx, 2, token))
    assert [(x.table_id, x.amount) for x in page + rest] == [("t0", 10), ("t1", 20), ("t2", 30)]
    assert token and not end and len({x.day for x in page + rest}) == 1
    for size, bad in ((1001, ""), (0, "x"), (0, "9" * 13)):
        with pytest.raises(InvalidArgument):
            storage.transact(lambda tx, size=size, bad=bad: rake.report(tx, size, bad))
    # AIP-158: tables settling between pages (one sorting before the page's last line,
    # one after) neither repeat a line nor hide one that was there
    storage.transact(lambda tx: (fund_table(tx, "a0", 5), rake.settle(tx, "a0", "ca")))
    storage.transact(lambda tx: (fund_table(tx, "t9", 7), rake.settle(tx, "t9", "c9")))
    later, _ = storage.transact(lambda tx: rake.report(tx, 10, token))
    assert [x.table_id for x in later] == ["t2", "t9"]


def test_R36_an_old_database_settles_rake_into_a_new_house_account(storage: Storage) -> None:
    old_database(storage)  # ann bought in 500 at t1; no house account
    schema.create(storage)
    storage.transact(lambda tx: ledger.transfer(
        tx, key="cash", kind=TransferKind.CASH_OUT, source=ledger.table_account("t1"),
        destination=ledger.player_account("ann"), amount=480))  # 20 chips were raked
    assert storage.transact(lambda tx: rake.settle(tx, "t1", "close")) == 20
    audit = storage.transact(ledger.audit)
    assert audit.ok and audit.rake == 20 and audit.by_kind["player"] == 780


def test_R36_raked_reads_the_stored_dealer_config() -> None:
    assert rake.raked({"rake": {"basis_points": 500}})
    assert not rake.raked({}) and not rake.raked({"rake": {}})
