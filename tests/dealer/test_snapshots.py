"""Snapshots: a table restored from its latest snapshot and the events after it is the
table folded from its whole log, and a store written before snapshots still opens."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import codec, views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.store import Store
from services.dealer.tables import _HAND_ENDS, SNAPSHOT_EVERY_EVENTS, SNAPSHOT_VERSION, Table

#: The schema of a store written before snapshots (the dealer as it was, verbatim).
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    hand_id TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, sequence)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS acts (
    table_id TEXT NOT NULL,
    hand_id TEXT NOT NULL,
    action_number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    PRIMARY KEY (table_id, hand_id, action_number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS answers (
    call TEXT NOT NULL,
    scope TEXT NOT NULL,
    request_id TEXT NOT NULL,
    request TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (call, scope, request_id)
) WITHOUT ROWID;
"""
#: Copied from a store of this version (its answers and decisions are in `journal` now;
#: test_journal.py migrates `answers` and `acts` rows).
OLD_TABLES = ("tables", "events", "seats")


def _dealer(path: Path) -> Dealer:
    return Dealer(Store(path), Authenticator("svc", "aud"), None, "resume")


def _config() -> pb.TableConfig:
    return pb.TableConfig(seats=6, pause_between_hands_ms=2, action_time_ms=60_000,
                          hands_per_level=4, preset=pb.PRESET_STANDARD)


def state(table: Table) -> dict[str, Any]:
    """Everything a table folded, its running hand's events included (what restore
    resumes the hand from; a finished hand's are not kept by a snapshot)."""
    running = [s.sequence for s in table._hand_events]
    if any(type(s.event) in _HAND_ENDS for s in table._hand_events):
        running = []
    return {**table.snapshot_state(), "hand_events": running}


def folded(table: Table, from_snapshot: bool) -> dict[str, Any]:
    """The table folded again from the store: its whole log, or its latest snapshot (if
    it has one yet) and the tail."""
    store = table.store
    fresh = Table(table.table_id, table.config, table.options, store)
    snapshot = store.snapshot(table.table_id) if from_snapshot else None
    after = snapshot.sequence if snapshot else 0
    fresh.fold(store.events(table.table_id, after=after),
               json.loads(snapshot.state) if snapshot else None)
    return state(fresh)


def _between_hands(dealer: Dealer, table: Table, rng: random.Random, n: int,
                   level_set_at: list[int]) -> None:
    """What the lobby and the players do between hands: rebuys, sit-outs, levels, leaving.
    `level_set_at`: the hand count at the last level set (updated)."""
    tid = table.table_id
    for seat in sorted(table.seats):
        if table.in_hand(seat):
            continue
        state = table.seats[seat]
        roll = rng.random()
        if state.stack == 0 or roll < 0.05:
            dealer.add_chips(tid, seat, rng.randint(50, 500), f"k{n}-{seat}")
        elif roll < 0.10:
            table.sit_out(seat)
        elif roll < 0.18 and state.sitting_out:
            table.sit_in(seat)
        elif roll < 0.21:
            table.unseat(seat)
    # A level set by chance, and at least every 25 hands: how often this runs between
    # hands depends on the machine's speed (the pause is 2 ms), so chance alone may miss.
    if rng.random() < 0.05 or table.hands_played - level_set_at[0] >= 25:
        dealer.set_level(tid, rng.randrange(len(table.config.levels)), f"lv{n}")
        level_set_at[0] = table.hands_played
    for seat in range(table.config.seats):
        if seat not in table.seats and rng.random() < 0.3:
            dealer.seat_player(tid, seat, f"p{n}-{seat}", rng.randint(100, 2000),
                               rng.random() < 0.3, f"seat{n}-{seat}")


async def _play(dealer: Dealer, hands: int, seed: int,
                check: Any = None) -> Table:
    """Plays `hands` hands of random decisions; `check(table)` after every write."""
    config, options = views.config_from_proto(_config())
    table = dealer.create_table("t", config, options)
    for seat in range(5):
        dealer.seat_player("t", seat, f"p{seat}", 400, False)
    rng = random.Random(seed)
    n = 0
    level_set_at = [0]
    while table.hands_played < hands:
        n += 1
        turn, hand = table.turn, table.hand
        if hand is None or turn is None:
            if hand is None:
                _between_hands(dealer, table, rng, n, level_set_at)
            if check is not None:
                check(table)
            await asyncio.sleep(0.003)
            continue
        if turn.decision == "show_or_muck":
            kind, amount = rng.choice(["show", "muck"]), 0
        elif turn.bet_kind and rng.random() < 0.3:
            kind, amount = turn.bet_kind, rng.randint(turn.min_to, turn.max_to)
        else:
            kind, amount = rng.choice(["fold", "check"] if turn.can_check
                                      else ["fold", "call", "call"] if turn.can_call
                                      else ["fold"]), 0
        table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)
        if check is not None:
            check(table)
    return table


def test_snapshot_and_tail_fold_to_the_whole_logs_state_hand_after_hand(tmp_path: Path) -> None:
    """At every point of 120 hands with rebuys, sit-outs, levels set and rising, players
    leaving and joining: the snapshot and the events after it fold to exactly the state
    of the whole log, and to the live table's."""
    checked: list[int] = []
    whole: list[Table] = []  # the whole log's fold, kept up by folding each new event
    snapshots: set[int] = set()  # the sequences of the snapshots stored

    def check(table: Table) -> None:
        live = state(table)
        if not whole:
            whole.append(Table(table.table_id, table.config, table.options, table.store))
        whole[0].fold(table.store.events("t", after=whole[0].last_sequence))
        assert state(whole[0]) == live
        if table.hands_played > 1 or (table.hands_played and table.hand is None):
            assert folded(table, from_snapshot=True) == live
            checked.append(table.last_sequence)
        snapshot = table.store.snapshot("t")
        after = snapshot.sequence if snapshot else 0
        snapshots.add(after)
        if table.hand is None:  # the tail a restart folds: under the interval and a hand
            assert table.last_sequence - after < SNAPSHOT_EVERY_EVENTS + 200

    async def run() -> dict[str, Any]:
        dealer = _dealer(tmp_path / "d.sqlite")
        table = await _play(dealer, 120, seed=3, check=check)
        snapshot = table.store.snapshot("t")
        assert snapshot is not None and snapshot.version == SNAPSHOT_VERSION
        assert snapshot.sequence > table.last_sequence - SNAPSHOT_EVERY_EVENTS - 200
        # now and then, not at every hand's end (each costs a scratch fold and its JSON):
        # a snapshot once the interval's events were written since the one before
        taken = sorted(snapshots)
        assert len(taken) > 5
        assert min(b - a for a, b in zip(taken, taken[1:], strict=False)) >= SNAPSHOT_EVERY_EVENTS
        kinds = {type(codec.loads(r.payload)).__name__ for r in table.store.events("t")}
        assert {"ChipsAdded", "PlayerSatOut", "PlayerSatIn", "LevelSet",
                "PlayerUnseated", "PlayerSeated"} <= kinds
        assert folded(table, from_snapshot=False) == state(table)  # at once, for good measure
        table.shutdown()
        dealer.store.close()
        return state(table)

    asyncio.run(run())
    assert len(checked) > 500


def test_a_store_written_before_snapshots_opens_and_its_tables_come_back(tmp_path: Path) -> None:
    """A store with the old schema and the rows the dealer wrote before snapshots:
    restore folds each table's whole log, snapshots it, and the tables are identical
    (with and then without the new snapshot)."""
    new, old = tmp_path / "new.sqlite", tmp_path / "old.sqlite"

    async def record() -> dict[str, Any]:
        dealer = _dealer(new)
        table = await _play(dealer, 30, seed=5)
        while table.hand is not None:  # end between hands, as a stopping dealer may
            await asyncio.sleep(0.003)
            turn = table.turn
            if turn is not None and table.hand is not None:
                kind = "check" if turn.can_check else "fold"
                if turn.decision == "show_or_muck":
                    kind = "muck"
                table.act(turn.seat, table.hand.hand_id, turn.action_number, kind, 0)
        table.shutdown()
        dealer.store.close()
        return state(table)

    live = asyncio.run(record())
    with sqlite3.connect(old) as db:
        db.executescript(OLD_SCHEMA)
        db.execute("ATTACH DATABASE ? AS new", (str(new),))
        for name in OLD_TABLES:
            db.execute(f"INSERT INTO main.{name} SELECT * FROM new.{name}")  # noqa: S608
    db.close()

    async def restore() -> tuple[dict[str, Any], int | None]:
        dealer = _dealer(old)
        dealer.restore()
        table = dealer.tables["t"]
        got = state(table)
        snapshot = dealer.store.snapshot("t")
        table.shutdown()
        dealer.store.close()
        return got, snapshot.sequence if snapshot else None

    first, sequence = asyncio.run(restore())
    assert first == live
    assert sequence == live["last_sequence"]  # built on the first start
    again, _ = asyncio.run(restore())  # now from that snapshot
    assert again == live


def test_restore_reads_only_the_tail_and_closed_tables_stay_closed(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"

    async def record() -> int:
        dealer = _dealer(path)
        table = await _play(dealer, 20, seed=9)
        config, options = views.config_from_proto(_config())
        closed = dealer.create_table("gone", config, options)
        dealer.seat_player("gone", 0, "x", 100, False)
        closed.close(void_hand=True)
        table.shutdown()
        dealer.store.close()
        return table.last_sequence

    last = asyncio.run(record())

    async def restore(full: bool) -> tuple[list[str], int]:
        dealer = Dealer(Store(path), Authenticator("svc", "aud"), None, "resume", full)
        folded_rows: list[int] = []
        original = Table.fold

        def counting(self: Table, rows: Any, snapshot: Any = None) -> None:
            folded_rows.append(len(rows))
            original(self, rows, snapshot)

        Table.fold = counting  # type: ignore[method-assign]
        try:
            dealer.restore()
        finally:
            Table.fold = original  # type: ignore[method-assign]
        tables = sorted(dealer.tables)
        for table in dealer.tables.values():
            table.shutdown()
        dealer.store.close()
        return tables, sum(folded_rows)

    tables, tail = asyncio.run(restore(full=False))
    assert tables == ["t"]
    assert tail < SNAPSHOT_EVERY_EVENTS + 100 < last  # under the interval and a hand
    tables, whole = asyncio.run(restore(full=True))
    assert tables == ["t"] and whole >= last  # and the turn restore wrote for the hand resumed


def test_store_keeps_the_latest_snapshot_and_its_reader_reads_beside_the_writer(
        tmp_path: Path) -> None:
    from services.dealer.store import Row, Snapshot

    store = Store(tmp_path / "a b#c.sqlite")  # a path a URI must escape
    with store.batch():
        store.create_table("t", "{}", 1)
        store.put_snapshot("t", Snapshot(3, 1, '{"a":1}'))
    with store.batch():
        store.put_snapshot("t", Snapshot(9, 1, '{"a":2}'))
        store.append("t", [Row(n, "", n, f"e{n}") for n in range(1, 11)])
    assert store.snapshot("t") == Snapshot(9, 1, '{"a":2}')
    assert store.snapshot("other") is None
    with store.batch():  # an open write transaction: the reader sees what is committed
        store.append("t", [Row(11, "", 11, "e11")])
        rows = store.reader.executor.submit(store.reader.events, "t", 8, 5).result()
        assert [r.sequence for r in rows] == [9, 10]
    rows = store.reader.executor.submit(store.reader.events, "t", 8, 5).result()
    assert [r.payload for r in rows] == ["e9", "e10", "e11"]
    store.close()
