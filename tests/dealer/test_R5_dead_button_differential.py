"""R5 `dead` against PokerKit: random sequences of hands at one table with busts, joins,
sit-outs and rebuys, each hand dealt by the table's own seat plan (a dead button, no
small blind, live big blinds out of turn, missed small blinds posted dead), and
played the same way through PokerKit given the same forced bets by position.

PokerKit has no button rule: each hand is handed to it as its positions p1..pN (the
engine's dealing order from the left of the button, which may be a seat nobody dealt
in holds), `blinds_or_straddles` per position (a small blind nobody posts is 0), and
the antes per position, a missed small blind posted dead (R33) being an ante of that
player's (dead money that counts in its poster's contribution, R22, as PokerKit's
trimmed antes do). A live big blind posted out of turn (R10, R33) is PokerKit's
`-big blind`: posted and live, but not a straddle, so the action still starts left of
the big blind (PokerKit's opener is after the largest positive blind). Heads-up,
PokerKit's blinds are given swapped, as it reads them.

At every decision both offer the same bounds; every hand ends with the same total
pot (PokerKit's pushes against the engine's awards) and the same stacks (PokerKit's
way of merging pots, R22/R24, as the engine differential). Where the book and
PokerKit part, the hand is left out from that point and counted by rule:

* R15/R16: a live big blind posted short: the engine plays the hand at the table's
  big blind, PokerKit at the largest blind posted (as tests/engine's differential).
* R11/R33: a dead small blind the poster cannot cover after the ante and the live big
  blind: the engine posts the live big blind first, PokerKit every ante first.
* R19, and R19/R16 in fixed limit: as tests/engine/test_engine_differential.py.
* R22 with R33 (counted, not excluded: the stacks at the end): a dead small blind is
  dead money, whole into the main pot (the engine's `dead`, as a big-blind ante), and
  PokerKit takes it as an ante of its poster's; antes that differ by player must go
  whole into PokerKit's main pot (trimmed, it returns the part no other player
  matched, as uncalled), while the engine counts the table's antes in each player's
  contribution (R22). The two part when a player is all in for about the ante, so a
  hand with both an ante and a dead small blind (and only such a hand) may end with
  other stacks.

This test found that the engine counted a dead small blind in its poster's
contribution: a level of that seat's alone, handed back to it as a pot whenever the
others matched every bet (services/dealer/engine/blinds.py now makes it dead money).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from pokerkit import ChipsPulling, ChipsPushing, HoleCardsShowingOrMucking

from poker.vocab import table_events as ev
from poker.vocab.events import BetReturned
from poker.vocab.seats import from_button
from services.dealer import deck
from services.dealer.engine import (
    Action,
    ActionKind,
    ActionTaken,
    Decision,
    Hand,
    LegalActions,
    Level,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.dealer.engine.blinds import blind_seats
from services.dealer.table import commands as c
from services.dealer.table.decide import decide
from services.dealer.table.state import Stored, TableState, apply
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_differential import pokerkit_split, same_bounds
from tests.oracles.pokerkit_driver import Bounds, Choice, PokerKitHand, Spec, mixed_policy

SEED = 20_261_201
SEQUENCES = 32
STEPS = 30  # per sequence: about half of them hands
SALTS = tuple(bytes([i]) * 16 for i in range(52))
NOW = 1_700_000_000_000


def _step(state: TableState, command: c.Command) -> Any:
    """decide, then fold its events as the shell files them; the events (a Decided's
    `.hand` is the engine's hand that made them)."""
    hand_id = f"t-{state.hands_played + 1}" if type(command) is c.StartHand else (
        state.hand.hand_id if state.hand is not None else "")
    events = decide(state, command, NOW)
    for event in events:
        filed = "" if type(event) in ev.TABLE_EVENTS else hand_id
        apply(state, Stored(state.last_sequence + 1, filed, NOW, event))
    return events


def _spec(hand: Hand) -> tuple[Spec, list[int], str]:
    """PokerKit's setup for the engine's hand: positions, forced bets by position, and
    why the hand cannot be compared ("" when it can)."""
    started = hand.started
    level, config = started.level, started.config
    small, big = blind_seats(started)
    order = from_button([p.seat for p in started.players], started.button)
    by_seat = {p.seat: p for p in started.players}
    stacks = tuple(by_seat[s].stack for s in order)
    ante = level.ante
    blinds, antes = [], []
    excluded = ""
    for seat in order:
        player = by_seat[seat]
        live = 0
        if seat == big:
            live = level.big_blind
        elif seat == small:
            # heads-up, a late poster on the button posts the big blind instead (R10)
            live = -level.big_blind if player.posts_late else level.small_blind
        elif player.posts_late:
            live = -level.big_blind  # live, but not a straddle: PokerKit's opener ignores it
        dead = level.small_blind if player.posts_dead_small_blind and seat not in (small, big) \
            and player.posts_late else 0
        blinds.append(live)
        antes.append(ante + dead)
        if (seat == big or live < 0 or (seat == small and player.posts_late)) \
                and player.stack - ante < level.big_blind:
            excluded = excluded or "excluded R15/R16: a live big blind posted short"
        if dead and player.stack < ante + level.big_blind + dead:
            excluded = excluded or "excluded R11/R33: a dead small blind posted short"
    if len(order) == 2:  # PokerKit heads-up reads blinds_or_straddles swapped
        blinds = blinds[::-1]
    structure = "fixed_limit" if config.structure is Structure.FIXED_LIMIT else "no_limit"
    spec = Spec(structure, stacks, level.small_blind, level.big_blind, ante,
                fixed_limit_cap=config.fixed_limit_cap, blinds=tuple(blinds),
                antes=tuple(antes))
    return spec, order, excluded


def _command(state: TableState, choice: Choice, legal: LegalActions) -> c.Act:
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    if choice.kind == "fold":
        kind, amount = "fold", 0
    elif choice.kind == "check_call":
        kind, amount = ("check" if legal.can_check else "call"), 0
    elif choice.kind == "all_in":
        kind, amount = "all_in", 0
    else:
        assert legal.bet_kind is not None
        kind, amount = str(legal.bet_kind.value), choice.to
    return c.Act(turn.seat, hand.hand_id, turn.action_number, kind, amount)


def _same_pots(hand: Hand, theirs: PokerKitHand) -> str:
    """The pots of both agree; which way they were compared. At a showdown the engine's
    awards total PokerKit's pushes. A hand won by folds: PokerKit leaves the winner's
    last bet out of its pot and pulls it back with the pot, the engine puts the called
    part in the pot and returns the rest (R21), so the awards and the bet returned
    total PokerKit's pulls."""
    result = hand.result
    assert result is not None
    awarded = sum(a.amount for a in result.awards)
    ops = theirs.state.operations
    if any(isinstance(op, HoleCardsShowingOrMucking) for op in ops):
        pushed = sum(sum(op.amounts) for op in ops if isinstance(op, ChipsPushing))
        assert awarded == pushed, (result.awards, ops)
        return "pots compared at a showdown"
    returned = sum(e.amount for e in hand.events if isinstance(e, BetReturned))
    pulled = sum(op.amount for op in ops if isinstance(op, ChipsPulling))
    assert awarded + returned == pulled, (result.awards, returned, ops)
    return "pots compared in hands won by folds"


def _play_hand(state: TableState, rng: random.Random, stats: Counter[str]) -> None:
    order = list(range(52))
    rng.shuffle(order)
    events = _step(state, c.StartHand(deck.ShuffledDeck(tuple(order), SALTS)))
    hand = getattr(events, "hand", None)
    if hand is None or state.hand is None:
        return
    stats["hands dealt"] += 1
    started = hand.started
    if started.button not in [p.seat for p in started.players]:
        stats["hands with a dead button"] += 1
    if blind_seats(started)[0] is None:
        stats["hands with no small blind"] += 1
    if any(p.posts_late for p in started.players):
        stats["hands with a live big blind out of turn"] += 1
    if any(p.posts_dead_small_blind for p in started.players):
        stats["hands with a dead small blind"] += 1
    spec, positions, excluded = _spec(hand)
    theirs = PokerKitHand(spec, order)
    compared = not excluded
    if excluded:
        stats[excluded] += 1
    short_all_in_street = None
    while not theirs.is_over:
        bounds: Bounds = theirs.bounds()
        if compared and bounds.divergence and "PokerKit 0.7.7 does not" in bounds.divergence:
            compared = False
            stats["excluded R19: increments add up to a full raise"] += 1
        choice = mixed_policy(bounds, rng)
        if compared:
            mine = state.hand
            assert mine is not None and mine.actor is not None
            legal = mine.legal_actions()
            got, expected = same_bounds(legal, positions.index(mine.actor), bounds)
            if got != expected and short_all_in_street is mine.street and bounds.bet_kind is None:
                compared = False
                stats["excluded R19/R16: fixed-limit short all-in and the cap"] += 1
            else:
                assert got == expected, f"{started}\n{spec}\nengine {got}\npokerkit {expected}"
                stats["decisions compared"] += 1
                full_raise_to = mine.full_raise_to
                events = _step(state, _command(state, choice, legal))
                hand = getattr(events, "hand", hand)
                taken = next(e for e in events if isinstance(e, ActionTaken))
                if (spec.structure == "fixed_limit" and taken.to < full_raise_to
                        and taken.action in (ActionKind.BET, ActionKind.RAISE)):
                    short_all_in_street = mine.street
        theirs.apply(choice)
    if compared:
        while state.hand is not None and state.turn is not None:
            mine = state.hand
            assert mine.decision is Decision.SHOW_OR_MUCK, mine.decision
            events = _step(state, c.Act(state.turn.seat, mine.hand_id,
                                        state.turn.action_number, "show", 0))
            hand = getattr(events, "hand", hand)
        assert state.hand is None, "the engine's hand goes on after PokerKit's ended"
        result = hand.result
        assert result is not None
        stats[_same_pots(hand, theirs)] += 1
        final = dict(result.stacks)
        got = [final[s] for s in positions]
        expected = theirs.stacks()
        merged = dict(zip(sorted(final), pokerkit_split(hand), strict=True))
        if got != expected and [merged[s] for s in positions] == expected:
            stats["stacks equal after PokerKit's pot merging (R22/R24)"] += 1
        elif got != expected:
            dead = any(p.posts_dead_small_blind for p in started.players)
            assert dead and started.level.ante, (started, spec, got, expected)
            stats["departed R22: antes in the contributions, a dead small blind too"] += 1
            return
        stats["hands compared to the end"] += 1
    else:  # finish the engine's hand its own way, so the table plays on
        while state.hand is not None and state.turn is not None:
            mine, turn = state.hand, state.turn
            legal = mine.legal_actions()
            kind = ("show" if legal.decision is Decision.SHOW_OR_MUCK
                    else "check" if legal.can_check else "fold")
            _step(state, c.Act(turn.seat, mine.hand_id, turn.action_number, kind, 0))


def _sequence(k: int, stats: Counter[str]) -> None:
    rng = random.Random(SEED + k)
    small_blind = rng.choice((1, 5, 25, 50))
    ante = rng.choice((0, 0, rng.randint(1, small_blind)))
    structure = rng.choice((Structure.NO_LIMIT, Structure.NO_LIMIT, Structure.FIXED_LIMIT))
    config = TableConfig(seats=9, structure=structure, preset=Preset.STANDARD,  # the driver's
                         levels=(Level(small_blind, 2 * small_blind, ante),),
                         action_time_ms=1_000, time_bank_ms=0, test_mode=True)
    state = TableState("t", config, DEFAULT_RANKER)
    joined = 0

    def stack() -> int:
        big = 2 * small_blind
        return rng.choice((rng.randint(1, 4 * big), rng.randint(20, 150) * big))

    for seat in rng.sample(range(9), rng.randint(3, 7)):
        joined += 1
        _step(state, c.SeatPlayer(seat, f"p{joined}", stack()))
    _step(state, c.SetButton(rng.choice(sorted(state.seats))))
    for _ in range(STEPS):
        action = rng.choice(("play",) * 5 + ("bust", "join", "out", "out", "in", "in"))
        seat = rng.randrange(9)
        if action == "play":
            for s, seated in list(state.seats.items()):  # R29/R31: busted players leave
                if seated.stack == 0:
                    if rng.random() < 0.5 or len(state.seats) <= 2:
                        _step(state, c.AddChips(s, stack(), f"k{s}-{state.hands_played}"))
                    else:
                        _step(state, c.Unseat(s))
                        stats["players busted and left"] += 1
            _play_hand(state, rng, stats)
        elif action == "bust" and seat in state.seats and len(state.seats) > 2:
            _step(state, c.Unseat(seat))
            stats["players left"] += 1
        elif action == "join" and seat not in state.seats:
            joined += 1
            _step(state, c.SeatPlayer(seat, f"p{joined}", stack(),
                                      wait_for_big_blind=rng.random() < 0.2))
            stats["players joined"] += 1
        elif action == "out" and seat in state.seats and not state.seats[seat].sitting_out:
            _step(state, c.SitOut(seat))
        elif action == "in":  # one of those away comes back (R33), at once or waiting
            away = sorted(s for s, seated in state.seats.items() if seated.sitting_out)
            if away:
                _step(state, c.SitIn(rng.choice(away), wait_for_big_blind=rng.random() < 0.2))


def test_R33_a_dead_small_blind_stays_in_the_pot_when_everyone_matches() -> None:
    players = [PlayerIn(0, "a", 1000), PlayerIn(1, "b", 1000), PlayerIn(2, "c", 1000),
               PlayerIn(3, "d", 1000, posts_late=True, posts_dead_small_blind=True)]
    hand = Hand.start(TableConfig(seats=6, levels=(Level(50, 100),)), players, 0,
                      range(52), ranker=DEFAULT_RANKER, blind_seats=(1, 2))
    while hand.actor is not None and hand.decision is Decision.BET:
        legal = hand.legal_actions()
        hand.act(hand.actor, Action.check() if legal.can_check else Action.call())
    while hand.actor is not None:
        hand.act(hand.actor, Action.show())
    result = hand.result
    assert result is not None
    assert [(a.amount, len(a.eligible)) for a in result.awards] == [(450, 4)]  # 4 x 100 + 50
    assert sum(stack for _, stack in dict(result.stacks).items()) == 4_000


def test_R5_dead_button_hands_engine_and_pokerkit_agree() -> None:
    stats: Counter[str] = Counter()
    began = time.perf_counter()
    for k in range(SEQUENCES):
        _sequence(k, stats)
    took = time.perf_counter() - began
    print({**dict(sorted(stats.items())), "seconds": round(took, 1)})
    assert stats["hands compared to the end"] >= 0.6 * stats["hands dealt"], stats
    assert stats["decisions compared"] > 2 * stats["hands compared to the end"], stats
    for kind in ("a dead button", "no small blind", "a live big blind out of turn",
                 "a dead small blind"):
        assert stats[f"hands with {kind}"] > 0, (kind, stats)
