"""R5 (button rules), R7 (heads-up), R10 (joining late), R33 (missed blinds): the seat plan
of each next hand, played at the table-state level (decide + apply, no I/O), with the
scenarios of issue 13 and a property over random busts, joins and sit-outs."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker.vocab import table_events as ev
from poker.vocab.config import PlayerIn
from services.dealer import codec, deck
from services.dealer.engine import (
    BlindKind,
    BlindPosted,
    ButtonRule,
    HandStarted,
    TableConfig,
    blind_seats,
)
from services.dealer.table import commands as c
from services.dealer.table import seatplan
from services.dealer.table.decide import decide
from services.dealer.table.state import SeedHeld, Stored, TableState, apply
from services.evaluator.ranker import DEFAULT_RANKER

NOW = 1_700_000_000_000
DECK = deck.ShuffledDeck(tuple(range(52)), tuple(bytes([i]) * 16 for i in range(52)))


# ----------------------------------------------------------------- the table driver

def _step(state: TableState, command: c.Command) -> list[Any]:
    hand_id = f"t-{state.hands_played + 1}" if type(command) is c.StartHand else (
        state.hand.hand_id if state.hand is not None else "")
    events = decide(state, command, NOW)
    for event in events:
        if type(event) is SeedHeld:
            continue
        filed = "" if type(event) in ev.TABLE_EVENTS else hand_id
        apply(state, Stored(state.last_sequence + 1, filed, NOW, event))
    return events


def _table(seats: list[int], button: int, rule: ButtonRule = ButtonRule.DEAD,
           stack: int = 10_000, **config: Any) -> TableState:
    state = TableState("t", TableConfig(seats=config.pop("size", 6), button_rule=rule,
                                        **config), DEFAULT_RANKER)
    for seat in seats:
        _step(state, c.SeatPlayer(seat, f"p{seat}", stack))
    _step(state, c.SetButton(button))
    return state


class Hand:
    """What a hand's start put on the wire: button, blinds, seats, posts."""

    def __init__(self, events: list[Any]) -> None:
        started = next(e for e in events if isinstance(e, HandStarted))
        self.button = started.button
        self.small, self.big = blind_seats(started)
        self.seats = tuple(p.seat for p in started.players)
        self.posts = [(e.seat, e.blind, e.amount) for e in events if isinstance(e, BlindPosted)]
        self.missed = [(e.seat, e.blind) for e in events if isinstance(e, ev.BlindMissed)]

    @property
    def plan(self) -> tuple[int, int | None, int]:
        return (self.button, self.small, self.big)

    def __repr__(self) -> str:
        return f"Hand(plan={self.plan}, seats={self.seats}, posts={self.posts})"


def _play(state: TableState) -> Hand:
    """Deals the next hand and folds it out (everyone folds to the last player)."""
    events = _step(state, c.StartHand(DECK))
    assert events, "no hand was dealt"
    hand = Hand(events)
    while state.hand is not None and state.turn is not None:
        turn = state.turn
        _step(state, c.Act(turn.seat, state.hand.hand_id, turn.action_number, "fold", 0))
    assert state.hand is None
    return hand


def _leave(state: TableState, *seats: int) -> None:
    for seat in seats:
        _step(state, c.Unseat(seat))


# ------------------------------------------------------------ the scenarios

def test_R5_dead_the_big_blind_busts_seat_3_posts_it_next() -> None:
    state = _table([0, 1, 2, 3], button=0)
    assert _play(state).plan == (0, 1, 2)
    _leave(state, 2)
    hands = [_play(state) for _ in range(3)]
    # Seat 3 was due the big blind in hand 2 and posts it; seat 2's seat is the dead
    # small blind; nobody posts the big blind then the small blind back to back wrongly.
    assert [h.plan for h in hands] == [(1, None, 3), (2, 3, 0), (3, 0, 1)]
    bigs = [2] + [h.big for h in hands]
    assert all(a != b for a, b in zip(bigs, bigs[1:], strict=False))


def test_R5_dead_the_small_blind_busts_a_dead_button_follows() -> None:
    state = _table([0, 1, 2, 3], button=0)
    _play(state)
    _leave(state, 1)
    hands = [_play(state) for _ in range(3)]
    assert [h.plan for h in hands] == [(1, 2, 3), (2, 3, 0), (3, 0, 2)]
    assert hands[0].button not in hands[0].seats  # dead button
    assert [h.big for h in hands] == [3, 0, 2]  # seat 3 no longer skips it


def test_R5_R7_three_handed_the_button_busts_heads_up_without_a_second_big_blind() -> None:
    state = _table([0, 1, 2], button=0)
    assert _play(state).plan == (0, 1, 2)
    _leave(state, 0)
    hand = _play(state)
    assert hand.plan == (2, 2, 1)  # heads-up: the last big blind is the button
    assert _play(state).plan == (1, 1, 2)


def test_R10_newcomer_at_seat_2_of_0_1_3_waits_until_the_button_passes() -> None:
    state = _table([0, 1, 3], button=0)
    assert _play(state).plan == (0, 1, 3)
    _step(state, c.SeatPlayer(2, "new", 10_000))
    second = _play(state)
    assert second.plan == (1, 3, 0) and 2 not in second.seats  # between button and small
    third = _play(state)
    assert third.plan == (3, 0, 1)
    assert 2 in third.seats and (2, BlindKind.LATE, 100) in third.posts  # live, once
    fourth = _play(state)
    assert fourth.plan == (0, 1, 2) and all(k is not BlindKind.LATE for _, k, _ in fourth.posts)


def test_R10_newcomer_at_seat_1_of_0_2_3_posts_and_does_not_take_the_button() -> None:
    state = _table([0, 2, 3], button=0)
    assert _play(state).plan == (0, 2, 3)
    _step(state, c.SeatPlayer(1, "new", 10_000))
    hand = _play(state)
    assert hand.plan == (2, 3, 0)
    assert 1 in hand.seats and (1, BlindKind.LATE, 100) in hand.posts


def test_R10_newcomer_waiting_for_the_big_blind_is_dealt_in_when_it_comes() -> None:
    state = _table([0, 2, 3], button=0)
    _play(state)
    _step(state, c.SeatPlayer(1, "new", 10_000, wait_for_big_blind=True))
    hand = _play(state)
    assert hand.plan == (2, 3, 0) and 1 not in hand.seats
    hand = _play(state)
    assert hand.plan == (3, 0, 1) and (1, BlindKind.BIG, 100) in hand.posts


def test_R10_a_newcomer_in_every_position() -> None:
    """Seats 0, 2, 4, 6, 8 of ten, hand 1 button 0 / 2 / 4; a newcomer at each odd seat: in
    the stretch from the button to the small blind they wait, elsewhere they post live
    or take the big blind, and they never take the button or the small blind unpaid."""
    for newcomer in (1, 3, 5, 7, 9):
        state = _table([0, 2, 4, 6, 8], button=0, size=10)
        _play(state)
        _step(state, c.SeatPlayer(newcomer, "new", 10_000))
        hand = _play(state)
        if newcomer == 5:  # right after the last big blind: the big blind is theirs
            assert hand.plan == (2, 4, 5) and (5, BlindKind.BIG, 100) in hand.posts
            continue
        assert hand.plan == (2, 4, 6)
        if newcomer == 3:  # from the button (2) to the small blind (4): waits
            assert newcomer not in hand.seats
            hand = _play(state)
            assert hand.plan == (4, 6, 8)
        # Dealt in posting a live big blind, never on the button or the small blind.
        assert (newcomer, BlindKind.LATE, 100) in hand.posts, hand
        assert newcomer not in (hand.button, hand.small)
        assert not seatplan.between(newcomer, hand.button, hand.small or hand.button)


def test_R5_two_players_leave_at_once() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    assert _play(state).plan == (0, 1, 2)
    _leave(state, 2, 3)
    hands = [_play(state) for _ in range(3)]
    assert [h.plan for h in hands] == [(1, None, 4), (2, 4, 0), (4, 0, 1)]


def test_R5_dead_button_and_dead_small_blind_in_one_hand() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    _play(state)
    _leave(state, 1, 2)
    hand = _play(state)
    assert hand.plan == (1, None, 3)
    assert hand.button not in hand.seats and hand.seats == (0, 3, 4)
    assert [(s, k) for s, k, _ in hand.posts] == [(3, BlindKind.BIG)]
    assert _play(state).plan == (2, 3, 4)


def test_R5_R7_heads_up_from_three_and_from_four() -> None:
    for leaving, expected in (((1,), (2, 2, 0)), ((2,), (1, 1, 0)), ((0, 1), (2, 2, 3)),
                              ((2, 3), (1, 1, 0)), ((0, 3), (2, 2, 1))):
        seats = [0, 1, 2] if len(leaving) == 1 else [0, 1, 2, 3]
        state = _table(seats, button=0)
        assert _play(state).big == 2
        _leave(state, *leaving)
        hand = _play(state)
        assert hand.plan == expected, leaving
        assert hand.big != 2 and hand.button == hand.small  # R7, no big blind twice


def test_R33_back_before_the_big_blind_passed_owes_nothing() -> None:
    state = _table([0, 1, 2, 3], button=0)
    _play(state)  # 0/1/2
    _step(state, c.SitOut(0))
    hand = _play(state)  # 1/2/3: the big blind has not reached seat 0
    assert 0 not in hand.seats and hand.missed == []
    _step(state, c.SitIn(0))
    hand = _play(state)  # 2/3/0: seat 0 posts its big blind in turn
    assert hand.plan == (2, 3, 0) and (0, BlindKind.BIG, 100) in hand.posts


def test_R33_back_after_the_big_blind_passed_posts_it_live_and_the_small_dead() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    _play(state)  # 0/1/2
    _step(state, c.SitOut(3))
    hand = _play(state)  # the big blind passes seat 3: 1/2/4
    assert hand.plan == (1, 2, 4) and hand.missed == [(3, BlindKind.BIG)]
    hand = _play(state)  # the small blind goes to seat 4, past seat 3
    assert hand.plan == (2, 4, 0) and hand.missed == [(3, BlindKind.SMALL)]
    _step(state, c.SitIn(3))
    hand = _play(state)  # 4/0/1: seat 3 posts the big blind live, the small blind dead
    assert hand.plan == (4, 0, 1)
    assert (3, BlindKind.LATE, 100) in hand.posts and (3, BlindKind.DEAD, 50) in hand.posts
    pots = sum(a for _, _, a in hand.posts)
    assert pots == 50 + 100 + 100 + 50
    assert state.seats[3].missed_big_blind is False
    hand = _play(state)
    assert all(s != 3 or k is BlindKind.BIG for s, k, _ in hand.posts)


def test_R33_back_after_missing_only_the_big_blind_posts_it_live() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    _play(state)  # 0/1/2
    _step(state, c.SitOut(3))
    _play(state)  # 1/2/4: missed the big blind
    _step(state, c.SitIn(3))
    hand = _play(state)  # 2/4/0: seat 3 between the button and the small blind: waits
    assert 3 not in hand.seats
    hand = _play(state)  # 4/0/1
    assert (3, BlindKind.LATE, 100) in hand.posts
    assert all(k is not BlindKind.DEAD for _, k, _ in hand.posts)


def test_R33_waiting_for_the_big_blind_after_missing_it() -> None:
    state = _table([0, 1, 2, 3], button=0)
    _play(state)  # 0/1/2
    _step(state, c.SitOut(3))
    _play(state)  # 1/2/0: the big blind passes 3
    _step(state, c.SitIn(3, wait_for_big_blind=True))  # the player's choice (R33)
    assert state.seats[3].missed_big_blind and state.seats[3].wait_for_big_blind
    hands = [_play(state) for _ in range(3)]
    dealt = [3 in h.seats for h in hands]
    assert dealt.index(True) == [h.big for h in hands].index(3)


def test_R5_moving_rule_keeps_the_seeds_literal_reading() -> None:
    state = _table([0, 1, 2, 3], button=0, rule=ButtonRule.MOVING)
    _play(state)
    _leave(state, 2)
    hands = [_play(state) for _ in range(3)]
    assert [h.plan for h in hands] == [(1, 3, 0), (3, 0, 1), (0, 1, 3)]


def test_R5_moving_rule_heads_up_from_three_no_big_blind_twice() -> None:
    state = _table([0, 1, 2], button=0, rule=ButtonRule.MOVING)
    _play(state)
    _leave(state, 0)
    assert _play(state).plan == (2, 2, 1)


def test_R5_min_players_to_start_waits_for_the_table_to_fill() -> None:
    state = TableState("t", TableConfig(min_players_to_start=3), DEFAULT_RANKER)
    _step(state, c.SeatPlayer(0, "a", 1000))
    _step(state, c.SeatPlayer(1, "b", 1000))
    assert decide(state, c.StartHand(DECK, (0, {0: 51, 1: 0})), NOW) == []
    _step(state, c.SeatPlayer(2, "c", 1000))
    _step(state, c.SetButton(0))
    assert _play(state).seats == (0, 1, 2)


# ------------------------------------------------------------------ the property

@st.composite
def _histories(draw: Any) -> list[tuple[str, int]]:
    steps = []
    for _ in range(draw(st.integers(8, 40))):
        steps.append((draw(st.sampled_from(["play", "play", "play", "bust", "join", "out",
                                             "in"])), draw(st.integers(0, 7))))
    return steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_histories())
def test_R5_R33_property_dead_rule_every_orbit_one_big_blind_none_twice_in_a_row(
        steps: list[tuple[str, int]]) -> None:
    """Under `dead`: nobody posts the big blind in two hands in a row, nobody dealt in two
    hands running is passed by it, and in every orbit of the same players dealt in each of
    them posts it exactly once."""
    state = _table([0, 2, 3, 5, 6], button=0, size=8)
    hands: list[Hand] = []
    joined = 0
    for action, seat in steps:
        if action == "play":
            if sum(1 for s in state.seats.values() if not s.sitting_out) >= 2:
                hands.append(_play(state))
        elif action == "bust" and seat in state.seats and len(state.seats) > 2:
            _leave(state, seat)
        elif action == "join" and seat not in state.seats:
            joined += 1
            _step(state, c.SeatPlayer(seat, f"n{joined}", 10_000))
        elif action == "out" and seat in state.seats:
            _step(state, c.SitOut(seat))
        elif action == "in" and seat in state.seats:
            _step(state, c.SitIn(seat))
    bigs = [h.big for h in hands]
    for a, b in zip(bigs, bigs[1:], strict=False):
        assert a != b, bigs
    # Nobody skips it: from one hand to the next the big blind passes no seat dealt in
    # both (the moving rule fails this when a blind's seat empties).
    for a, b in zip(hands, hands[1:], strict=False):
        both = set(a.seats) & set(b.seats)
        skipped = [s for s in both if s != b.big and seatplan.between(s, a.big, b.big)]
        assert not skipped, (a, b)
    # In every window of consecutive hands with the same players dealt in, three
    # handed or more, each of them posts the big blind once per len(players) hands.
    i = 0
    while i < len(hands):
        j = i
        while j + 1 < len(hands) and hands[j + 1].seats == hands[i].seats:
            j += 1
        window = hands[i:j + 1]
        n = len(hands[i].seats)
        if n >= 3:
            for k in range(0, len(window) - n + 1):
                orbit = [h.big for h in window[k:k + n]]
                assert sorted(orbit) == sorted(hands[i].seats), (orbit, hands[i].seats)
        i = j + 1


# ------------------------------------------------------------- old data still reads

def test_R5_old_events_and_snapshots_without_the_blinds_seats_still_read() -> None:
    """A store written before R5's seat plans: HandStarted without the blinds' seats,
    PlayerIn without the dead small blind, TableConfig without button_rule, a snapshot
    without last_blinds nor the missed-blind flags. They read with the defaults: R6/R7
    from the button, the dead rule from the next hand on."""
    state = _table([0, 1, 2, 3], button=0)
    _play(state)
    players = tuple(PlayerIn(s, f"p{s}", 100) for s in (0, 1, 2))
    # the store's format 1 (JSON, as the migration reads it) of the hand before R5
    old = {"t": "HandStarted", **codec.encode(HandStarted("t-1", TableConfig(),
                                                          TableConfig().levels[0], players, 0))}
    for key in ("small_blind_seat", "big_blind_seat"):
        old.pop(key)
    old["config"].pop("button_rule")
    old["config"].pop("min_players_to_start")
    for player in old["players"]:
        player.pop("posts_dead_small_blind")
    read = codec.loads_json(json.dumps(old))
    assert (read.small_blind_seat, read.big_blind_seat) == (None, None)
    assert read.config.button_rule is ButtonRule.DEAD
    assert blind_seats(read) == (1, 2)
    snapshot = state.snapshot()
    snapshot.pop("last_blinds")
    snapshot["seats"] = [row[:6] for row in snapshot["seats"]]
    restored = TableState.from_snapshot("t", state.config, DEFAULT_RANKER, snapshot)
    assert restored.last_blinds is None and not restored.seats[0].missed_big_blind
    assert _play(restored).plan == (1, 2, 3)  # R6 from the button 0: blinds were 1 and 2


def test_R33_nobody_misses_a_blind_in_the_first_hand() -> None:
    state = _table([0, 1, 2, 3], button=0)
    _step(state, c.SitOut(3))
    hand = _play(state)
    assert hand.missed == [] and 3 not in hand.seats
    assert not state.seats[3].missed_big_blind


def test_R5_from_heads_up_back_to_four_nobody_posts_the_big_blind_twice() -> None:
    """Seen over gRPC with busts and rebuys: heads-up (button 1 on the small blind, big
    blind 0), then two players back. `dead` alone would put the button on the new big
    blind; the blinds move on (big 1, small 0) and the button goes before the small."""
    players = [seatplan.Player(s) for s in (0, 1, 2, 4)]
    made = seatplan.plan(ButtonRule.DEAD, players, seatplan.Last(1, 1, 0), 1)
    assert made is not None
    assert (made.button, made.small_blind, made.big_blind) == (4, 0, 1)
