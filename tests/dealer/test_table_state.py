"""The table's rules with no I/O: decide(state, command, now) and apply, command by command,
refusals included; and a property: the live table's state is the fold of its log."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker import deckproof
from poker.limits import MAX_CHIPS
from poker.vocab import table_events as ev
from services.dealer import deck
from services.dealer.engine import (
    ActionTaken,
    HandEnded,
    HandStarted,
    IllegalAction,
    Level,
    NotYourTurn,
    TableConfig,
)
from services.dealer.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    TableNotFound,
)
from services.dealer.store import Store
from services.dealer.table import commands as c
from services.dealer.table.decide import decide, needs_button_draw
from services.dealer.table.state import (
    SeedHeld,
    Stored,
    TableState,
    apply,
    hold_seed,
)
from services.dealer.tables import Table, TableOptions
from services.evaluator.ranker import DEFAULT_RANKER
from tests.dealer.helpers import stored_events

NOW = 1_700_000_000_000
DECK = deck.ShuffledDeck(tuple(range(52)), tuple(bytes([i]) * 16 for i in range(52)))


def _state(**config: Any) -> TableState:
    return TableState("t", TableConfig(**config), DEFAULT_RANKER)


def _step(state: TableState, command: c.Command, now: int = NOW) -> list[Any]:
    """decide, then fold its events as the shell files them (no store, no loop)."""
    hand_id = ""
    if type(command) is c.StartHand:
        hand_id = f"t-{state.hands_played + 1}"
    elif state.hand is not None:
        hand_id = state.hand.hand_id
    elif state.seeding is not None:
        hand_id = state.seeding.hand_id
    events = decide(state, command, now)
    for event in events:
        if type(event) is SeedHeld:
            hold_seed(state, event)
            continue
        filed = "" if type(event) in ev.TABLE_EVENTS else hand_id
        apply(state, Stored(state.last_sequence + 1, filed, now, event))
    return events


def _seated(n: int = 2, stack: int = 1000, **config: Any) -> TableState:
    state = _state(**config)
    for seat in range(n):
        _step(state, c.SeatPlayer(seat, f"p{seat}", stack))
    return state


def _started(n: int = 2, **config: Any) -> TableState:
    state = _seated(n, **config)
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    return state


def _refused(state: TableState, command: c.Command, error: type[Exception],
             match: str | None = None) -> None:
    """The command is refused, and deciding it changed nothing."""
    before = (state.snapshot(), None if state.hand is None else len(state.hand.events))
    with pytest.raises(error, match=match):
        decide(state, command, NOW)
    assert (state.snapshot(), None if state.hand is None else len(state.hand.events)) == before


def _act(state: TableState, kind: str, amount: int = 0) -> list[Any]:
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    return _step(state, c.Act(turn.seat, hand.hand_id, turn.action_number, kind, amount))


# ------------------------------------------------------------------ seating

def test_R30_seat_player_seats_with_a_stack() -> None:
    state = _state()
    assert decide(state, c.SeatPlayer(None, "ann", 500), NOW) == [
        ev.PlayerSeated(0, "ann", 500, False)]
    _step(state, c.SeatPlayer(3, "bob", 700, wait_for_big_blind=True))
    assert state.seats[3].stack == 700 and state.seats[3].wait_for_big_blind
    assert state.seated_at[3] == 1 and state.last_sequence == 1


def test_R30_seat_player_refusals() -> None:
    state = _seated(1)
    _refused(state, c.SeatPlayer(1, "x", 0), InvalidArgument, "more than 0")
    _refused(state, c.SeatPlayer(1, "", 10), InvalidArgument, "player_id")
    _refused(state, c.SeatPlayer(1, "p0", 10), AlreadyExists, "already seated")
    _refused(state, c.SeatPlayer(0, "x", 10), AlreadyExists, "taken")
    _refused(state, c.SeatPlayer(6, "x", 10), InvalidArgument, "not a seat")
    _refused(state, c.SeatPlayer(1, "x", MAX_CHIPS), FailedPrecondition, "maximum")
    full = _seated(2, seats=2)
    _refused(full, c.SeatPlayer(None, "x", 10), FailedPrecondition, "full")


def test_R30_add_chips_between_hands_only() -> None:
    state = _seated(3)
    _step(state, c.AddChips(2, 250, "k1"))
    assert state.seats[2].stack == 1250 and state.chip_keys["k1"] == (2, 250, 1250)
    _refused(state, c.AddChips(2, 0, "k2"), InvalidArgument)
    _refused(state, c.AddChips(4, 10, "k2"), TableNotFound, "empty")
    _refused(state, c.AddChips(9, 10, "k2"), InvalidArgument, "not a seat")
    _refused(state, c.AddChips(2, MAX_CHIPS, "k2"), FailedPrecondition, "maximum")
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    _refused(state, c.AddChips(0, 10, "k2"), FailedPrecondition, "between hands")


def test_R31_unseat_returns_the_stack_between_hands() -> None:
    state = _seated(3)
    assert _step(state, c.Unseat(1)) == [ev.PlayerUnseated(1, "p1", 1000)]
    assert 1 not in state.seats
    _refused(state, c.Unseat(1), TableNotFound)
    _step(state, c.SeatPlayer(1, "p1", 1000))
    _step(state, c.StartHand(DECK, (0, {0: 51, 1: 0, 2: 1})))
    _refused(state, c.Unseat(0), FailedPrecondition, "between hands")


def test_R4_R5_set_button_for_the_first_hand_only() -> None:
    state = _seated(2)
    assert needs_button_draw(state)
    _refused(state, c.SetButton(7), InvalidArgument)
    assert _step(state, c.SetButton(1)) == [ev.ButtonSet(1)]
    assert state.button == 1 and not needs_button_draw(state)
    assert _step(state, c.SetButton(1)) == []  # told twice: one ButtonSet
    assert _step(state, c.SetButton(0)) == [ev.ButtonSet(0)]  # a new draw replaces it
    _step(state, c.StartHand(DECK))
    _refused(state, c.SetButton(0), FailedPrecondition, "first hand only")


def test_R9_set_level_counts_from_the_next_hand() -> None:
    levels = (Level(50, 100), Level(100, 200))
    state = _seated(2, levels=levels)
    _refused(state, c.SetLevel(2), InvalidArgument, "not a level")
    _step(state, c.SetLevel(1), now=NOW + 5)
    assert state.level_base == (1, 0, NOW + 5)
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    assert state.hand is not None and state.hand.level == levels[1]


def test_R32_sit_out_and_in() -> None:
    state = _seated(2)
    assert _step(state, c.SitOut(1)) == [ev.PlayerSatOut(1, "requested")]
    assert state.seats[1].sitting_out
    assert decide(state, c.SitOut(1), NOW) == []  # already out
    assert decide(state, c.StartHand(DECK, (0, {0: 1, 1: 2})), NOW) == []  # one player
    assert _step(state, c.SitIn(1)) == [ev.PlayerSatIn(1)]
    assert decide(state, c.SitIn(1), NOW) == []
    _refused(state, c.SitOut(3), TableNotFound)


def _play_out(state: TableState) -> list[Any]:
    """Folds to the end of the running hand; the events of the write that ended it."""
    events: list[Any] = []
    while state.hand is not None:
        events = _act(state, "fold")
    return events


def test_sit_out_after_a_hand_deals_it_and_sits_out_with_its_end() -> None:
    """SitOut with after_hand: a SitOutScheduled now, the seat dealt every hand up to
    that one, and its PlayerSatOut in the write that ends it; never dealt after it."""
    state = _seated(3)
    _step(state, c.SetButton(0))
    assert _step(state, c.SitOut(1, after_hand=2)) == [ev.SitOutScheduled(1, 2)]
    assert state.seats[1].sit_out_after == 2 and not state.seats[1].sitting_out
    assert decide(state, c.SitOut(1, after_hand=2), NOW) == []  # asked again: nothing new
    dealt = []
    for number in (1, 2, 3):
        started = _step(state, c.StartHand(DECK))
        dealt.append([p.seat for e in started if type(e) is HandStarted for p in e.players])
        ended = _play_out(state)
        sat_out = [e for e in ended if type(e) is ev.PlayerSatOut]
        assert sat_out == ([ev.PlayerSatOut(1, "requested")] if number == 2 else [])
        if number == 2:  # after the proof, in the same write
            assert ended.index(sat_out[0]) > ended.index(
                next(e for e in ended if type(e) is ev.DeckRevealed))
    assert dealt == [[0, 1, 2], [0, 1, 2], [0, 2]]
    assert state.seats[1].sitting_out and state.seats[1].sit_out_after == 0


def test_sit_out_after_a_hand_begun_already_is_at_once_and_sit_in_cancels_one_to_come() -> None:
    state = _started(3)  # hand 1 runs
    assert _step(state, c.SitOut(2, after_hand=1)) == [ev.PlayerSatOut(2, "requested")]
    assert _step(state, c.SitOut(1, after_hand=5)) == [ev.SitOutScheduled(1, 5)]
    assert _step(state, c.SitOut(1, after_hand=3)) == [ev.SitOutScheduled(1, 3)]  # the latest
    assert _step(state, c.SitIn(1)) == [ev.SitOutScheduled(1, 0)]
    assert state.seats[1].sit_out_after == 0 and decide(state, c.SitIn(1), NOW) == []
    _refused(state, c.SitOut(1, after_hand=0), InvalidArgument, "after_hand")
    _refused(state, c.SitOut(1, after_hand=2**53 + 1), InvalidArgument, "after_hand")


def test_sit_out_after_the_running_hand_follows_its_void_too() -> None:
    state = _started(2)
    _step(state, c.SitOut(0, after_hand=1))  # hand 1 has begun: at once
    state = _started(3)
    _step(state, c.SitOut(1, after_hand=2))
    _play_out(state)
    _step(state, c.StartHand(DECK))  # hand 2
    voided, sat_out = _step(state, c.VoidHand("restart"))
    assert type(voided) is ev.HandVoided and sat_out == ev.PlayerSatOut(1, "requested")
    assert state.seats[1].sitting_out


def test_a_scheduled_sit_out_is_in_the_snapshot_and_an_older_snapshot_has_none() -> None:
    state = _seated(2)
    _step(state, c.SitOut(1, after_hand=4))
    snapshot = state.snapshot()
    again = TableState.from_snapshot("t", state.config, None, snapshot)
    assert again.snapshot() == snapshot and again.seats[1].sit_out_after == 4
    older = {**snapshot, "seats": [row[:9] for row in snapshot["seats"]]}  # before it
    assert TableState.from_snapshot("t", state.config, None, older).seats[1].sit_out_after == 0


# ------------------------------------------------------------------- hands

def test_start_hand_draws_the_button_and_deals_in_one_list() -> None:
    state = _seated(3)
    events = _step(state, c.StartHand(DECK, (2, {0: 3, 1: 7, 2: 51})))
    kinds = [type(e).__name__ for e in events]
    assert kinds[:3] == ["ButtonSet", "HandSalt", "HandStarted"] and kinds[-1] == "TurnStarted"
    assert state.button == 2 and state.hands_played == 1 and state.hand is not None
    assert state.hand.hand_id == "t-1" and state.deck == DECK.cards
    assert state.turn == events[-1] and events[-1].deadline_ms == NOW + 30_000
    # R3: every hole card is opened with its salt.
    dealt = [e for e in events if type(e).__name__ == "HoleCardsDealt"]
    assert dealt and all(e.salts == tuple(DECK.salts[x] for x in e.cards) for e in dealt)
    assert decide(state, c.StartHand(DECK), NOW) == []  # a hand is running


def test_act_decides_on_a_fork_and_apply_folds_it() -> None:
    state = _started(3)
    hand = state.hand
    assert hand is not None and state.turn is not None
    turn = state.turn
    seen = len(hand.events)
    events = decide(state, c.Act(turn.seat, hand.hand_id, turn.action_number, "fold", 0), NOW)
    assert len(hand.events) == seen and state.turn is turn  # decide changed nothing
    assert type(events[0]) is ActionTaken and type(events[-1]) is ev.TurnStarted
    assert events[-1].action_number == turn.action_number + 1
    _step(state, c.Act(turn.seat, hand.hand_id, turn.action_number, "fold", 0))
    assert state.turn == events[-1] and hand.events[seen:] == events[:-1]


def test_act_refusals() -> None:
    state = _started(3)
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    other = next(p.seat for p in hand.players if p.seat != turn.seat)
    n = turn.action_number
    _refused(state, c.Act(turn.seat, "t-9", n, "fold", 0), FailedPrecondition, "current hand")
    _refused(state, c.Act(turn.seat, hand.hand_id, n + 1, "fold", 0), FailedPrecondition,
             "awaited decision")
    _refused(state, c.Act(other, hand.hand_id, n, "fold", 0), NotYourTurn)
    _refused(state, c.Act(turn.seat, hand.hand_id, n, "check", 0), IllegalAction)
    _refused(state, c.Act(turn.seat, hand.hand_id, n, "dance", 0), InvalidArgument)
    _refused(state, c.Act(turn.seat, hand.hand_id, n, "raise", 0), InvalidArgument)
    _refused(state, c.Act(turn.seat, hand.hand_id, n, "fold", 5), InvalidArgument)


def test_a_hand_ends_with_its_proof_and_the_stacks() -> None:
    state = _started(2)
    events = _act(state, "fold")
    assert type(events[-2]) is HandEnded and type(events[-1]) is ev.DeckRevealed
    assert events[-1].deck == DECK.cards and events[-1].salts == DECK.salts
    assert state.hand is None and state.turn is None
    assert sorted(s.stack for s in state.seats.values()) == [950, 1050]


def test_T8_the_state_keeps_when_the_last_hand_ended_and_its_snapshot_too() -> None:
    state = _started(2)
    assert state.hand_ended_ms == 0
    hand = state.hand
    assert hand is not None
    turn = state.turn
    assert turn is not None
    _step(state, c.Act(turn.seat, hand.hand_id, state.action_number, "fold", 0), NOW + 7)
    assert state.hand is None and state.hand_ended_ms == NOW + 7  # HandEnded's time
    again = TableState.from_snapshot("t", state.config, None, state.snapshot())
    assert again.hand_ended_ms == NOW + 7
    older = {k: v for k, v in state.snapshot().items() if k != "hand_ended_ms"}
    assert TableState.from_snapshot("t", state.config, None, older).hand_ended_ms == 0


def test_R32_the_clock_folds_and_sits_out_a_bet_decision() -> None:
    state = _started(3)
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    assert decide(state, c.ClockRang(hand.hand_id, turn.action_number + 1), NOW) == []
    assert decide(state, c.ClockRang("t-0", turn.action_number), NOW) == []
    events = _step(state, c.ClockRang(hand.hand_id, turn.action_number))
    assert events[0] == ev.TurnTimedOut(turn.seat, turn.action_number)
    assert ev.PlayerSatOut(turn.seat, "timed_out") in events
    assert state.seats[turn.seat].sitting_out


def test_close_voids_a_running_hand_only_when_asked() -> None:
    state = _started(2)
    _refused(state, c.Close(False), FailedPrecondition, "in progress")
    events = _step(state, c.Close(True))
    assert type(events[0]) is ev.HandVoided and events[1] == ev.TableClosed(
        ((0, "p0", 1000), (1, "p1", 1000)))
    assert state.closed and not state.seats and state.hand is None
    for command in (c.SeatPlayer(0, "x", 10), c.SetLevel(0), c.SitIn(0), c.Close(True)):
        _refused(state, command, FailedPrecondition, "closed")


def test_void_hand_and_resume() -> None:
    state = _started(2)
    turn = state.turn
    assert turn is not None
    [resumed] = decide(state, c.Resume(), NOW + 1)
    assert resumed.action_number == turn.action_number and resumed.deadline_ms == NOW + 30_001
    [voided] = _step(state, c.VoidHand("restart"))
    assert voided == ev.HandVoided(((0, 1000), (1, 1000)), "restart") and state.hand is None
    assert decide(state, c.VoidHand("again"), NOW) == [] == decide(state, c.Resume(), NOW)


# ---------------------------------------------------------------- R39 seeds

def _chained(seats: int = 2) -> tuple[TableState, dict[int, list[bytes]]]:
    state = _seated(seats, player_seeded_decks=True)
    chains = {s: deckproof.chain(bytes([s + 1]) * 32, 5) for s in range(seats)}
    for seat, links in chains.items():
        _step(state, c.CommitSeeds(seat, links[-1]))
    _step(state, c.SetButton(0))
    return state, chains


def test_R39_commit_seeds_refusals() -> None:
    _refused(_seated(2), c.CommitSeeds(0, bytes(32)), FailedPrecondition, "player-seeded")
    state, _ = _chained()
    _refused(state, c.CommitSeeds(0, bytes(32)), AlreadyExists, "once per seating")
    _refused(state, c.CommitSeeds(3, bytes(32)), TableNotFound)
    fresh = _seated(2, player_seeded_decks=True)
    _refused(fresh, c.CommitSeeds(0, bytes(31)), InvalidArgument, "32 bytes")


def test_R39_the_deal_waits_for_every_chained_seed() -> None:
    state, chains = _chained(3)
    events = _step(state, c.StartHand(DECK))
    committed = events[-1]
    assert type(committed) is ev.DeckCommitted and committed.seats == (0, 1, 2)
    assert committed.deadline_ms == NOW + 1_000 and state.hand is None
    assert state.seeding is not None and state.seeding.hand_id == "t-1"
    seed = {s: links[-2] for s, links in chains.items()}
    _refused(state, c.RevealSeed(0, "t-2", seed[0]), FailedPrecondition, "not awaiting")
    _refused(state, c.RevealSeed(0, "t-1", bytes(32)), InvalidArgument, "SHA-256")
    _refused(state, c.RevealSeed(0, "t-1", bytes(3)), InvalidArgument, "32-byte")
    _refused(state, c.Unseat(0), FailedPrecondition, "awaiting its seeds")
    assert _step(state, c.RevealSeed(0, "t-1", seed[0])) == [SeedHeld(0, seed[0])]
    assert decide(state, c.RevealSeed(0, "t-1", seed[0]), NOW) == []  # a retry
    _refused(state, c.RevealSeed(0, "t-1", seed[1]), FailedPrecondition, "already")
    _step(state, c.RevealSeed(1, "t-1", seed[1]))
    events = _step(state, c.RevealSeed(2, "t-1", seed[2]))
    seeded = events[0]
    assert type(seeded) is ev.DeckSeeded and type(events[1]) is HandStarted
    p = deckproof.permutation([seed[0], seed[1], seed[2]])
    assert seeded.permutation == tuple(p) and state.permutation == tuple(p)
    assert state.deck == deckproof.dealt_order(DECK.cards, p) and state.seeding is None
    assert state.chains[2][0] == seed[2] and hashlib.sha256(seed[2]).digest() == chains[2][-1]


def test_R39_the_seed_time_deals_with_the_seeds_in() -> None:
    state, chains = _chained(2)
    _step(state, c.StartHand(DECK))
    _step(state, c.RevealSeed(1, "t-1", chains[1][-2]))
    events = _step(state, c.DealSeeded())
    assert events[0].seeds == ((0, b""), (1, chains[1][-2])) and state.hand is not None
    assert decide(state, c.DealSeeded(), NOW) == []


# ---------------------------------------------------------------- snapshots

def test_the_snapshot_is_the_state_between_hands() -> None:
    state = _started(3)
    while state.hand is not None:
        _act(state, "fold")
    _step(state, c.AddChips(0, 5, "k"))
    again = TableState.from_snapshot("t", state.config, None, state.snapshot())
    assert again.snapshot() == state.snapshot()


# ------------------------------------------------- the shell is the fold of its log

_COMMANDS = st.lists(st.tuples(st.sampled_from(
    ["act", "act", "act", "act", "sit_out", "sit_in", "add", "unseat", "seat", "level",
     "clock", "reveal", "reveal", "seed_time", "sit_out_after"]), st.integers(0, 5),
    st.integers(0, 10**6)),
    min_size=20, max_size=120)


def _drive(table: Table, step: tuple[str, int, int], chains: dict[int, list[bytes]]) -> None:
    what, seat, r = step
    try:
        seeding = table.state.seeding
        if what == "reveal" and seeding is not None and seat in chains:
            links = chains[seat]
            last = table.chains[seat][0] if seat in table.chains else links[-1]
            table.reveal_seed(seat, seeding.hand_id, links[max(links.index(last) - 1, 0)])
        elif what == "seed_time" and seeding is not None:
            table._deal_seeded_safely()
        elif what == "act" and table.turn is not None and table.hand is not None:
            turn = table.turn
            if turn.decision == "show_or_muck":
                kind, amount = ("muck" if turn.can_muck and r % 2 else "show"), 0
            elif turn.bet_kind and r % 4 == 0:
                kind, amount = turn.bet_kind, min(turn.max_to, turn.min_to + r % 300)
            elif turn.can_fold and r % 3 == 0:
                kind, amount = "fold", 0
            else:
                kind, amount = ("check" if turn.can_check else "call"), 0
            table.act(turn.seat, table.hand.hand_id, turn.action_number, kind, amount)
        elif what == "clock" and table.turn is not None and table.hand is not None:
            table._on_deadline(table.hand.hand_id, table.turn.action_number)
        elif what == "sit_out":
            table.sit_out(seat)
        elif what == "sit_out_after":  # a hand to come, the running one, or one gone by
            table.sit_out(seat, max(1, table.state.hands_played - 1 + r % 4))
        elif what == "sit_in":
            table.sit_in(seat)
        elif what == "add":
            table.add_chips(seat, 1 + r % 500, f"k{r}")
        elif what == "unseat":
            table.unseat(seat)
        elif what == "seat":
            table.seat_player(seat, f"q{r}", 1 + r % 2000, bool(r % 2), "")
        elif what == "level":
            table.set_level(r % 2)
    except (FailedPrecondition, InvalidArgument, AlreadyExists, TableNotFound):
        pass


def _unsalted(events: Any) -> list[Any]:
    """A hand's events as the engine made them: the log's carry their salts (R3)."""
    return [dataclasses.replace(e, salts=()) if getattr(e, "salts", None) else e
            for e in events]


def _view(state: TableState) -> tuple[Any, ...]:
    hand, seeding = state.hand, state.seeding
    held = None if seeding is None else (seeding.plan, seeding.hand_id, seeding.shuffled,
                                         seeding.committed_at)  # the seeds are not logged
    return (state.snapshot(), state.turn, state.permutation, state.deck, state.proof, held,
            None if hand is None else (
                hand.hand_id, _unsalted(hand.events), hand.stacks, hand.actor,
                None if hand.actor is None else hand.legal_actions()),
            [(s.sequence, s.hand_id, s.event) for s in state.hand_events])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_COMMANDS, st.booleans())
def test_the_live_table_is_the_fold_of_the_events_it_decided(steps: list[Any],
                                                              seeded: bool) -> None:
    """Random commands to a live table (R39's seeds too, on a seeded table): folding the
    events it logged gives the state it holds."""
    async def play(path: Path) -> None:
        store = Store(path / "d.sqlite")
        config = TableConfig(levels=(Level(50, 100), Level(100, 200)), hands_per_level=3,
                             player_seeded_decks=seeded, seed_time_ms=60_000)
        table = Table("t", config, TableOptions(pause_ms=0), store)
        chains: dict[int, list[bytes]] = {}
        for seat in range(4):
            table.seat_player(seat, f"p{seat}", 300 + 400 * seat, False, "")
            if seeded and seat != 3:  # seat 3 plays without a chain
                chains[seat] = deckproof.chain(bytes([seat + 1]) * 32, 40)
                table.commit_seeds(seat, chains[seat][-1])
        await asyncio.sleep(0)
        for step in steps:
            _drive(table, step, chains)
            if table.hand is None:
                await asyncio.sleep(0)
        folded = TableState("t", config, DEFAULT_RANKER)
        for s in stored_events(table):
            apply(folded, s)
        assert _view(folded) == _view(table.state)
        table.shutdown()
        store.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(play(Path(tmp)))


def test_a_fork_of_the_hand_copies_every_slot_and_owns_its_lists() -> None:
    """decide tries a decision on Hand.fork (HandState.copy, written out slot by slot)."""
    state = _started(4)
    assert state.hand is not None
    original = state.hand._state
    copied = original.copy()
    for name in type(original).__slots__:
        mine, theirs = getattr(original, name), getattr(copied, name)
        assert mine == theirs, name
        assert type(mine) is not list or mine is not theirs, name
