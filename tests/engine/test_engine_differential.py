"""Differential test: thousands of random hands through the engine and PokerKit side by side.

Random tables (2-9 players, no limit and fixed limit, deep and short stacks, stacks
below the blinds, antes per player and big-blind antes) under the standard preset,
and the same tables in pot limit (R16's pot-sized raise, against PokerKit's own
pot-limit betting on Texas hold'em);
the driver's policy is heavy in min-raises and all-ins. At every decision both
must offer the same bounds, and every hand must end with the same stacks.

Where PokerKit 0.7.7 and RULES.md genuinely differ the rule book wins; each case
is excluded here, only from the point where it arises, and counted:

* R15/R16 (the big blind is the pre-flop bet; a decision of the engine where the
  book is silent): when the big blind is posted short, the engine still plays the
  hand at the table's big blind (a call is 100 and a raise at least 200);
  PokerKit plays it at the largest blind actually posted. Excluded: such hands.
* R19 (the increments since a player's last action add up to a full raise): the
  driver applies R19 on top of PokerKit and marks a decision where the book allows
  a raise that PokerKit refuses (`Bounds.divergence`). Excluded: the rest of that hand.
* R19/R16 in fixed limit: a short all-in is not a raise, so it does not count
  toward the cap of bets and raises; PokerKit counts it. Excluded: the rest of a
  fixed-limit hand after a short all-in bet or raise.
* R22/R24 (pots by contribution level, each pot split on its own): PokerKit forms
  the pots after mucking the losing hands, so levels whose remaining players are
  the same merge and an odd chip is split once instead of once per pot. Not
  excluded: the engine's awards are re-split PokerKit's way and must then match.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from services.dealer.engine import (
    Action,
    ActionKind,
    ActionTaken,
    AnteForm,
    Decision,
    Hand,
    LegalActions,
    Level,
    PlayerIn,
    Preset,
    Rake,
    Structure,
    TableConfig,
)
from services.dealer.engine.pots import split
from services.evaluator.ranker import DEFAULT_RANKER
from tests.oracles.pokerkit_driver import (
    Bounds,
    Choice,
    PokerKitHand,
    Spec,
    mixed_policy,
    random_spec,
)

HANDS = 2000
SEED = 20_240_601


def engine_hand(spec: Spec, deck: list[int], **options: object) -> Hand:
    """The same hand in the engine: p1..pN in seats 0..N-1, the button on the last;
    `options`: more TableConfig options (R38's run_it_twice)."""
    n = len(spec.stacks)
    config = TableConfig(
        seats=max(n, 2),
        structure=Structure(spec.structure),
        preset=Preset.STANDARD,
        levels=(Level(spec.small_blind, spec.big_blind, spec.ante),),
        ante_form=AnteForm.BIG_BLIND if spec.big_blind_ante else AnteForm.EACH_PLAYER,
        fixed_limit_cap=spec.fixed_limit_cap,
        test_mode=True,
        rake=Rake(spec.rake_basis_points, spec.rake_cap) if spec.rake_basis_points else None,
        straddle=spec.straddle,
        **options,  # type: ignore[arg-type]
    )
    # R37: p3, left of the big blind, is the straddler when the spec has one.
    players = [PlayerIn(i, f"p{i + 1}", stack, straddles=spec.straddle and i == 2)
               for i, stack in enumerate(spec.stacks)]
    return Hand.start(config, players, n - 1, deck, ranker=DEFAULT_RANKER)


def big_blind_posted_short(spec: Spec) -> bool:
    """Whether the big blind (who posts any ante first, R11) is all in for less than it."""
    big_blind_player = 0 if len(spec.stacks) == 2 else 1
    return spec.stacks[big_blind_player] - spec.ante < spec.big_blind


def same_bounds(legal: LegalActions, seat: int, bounds: Bounds) -> tuple[object, object]:
    mine = (
        seat,
        legal.can_fold,
        legal.can_check,
        legal.can_call,
        legal.call_amount,
        legal.bet_kind.value if legal.bet_kind else None,
        legal.min_to,
        legal.max_to,
    )
    theirs = (
        bounds.player,
        bounds.can_fold,
        bounds.can_check,
        bounds.can_call,
        bounds.call_amount,
        bounds.bet_kind,
        bounds.min_to,
        bounds.max_to,
    )
    return mine, theirs


def to_action(choice: Choice, legal: LegalActions) -> Action:
    if choice.kind == "fold":
        return Action.fold()
    if choice.kind == "check_call":
        return Action.check() if legal.can_check else Action.call()
    if choice.kind == "all_in":
        return Action.all_in()
    assert legal.bet_kind is not None
    return Action(legal.bet_kind, choice.to)


def pokerkit_split(hand: Hand) -> list[int]:
    """The engine's final stacks with its pots merged and split as PokerKit does (R22/R24)."""
    result = hand.result
    assert result is not None
    if any(award.run for award in result.awards):
        return _pokerkit_split_runs(hand)
    final = dict(result.stacks)
    winners_anywhere = {seat for award in result.awards for seat in award.winners}
    merged: list[list[object]] = []
    for award in sorted(result.awards, key=lambda a: a.index):
        for seat, share in zip(award.winners, award.shares, strict=True):
            final[seat] -= share
        remaining = tuple(sorted(set(award.eligible) & winners_anywhere))
        if merged and merged[-1][0] == remaining:
            merged[-1][1] = int(merged[-1][1]) + award.amount  # type: ignore[call-overload]
        else:
            merged.append([remaining, award.amount, sorted(award.winners)])
    for _, amount, winners in merged:
        assert isinstance(amount, int) and isinstance(winners, list)
        for seat, share in zip(winners, split(amount, winners), strict=True):
            final[seat] += share
    return [final[seat] for seat in sorted(final)]


#: Changes a random spec (a rake, a straddle) before the hand is played.
Tweak = Callable[[Spec, random.Random], Spec]
#: Compares the two hands at their end (the default: equal stacks, R22/R24 aside).
Settle = Callable[[int, Spec, Hand, PokerKitHand, "Counter[str]"], None]


def _pokerkit_split_runs(hand: Hand) -> list[int]:
    """pokerkit_split for a board run twice (R38): PokerKit merges the pots first, then
    halves each (the odd chip to the first board) and splits each half among the best
    hands on its board."""
    result = hand.result
    assert result is not None
    final = dict(result.stacks)
    winners_anywhere = {seat for award in result.awards for seat in award.winners}
    pots: dict[int, list[object]] = {}  # index -> [eligible, amount, {run: winners}]
    for award in result.awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            final[seat] -= share
        pot = pots.setdefault(award.index, [award.eligible, 0, {}])
        pot[1] = int(pot[1]) + award.amount  # type: ignore[call-overload]
        pot[2][award.run] = sorted(award.winners)  # type: ignore[index]
    merged: list[list[object]] = []
    for index in sorted(pots):
        eligible, amount, runs = pots[index]
        remaining = tuple(sorted(set(eligible) & winners_anywhere))  # type: ignore[call-overload]
        if merged and merged[-1][0] == remaining:
            merged[-1][1] = int(merged[-1][1]) + int(amount)  # type: ignore[call-overload]
            merged[-1][2] = {**runs, **merged[-1][2]}  # type: ignore[dict-item]
        else:
            merged.append([remaining, amount, dict(runs)])  # type: ignore[call-overload]
    for _, amount, runs in merged:
        assert isinstance(amount, int) and isinstance(runs, dict)
        for run, half in ((1, amount - amount // 2), (2, amount // 2)):
            winners = runs.get(run) or runs[3 - run]
            for seat, share in zip(winners, split(half, winners), strict=True):
                final[seat] += share
    return [final[seat] for seat in sorted(final)]


def play_both(seed: int, stats: Counter[str], structure: str | None = None,
              tweak: Tweak | None = None, settle: Settle | None = None,
              run_it: Callable[[int], int] | None = None) -> Hand | None:
    """Play one random hand through both (no or fixed limit, or `structure`); the engine's
    hand when compared to the end. `run_it`: R38, each player's (seat's) answer to running
    the board twice, given to both."""
    rng = random.Random(seed)
    spec = random_spec(rng, structure)
    if tweak is not None:
        spec = tweak(spec, rng)
    deck = list(range(52))
    rng.shuffle(deck)
    theirs = PokerKitHand(spec, deck, run_it)
    mine = engine_hand(spec, deck, **({"run_it_twice": True} if run_it else {}))
    compared = not big_blind_posted_short(spec)
    if not compared:
        stats["excluded R15/R16: big blind posted short"] += 1
    short_all_in_street = None  # the street of a fixed-limit short all-in, if any
    while not theirs.is_over:
        bounds = theirs.bounds()
        if compared and bounds.divergence and "PokerKit 0.7.7 does not" in bounds.divergence:
            compared = False
            stats["excluded R19: increments add up to a full raise"] += 1
        choice = mixed_policy(bounds, rng)
        if compared:
            legal = mine.legal_actions()
            assert mine.actor is not None
            got, expected = same_bounds(legal, mine.actor, bounds)
            if got != expected and short_all_in_street is mine.street and bounds.bet_kind is None:
                # PokerKit counted the short all-in toward the cap; the engine did not.
                compared = False
                stats["excluded R19/R16: fixed-limit short all-in and the cap"] += 1
            else:
                assert got == expected, f"seed {seed}: {spec}\nengine {got}\npokerkit {expected}"
                stats["decisions compared"] += 1
                full_raise_to = mine.full_raise_to
                events = mine.act(mine.actor, to_action(choice, legal))
                taken = events[0]
                assert isinstance(taken, ActionTaken)
                if (
                    spec.structure == "fixed_limit"
                    and taken.action in (ActionKind.BET, ActionKind.RAISE)
                    and taken.to < full_raise_to
                ):
                    short_all_in_street = mine.street
        theirs.apply(choice)
    if not compared:
        return None
    while run_it and mine.decision is Decision.RUN_IT and mine.actor is not None:
        stats["run-it decisions"] += 1
        mine.act(mine.actor, Action.run_it(run_it(mine.actor)))
    while mine.decision is Decision.SHOW_OR_MUCK and mine.actor is not None:
        mine.act(mine.actor, Action.show() if rng.random() < 0.5 else Action.muck())
    assert mine.is_over, f"seed {seed}: the engine still waits for seat {mine.actor}"
    (settle or same_stacks)(seed, spec, mine, theirs, stats)
    stats["hands compared to the end"] += 1
    return mine


def same_stacks(seed: int, spec: Spec, mine: Hand, theirs: PokerKitHand,
                stats: Counter[str]) -> None:
    """The end of a hand: equal stacks, or equal once the pots are split PokerKit's way."""
    got = [stack for _, stack in sorted(mine.stacks.items())]
    expected = theirs.stacks()
    if got != expected:
        assert pokerkit_split(mine) == expected, f"seed {seed}: {spec}\n{got}\n{expected}"
        stats["stacks equal after PokerKit's pot merging (R22/R24)"] += 1


@pytest.mark.slow
def test_engine_and_pokerkit_agree_on_bounds_and_stacks() -> None:
    stats: Counter[str] = Counter()
    for seed in range(SEED, SEED + HANDS):
        play_both(seed, stats)
    print(dict(stats))
    assert stats["hands compared to the end"] >= 0.75 * HANDS, stats
    assert stats["decisions compared"] > 5 * HANDS, stats


@pytest.mark.slow
def test_R16_engine_and_pokerkit_agree_on_pot_limit_bounds_and_stacks() -> None:
    # R16 in pot limit: a raise reaches at most the current bet, plus the pot, plus
    # every bet in front, plus the call first; the policy raises to that often.
    stats: Counter[str] = Counter()
    hands = HANDS // 2
    for seed in range(SEED, SEED + hands):
        play_both(seed, stats, "pot_limit")
    print(dict(stats))
    assert stats["hands compared to the end"] >= 0.75 * hands, stats
    assert stats["decisions compared"] > 5 * hands, stats
