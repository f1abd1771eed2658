"""Benchmark: complete 6-max no-limit hands through the rule engine, and through PokerKit.

Both play the same seeded random policy (fold 15 %, bet or raise 15 % of which a
fifth all-in, else check or call) on the same decks,
showdown evaluation included, in the same run; the ratio is what matters. Rates are
hands per second of this process's CPU time, so that other work on a shared
machine does not count; the wall-clock rates are printed beside them.

    .venv/bin/python bench/engine.py [--hands N] [--pokerkit-hands N] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.dealer.engine import (  # noqa: E402
    Action,
    Decision,
    Hand,
    Level,
    PlayerIn,
    Preset,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER  # noqa: E402

PLAYERS = 6
STACK = 10_000
CONFIG = TableConfig(seats=PLAYERS, preset=Preset.STANDARD, levels=(Level(50, 100),))
SEATS = [PlayerIn(seat, f"p{seat + 1}", STACK) for seat in range(PLAYERS)]
FOLD, BET_OR_RAISE, ALL_IN_SHARE = 0.15, 0.15, 0.2


def decks(count: int, seed: int) -> list[list[int]]:
    """`count` shuffled decks (made before the clock starts, the same for both engines)."""
    rows = np.random.default_rng(seed).permuted(np.tile(np.arange(52), (count, 1)), axis=1)
    return [[int(card) for card in row] for row in rows]


def engine_hands(hand_decks: list[list[int]], seed: int) -> int:
    """Play a hand per deck through the engine; the number of decisions taken."""
    rng = random.Random(seed)
    random_ = rng.random
    decisions = 0
    fold, check, call, muck = Action.fold(), Action.check(), Action.call(), Action.muck()
    all_in = Action.all_in()
    for i, deck in enumerate(hand_decks):
        hand = Hand.start(CONFIG, SEATS, i % PLAYERS, deck, ranker=DEFAULT_RANKER)
        while (seat := hand.actor) is not None:
            decisions += 1
            if hand.decision is Decision.SHOW_OR_MUCK:
                hand.act(seat, muck)
                continue
            legal = hand.legal_actions()
            roll = random_()
            if roll < FOLD:
                action = fold
            elif roll < FOLD + BET_OR_RAISE and legal.bet_kind is not None:
                if random_() < ALL_IN_SHARE and legal.can_all_in:
                    action = all_in
                else:
                    low, high = legal.min_to, min(legal.max_to, 3 * legal.min_to)
                    action = Action(legal.bet_kind, low + int(random_() * (high - low + 1)))
            else:
                action = call if legal.can_call else check
            hand.act(seat, action)
    return decisions


def pokerkit_hands(hand_decks: list[list[int]], seed: int) -> int:
    """The same policy through PokerKit (tests/oracles/pokerkit_driver.py)."""
    from tests.oracles.pokerkit_driver import PokerKitHand, Spec

    spec = Spec("no_limit", (STACK,) * PLAYERS, 50, 100)
    rng = random.Random(seed)
    random_ = rng.random
    decisions = 0
    for deck in hand_decks:
        hand = PokerKitHand(spec, deck)
        while not hand.is_over:
            decisions += 1
            bounds = hand.bounds()
            roll = random_()
            if roll < FOLD:
                hand.fold()
            elif roll < FOLD + BET_OR_RAISE and bounds.bet_kind is not None:
                total = bounds.stack + bounds.bet
                if random_() < ALL_IN_SHARE and bounds.max_to == total:
                    hand.all_in()
                else:
                    low, high = bounds.min_to, min(bounds.max_to, 3 * bounds.min_to)
                    hand.bet_raise_to(low + int(random_() * (high - low + 1)))
            else:
                hand.check_call()
    return decisions


def timed(play: Callable[[list[list[int]], int], int], count: int, seed: int) -> Timing:
    """Wall and CPU seconds to play `count` hands (decks dealt before the clock starts)."""
    hand_decks = decks(count, seed)
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = play(hand_decks, seed)
    return Timing(count, decisions, time.perf_counter() - wall, time.process_time() - cpu)


@dataclass(frozen=True)
class Timing:
    hands: int
    decisions: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        """Hands per second of this process's CPU time: a shared machine's other load aside."""
        return self.hands / self.cpu

    @property
    def wall_rate(self) -> float:
        return self.hands / self.wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="engine hands (default 20000)")
    parser.add_argument("--pokerkit-hands", type=int, default=1_000, help="PokerKit hands")
    parser.add_argument("--seed", type=int, default=20_240_601)
    parser.add_argument("--json", type=Path, help="also write the figures as one JSON object")
    args = parser.parse_args(argv)
    engine_hands(decks(200, args.seed + 1), args.seed)  # warm up: evaluator tables, imports
    engine = timed(engine_hands, args.hands, args.seed)
    pokerkit = timed(pokerkit_hands, args.pokerkit_hands, args.seed)
    ratio = engine.rate / pokerkit.rate
    print(
        f"engine:   {engine.rate:10,.0f} hands/s  ({engine.hands} hands, "
        f"{engine.decisions} decisions; wall clock {engine.wall_rate:,.0f}/s)"
    )
    print(
        f"pokerkit: {pokerkit.rate:10,.0f} hands/s  ({pokerkit.hands} hands, "
        f"{pokerkit.decisions} decisions; wall clock {pokerkit.wall_rate:,.0f}/s)"
    )
    print(f"ratio:    {ratio:10.1f}x PokerKit (hands per CPU second, same policy and decks)")
    if args.json:
        figures = {
            "hands_per_s": round(engine.rate, 1),
            "pokerkit_hands_per_s": round(pokerkit.rate, 1),
            "ratio": round(ratio, 2),
            "wall_hands_per_s": round(engine.wall_rate, 1),
            "wall_pokerkit_hands_per_s": round(pokerkit.wall_rate, 1),
            "hands": engine.hands,
            "pokerkit_hands": pokerkit.hands,
            "decisions": engine.decisions,
            "pokerkit_decisions": pokerkit.decisions,
            "players": PLAYERS,
        }
        args.json.write_text(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
