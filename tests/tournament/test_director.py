"""The director over a real lobby database (SQLite and PostgreSQL) and a dealer in memory
whose hands the tests play: money (T2), late registration, re-entry and rebuys (T1),
places (T8), breaking (T6), balancing (T5), the end (T9), and a move killed midway."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from services.lobby import ledger
from services.lobby.errors import FailedPrecondition
from services.lobby.lobby import Lobby
from services.lobby.storage import Storage
from services.lobby.tournament import balance as bal
from services.lobby.tournament import store
from services.lobby.tournament.director import HOUSE, Director, pool_account
from services.lobby.tournament.structure import LevelSpec, Structure
from tests.tournament.fakes import HandDealer

DEALERS = ["d1", "d2"]


def _structure(**kw: Any) -> Structure:
    base: dict[str, Any] = dict(buy_in=100, fee=10, starting_stack=1000, table_size=6,
                                levels=(LevelSpec(10, 20, 0, 60.0), LevelSpec(20, 40, 0, 60.0)),
                                max_players=6)
    base.update(kw)
    return Structure(**base)


def _room(storage: Storage, dealer: HandDealer, players: int, seed: int = 7,
          **kw: Any) -> tuple[Lobby, Director]:
    lobby = Lobby(storage, dealer, DEALERS)
    director = Director(lobby.ctx, DEALERS, rng=random.Random(seed))
    for i in range(players):
        lobby.create_player(f"p{i}", f"P{i}")
        lobby.deposit(f"p{i}", 1000, f"dep-{i}")
    director.create("t", _structure(**kw), "create-1", "tn1")
    return lobby, director


def _register(director: Director, players: range) -> None:
    for i in players:
        director.register("tn1", f"p{i}", f"reg-{i}")


def _balances(lobby: Lobby, n: int) -> list[int]:
    return [lobby.player(f"p{i}").balance for i in range(n)]


def _hand(director: Director, dealer: HandDealer,
          stacks: Callable[[str, dict[int, list[Any]]], dict[str, int]] | None = None) -> None:
    director.tick()
    dealer.play_all(stacks)
    director.tick()


def _seated(dealer: HandDealer) -> dict[str, str]:
    """player -> table, as the dealer sees it; a player at two tables fails."""
    where: dict[str, str] = {}
    for tid, t in dealer.tables.items():
        for player, _ in t.seats.values():
            assert player not in where, f"{player} at {where[player]} and {tid}"
            where[player] = tid
    return where


def _check_invariants(lobby: Lobby, director: Director, dealer: HandDealer) -> None:
    t = director.get("tn1")
    where = _seated(dealer)
    for e in t.players_left():
        assert where.get(e.player_id) == e.table_id  # never at none, never at two
    assert lobby.audit().ok
    chips = sum(k for tt in dealer.tables.values() for _, k in tt.seats.values())
    assert chips + sum(e.pending_chips for e in t.entries.values()) == t.chips


def test_T2_a_cancelled_tournament_refunds_every_buy_in_and_fee(
        storage: Storage, hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 6, max_players=8)
    _register(director, range(5))
    assert _balances(lobby, 6) == [890] * 5 + [1000]
    assert director.register("tn1", "p0", "reg-0").pool == 500  # a retry pays once
    t = director.cancel("tn1", "cancel-1")
    assert t.state == store.CANCELLED
    assert _balances(lobby, 6) == [1000] * 6
    assert lobby.ctx.tx(lambda tx: ledger.balance(tx, pool_account("tn1"))) == 0
    assert lobby.ctx.tx(lambda tx: ledger.balance(tx, HOUSE)) == 0
    assert lobby.audit().ok


def test_T2_a_running_tournament_cancelled_refunds_rebuys_too(
        storage: Storage, hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 6, max_rebuys=2, rebuy_until_level=1)
    _register(director, range(6))
    director.tick()  # full: it starts
    assert director.get("tn1").state == store.RUNNING
    director.rebuy("tn1", "p3", "rb-1")
    director.cancel("tn1", "cancel-1")
    assert _balances(lobby, 6) == [1000] * 6 and lobby.audit().ok
    assert all(t.closed for t in hand_dealer.tables.values())


def test_T1_rebuy_refused_above_the_starting_stack(storage: Storage,
                                                   hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 6, max_rebuys=1, rebuy_until_level=1)
    _register(director, range(6))
    director.tick()

    def p0_wins_from_p1(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        return {"p0": 1500, "p1": 500}

    _hand(director, hand_dealer, p0_wins_from_p1)
    with pytest.raises(FailedPrecondition, match="above the starting stack"):
        director.rebuy("tn1", "p0", "rb-0")
    t = director.rebuy("tn1", "p1", "rb-1")
    assert t.entries["p1"].pending_chips == 1000
    _hand(director, hand_dealer)  # added before p1's next hand
    assert director.get("tn1").entries["p1"].stack == 1500
    with pytest.raises(FailedPrecondition, match="every rebuy"):
        director.rebuy("tn1", "p1", "rb-2")
    assert _balances(lobby, 6)[1] == 780 and lobby.audit().ok
    _check_invariants(lobby, director, hand_dealer)


def test_T1_late_registration_and_re_entry(storage: Storage, hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 8, max_players=0, start_unix_ms=2**40,
                            late_registration_until_level=0, max_re_entries=1)
    _register(director, range(4))
    director.start("tn1", "start-1")
    director.register("tn1", "p4", "reg-4")  # late: seated at the next pass
    _hand(director, hand_dealer)
    t = director.get("tn1")
    assert t.entries["p4"].status == store.PLAYING and len(t.players_left()) == 5
    with pytest.raises(FailedPrecondition, match="only a busted player"):
        director.re_enter("tn1", "p2", "re-2")

    def p2_busts(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        players = {p: k for p, k in seats.values()}
        if "p2" not in players:
            return {}
        other = next(p for p in players if p != "p2")
        return {"p2": 0, other: players[other] + players["p2"]}

    _hand(director, hand_dealer, p2_busts)
    assert director.get("tn1").entries["p2"].status == store.BUSTED
    director.re_enter("tn1", "p2", "re-2")
    _hand(director, hand_dealer)
    t = director.get("tn1")
    assert t.entries["p2"].status == store.PLAYING and t.entries["p2"].entries == 2
    assert _balances(lobby, 8)[2] == 780 and t.pool == 600
    _check_invariants(lobby, director, hand_dealer)


def _two_bust_to(winner: str, losers: tuple[str, ...]) -> Callable[..., dict[str, int]]:
    def fn(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        players = {p: k for p, k in seats.values()}
        if winner not in players:
            return {}
        gone = [p for p in losers if p in players]
        return {**{p: 0 for p in gone}, winner: players[winner] + sum(players[p] for p in gone)}

    return fn


def test_T8_two_busts_in_one_hand_ranked_by_starting_stack(storage: Storage,
                                                           hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 3, max_players=3)
    _register(director, range(3))
    director.tick()
    _hand(director, hand_dealer, lambda tid, s: {"p0": 300, "p1": 700, "p2": 2000})
    _hand(director, hand_dealer, _two_bust_to("p2", ("p0", "p1")))
    t = director.get("tn1")
    assert t.state == store.FINISHED
    places = {p: (e.place, e.prize) for p, e in t.entries.items()}
    assert places == {"p2": (1, 300), "p1": (2, 0), "p0": (3, 0)}
    assert _balances(lobby, 3) == [890, 890, 1190] and lobby.audit().ok
    assert not t.chip_errors


def test_T8_equal_stacks_share_places_and_prizes(storage: Storage,
                                                 hand_dealer: HandDealer) -> None:
    lobby, director = _room(storage, hand_dealer, 6, max_players=6)
    _register(director, range(6))
    director.tick()
    # Field 6: two places paid (65 % / 35 % of 600). p1 and p2 bust together with
    # equal stacks for 2nd: they share 2nd and 3rd: (210 + 0) / 2 each.
    _hand(director, hand_dealer, _two_bust_to("p0", ("p3", "p4", "p5")))
    _hand(director, hand_dealer, _two_bust_to("p0", ("p1", "p2")))
    t = director.get("tn1")
    assert t.state == store.FINISHED
    assert [(t.entries[p].place, t.entries[p].shared, t.entries[p].prize)
            for p in ("p0", "p1", "p2")] == [(1, 1, 390), (2, 2, 105), (2, 2, 105)]
    assert {t.entries[p].place for p in ("p3", "p4", "p5")} == {4}
    assert lobby.audit().ok


def test_T8_busts_of_two_tables_hands_seen_in_one_pass_are_not_one_hand(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """Out of hand for hand, two tables' hands are two hands even when the director takes
    account of both in one pass: their busts, with equal stacks, share no place (it once
    ranked them as one hand: a shared 11th)."""
    lobby, director = _mtt(storage, hand_dealer, 12, 6)
    assert not director.get("tn1").hand_for_hand

    def one_bust_a_table(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        (a, ka), (b, kb) = list(seats.values())[:2]
        return {a: ka + kb, b: 0}

    _hand(director, hand_dealer, one_bust_a_table)  # both tables' hands, one pass
    gone = [e for e in director.get("tn1").entries.values() if e.status == store.BUSTED]
    assert len(gone) == 2
    assert sorted((e.place, e.shared) for e in gone) == [(11, 1), (12, 1)]
    assert lobby.audit().ok


def test_T6_the_final_table_is_drawn_even_when_a_pass_s_busts_made_it_due(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """Two tables; the busts of the highest-numbered table's hand make the players left
    fit in one while the other is still in its hand: the director waits and draws the
    final table (R4), where it used to break the held table into the other (no draw, no
    `final_table` event: seen once in a 3-table MTT under load)."""
    lobby, director = _mtt(storage, hand_dealer, 12, 6)
    last = max(hand_dealer.tables)

    def three_bust_at_last(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        if tid != last:
            return {}
        winner = next(p for p, _ in seats.values())
        return _two_bust_to(winner, tuple(p for p, _ in list(seats.values())[1:4]))(tid, seats)

    _hand(director, hand_dealer, three_bust_at_last)
    assert len(director.get("tn1").players_left()) == 9
    director.tick()  # both tables may deal: only the last one plays
    seats = hand_dealer.tables[last].seats
    winner = next(p for p, _ in seats.values())
    hand_dealer.play(last, _two_bust_to(winner, tuple(p for p, _ in seats.values()
                                                       if p != winner))(last, seats))
    director.tick()
    t = director.get("tn1")
    assert len(t.players_left()) <= 6 and not t.final_table
    assert t.tables[last].open, "a table broken before the final table was drawn"
    other = next(tid for tid in hand_dealer.tables if tid != last)
    hand_dealer.play(other)
    director.tick()
    t = director.get("tn1")
    assert t.final_table and [x.table_id for x in t.open_tables()] == [t.final_table]
    kinds = [e.kind for e in director.events("tn1", 0, 999)]
    assert "final_table" in kinds and "table_broken" not in kinds
    _check_invariants(lobby, director, hand_dealer)


def test_T8_busts_of_two_hands_seen_in_one_pass_are_ranked_by_when_their_hands_ended(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """Out of hand for hand, the bust of the hand that ended first is placed lower, in
    whatever order the director reads the tables (it used to go by that order)."""
    lobby, director = _mtt(storage, hand_dealer, 12, 6)
    first, second = sorted(hand_dealer.tables)

    def one_bust(tid: str) -> dict[str, int]:
        (a, ka), (b, kb) = list(hand_dealer.tables[tid].seats.values())[:2]
        return {a: ka + kb, b: 0}

    director.tick()
    loser = {}
    for tid in (second, first):  # the later-read table's hand ends first
        stacks = one_bust(tid)
        loser[tid] = next(p for p, k in stacks.items() if k == 0)
        hand_dealer.play(tid, stacks)
    director.tick()
    t = director.get("tn1")
    assert (t.entries[loser[second]].place, t.entries[loser[first]].place) == (12, 11)
    assert t.entries[loser[second]].shared == t.entries[loser[first]].shared == 1
    assert lobby.audit().ok


def _mtt(storage: Storage, dealer: HandDealer, players: int, size: int,
         seed: int = 7) -> tuple[Lobby, Director]:
    lobby, director = _room(storage, dealer, players, seed=seed, table_size=size,
                            max_players=players)
    _register(director, range(players))
    director.tick()
    return lobby, director


def test_T6_table_broken_and_its_players_seated_by_draw(storage: Storage,
                                                        hand_dealer: HandDealer) -> None:
    lobby, director = _mtt(storage, hand_dealer, 18, 6)
    assert len(hand_dealer.tables) == 3
    # Three players bust at each of tables 1 and 2: 12 left fit in two tables of 6, so
    # one table breaks: the highest number (the announced order).
    victims = {tid: [p for p, _ in hand_dealer.tables[tid].seats.values()][:3]
               for tid in ("tn1-1", "tn1-2")}

    def bust(tid: str, s: dict[int, list[Any]]) -> dict[str, int]:
        if tid not in victims:
            return {}
        winner = next(p for p, _ in s.values() if p not in victims[tid])
        return _two_bust_to(winner, tuple(victims[tid]))(tid, s)

    _hand(director, hand_dealer, bust)
    _hand(director, hand_dealer)
    t = director.get("tn1")
    events = director.events("tn1", 0, 500)
    broken = [e for e in events if e.kind == "table_broken"]
    assert [e.body["table_id"] for e in broken] == ["tn1-3"]  # announced order: highest first
    moved = [e.body for e in events if e.kind == "moved" and e.body["why"] == "break"]
    assert len(moved) == 6 and all(m["from_table"] == "tn1-3" for m in moved)
    assert not t.tables["tn1-3"].open and hand_dealer.tables["tn1-3"].closed
    assert sorted(len(hand_dealer.tables[x].seats) for x in ("tn1-1", "tn1-2")) == [6, 6]
    _check_invariants(lobby, director, hand_dealer)


def test_T5_a_table_broken_in_a_pass_does_not_stand_in_for_one_still_in_its_hand(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """Table 3 breaks while table 1 is still in its hand: the two tables left are 6 and 4
    players, a gap T5 closes only once table 1's hand is over. That pass is not one with
    every table between hands (the broken table counted in its place, the gap of 2 was
    reported as one T5 let stand), and table 1 is not released early."""
    lobby, director = _mtt(storage, hand_dealer, 18, 6)
    _hand(director, hand_dealer)  # every table plays one hand: buttons set
    victims = {tid: [p for p, _ in hand_dealer.tables[tid].seats.values()][:4]
               for tid in ("tn1-2", "tn1-3")}
    director.tick()  # every table released for its next hand
    for tid in ("tn1-2", "tn1-3"):  # table 1 stays in its hand
        seats = hand_dealer.tables[tid].seats
        winner = next(p for p, _ in seats.values() if p not in victims[tid])
        hand_dealer.play(tid, _two_bust_to(winner, tuple(victims[tid]))(tid, seats))
    director.tick()
    t = director.get("tn1")
    assert [e.body["table_id"] for e in director.events("tn1", 0, 500)
            if e.kind == "table_broken"] == ["tn1-3"]
    counts = sorted(len(hand_dealer.tables[x].seats) for x in ("tn1-1", "tn1-2"))
    assert counts == [4, 6] and t.max_gap == 2
    assert t.max_gap_held <= 1  # table 1 was in its hand: no balanced pass yet
    hand_dealer.play("tn1-1")
    director.tick()
    t = director.get("tn1")
    assert sorted(len(hand_dealer.tables[x].seats) for x in ("tn1-1", "tn1-2")) == [5, 5]
    assert t.max_gap_held <= 1
    _check_invariants(lobby, director, hand_dealer)


def test_T5_the_moved_player_is_the_one_due_the_big_blind(storage: Storage,
                                                          hand_dealer: HandDealer) -> None:
    lobby, director = _mtt(storage, hand_dealer, 12, 6)
    _hand(director, hand_dealer)
    full = "tn1-1"
    short = "tn1-2"
    victims = [p for p, _ in hand_dealer.tables[short].seats.values()][:2]

    def bust_two(tid: str, s: dict[int, list[Any]]) -> dict[str, int]:
        if tid != short:
            return {}
        return _two_bust_to(next(p for p, _ in s.values() if p not in victims),
                            tuple(victims))(tid, s)

    director.tick()
    hand_dealer.play(short, bust_two(short, hand_dealer.tables[short].seats))
    director.tick()  # the short table's hand: 4 there, 6 at the full one (still playing)
    assert not [e for e in director.events("tn1", 0, 500) if e.kind == "moved"]
    t = hand_dealer.tables[full]
    seats = bal.TableSeats(full, 1, {s: p for s, (p, _) in t.seats.items()}, None, 6)
    hand_dealer.play(full)
    seats = bal.TableSeats(full, 1, {s: p for s, (p, _) in t.seats.items()}, t.button, 6)
    due = seats.players[bal.due_big_blind(seats)[0]]
    director.tick()
    [moved] = [e.body for e in director.events("tn1", 0, 500) if e.kind == "moved"]
    assert moved["player_id"] == due and moved["from_table"] == full
    target = hand_dealer.tables[short]
    short_seats = bal.TableSeats(short, 2, {s: p for s, (p, _) in target.seats.items()
                                            if p != due}, target.button, 6)
    assert moved["to_seat"] == bal.newcomer_seat(short_seats)
    assert target.waits[moved["to_seat"]]  # waits for the big blind: no blind skipped
    _check_invariants(lobby, director, hand_dealer)


@pytest.mark.parametrize("seed", [1, 2])
def test_T5_T9_a_field_played_to_the_end_balanced_after_every_hand(
        storage: Storage, hand_dealer: HandDealer, seed: int) -> None:
    """Random hands (chips change hands, players bust) until one holds every chip: after
    every pass every table is within one player of the others and nobody is at two
    tables or none; places are 1..n, the pool paid, every chip counted."""
    rng = random.Random(seed)
    lobby, director = _mtt(storage, hand_dealer, 20, 6, seed)

    def shuffle_chips(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        players = [(p, k) for p, k in seats.values() if k > 0]
        if len(players) < 2:
            return {}
        (a, ka), (b, kb) = rng.sample(players, 2)
        bet = min(ka, kb) if rng.random() < 0.3 else min(ka, kb, rng.randint(1, 300))
        return {a: ka + bet, b: kb - bet}

    for _ in range(3000):
        _hand(director, hand_dealer, shuffle_chips)
        t = director.get("tn1")
        if t.state == store.FINISHED:
            break
        counts = [len(x.seats) for x in hand_dealer.tables.values() if not x.closed]
        assert max(counts) - min(counts) <= 1 or not all(
            hand_dealer.tables[x].hands >= director.get("tn1").tables[x].released
            for x in t.tables if t.tables[x].open)
        _check_invariants(lobby, director, hand_dealer)
    t = director.get("tn1")
    assert t.state == store.FINISHED and not t.chip_errors
    assert sorted(e.place for e in t.entries.values())[0] == 1
    assert sum(e.prize for e in t.entries.values()) == 2000
    assert t.max_gap_held <= 1 and t.moves > 0 and lobby.audit().ok
    assert any(e.kind == "final_table" for e in director.events("tn1", 0, 1000))


@pytest.mark.parametrize("step", ["unseat_player", "seat_player"])
def test_fault_a_move_killed_midway_is_completed_after_restart(
        storage: Storage, hand_dealer: HandDealer, step: str) -> None:
    lobby, director = _mtt(storage, hand_dealer, 12, 6)
    short = "tn1-2"
    victims = [p for p, _ in hand_dealer.tables[short].seats.values()][:2]
    director.tick()
    hand_dealer.play(short, _two_bust_to(next(p for p, _ in hand_dealer.tables[short]
                                              .seats.values() if p not in victims),
                                         tuple(victims))(short, hand_dealer.tables[short].seats))
    director.tick()
    hand_dealer.fail_after.add(step)  # the lobby dies after the dealer acted
    hand_dealer.play("tn1-1")
    director.tick()  # the move starts and is cut
    pending = lobby.ctx.tx(lambda tx: store.pending_moves(tx, "tn1"))
    assert len(pending) == 1
    player = pending[0].player_id
    restarted = Director(lobby.ctx, DEALERS, rng=random.Random(3))  # a new lobby process
    restarted.tick()  # SQLite: takes over at once; PostgreSQL: waits for the lease
    lobby.ctx.tx(lambda tx: tx.execute("UPDATE tournaments SET lease_until = 0"))
    restarted.tick()
    assert lobby.ctx.tx(lambda tx: store.pending_moves(tx, "tn1")) == []
    where = _seated(hand_dealer)
    assert where[player] == short
    t = restarted.get("tn1")
    assert t.entries[player].table_id == short and t.entries[player].stack == 1000
    _check_invariants(lobby, restarted, hand_dealer)


def test_migration_a_lobby_database_of_before_tournaments_opens(tmp_path: Any) -> None:
    """A lobby database made before tournaments (no tournament tables) opens: the tables
    are made, its players and money untouched, and a tournament runs on it."""
    from services.lobby import schema
    from services.lobby.storage import SqliteStorage
    from services.lobby.tournament.store import STATEMENTS

    path = str(tmp_path / "old.sqlite")
    old = SqliteStorage(path)
    old.ddl([s for s in schema.STATEMENTS if s not in STATEMENTS])
    old.transact(ledger.ensure_operator)
    before = Lobby(old, HandDealer(), DEALERS)
    old.transact(lambda tx: tx.execute("DROP TABLE tournaments"))
    old.transact(lambda tx: tx.execute("DROP TABLE tournament_events"))
    old.transact(lambda tx: tx.execute("DROP TABLE tournament_moves"))
    before.create_player("ann", "Ann")
    before.deposit("ann", 500, "d-1")
    old.close()
    storage = SqliteStorage(path)
    try:
        lobby = Lobby(storage, HandDealer(), DEALERS)
        assert lobby.player("ann").balance == 500
        director = Director(lobby.ctx, DEALERS)
        director.create("after", _structure(), "c-1", "tn1")
        director.register("tn1", "ann", "r-1")
        assert lobby.player("ann").balance == 390 and lobby.audit().ok
    finally:
        storage.close()


def test_T7_hand_for_hand_busts_at_two_tables_in_one_round_ranked_together(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """12 players at tables of 3 (three places paid): at 4 players left, two tables of 2,
    play goes hand for hand; one player busts at each table in the same round: they are
    ranked together by their stacks at the start of the hand (T7, T8)."""
    lobby, director = _mtt(storage, hand_dealer, 12, 3)
    rng = random.Random(5)

    def one_bust_a_table(tid: str, seats: dict[int, list[Any]]) -> dict[str, int]:
        t = director.get("tn1")
        if len(t.players_left()) <= 4:
            return {}
        players = [(p, k) for p, k in seats.values() if k > 0]
        if len(players) < 2 or rng.random() < 0.5:
            return {}
        (a, ka), (b, kb) = rng.sample(players, 2)
        return {a: ka + kb, b: 0}

    for _ in range(200):
        _hand(director, hand_dealer, one_bust_a_table)
        if len(director.get("tn1").players_left()) <= 4:
            break
    assert len(director.get("tn1").players_left()) == 4  # one bust a table a hand at most
    director.tick()
    t = director.get("tn1")
    assert t.hand_for_hand and len([x for x in t.open_tables()]) == 2
    # Stacks at the start of the round, then one bust a table in the same round.
    stacks = {e.player_id: e.stack for e in t.players_left()}
    by_table: dict[str, list[str]] = {}
    for e in t.players_left():
        by_table.setdefault(e.table_id, []).append(e.player_id)
    losers = {tid: min(ps, key=lambda p: (stacks[p], p)) for tid, ps in by_table.items()}
    for tid, ps in by_table.items():
        winner = next(p for p in ps if p != losers[tid])
        assert hand_dealer.can_deal(tid)
        hand_dealer.play(tid, {losers[tid]: 0, winner: stacks[winner] + stacks[losers[tid]]})
        if tid == next(iter(by_table)):
            director.tick()  # one table done: hand for hand, nothing happens yet
            assert all(e.status == store.PLAYING for e in director.get("tn1").players_left()
                       ) and len(director.get("tn1").players_left()) == 4
            assert not hand_dealer.can_deal(tid)  # it waits for the other table
    director.tick()
    t = director.get("tn1")
    a, b = sorted(losers.values(), key=lambda p: -stacks[p])
    expected = (3, 4) if stacks[a] != stacks[b] else (3, 3)
    assert (t.entries[a].place, t.entries[b].place) == expected
    assert any(e.kind == "hand_for_hand" and e.body["on"] for e in director.events("tn1", 0, 999))


def test_T3_one_clock_levels_and_a_break_hold_every_table(storage: Storage,
                                                          hand_dealer: HandDealer) -> None:
    """The level rises for every table at its next hand (the dealer told the index); a
    break holds every table until it is over."""
    import time

    levels = (LevelSpec(10, 20, 0, 0.01), LevelSpec(0, 0, 0, 0.01, True),
              LevelSpec(20, 40, 5, 60.0))
    lobby, director = _room(storage, hand_dealer, 12, table_size=6, max_players=12,
                            levels=levels)
    _register(director, range(12))
    director.tick()
    _hand(director, hand_dealer)
    assert all(t.level == 0 for t in hand_dealer.tables.values())
    time.sleep(0.7)  # into the break
    _hand(director, hand_dealer)
    director.tick()
    assert director.get("tn1").level == 1
    assert not any(hand_dealer.can_deal(tid) for tid in hand_dealer.tables)  # on a break
    time.sleep(0.7)  # the break is over: level 2 (the dealer's second level)
    director.tick()
    assert all(hand_dealer.can_deal(tid) for tid in hand_dealer.tables)
    assert all(t.level == 1 for t in hand_dealer.tables.values())
    kinds = [e.kind for e in director.events("tn1", 0, 999)]
    assert kinds.count("break") == 1 and kinds.count("level_up") == 1
    assert director.get("tn1").chip_checks >= 2


def test_T1_a_scheduled_tournament_short_of_its_minimum_is_cancelled_and_refunded(
        storage: Storage, hand_dealer: HandDealer) -> None:
    import time

    lobby, director = _room(storage, hand_dealer, 3, max_players=0, min_players=3,
                            start_unix_ms=int(time.time() * 1000) + 3000)
    _register(director, range(2))
    director.tick()
    assert director.get("tn1").state == store.REGISTERING  # not yet its time
    time.sleep(3.1)
    director.tick()
    assert director.get("tn1").state == store.CANCELLED
    assert _balances(lobby, 3) == [1000] * 3 and lobby.audit().ok
    assert not hand_dealer.tables


def _counting(director: Director) -> list[float]:
    """Each tick's answer (seconds until the next pass is due), as the loop sees it."""
    dues: list[float] = []
    tick = director.tick

    def counted() -> float:
        due = tick()
        dues.append(due)
        return due

    director.tick = counted  # type: ignore[method-assign]
    return dues


def _until(done: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_an_idle_director_looks_seldom_and_a_new_tournament_wakes_it_at_once(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """A room with no tournament under way runs no transaction every POLL_S (33 a
    second): with none, or a sit-and-go only registering, its loop waits `idle` between
    looks; `create` and each entry wake it, and the entry that fills the sit-and-go
    starts it at once, after which it ticks every `interval`."""
    lobby = Lobby(storage, hand_dealer, DEALERS)
    for i in range(6):
        lobby.create_player(f"p{i}", f"P{i}")
        lobby.deposit(f"p{i}", 1000, f"dep-{i}")
    director = Director(lobby.ctx, DEALERS, rng=random.Random(7))
    dues = _counting(director)
    director.start_loop(interval=0.01, idle=600.0)
    try:
        time.sleep(0.5)  # 50 looks at the busy pace
        assert dues == [math.inf]
        director.create("t", _structure(), "create-1", "tn1")
        # Each change wakes it once (wake-ups close together make one look); on
        # PostgreSQL its own notification does not wake it again (another lobby's does).
        wakes = 1
        _until(lambda: len(dues) >= 2)
        time.sleep(0.3)
        assert 2 <= len(dues) <= 1 + wakes and set(dues) == {math.inf}  # nothing to hurry
        _register(director, range(5))
        time.sleep(0.3)
        assert len(dues) <= 1 + 6 * wakes and set(dues) == {math.inf}  # not 80 looks
        assert director.get("tn1").state == store.REGISTERING
        _register(director, range(5, 6))  # full: the wake-up starts it
        _until(lambda: dues.count(0.0) >= 3)
        assert dues.count(0.0) >= 3  # then the busy pace
        assert director.get("tn1").state == store.RUNNING
    finally:
        director.stop()
    assert director._thread is not None and not director._thread.is_alive()


def test_a_director_waits_for_a_scheduled_start_not_at_the_busy_pace(
        storage: Storage, hand_dealer: HandDealer) -> None:
    """A scheduled tournament registering is looked at when its start is due (at most
    `idle` apart), not 33 times a second until then; at that time it starts."""
    lobby = Lobby(storage, hand_dealer, DEALERS)
    for i in range(3):
        lobby.create_player(f"p{i}", f"P{i}")
        lobby.deposit(f"p{i}", 1000, f"dep-{i}")
    director = Director(lobby.ctx, DEALERS, rng=random.Random(7))
    start = int(time.time() * 1000) + 1500
    director.create("t", _structure(start_unix_ms=start, min_players=2, max_players=0),
                    "create-1", "tn1")
    _register(director, range(3))
    dues = _counting(director)
    director.start_loop(interval=0.01, idle=600.0)
    try:
        # STARTING lies between (its tables being opened): read once it is past that.
        _until(lambda: director.get("tn1").state not in (store.REGISTERING, store.STARTING))
        assert director.get("tn1").state == store.RUNNING
        assert time.time() * 1000 >= start
        waiting = [d for d in dues if d > 0]
        assert 1 <= len(waiting) <= 3 and 0.5 < waiting[0] <= 1.5, dues  # not 150 looks
    finally:
        director.stop()
