"""The store's format is stamped (PRAGMA user_version): a store of an older format (0:
before the stamp, 1: the codec's JSON, 2: each event's serialized TableEvent, no `hands`
rows) is migrated in place to format 3 (format 2 with a `hands` row for every hand) and
recovers every table exactly as before; a store stamped by a newer dealer is refused
with what to do.

`data/store_before_format_stamp.json` is a store written by the dealer of 93dc1d7
(three players, the third hand in progress): its schema exactly as SQLite kept it, and
its rows. `data/store_format1.sqlite` is a format-1 store written by main d1e2932's
dealer (`data/make_store_format1.py`: three tables; play, a rebuy, a level change, a
sit out and in, an unseat, a close, R39 seeds), and `data/store_format1_expect.json`
what that code showed of it once restored (`data/expect_store_format1.py`).
`data/store_format2.sqlite` is a format-2 store written by main 1aac27e's dealer with
the same script.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from services.dealer import codec, history, phh, views
from services.dealer import store as store_module
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.store import STORE_FORMAT, Store, StoreFormatError

FIXTURE = Path(__file__).parent / "data" / "store_before_format_stamp.json"


def _write_old_store(path: Path) -> dict[str, object]:
    data = json.loads(FIXTURE.read_text())
    db = sqlite3.connect(path)
    for sql in data["schema"]:
        db.execute(sql)
    for name, rows in data["rows"].items():
        for row in rows:
            db.execute(f"INSERT INTO {name} VALUES ({', '.join('?' * len(row))})", row)
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()
    return data


def test_a_store_written_before_the_format_stamp_opens_recovers_and_is_stamped(
        tmp_path: Path) -> None:
    path = tmp_path / "dealer.sqlite"
    data = _write_old_store(path)
    events = data["rows"]["events"]  # type: ignore[index]

    async def run() -> None:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.restore()
        table = dealer.tables["t"]
        # Every stored event folded (the resumed turn is the one written after them).
        assert table.last_sequence >= max(row[1] for row in events)
        assert table.hand is not None and table.hand.hand_id == "t-3"
        view = views.table_view(table, views.Viewer(views.AUDITOR))
        assert sum(s.stack + s.bet for s in view.seats) + sum(
            p.amount for p in view.hand.pots) == 15_000
        text = history.hand_history(table, "t-1", views.Viewer(views.AUDITOR))
        assert phh.loads(text).extra["_hand_id"] == "t-1"
        store.close()

    asyncio.run(run())
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT == 3
    assert {t for (t,) in db.execute("SELECT DISTINCT typeof(payload) FROM events")} == {"blob"}
    db.close()


def test_a_store_of_a_newer_format_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "dealer.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={STORE_FORMAT + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreFormatError, match="written by a newer dealer.*another --db path"):
        Store(path)
    Store(tmp_path / "other.sqlite").close()


FORMAT1 = Path(__file__).parent / "data" / "store_format1.sqlite"
EXPECT1 = Path(__file__).parent / "data" / "store_format1_expect.json"


def _without_deadlines(view: Any) -> Any:
    """A table view as a dict, less what a restore sets anew (the resumed turn's clock)."""
    if isinstance(view, dict):
        return {k: _without_deadlines(v) for k, v in view.items() if k != "deadlineUnixMs"}
    return view


def _read_repr(text: str) -> object:
    """An event from its repr as d1e2932 wrote it (enum members as `<Kind.NAME: 'v'>`)."""
    import re

    from poker.vocab import config, enums, events, table_events

    names: dict[str, object] = {}
    for module in (config, enums, events, table_events):
        names.update(vars(module))
    return eval(re.sub(r"<(\w+)\.(\w+): [^>]*>", r"\1.\2", text), names)  # noqa: S307


def _within(old: object, new: object) -> bool:
    """Whether `new` holds every key of `old` with the same value (recursively)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and _within(v, new[k])
                                             for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(
            _within(a, b) for a, b in zip(old, new, strict=True))
    return old == new


def test_a_format_1_store_of_main_d1e2932_migrates_and_plays_on_exactly_as_before(
        tmp_path: Path) -> None:
    path = tmp_path / "dealer.sqlite"
    shutil.copy(FORMAT1, path)
    expect = json.loads(EXPECT1.read_text())
    before = sqlite3.connect(path)
    assert before.execute("PRAGMA user_version").fetchone()[0] == 1
    rows_before = before.execute(
        "SELECT table_id, sequence, hand_id, time_ms FROM events ORDER BY 1, 2").fetchall()
    snapshots_before = before.execute("SELECT * FROM snapshots ORDER BY 1").fetchall()
    before.close()

    async def run() -> None:
        store = Store(path)
        assert [list(t) for t in store.tables(True)] == expect["tables"]
        for table_id, rows in expect["events"].items():
            got = [[r.sequence, r.hand_id, r.time_ms, codec.loads(r.payload)]
                   for r in store.events(table_id)]
            # each event as d1e2932's code showed it, read back with today's classes (the
            # fields added since then take their defaults, which is what the old data means)
            assert got == [[*row[:3], _read_repr(row[3])] for row in rows], table_id
            assert [list(s) for s in store.seats(table_id)] == expect["seats"][table_id]
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.restore()
        for key, view in expect["views"].items():
            table_id, who = key.split("/")
            viewer = {"auditor": views.Viewer(views.AUDITOR),
                      "spectator": views.Viewer(views.SPECTATOR), "seat0": views.Viewer(0)}[who]
            got = json_format.MessageToDict(views.table_view(dealer.tables[table_id], viewer))
            # every field d1e2932 showed, as it showed it (newer fields may add to it)
            assert _within(_without_deadlines(view), _without_deadlines(got)), key
        for hand_id, text in expect["histories"].items():
            table = dealer.tables[hand_id.split("-")[0]]
            try:
                got_text = history.hand_history(table, hand_id, views.Viewer(views.AUDITOR))
            except Exception as err:  # noqa: BLE001 - the in-progress hands: as before
                got_text = f"error {type(err).__name__}"
            # every line d1e2932 wrote, unchanged (fields added since, as R35's time_limit
            # and the `_` user fields, may add lines)
            assert set(text.splitlines()) <= set(got_text.splitlines()), hand_id
        # Play goes on: the hand in progress at t ends and the next one starts.
        table = dealer.tables["t"]
        hands = table.hands_played
        resumed_at = store.events("t")[-1].sequence
        for _ in range(400):
            turn, hand = table.turn, table.hand
            if table.hands_played > hands + 1:
                break
            if turn is None or hand is None:
                await asyncio.sleep(0.005)
                continue
            kind = ("muck" if turn.decision == "show_or_muck"
                    else "check" if turn.can_check else "call")
            table.act(turn.seat, hand.hand_id, turn.action_number, kind, 0)
            await asyncio.sleep(0)
        assert table.hands_played > hands + 1
        stacks = views.table_view(table, views.Viewer(views.AUDITOR))
        old = expect["views"]["t/auditor"]
        chips = sum(int(s.get("stack", 0)) + int(s.get("bet", 0)) for s in old["seats"]) + sum(
            int(p.get("amount", 0)) for p in old["hand"].get("pots", ()))
        # a seat taken off since (R34: sat out past the limit) took its stack with it
        left = sum(e.stack for e in (codec.loads(r.payload)
                                           for r in store.events("t", after=resumed_at))
                   if type(e).__name__ == "PlayerUnseated")
        assert sum(s.stack + s.bet for s in stacks.seats) + sum(
            p.amount for p in stacks.hand.pots) + left == chips  # no chip made or lost
        store.close()

    asyncio.run(run())
    after = sqlite3.connect(path)
    assert after.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT
    assert {t for (t,) in after.execute("SELECT DISTINCT typeof(payload) FROM events")} == {
        "blob"}
    rows_after = after.execute("SELECT table_id, sequence, hand_id, time_ms FROM events "
                               "ORDER BY 1, 2").fetchall()
    assert set(rows_before) <= set(rows_after)  # every row kept, with its place and time
    assert after.execute("SELECT * FROM snapshots WHERE table_id = 'c'").fetchall() == [
        s for s in snapshots_before if s[0] == "c"]  # a closed table's snapshot stands
    after.close()


def test_a_migration_interrupted_leaves_format_1_and_the_next_open_completes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "dealer.sqlite"
    shutil.copy(FORMAT1, path)
    calls = {"n": 0}
    real = codec.dumps

    def failing(event: object) -> bytes:
        calls["n"] += 1
        if calls["n"] > 100:
            raise KeyboardInterrupt  # the dealer killed in the middle
        return real(event)

    monkeypatch.setattr(codec, "dumps", failing)
    monkeypatch.setattr(store_module, "MIGRATE_PAGE", 40)
    with pytest.raises(KeyboardInterrupt):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert {t for (t,) in db.execute("SELECT DISTINCT typeof(payload) FROM events")} == {"text"}
    db.close()
    monkeypatch.setattr(codec, "dumps", real)
    store = Store(path)
    rows = store.events("t")
    assert len(rows) == 261 and all(isinstance(r.payload, bytes) for r in rows)
    store.close()
    Store(path).close()  # opening a format-3 store again changes nothing


def test_a_large_migration_logs_its_progress(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import structlog

    path = tmp_path / "dealer.sqlite"
    shutil.copy(FORMAT1, path)
    monkeypatch.setattr(store_module, "MIGRATE_PAGE", 100)
    with structlog.testing.capture_logs() as logs:
        Store(path).close()
    progress = [e for e in logs if e["event"] == "store_migrating" and "done" in e]
    assert [e["done"] for e in progress] == [100, 200, 300, 321]
    assert any(e["event"] == "store_migrated" and e["rows"] == 321 for e in logs)


FORMAT2 = Path(__file__).parent / "data" / "store_format2.sqlite"


def _scanned(db: sqlite3.Connection, table_id: str, hand_id: str) -> list[tuple[Any, ...]]:
    """A hand's events read as format 2 read them: every event of the table, filtered."""
    return db.execute("SELECT sequence, hand_id, time_ms, payload FROM events"
                      " WHERE table_id = ? AND hand_id = ? ORDER BY sequence",
                      (table_id, hand_id)).fetchall()


def test_a_format_2_store_of_main_1aac27e_gets_a_hands_row_for_every_hand(
        tmp_path: Path) -> None:
    """Format 2 -> 3: every hand of the log gets its `hands` row, and each finished hand's
    history reads the same events as format 2's scan of the table did; a hand played
    after the migration gets its row with its last events."""
    path = tmp_path / "dealer.sqlite"
    shutil.copy(FORMAT2, path)
    before = sqlite3.connect(path)
    assert before.execute("PRAGMA user_version").fetchone()[0] == 2
    assert "hands" not in {n for (n,) in before.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    hands = before.execute("SELECT DISTINCT table_id, hand_id FROM events WHERE hand_id <> ''"
                           " ORDER BY 1, 2").fetchall()
    scans = {key: _scanned(before, *key) for key in hands}
    before.close()
    assert len(hands) >= 9 and {t for t, _ in hands} == {"t", "c", "s"}

    async def run() -> None:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.restore()
        for (table_id, hand_id), rows in scans.items():
            assert [(r.sequence, r.hand_id, r.time_ms, r.payload)
                    for r in store.hand_events(table_id, hand_id)] == rows
        running = dealer.tables["t"].hand
        assert running is not None  # the fixture left `t` in a hand: it resumes
        finished = [h for t, h in hands if t == "t" and h != running.hand_id]
        text = history.hand_history(dealer.tables["t"], finished[-1],
                                    views.Viewer(views.AUDITOR))
        assert phh.loads(text).extra["_hand_id"] == finished[-1]
        with pytest.raises(Exception, match="in progress"):
            history.hand_history(dealer.tables["t"], running.hand_id,
                                 views.Viewer(views.AUDITOR))
        store.close()

    asyncio.run(run())
    after = sqlite3.connect(path)
    assert after.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT == 3
    spans = {(t, h): (first, last) for t, h, first, last in after.execute(
        "SELECT table_id, hand_id, first_sequence, last_sequence FROM hands")}
    assert set(spans) == set(hands)
    for key, rows in scans.items():
        assert spans[key] == (rows[0][0], rows[-1][0])
    after.close()


def test_a_hands_history_reads_its_range_of_the_log_by_the_primary_key(
        tmp_path: Path) -> None:
    """GetHandHistory's read: SQLite searches the events' primary key for the hand's
    range (format 2 read every event of the table and kept the hand's)."""
    store = Store(tmp_path / "dealer.sqlite")
    try:
        plan = " ".join(row[-1] for row in store._db.execute(
            "EXPLAIN QUERY PLAN " + store_module.HAND_EVENTS, ("t", 1, 9, "t-1")))
        assert "USING PRIMARY KEY (table_id=? AND sequence>? AND sequence<?)" in plan, plan
    finally:
        store.close()


def test_every_hand_played_or_voided_gets_its_hands_row_with_its_last_events(
        tmp_path: Path) -> None:
    """The write that ends a hand (its reveal, or a void) also writes where the hand lies:
    the range holds exactly the hand's events."""
    from poker.v1 import dealer_pb2 as pb

    path = tmp_path / "dealer.sqlite"

    async def run() -> None:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        config, options = views.config_from_proto(pb.TableConfig(
            seats=3, pause_between_hands_ms=0, action_time_ms=60_000, time_bank_ms=0,
            preset=pb.PRESET_STANDARD, test_mode=True, deck_seed=4))
        table = dealer.create_table("h", config, options)
        for seat in range(3):
            dealer.seat_player("h", seat, f"p{seat}", 1000, False)
        for _ in range(2000):
            if table.hands_played >= 3 and table.turn is not None:
                break
            turn, hand = table.turn, table.hand
            if turn is None or hand is None:
                await asyncio.sleep(0.001)
                continue
            kind = ("muck" if turn.decision == "show_or_muck" else
                    "check" if turn.can_check else "call")
            table.act(turn.seat, hand.hand_id, turn.action_number, kind, 0)
        assert table.hands_played >= 3 and table.hand is not None
        table.close(void_hand=True)  # the hand in progress is voided: it ends too
        store.close()
        dealer.shutdown()

    asyncio.run(run())
    db = sqlite3.connect(path)
    spans = {h: (first, last) for h, first, last in db.execute(
        "SELECT hand_id, first_sequence, last_sequence FROM hands WHERE table_id = 'h'")}
    hands = [h for (h,) in db.execute("SELECT DISTINCT hand_id FROM events"
                                      " WHERE table_id = 'h' AND hand_id <> ''")]
    assert len(hands) >= 3 and set(spans) == set(hands)  # the last one voided
    for hand_id in hands:
        rows = _scanned(db, "h", hand_id)
        assert spans[hand_id] == (rows[0][0], rows[-1][0])
    db.close()


def test_the_hands_step_logs_its_progress_and_interrupted_leaves_format_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import structlog

    path = tmp_path / "dealer.sqlite"
    shutil.copy(FORMAT2, path)
    monkeypatch.setattr(store_module, "_PUT_HAND", "INSERT INTO no_such_table VALUES (?, ?, ?, ?)")
    with pytest.raises(sqlite3.OperationalError):
        Store(path)  # the step fails part way: nothing of it stands
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
    db.close()
    monkeypatch.undo()
    monkeypatch.setattr(store_module, "MIGRATE_PAGE", 50)
    with structlog.testing.capture_logs() as logs:
        Store(path).close()
    progress = [e for e in logs if e["event"] == "store_migrating" and "events" in e]
    done = [e for e in logs if e["event"] == "store_migrated"]
    assert len(progress) >= 3 and progress[-1]["events"] >= 150
    assert done and done[0]["to_format"] == 3 and done[0]["hands"] >= 9
