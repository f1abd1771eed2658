"""A tournament field run by `clients.farm.BotFarm` (one PlayMany stream a dealer for all
its bots, `clients.field`), against real processes: a sit-and-go and a two-table MTT on
two dealers, registered by the farm's field and played to the end, every move
followed. Every bot gets its place (places 1..N, each once, a shared place counting
for the places it covers) and its prize, prizes paid + fees = buy-ins, the ledger's
audit is zero and every chip was counted at every level."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import pytest

from clients import tournament as tn
from clients.bots import CallingStation, RandomBot
from clients.field import Field, play_field, register_field
from clients.sdk import LobbyClient
from tests.tournament.test_e2e import OPERATOR, Suite, _structure

pytestmark = pytest.mark.slow

#: Each field plays to its end within this (a quiet machine needs far less).
LIMIT_S = 60.0


def _bot(player_id: str) -> CallingStation | RandomBot:
    return RandomBot() if int(player_id[1:]) % 2 else CallingStation()


def _players(suite: Suite, n: int, structure: object) -> tuple[LobbyClient, list[tuple[str, str]]]:
    op = LobbyClient(suite.lobby_address, token=OPERATOR)
    tokens = []
    for i in range(n):
        _, token = op.create_player(f"p{i}", f"P{i}")
        op.deposit(f"p{i}", 1000)
        tokens.append((f"p{i}", token))
    op.create_tournament("tn1", "farm field", structure)
    return op, tokens


def _places_each_once(finishes: list[tn.TournamentFinish], n: int) -> None:
    """Places 1..n, each once: k players sharing place p (T8) cover p..p+k-1."""
    counts = Counter(f.place for f in finishes)
    covered: list[int] = []
    for place, k in sorted(counts.items()):
        assert all(f.shared == k for f in finishes if f.place == place), (place, k)
        covered += range(place, place + k)
    assert covered == list(range(1, n + 1)), sorted(counts.items())


def _check(op: LobbyClient, n: int, finishes: list[tn.TournamentFinish]) -> tn.Tournament:
    t = op.tournament("tn1")
    assert t.state is tn.TournamentState.FINISHED
    assert [f.player_id for f in finishes] == [f"p{i}" for i in range(n)]
    _places_each_once(finishes, n)
    assert {(f.player_id, f.place, f.shared, f.prize) for f in finishes} == {
        (p.player_id, p.place, p.shared, p.prize) for p in t.players}
    prizes, taken = sum(f.prize for f in finishes), n * (100 + 10)
    assert prizes == t.prize_pool == n * 100 and prizes + t.fees == taken
    assert all(f.tables and not f.cancelled for f in finishes)
    assert t.chip_checks > 0 and not t.chip_errors
    audit = op.audit()
    assert audit.ok and audit.total == 0
    return t


def test_T9_a_farm_registers_and_plays_a_sit_and_go_to_the_end(tmp_path: Path) -> None:
    suite = Suite(tmp_path, 1)
    try:
        op, tokens = _players(suite, 6, _structure(6, 6, level_s=3.0))
        started = time.monotonic()
        finishes = asyncio.run(asyncio.wait_for(play_field(
            suite.lobby_address, tokens, "tn1", _bot, register=True), LIMIT_S))
        assert time.monotonic() - started < LIMIT_S
        t = _check(op, 6, finishes)
        assert t.moves == 0 and all(len(f.tables) == 1 for f in finishes)
        assert len({f.tables[0] for f in finishes}) == 1
    finally:
        suite.stop()


def test_T5_T6_T9_a_farm_plays_a_two_table_mtt_on_two_dealers_following_every_move(
        tmp_path: Path) -> None:
    suite = Suite(tmp_path, 2)
    try:
        op, tokens = _players(suite, 12, _structure(12, 6, level_s=3.0))

        async def main() -> tuple[list[tn.TournamentFinish], set[str]]:
            await register_field(suite.lobby_address, tokens, "tn1")
            field = Field(suite.lobby_address, "tn1")
            try:
                return await field.play(tokens, _bot), set(field.farms)
            finally:
                await field.close()

        started = time.monotonic()
        finishes, farms = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
        assert time.monotonic() - started < LIMIT_S
        t = _check(op, 12, finishes)
        # two tables, one at each dealer: one farm (one PlayMany stream) for each
        assert farms == set(suite.dealers)
        events = list(op.watch_tournament("tn1"))
        first = next(e for e in events if e.kind is tn.TournamentEventKind.STARTED)
        assert first.tables == 2 and len(first.seats) == 12
        moved = [e for e in events if e.kind is tn.TournamentEventKind.MOVED]
        assert moved and t.moves == len(moved)
        # Every move was followed: the bot joined the table it was moved to (unless its
        # player busted there before it could: its next event is its bust).
        by_player = {f.player_id: f for f in finishes}
        for e in moved:
            after = next((x for x in events if x.sequence > e.sequence
                          and x.player_id == e.player_id), None)
            if after is None or after.kind is not tn.TournamentEventKind.BUSTED:
                assert e.to_table_id in by_player[e.player_id].tables, (e, by_player)
        assert any(len(f.tables) > 1 for f in finishes)
        assert t.largest_table_gap_balanced <= 1
    finally:
        suite.stop()
