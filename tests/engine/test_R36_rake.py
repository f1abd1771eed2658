"""R36 rake: the engine against PokerKit's own rake function, and the rule's parts.

The differential plays the differential test's random tables (2-9 players, no limit,
fixed limit and pot limit, deep and short stacks, antes) with a rake of 1% to 10%
and a cap (or none), through the engine and through PokerKit's `rake` (the same
percentage, the same cap, no flop no drop), with play_both's driver and checks at
every decision. At the end of a hand:

* when both took the same rake, the stacks must be equal (PokerKit's pot merging,
  R22/R24, aside, as in the differential test);
* otherwise the two part where the rule book and PokerKit 0.7.7 differ, and the
  hand is counted by the reason: the book takes a percentage of the hand's pots
  together, rounded *down*, capped once, out of the main pot first; PokerKit rakes
  and caps each pot on its own and rounds to the *nearest* chip. Such a hand must
  still be explained: the engine's rake is the book's on PokerKit's own pots, and
  PokerKit's the sum of its per-pot rakes, and only winners' stacks differ, by the
  two rakes' difference in all. A third difference: when a hand ends by a fold,
  PokerKit 0.7.7 rakes only the pots formed before the last betting round (the
  winner pulls the last round's bets back unraked); the book rakes every pot.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import replace

import pytest

from poker.vocab.config import BASIS_POINTS
from services.dealer.engine import (
    Action,
    CardsMucked,
    CardsShown,
    ConfigError,
    Hand,
    Level,
    PlayerIn,
    PotAwarded,
    Rake,
    RakeCap,
    RakeTaken,
    ShowReason,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_differential import play_both, same_stacks
from tests.oracles.pokerkit_driver import PokerKitHand, Spec

HANDS = 400
SEED = 36_000
TIME_BOUND_S = 150


def with_rake(spec: Spec, rng: random.Random) -> Spec:
    """The spec with a rake: 1-10% and a cap of 1-10 big blinds, or no cap."""
    cap = rng.choice((0, spec.big_blind, 3 * spec.big_blind, 10 * spec.big_blind))
    return replace(spec, rake_basis_points=rng.choice((100, 250, 500, 1000)), rake_cap=cap)


def settle_rake(seed: int, spec: Spec, mine: Hand, theirs: PokerKitHand,
                stats: Counter[str]) -> None:
    start = sum(spec.stacks)
    final = [stack for _, stack in sorted(mine.stacks.items())]
    assert sum(final) + mine.rake == start, f"seed {seed}: chips not conserved"
    their_rake = start - sum(theirs.stacks())
    stats["hands raked by the engine"] += bool(mine.rake)
    # The engine's pots before the rake and its rake by pot; PokerKit's rake by pot.
    taken = next((e.pots for e in mine.events if isinstance(e, RakeTaken)), ())
    awards = {e.index: e.amount for e in mine.events if isinstance(e, PotAwarded)}
    mine_by_pot = [taken[i] if i < len(taken) else 0 for i in sorted(awards)]
    pots = [awards[i] + part for i, part in zip(sorted(awards), mine_by_pot, strict=True)]
    their_by_pot = [pot.raked_amount for pot in theirs.state.pots]
    assert sum(their_by_pot) == their_rake, f"seed {seed}: {spec} {their_by_pot}"
    if mine_by_pot == their_by_pot:
        same_stacks(seed, spec, mine, theirs, stats)
        stats["same rake from each pot, same stacks"] += 1
        return
    # Where they part, each must be the rule it follows, on the same pots.
    cap = spec.rake_cap or math.inf
    flop = len(mine.board) >= 3
    book = min(sum(pots) * spec.rake_basis_points // BASIS_POINTS, cap) if flop else 0
    assert mine.rake == book, f"seed {seed}: {spec} {pots}"
    by_fold = not any(isinstance(e, CardsMucked) or isinstance(e, CardsShown)
                      and e.reason is ShowReason.SHOWDOWN for e in mine.events)
    if by_fold:
        # PokerKit 0.7.7 forms its pots before the last round's bets are collected when
        # a hand ends by a fold: it rakes less (the winner pulls those bets back unraked).
        # (each of its pots rounded to the nearest chip: up to one more chip a pot)
        most = min(sum(pots) * spec.rake_basis_points // BASIS_POINTS + len(their_by_pot),
                   cap * len(their_by_pot))
        assert their_rake <= most, f"seed {seed}: {spec}"
    elif len(their_by_pot) == len(pots):
        theirs_way = [min(round(p * spec.rake_basis_points / BASIS_POINTS), cap) if flop else 0
                      for p in pots]
        assert their_by_pot == theirs_way, f"seed {seed}: {spec} {pots} {their_by_pot}"
    else:
        stats["PokerKit merged the pots otherwise (R22/R24)"] += 1
    winners = {seat for e in mine.events if isinstance(e, PotAwarded) for seat in e.winners}
    diff = {seat: stack - other for seat, stack, other in
            zip(range(len(final)), final, theirs.stacks(), strict=True) if stack != other}
    assert set(diff) <= winners, f"seed {seed}: a non-winner's stack differs {diff}"
    assert sum(diff.values()) == their_rake - mine.rake, f"seed {seed}: {diff}"
    reason = ("R36 fold: PokerKit rakes the pots before the last round's bets"
              if by_fold else
              "R36 rounding: PokerKit rounds to the nearest chip, the book down"
              if len(pots) == 1 else
              "R36 side pots: PokerKit rakes and caps each pot, the book the hand's "
              "pots together, main pot first")
    stats[f"departure {reason}"] += 1


@pytest.mark.parametrize("structure", [None, "pot_limit"])
def test_R36_rake_engine_and_pokerkit_agree(structure: str | None) -> None:
    stats: Counter[str] = Counter()
    started = time.monotonic()
    for seed in range(SEED, SEED + HANDS):
        play_both(seed, stats, structure, tweak=with_rake, settle=settle_rake)
        assert time.monotonic() - started < TIME_BOUND_S, stats
    print(f"R36 {structure or 'no/fixed limit'}: {dict(stats)}")
    assert stats["hands compared to the end"] >= 0.75 * HANDS, stats
    assert stats["hands raked by the engine"] > 0.3 * HANDS, stats
    assert stats["same rake from each pot, same stacks"] > 0.1 * HANDS, stats


# ------------------------------------------------------------------ the rule's parts

def raked(rake: Rake, stacks: tuple[int, ...], plays: list[tuple[int, Action]]) -> Hand:
    config = TableConfig(rake=rake, levels=(Level(50, 100),))
    players = [PlayerIn(i, f"p{i}", stack) for i, stack in enumerate(stacks)]
    hand = Hand.start(config, players, 0, range(52), ranker=DEFAULT_RANKER)
    for seat, action in plays:
        hand.act(seat, action)
    while not hand.is_over:
        hand.act(hand.actor, Action.check() if hand.legal_actions().can_check
                 else Action.show())
    return hand


def calls_to_river(seats: int) -> list[tuple[int, Action]]:
    order = [s % seats for s in range(1, seats + 1)]  # button 0: seat 1 small blind
    first = order[2:] + order[:2] if seats > 2 else [0, 1]
    return [(seat, Action.call() if i < seats - 1 else Action.check())
            for i, seat in enumerate(first)]


def test_R36_no_flop_no_drop() -> None:
    hand = raked(Rake(1000), (1000, 1000, 1000), [(0, Action.raise_to(300)), (1, Action.fold()),
                                                   (2, Action.fold())])
    assert hand.rake == 0 and not any(isinstance(e, RakeTaken) for e in hand.events)
    assert sum(hand.stacks.values()) == 3000


def test_R36_rounded_down_and_capped_by_players_dealt_in() -> None:
    # 3 players call 100 each: pots 300; 7.5% is 22.5, down to 22; a cap of 20 for 3+.
    rake = Rake(750, caps=(RakeCap(2, 5), RakeCap(3, 20)))
    assert raked(Rake(750), (1000,) * 3, calls_to_river(3)).rake == 22
    assert raked(rake, (1000,) * 3, calls_to_river(3)).rake == 20
    heads_up = raked(rake, (1000, 1000), calls_to_river(2))
    assert heads_up.rake == 5 and sum(heads_up.stacks.values()) == 2000 - 5


def test_R36_main_pot_first_and_in_the_history() -> None:
    # Seat 2 is all in with a big blind of 60: main pot 180, side pot 480; 25% capped
    # at 100, all of it from the main pot.
    hand = raked(Rake(2500, cap=100), (1000, 1000, 60),
                 [(0, Action.raise_to(300)), (1, Action.call())])
    taken = next(e for e in hand.events if isinstance(e, RakeTaken))
    awards = sorted((e for e in hand.events if isinstance(e, PotAwarded)), key=lambda e: e.index)
    assert taken.amount == 100 and taken.pots == (100, 0)
    assert [a.amount for a in awards] == [180 - 100, 480]
    first_award = next(i for i, e in enumerate(hand.events) if isinstance(e, PotAwarded))
    assert hand.events.index(taken) < first_award
    assert Hand.from_events(hand.events, DEFAULT_RANKER).stacks == hand.stacks
    assert sum(hand.stacks.values()) + hand.rake == 2060


def test_R36_fold_after_the_flop_is_raked() -> None:
    plays = calls_to_river(3)[:3] + [(1, Action.bet(100)), (2, Action.fold()), (0, Action.fold())]
    hand = raked(Rake(500), (1000,) * 3, plays)
    assert hand.rake == 15 and hand.stacks[1] == 1000 + 200 - 15


@pytest.mark.parametrize("bad", [Rake(0), Rake(2501), Rake(500, cap=-1),
                                 Rake(500, caps=(RakeCap(1, 5),)),
                                 Rake(500, caps=(RakeCap(3, 5), RakeCap(3, 6)))])
def test_R36_bad_rake_refused(bad: Rake) -> None:
    with pytest.raises(ConfigError, match="R36"):
        TableConfig(rake=bad)


def test_R36_phh_export_writes_the_rake_as_a_user_field() -> None:
    from services.dealer.phh_writer import to_phh

    hand = raked(Rake(750), (1000,) * 3, calls_to_river(3))
    record = to_phh(hand)
    assert record.extra["_rake"] == 22 == hand.rake
    assert sum(record.finishing_stacks) + 22 == sum(record.starting_stacks)
    plain = Hand.start(TableConfig(), [PlayerIn(0, "a", 100), PlayerIn(1, "b", 100)], 0,
                       range(52))
    plain.act(0, Action.fold())
    assert "_rake" not in to_phh(plain).extra
