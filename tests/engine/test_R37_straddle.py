"""R37 straddle: the engine against PokerKit's `blinds_or_straddles`, and the rule's parts.

The differential plays random tables (3-9 players, no limit and pot limit, deep and
short stacks, antes) where p3, the player to the left of the big blind, straddles
for twice the big blind: PokerKit posts it as its third blind. Both must offer the
same bounds at every decision (the straddler acts last before the flop, has the
option, a raise reaches at least twice the straddle) and end with the same stacks.
The driver and the comparison are the differential test's (play_both).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest

from services.dealer.engine import (
    Action,
    BlindKind,
    BlindPosted,
    ConfigError,
    Hand,
    Level,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_differential import play_both
from tests.oracles.pokerkit_driver import Spec

HANDS = 300
SEED = 37_000
TIME_BOUND_S = 120


def with_straddle(spec: Spec, rng: random.Random) -> Spec:
    """The spec with p3 straddling: a third player when heads-up, p3 deep enough to post
    it whole (R37 decision: a straddle is posted whole or not at all)."""
    stacks = list(spec.stacks)
    if len(stacks) < 3:
        stacks.append(rng.randint(5, 100) * spec.big_blind)
    if stacks[2] <= 2 * spec.big_blind + spec.ante:
        stacks[2] = 2 * spec.big_blind + spec.ante + rng.randint(1, 50 * spec.big_blind)
    return replace(spec, stacks=tuple(stacks), straddle=True)


@pytest.mark.parametrize("structure", ["no_limit", "pot_limit"])
def test_R37_straddle_engine_and_pokerkit_agree(structure: str) -> None:
    stats: Counter[str] = Counter()
    started = time.monotonic()
    for seed in range(SEED, SEED + HANDS):
        play_both(seed, stats, structure, tweak=with_straddle)
        assert time.monotonic() - started < TIME_BOUND_S, stats
    print(f"R37 {structure}: {dict(stats)}")
    assert stats["hands compared to the end"] >= 0.75 * HANDS, stats
    assert stats["decisions compared"] > 3 * HANDS, stats


def straddle_hand(stacks: tuple[int, ...] = (1000, 1000, 1000, 1000), *,
                  straddle: bool = True, preset: Preset = Preset.STANDARD) -> Hand:
    config = TableConfig(straddle=straddle, preset=preset, levels=(Level(50, 100),))
    players = [PlayerIn(i, f"p{i}", stack, straddles=i == 3) for i, stack in enumerate(stacks)]
    return Hand.start(config, players, 0, range(52), ranker=DEFAULT_RANKER)


def test_R37_straddle_is_a_third_blind_that_acts_last_with_the_option() -> None:
    hand = straddle_hand()
    posted = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert [(e.seat, e.blind, e.amount) for e in posted] == [
        (1, BlindKind.SMALL, 50), (2, BlindKind.BIG, 100), (3, BlindKind.STRADDLE, 200)]
    assert hand.actor == 0  # left of the straddle (R13 with R37)
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.min_to) == (200, 400)  # a raise reaches twice it
    for seat in (0, 1, 2):
        hand.act(seat, Action.call())
    assert hand.actor == 3  # last, with the option (R15)
    legal = hand.legal_actions()
    assert legal.can_check and legal.min_to == 400


def test_R37_double_rule_raise_is_twice_the_straddle() -> None:
    hand = straddle_hand(preset=Preset.SEED)
    assert hand.legal_actions().min_to == 400


def test_R37_no_straddle_when_off_heads_up_or_short() -> None:
    assert not any(e.blind is BlindKind.STRADDLE for e in straddle_hand(straddle=False).events
                   if isinstance(e, BlindPosted))
    short = straddle_hand((1000, 1000, 1000, 200))
    assert not any(e.blind is BlindKind.STRADDLE for e in short.events
                   if isinstance(e, BlindPosted))
    assert short.actor == 3  # no straddle: seat 3 is first to act after the big blind


def test_R37_straddle_refused_in_fixed_limit() -> None:
    with pytest.raises(ConfigError, match="R37"):
        TableConfig(straddle=True, structure=Structure.FIXED_LIMIT)


def test_R37_straddle_replays_from_events() -> None:
    hand = straddle_hand()
    for seat in (0, 1, 2):
        hand.act(seat, Action.call())
    hand.act(3, Action.raise_to(600))
    replayed = Hand.from_events(hand.events, DEFAULT_RANKER)
    assert replayed.actor == hand.actor == 0 and replayed.bets == hand.bets


def test_R37_phh_export_writes_the_straddle_in_blinds_or_straddles() -> None:
    from services.dealer.phh_writer import to_phh

    hand = straddle_hand()
    for seat in (0, 1, 2):
        hand.act(seat, Action.fold())
    assert to_phh(hand).blinds_or_straddles == [50, 100, 200, 0]
