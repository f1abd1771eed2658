"""T1, T2, T5, T6, T8 on plain values (services/lobby/tournament's pure modules)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.lobby.errors import InvalidArgument
from services.lobby.tournament import balance as bal
from services.lobby.tournament.balance import Move, TableSeats
from services.lobby.tournament.payouts import pay, prizes
from services.lobby.tournament.places import Place, rank_busts
from services.lobby.tournament.structure import LevelSpec, PayoutTier, Structure


def _apply(tables: list[TableSeats], moves: list[Move]) -> list[TableSeats]:
    by = {t.table_id: dict(t.players) for t in tables}
    for m in moves:
        assert by[m.from_table].pop(m.from_seat) == m.player_id
        assert m.to_seat not in by[m.to_table]
        by[m.to_table][m.to_seat] = m.player_id
    return [TableSeats(t.table_id, t.number, by[t.table_id], t.button, t.size) for t in tables]


@st.composite
def _room(draw: st.DrawFn) -> list[TableSeats]:
    size = draw(st.integers(2, 10))
    n = draw(st.integers(2, 8))
    tables = []
    for i in range(n):
        seats = draw(st.sets(st.integers(0, size - 1), max_size=size))
        players = {s: f"p{i}_{s}" for s in seats}
        button = draw(st.sampled_from(sorted(seats))) if seats else None
        tables.append(TableSeats(f"t{i}", i + 1, players, button, size))
    return tables


@settings(max_examples=300, deadline=None)
@given(_room(), st.integers(0, 2**32))
def test_T5_every_table_within_one_player_after_each_round_of_moves(
        tables: list[TableSeats], seed: int) -> None:
    """Breaking (T6) then balancing (T5), as the director does after a hand: every table
    is within one player of every other, nobody lost or doubled."""
    everyone = sorted(p for t in tables for p in t.players.values())
    rng = random.Random(seed)
    while (broken := bal.table_to_break(tables)) is not None:
        tables = [t for t in _apply(tables, bal.break_moves(tables, broken, rng))
                  if t.table_id != broken]
    tables = _apply(tables, bal.balance_moves(tables))
    counts = [t.count for t in tables]
    assert max(counts) - min(counts) <= 1
    assert sorted(p for t in tables for p in t.players.values()) == everyone
    assert bal.balance_moves(tables) == []


def test_T5_the_moved_player_is_the_one_due_the_big_blind_next() -> None:
    # Button 2: seat 3 small blind, 5 big blind last hand; seat 7 is due the big blind.
    full = TableSeats("a", 1, {s: f"a{s}" for s in (0, 2, 3, 5, 7, 8)}, button=2, size=9)
    short = TableSeats("b", 2, {s: f"b{s}" for s in (1, 4, 6, 8)}, button=8, size=9)
    assert bal.last_big_blind(full) == 5 and bal.due_big_blind(full)[0] == 7
    [move] = bal.balance_moves([full, short])
    assert (move.player_id, move.from_seat) == ("a7", 7)
    # At b: button 8, small blind 1, big blind 4 last hand: seat 5 is the next big blind's,
    # after its last big blind and not between its button and big blind.
    assert bal.last_big_blind(short) == 4 and move.to_seat == 5


def test_T5_a_seat_between_button_and_big_blind_is_never_chosen() -> None:
    # b: button 0, small blind 2, big blind 5; open seats 1, 3, 4 lie between button and BB.
    short = TableSeats("b", 2, {0: "x", 2: "y", 5: "z"}, button=0, size=7)
    assert bal.newcomer_seat(short) == 6
    assert bal.newcomer_seat(short, taken=[6]) == 1  # wraps past the button: 1 is after it
    heads_up = TableSeats("c", 3, {0: "x", 3: "y"}, button=0, size=6)
    assert bal.last_big_blind(heads_up) == 3 and bal.newcomer_seat(heads_up) == 4


def test_T6_table_broken_in_announced_order_and_players_seated_by_draw() -> None:
    tables = [TableSeats("a", 1, {s: f"a{s}" for s in range(6)}, 0, 9),
              TableSeats("b", 2, {s: f"b{s}" for s in range(5)}, 0, 9),
              TableSeats("c", 3, {s: f"c{s}" for s in range(5)}, 0, 9)]
    assert bal.table_to_break(tables) == "c"  # 16 players fit in two tables of 9
    draws = {tuple(sorted((m.player_id, m.to_table, m.to_seat) for m in
                          bal.break_moves(tables, "c", random.Random(seed))))
             for seed in range(20)}
    assert len(draws) > 1  # drawn, not fixed
    for seed in range(20):
        moves = bal.break_moves(tables, "c", random.Random(seed))
        after = [t for t in _apply(tables, moves) if t.table_id != "c"]
        assert sorted(t.count for t in after) == [8, 8]
    assert not bal.final_table_due(tables)
    assert bal.final_table_due([TableSeats("a", 1, {0: "x", 1: "y"}, 0, 9),
                                TableSeats("b", 2, {0: "z"}, 0, 9)])


def test_T3_seats_drawn_evenly() -> None:
    dealt = bal.draw_seats([f"p{i}" for i in range(20)], 3, 9, random.Random(1))
    assert sorted(len(t) for t in dealt) == [6, 7, 7]
    assert sorted(p for t in dealt for _, p in t) == sorted(f"p{i}" for i in range(20))


def test_T8_two_busts_in_one_hand_ranked_by_starting_stack() -> None:
    assert rank_busts([("small", 300), ("big", 800)], left_before=5) == [
        Place("big", 4), Place("small", 5)]


def test_T8_equal_stacks_share_the_places() -> None:
    assert rank_busts([("a", 500), ("b", 500), ("c", 900)], left_before=3) == [
        Place("c", 1), Place("a", 2, 2), Place("b", 2, 2)]


def test_T2_payouts_add_up_and_odd_chips_go_to_the_better_finisher() -> None:
    assert prizes(997, (6500, 3500)) == [649, 348]
    assert sum(prizes(12_345, (5000, 3000, 2000))) == 12_345


def test_T2_ties_split_equally() -> None:
    # 2nd and 3rd shared: (300 + 200) / 2 each; the remainder chip to the first in order.
    assert pay(1000, (5000, 3000, 2000), [Place("w", 1), Place("x", 2, 2),
                                          Place("y", 2, 2)]) == {"w": 500, "x": 250, "y": 250}
    assert pay(1010, (5000, 3000, 2000), [Place("w", 1), Place("x", 2, 2),
                                          Place("y", 2, 2)]) == {"w": 505, "x": 253, "y": 252}


@given(st.integers(0, 10**9), st.integers(2, 300))
def test_T2_the_whole_pool_is_paid_for_any_field(pool: int, entries: int) -> None:
    s = _structure(max_players=entries)
    shares = s.shares(entries)
    places = [Place(f"p{i}", i + 1) for i in range(entries)]
    assert sum(pay(pool, shares, places).values()) == pool


def _structure(**kw: object) -> Structure:
    base: dict[str, object] = dict(buy_in=100, fee=10, starting_stack=1000,
                                   levels=(LevelSpec(10, 20, 0, 1.0),), max_players=9)
    base.update(kw)
    return Structure(**base)  # type: ignore[arg-type]


def test_T1_structure_checked_field_by_field() -> None:
    assert _structure().check()
    for bad, match in ((dict(starting_stack=0), "starting_stack"),
                       (dict(levels=()), "levels"),
                       (dict(levels=(LevelSpec(30, 20),)), "small blind"),
                       (dict(levels=(LevelSpec(0, 0, 0, 1, True),)), "break"),
                       (dict(late_registration_until_level=3), "late_registration"),
                       (dict(table_size=11), "table_size"),
                       (dict(max_players=0), "sit-and-go"),
                       (dict(payouts=(PayoutTier(2, (6000, 3000)),)), "payouts"),
                       (dict(min_players=20), "min_players")):
        with pytest.raises(InvalidArgument, match=match):
            _structure(**bad).check()


def test_T1_one_clock_breaks_and_dealer_levels() -> None:
    s = _structure(levels=(LevelSpec(10, 20, 0, 1), LevelSpec(0, 0, 0, 1, True),
                           LevelSpec(20, 40, 5, 1)))
    assert s.clock(30).index == 0 and s.clock(61).on_break and s.clock(121).index == 2
    assert [s.blind_index(i) for i in range(3)] == [0, 0, 1]
    assert Structure.from_json(s.to_json()) == s


def test_T7_a_tournament_saved_before_rounds_were_kept_reads_back() -> None:
    """A document written by the version before T7's rounds (no `rounds`, no table
    `round`) opens: its running hands count as released outside hand for hand."""
    from services.lobby.tournament.store import Tournament, TTable

    t = Tournament("tn1", "old", _structure(), tables={"tn1-1": TTable("tn1-1", 1, "d")})
    doc = json.loads(t.to_json())
    del doc["rounds"]
    del doc["tables"]["tn1-1"]["round"]
    back = Tournament.from_json(json.dumps(doc))
    assert back.rounds == 0 and back.tables["tn1-1"].round == 0
    assert back.tables["tn1-1"].number == 1 and back.name == "old"
