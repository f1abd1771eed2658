"""The dealer's request journal (poker/journal.py): a repeat within the retention gets the
same answer, a refusal too; the same id with other fields is INVALID_ARGUMENT; entries go
after the retention; the answer is written in the transaction of the effect; a store of
the version before (`answers` and `acts` tables) is migrated on start.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import grpc
import pytest

from poker.journal import Entry, Key, Retention, prune_all
from poker.status import code_of
from services.dealer.auth import Authenticator, token_hash
from services.dealer.dealer import Dealer
from services.dealer.engine import Level, TableConfig
from services.dealer.errors import Remembered, RequestReused, TableNotFound
from services.dealer.store import ActRecord, JournalTable, Store
from services.dealer.tables import TableOptions

LEVELS = (Level(5, 10), Level(10, 20), Level(25, 50))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def dealer_at(path: Path, clock: Clock | None = None, hours: float = 24,
              max_entries: int = 1000) -> Dealer:
    retention = Retention(hours, max_entries, clock or Clock())
    dealer = Dealer(Store(path, retention=retention), Authenticator("secret", None))
    dealer.restore()
    return dealer


def test_a_repeat_gets_the_same_answer_and_a_refusal_the_same_refusal(tmp_path: Path) -> None:
    dealer = dealer_at(tmp_path / "d.sqlite")
    dealer.create_table("t1", TableConfig(levels=LEVELS), TableOptions())
    assert dealer.seat_player("t1", None, "ann", 100, False, "r1") == \
        dealer.seat_player("t1", None, "ann", 100, False, "r1")
    assert dealer.add_chips("t1", 0, 50, "k1") == dealer.add_chips("t1", 0, 50, "k1") == 150
    with pytest.raises(TableNotFound) as refused:
        dealer.add_chips("t1", 5, 50, "k2")
    with pytest.raises(Remembered) as again:
        dealer.add_chips("t1", 5, 50, "k2")
    assert (again.value.code, str(again.value)) == (refused.value.code, str(refused.value))
    for call in (lambda: dealer.seat_player("t1", None, "ann", 101, False, "r1"),
                 lambda: dealer.add_chips("t1", 0, 51, "k1"),
                 lambda: dealer.add_chips("t1", 4, 50, "k2")):
        with pytest.raises(RequestReused, match="another request") as reused:
            call()
        assert code_of(reused.value) == grpc.StatusCode.INVALID_ARGUMENT
    assert [s.stack for s in dealer.table("t1").seats.values()] == [150]
    dealer.store.close()


def test_entries_are_pruned_after_the_retention_and_past_the_bound(tmp_path: Path) -> None:
    clock = Clock()
    dealer = dealer_at(tmp_path / "d.sqlite", clock, hours=2, max_entries=3)
    dealer.create_table("t1", TableConfig(levels=LEVELS), TableOptions())
    dealer.set_level("t1", 1, "L1")
    clock.now += 3600
    dealer.set_level("t1", 2, "L2")
    journal = dealer.store.journal
    assert prune_all(journal) == 0
    dealer.set_level("t1", 1, "L1")  # a repeat within the retention: not set again
    assert len(dealer.store.events("t1")) == 2
    clock.now += 3601  # L1 is past two hours, L2 is not
    assert prune_all(journal) == 1
    assert journal.find(Key("set_level", "t1", "L1")) is None
    assert journal.find(Key("set_level", "t1", "L2")) is not None
    dealer.set_level("t1", 1, "L1")  # a new request once pruned: set again
    assert len(dealer.store.events("t1")) == 3
    for n in range(4):
        clock.now += 1
        dealer.set_level("t1", 0, f"M{n}")
    assert prune_all(journal) == 3  # bounded: the newest three of a call stay
    kept = dealer.store._db.execute("SELECT request_id FROM journal").fetchall()
    assert sorted(r[0] for r in kept) == ["M1", "M2", "M3", "chip_keys"]
    dealer.store.close()


def test_the_answer_is_written_in_the_transaction_of_the_effect(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dealer = dealer_at(tmp_path / "d.sqlite")
    dealer.create_table("t1", TableConfig(), TableOptions())
    written = dealer.store.journal.put

    def put_then_fail(key: Key, entry: Entry, tx: object = None) -> None:
        written(key, entry, tx)
        raise sqlite3.OperationalError("disk I/O error (injected)")

    monkeypatch.setattr(dealer.store.journal, "put", put_then_fail)
    with pytest.raises(sqlite3.OperationalError, match="injected"):
        dealer.seat_player("t1", None, "ann", 100, False, "r1")
    monkeypatch.undo()
    # Neither the answer nor the seating is in the store, nor in memory.
    assert dealer.store.journal.find(Key("seat_player", "", "r1")) is None
    assert dealer.store.events("t1") == [] and dealer.store.seats("t1") == []
    assert dealer.table("t1").seats == {}
    seat, token = dealer.seat_player("t1", None, "ann", 100, False, "r1")
    assert seat == 0 and dealer.store.journal.find(Key("seat_player", "", "r1")) is not None
    assert len(dealer.store.events("t1")) == 1
    dealer.store.close()


OLD_TABLES = """
CREATE TABLE acts (
    table_id TEXT NOT NULL, hand_id TEXT NOT NULL, action_number INTEGER NOT NULL,
    seat INTEGER NOT NULL, kind TEXT NOT NULL, amount INTEGER NOT NULL,
    sequence INTEGER NOT NULL, PRIMARY KEY (table_id, hand_id, action_number)
) WITHOUT ROWID;
CREATE TABLE answers (
    call TEXT NOT NULL, scope TEXT NOT NULL, request_id TEXT NOT NULL,
    request TEXT NOT NULL, answer TEXT NOT NULL, PRIMARY KEY (call, scope, request_id)
) WITHOUT ROWID;
"""


def test_a_store_of_the_version_before_is_migrated_and_keeps_its_answers(
        tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    dealer = dealer_at(db)
    dealer.create_table("t1", TableConfig(levels=LEVELS), TableOptions())
    dealer.store.close()
    # The version before: no journal, answers and decisions in `answers` and `acts`.
    auth = Authenticator("secret", None)
    hashed = token_hash(auth.seat_token_for("nonce-1"))
    seat_request = {"table_id": "t1", "seat": None, "player_id": "ann", "stack": 100,
                    "wait_for_big_blind": False}
    old = sqlite3.connect(db)
    old.executescript("DROP TABLE journal;" + OLD_TABLES)
    old.executemany("INSERT INTO answers VALUES (?, ?, ?, ?, ?)", [
        ("seat_player", "", "r1", json.dumps(seat_request, sort_keys=True),
         json.dumps({"seat": 3, "nonce": "nonce-1", "token_hash": hashed}, sort_keys=True)),
        ("add_chips", "t1", "k1", json.dumps({"seat": 0, "amount": 5}, sort_keys=True),
         json.dumps({"code": "NOT_FOUND", "message": "no seat 0"}, sort_keys=True)),
        ("set_level", "t1", "L1", json.dumps({"level_index": 2}, sort_keys=True),
         json.dumps({"level_index": 2})),
    ])
    old.execute("INSERT INTO acts VALUES ('t1', 'h1', 4, 1, 'call', 0, 17)")
    old.commit()
    old.close()

    dealer = dealer_at(db)
    names = {r[0] for r in dealer.store._db.execute("SELECT name FROM sqlite_master")}
    assert "answers" not in names and "acts" not in names
    seat, token = dealer.seat_player("t1", None, "ann", 100, False, "r1")
    assert (seat, token_hash(token)) == (3, hashed)  # its old answer, nobody seated again
    with pytest.raises(Remembered, match="no seat 0") as refused:
        dealer.add_chips("t1", 0, 5, "k1")
    assert code_of(refused.value) == grpc.StatusCode.NOT_FOUND
    assert dealer.set_level("t1", 2, "L1") == LEVELS[2]
    assert dealer.store.events("t1") == []  # answered, not acted on
    with pytest.raises(RequestReused, match="stack 100"):
        dealer.seat_player("t1", None, "ann", 200, False, "r1")
    assert dealer.store.act("t1", "h1", 4) == ActRecord(1, "call", 0, 17)
    assert isinstance(dealer.store.journal, JournalTable)
    dealer.store.close()


def test_rebuys_of_a_store_before_the_journal_are_journaled_once(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    clock = Clock()
    dealer = dealer_at(db, clock)
    dealer.create_table("t1", TableConfig(), TableOptions())
    dealer.seat_player("t1", None, "ann", 100, False)
    assert dealer.add_chips("t1", 0, 50, "k1") == 150
    dealer.store.close()
    # The version before: the key was only in the ChipsAdded event (and the snapshot).
    old = sqlite3.connect(db)
    old.executescript("DROP TABLE journal;" + OLD_TABLES)
    old.close()
    dealer = dealer_at(db, clock)
    events = len(dealer.store.events("t1"))
    assert dealer.add_chips("t1", 0, 50, "k1") == 150  # its answer: no chips added again
    assert len(dealer.store.events("t1")) == events
    with pytest.raises(RequestReused, match="amount 50"):
        dealer.add_chips("t1", 0, 60, "k1")
    clock.now += 25 * 3600
    assert prune_all(dealer.store.journal) == 1  # the rebuy's entry, not the mark
    dealer.store.close()
    dealer = dealer_at(db, clock)  # journaled once: the pruned key does not come back
    assert dealer.store.journal.find(Key("add_chips", "t1", "k1")) is None
    dealer.store.close()


def test_a_decisions_answer_is_the_json_array_json_dumps_writes() -> None:
    """store.act_answer writes what json.dumps wrote before it (every store reads it back
    with json.loads), a kind that JSON must escape included."""
    from services.dealer.store import ActRecord, act_answer

    for act in (ActRecord(3, "call", 100, 7), ActRecord(0, 'we"ird\\kind\u00e9', 0, 2**40)):
        answer = act_answer(act)
        assert answer == json.dumps([act.seat, act.kind, act.amount, act.sequence],
                                    separators=(",", ":"))
        assert json.loads(answer) == [act.seat, act.kind, act.amount, act.sequence]


def _decide(store: Store, sequence: int, hand_id: str, number: int, act: ActRecord) -> None:
    """A decision's write as the table makes it: its event and its journal line."""
    store.write("t1", [(sequence, hand_id, sequence, b"e")],
                lambda: store.put_act("t1", hand_id, number, act))


def test_a_hands_decisions_are_one_journal_entry_that_each_decision_appends_to(
        tmp_path: Path) -> None:
    clock = Clock()
    store = Store(tmp_path / "d.sqlite", retention=Retention(24, 1000, clock))
    acts = [ActRecord(0, "call", 10, 1), ActRecord(1, "raise", 40, 2),
            ActRecord(0, 'we"ird\nkind', 0, 3)]
    for number, act in enumerate(acts, start=1):
        _decide(store, number, "t1-1", number, act)
        clock.now += 1
    _decide(store, 4, "t1-2", 1, ActRecord(1, "fold", 0, 4))
    rows = store._db.execute("SELECT call, request_id, at_ms FROM journal"
                             " ORDER BY request_id").fetchall()
    # One row a hand, dated by its first decision (the age index is written once a hand).
    assert rows == [("hand_acts", "t1-1", 1_000_000_000), ("hand_acts", "t1-2", 1_000_003_000)]
    assert [store.act("t1", "t1-1", n) for n in (1, 2, 3, 4)] == [*acts, None]
    assert store.act("t1", "t1-2", 1) == ActRecord(1, "fold", 0, 4)
    assert store.act("t1", "t1-3", 1) is None and store.act("t2", "t1-1", 1) is None
    # A failed write leaves the hand's entry as it was.
    def append_then_fail() -> None:
        store.put_act("t1", "t1-1", 4, ActRecord(1, "call", 0, 5))
        raise RuntimeError("injected")

    with pytest.raises(RuntimeError, match="injected"):
        store.write("t1", [(5, "t1-1", 5, b"e")], append_then_fail)
    assert store.act("t1", "t1-1", 4) is None and store.act("t1", "t1-1", 3) == acts[2]
    clock.now += 25 * 3600
    assert prune_all(store.journal) == 2  # a hand's entry goes after the retention, whole
    assert store.act("t1", "t1-1", 1) is None
    store.close()


def test_decisions_journaled_one_entry_each_by_the_version_before_are_still_answered(
        tmp_path: Path) -> None:
    """Up to 1416e2b a decision had its own entry (call 'act', id '<hand>/<number>'): a
    retry of one is answered from it after the upgrade, the hand's later decisions are
    appended to the new entry, and the old entries are pruned as before."""
    clock = Clock()
    db = tmp_path / "d.sqlite"
    store = Store(db, retention=Retention(24, 1000, clock))
    store._db.execute(  # what 1416e2b's put_act wrote
        "INSERT INTO journal (call, scope, request_id, fingerprint, what, answer, at_ms)"
        " VALUES ('act', 't1', 't1-1/1', '', '', '[2,\"call\",20,7]', 1000000000)")
    store.close()
    store = Store(db, retention=Retention(24, 1000, clock))
    assert store.act("t1", "t1-1", 1) == ActRecord(2, "call", 20, 7)
    _decide(store, 8, "t1-1", 2, ActRecord(0, "check", 0, 8))
    assert store.act("t1", "t1-1", 2) == ActRecord(0, "check", 0, 8)
    assert store.act("t1", "t1-1", 1) == ActRecord(2, "call", 20, 7)
    clock.now += 25 * 3600
    assert prune_all(store.journal) == 2
    assert store.act("t1", "t1-1", 1) is None
    store.close()
