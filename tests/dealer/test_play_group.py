"""Play streams' group commit (services.dealer.streams.DecisionGroup): while the loop's
turns carry enough decisions on average (GROUP_FROM), or while the commits it saves cost the
loop enough (a slow commit: PostgreSQL's round trip, an fsync), the decisions of one
turn, from streams at different tables, are one transaction; each is answered on its
own stream as if applied alone, a refusal included. Otherwise each decision is applied
as it comes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import streams, views
from services.dealer.auth import Authenticator, Caller
from services.dealer.dealer import Dealer
from services.dealer.store import Store, commit_average
from services.dealer.tables import Table


def _heads_up(dealer: Dealer, table_id: str) -> Table:
    config, options = views.config_from_proto(pb.TableConfig(
        seats=2, pause_between_hands_ms=0, action_time_ms=60_000, test_mode=True,
        deck_seed=5, preset=pb.PRESET_STANDARD))
    table = dealer.create_table(table_id, config, options)
    for seat in range(2):
        dealer.seat_player(table_id, seat, f"{table_id}-p{seat}", 10_000, False)
    return table


async def _turns(*tables: Table) -> None:
    """Until every table awaits a decision (its first hand begins a loop turn later)."""
    for _ in range(100):
        if all(t.turn is not None for t in tables):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("no hand began")


def _session(table: Table, seat: int, group: streams.DecisionGroup) -> streams.PlaySession:
    caller = Caller("seat", table.table_id, seat)
    return streams.PlaySession(table, caller, views.viewer_for(caller, table), 0, 0.0, group)


def _awaited(table: Table) -> pb.PlayAction:
    turn, hand = table.turn, table.hand
    assert turn is not None and hand is not None
    return pb.PlayAction(hand_id=hand.hand_id, action_number=turn.action_number,
                         kind=pb.ACTION_KIND_CALL)


def test_decisions_of_one_loop_turn_at_two_tables_are_one_commit(tmp_path: Path) -> None:
    async def run() -> None:
        dealer = Dealer(Store(tmp_path / "d.sqlite"), Authenticator("svc", "aud"), None,
                        "resume")
        tables = [_heads_up(dealer, "ga"), _heads_up(dealer, "gb")]
        await _turns(*tables)
        group = streams.DecisionGroup(dealer.store.group)
        group.grouping = True  # as after turns of two decisions or more (test below)
        sessions = [_session(t, t.turn.seat, group) for t in tables]  # type: ignore[union-attr]
        before = [t.last_sequence for t in tables]
        commits = dealer.store._commits
        late = _awaited(tables[1])
        late.action_number += 5  # not awaited: refused, the other decisions stand
        for session, table in zip(sessions, tables, strict=True):
            group.add(session, _awaited(table))
        group.add(sessions[1], late)
        assert all(not s.results for s in sessions)  # applied when the loop turns
        await asyncio.sleep(0)
        assert dealer.store._commits == commits + 1
        for session, table, was in zip(sessions, tables, before, strict=True):
            assert table.last_sequence > was
            assert session.results[0].code == 0 and session.results[0].sequence > was
        refused = sessions[1].results[1]
        assert refused.code == 9 and refused.reason == "STALE_ACTION_NUMBER"  # FAILED_PRECONDITION
        dealer.shutdown()

    asyncio.run(run())


def test_a_stream_that_ends_answers_its_queued_decision_first(tmp_path: Path) -> None:
    async def run() -> None:
        dealer = Dealer(Store(tmp_path / "d.sqlite"), Authenticator("svc", "aud"), None,
                        "resume")
        table = _heads_up(dealer, "gc")
        await _turns(table)
        group = streams.DecisionGroup(dealer.store.group)
        assert table.turn is not None
        session = _session(table, table.turn.seat, group)
        action = _awaited(table)
        before = table.last_sequence

        async def requests() -> AsyncIterator[pb.PlayRequest]:
            yield pb.PlayRequest(action=action)

        await session.read(requests())  # the stream ends right after its decision
        assert session.done and len(session.results) == 1
        assert session.results[0].code == 0
        assert session.results[0].sequence > before
        dealer.shutdown()

    asyncio.run(run())


class _Session:
    """What DecisionGroup asks of a Play session: `_act`, `results`, `feed.poke`."""

    def __init__(self, applied: list[str], name: str) -> None:
        self.applied, self.name = applied, name
        self.results: list[str] = []
        self.feed = self

    def _act(self, action: str) -> str:
        self.applied.append(f"{self.name}:{action}")
        return action

    def poke(self) -> None:
        pass


class _CountingGroup:
    def __init__(self) -> None:
        self.entered = 0

    def __call__(self) -> Any:
        self.entered += 1
        return nullcontext()


def test_decisions_are_grouped_only_while_the_turns_carry_enough_of_them() -> None:
    async def run() -> None:
        transactions = _CountingGroup()
        group = streams.DecisionGroup(transactions)
        applied: list[str] = []
        a, b, c = (_Session(applied, name) for name in "abc")
        add: Any = group.add  # takes what it asks of a session (_Session)

        # One decision a turn: each is applied as it comes, before the turn ends.
        for turn in range(5):
            add(a, f"{turn}")
            assert a.results[-1] == f"{turn}"
            await asyncio.sleep(0)
        assert not group.grouping and transactions.entered == 0

        # Three a turn: the average climbs past GROUP_FROM, then they wait for the turn's
        # end and share one transaction, in their order of arrival.
        turns = 0
        while not group.grouping:
            for session in (a, b, c):
                add(session, f"t{turns}")
            await asyncio.sleep(0)
            turns += 1
            assert turns < 100, "never grouped"
        assert turns > 1  # an average, not one busy turn
        applied.clear()
        for session in (c, a, b):
            add(session, "g")
        assert applied == []  # waiting for the turn's end
        await asyncio.sleep(0)
        assert applied == ["c:g", "a:g", "b:g"] and transactions.entered == 1

        # Back to one a turn: grouping stops once the average falls below UNGROUP_BELOW.
        turns = 0
        while group.grouping:
            add(a, "one")
            await asyncio.sleep(0)
            turns += 1
            assert turns < 100, "never ungrouped"
        assert group._per_turn < streams.UNGROUP_BELOW <= streams.GROUP_FROM
        applied.clear()
        add(b, "now")
        assert applied == ["b:now"]

    asyncio.run(run())


def test_slow_commits_are_grouped_when_turns_carry_fewer_than_two() -> None:
    """Turns of one and two decisions (1.5 on average): with SQLite's commit (tens of
    microseconds) each is applied as it comes; with a millisecond's (a round trip to
    PostgreSQL) grouping saves half a millisecond a turn, and they wait."""
    async def run(commit_s: float) -> bool:
        group = streams.DecisionGroup(_CountingGroup(), lambda: commit_s)
        add: Any = group.add
        session = _Session([], "a")
        for turn in range(60):
            for _ in range(1 + turn % 2):
                add(session, "x")
            await asyncio.sleep(0)
        assert 1.3 < group._per_turn < 1.7
        return group.grouping

    assert not asyncio.run(run(30e-6))
    assert asyncio.run(run(1e-3))


def test_the_store_keeps_the_average_time_of_its_commits(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    assert store.commit_s == 0.0
    with store.batch():
        store.create_table("t", "{}", 0)
    for n in range(1, 30):
        store.write("t", [(n, "h", 0, b"\x08\x01")])
    assert 0.0 < store.commit_s < 0.5
    store.close()


def test_a_rare_slow_commit_hardly_moves_the_average_and_steady_slow_ones_raise_it() -> None:
    average = 0.0
    for _ in range(200):
        average = commit_average(average, 25e-6)  # SQLite's
    assert 20e-6 < average < 30e-6
    spiked = commit_average(average, 5e-3)  # a WAL checkpoint's
    assert spiked - average < 10e-6
    commits = 0
    while average <= 600e-6:  # a round trip every time: within a few dozen commits
        average = commit_average(average, 700e-6)
        commits += 1
        assert commits < 60
