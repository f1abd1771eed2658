"""`poker replay`: play PHH hand histories through the rule engine and check the final stacks.

Every no-limit (NT) and fixed-limit (FT) hold'em hand is replayed: players p1..pN
sit in seats 0..N-1, pN on the button; the deck is the dealt cards in R12 order
(unknown `??` cards and burns: any card not dealt elsewhere); `f`, `cc`, `cbr`
become fold, check or call, bet or raise; `sm` entries answer the engine's
show-or-muck questions (a player with none mucks, as on a time-out, R27). The
final stacks are compared with `finishing_stacks`, half chips rounded as R24
gives odd chips: to the first tied winner left of the button.

>>> hand = phh.loads('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [50, 100, 0]
... min_bet = 100
... starting_stacks = [1000, 1000, 1000]
... actions = ['d dh p1 AsKd', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 300', 'p1 f', 'p2 f']
... finishing_stacks = [950, 900, 1150]
... ''')
>>> replay_hand(hand), expected_stacks(hand)
([950, 900, 1150], [950, 900, 1150])
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from poker.cards import DECK_SIZE
from services.dealer import phh
from services.dealer.engine import (
    Action,
    ActionKind,
    AnteForm,
    Decision,
    EngineError,
    Hand,
    HandRanker,
    Level,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER

#: PHH variant codes the engine plays.
VARIANTS = {"NT": Structure.NO_LIMIT, "FT": Structure.FIXED_LIMIT}


class ReplayError(Exception):
    """A hand that cannot be replayed: says which entry and why."""


class Skipped(Exception):
    """A hand of a variant the engine does not play."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `poker replay` arguments."""
    parser.add_argument(
        "--preset",
        choices=[p.value for p in Preset],
        default=Preset.STANDARD.value,
        help="rule preset (RULES.md Presets); PHH files are written under standard rules",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".phh files or directories")


def run(args: argparse.Namespace) -> int:
    """Replay every hand under the paths; one line per mismatch or error, then a summary."""
    preset = Preset(args.preset)
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        for name in missing:
            print(f"poker replay: {name}: no such file or folder", file=sys.stderr)
        return 2
    files = list(phh_files(args.paths))
    replayed = mismatches = errors = skipped = 0
    progress = sys.stderr.isatty() and len(files) > 200
    for i, path in enumerate(files, 1):
        try:
            hand = phh.load(path)
            got = replay_hand(hand, preset)
            expected = expected_stacks(hand)
        except Skipped:
            skipped += 1
            continue
        except (phh.PhhError, ReplayError, EngineError, OSError) as err:
            replayed += 1
            errors += 1
            print(f"{path}: error: {err}")
            continue
        replayed += 1
        if got != expected:
            mismatches += 1
            print(f"{path}: expected {expected}, got {got}")
        if progress and i % 250 == 0:
            print(f"\rreplay: {i}/{len(files)} files", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    print(f"replayed {replayed} hands: {mismatches} mismatches, {errors} errors, {skipped} skipped")
    return 1 if mismatches or errors else 0


def phh_files(paths: Sequence[str | os.PathLike[str]]) -> Iterator[Path]:
    """The .phh files named or found (recursively) under directories, in a stable order."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.rglob("*.phh"))
        else:
            yield path


def table_of(hand: phh.PhhHand, preset: Preset = Preset.STANDARD) -> TableConfig:
    """The TableConfig a PHH hand was played under; Skipped for other variants."""
    structure = VARIANTS.get(hand.variant)
    if structure is None:
        raise Skipped(hand.variant)
    n = hand.player_count
    if n > 10:
        raise ReplayError(f"{n} players: a table has at most 10 seats")
    blinds = hand.blinds_or_straddles
    if any(blinds[2:]):
        raise ReplayError(f"blinds_or_straddles {blinds}: straddles are not in the rule book")
    small, big = blinds[0], blinds[1]
    if structure is Structure.NO_LIMIT and hand.min_bet != big:
        raise ReplayError(f"min_bet {hand.min_bet} is not the big blind {big} (R17)")
    if structure is Structure.FIXED_LIMIT and (hand.small_bet, hand.big_bet) != (big, 2 * big):
        raise ReplayError(
            f"small/big bet {hand.small_bet}/{hand.big_bet}: R16 has the big blind and twice it"
        )
    antes = hand.antes
    ante, form = 0, AnteForm.EACH_PLAYER
    if any(antes):
        if len(set(antes)) == 1:
            ante = antes[0]
        elif antes[1] and not any(a for i, a in enumerate(antes) if i != 1):
            ante, form = antes[1], AnteForm.BIG_BLIND
        else:
            raise ReplayError(f"antes {antes}: R8 has equal antes or the big blind's alone")
    try:
        return TableConfig(
            seats=max(n, 2),
            structure=structure,
            preset=preset,
            levels=(Level(small, big, ante),),
            ante_form=form,
            test_mode=True,
        )
    except EngineError as err:
        raise ReplayError(str(err)) from None


def deck_of(hand: phh.PhhHand) -> list[int]:
    """The deck in R12 order: p_k's cards at k-1 and n+k-1, the board after its burns."""
    n = hand.player_count
    slots: list[int | None] = [None] * DECK_SIZE
    dealt = [0] * n
    board_slots = iter((2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7))
    for action in hand.actions:
        if action.verb == "dh" and action.dealt_to is not None:
            k = action.dealt_to - 1
            positions = [(dealt[k] + j) * n + k for j in range(len(action.cards))]
            dealt[k] += len(action.cards)
        elif action.verb == "db":
            try:
                positions = [next(board_slots) for _ in action.cards]
            except StopIteration:
                raise ReplayError("more than five board cards") from None
        else:
            continue
        if any(x >= 2 * n for x in positions if action.verb == "dh"):
            raise ReplayError(f"p{action.dealt_to} is dealt more than two hole cards")
        for position, card in zip(positions, action.cards, strict=True):
            slots[position] = card
    known = [card for card in slots if card is not None]
    if len(set(known)) != len(known):
        raise ReplayError("the hand deals the same card twice")
    spare = iter(sorted(set(range(DECK_SIZE)) - set(known)))
    return [next(spare) if card is None else card for card in slots]


def replay_hand(
    hand: phh.PhhHand, preset: Preset = Preset.STANDARD, ranker: HandRanker | None = None
) -> list[int]:
    """Play a PHH hand through the engine; the final stacks, p1..pN."""
    return [stack for _, stack in sorted(play(hand, preset, ranker).stacks.items())]


def play(
    hand: phh.PhhHand, preset: Preset = Preset.STANDARD, ranker: HandRanker | None = None
) -> Hand:
    """The engine's Hand after every action of the PHH hand (the hand is over)."""
    config = table_of(hand, preset)
    n = hand.player_count
    players = [PlayerIn(i, f"p{i + 1}", stack) for i, stack in enumerate(hand.starting_stacks)]
    game = Hand.start(config, players, n - 1, deck_of(hand), ranker=ranker or DEFAULT_RANKER)
    shows = {a.actor - 1: bool(a.cards) for a in hand.actions if a.verb == "sm" and a.actor}
    for i, entry in enumerate(hand.actions):
        if entry.actor is None or entry.verb == "sm":
            continue
        where = f"actions[{i}] {phh.format_action(entry)}"
        _settle_showdown(game, shows)
        seat = entry.actor - 1
        if game.actor != seat:
            whose = "nobody" if game.actor is None else f"p{game.actor + 1}"
            raise ReplayError(f"{where}: out of turn, the engine has {whose} to act")
        try:
            game.act(seat, _action(game, entry))
        except EngineError as err:
            raise ReplayError(f"{where}: {err}") from None
    _settle_showdown(game, shows)
    if not game.is_over:
        raise ReplayError(f"the hand stops while p{(game.actor or 0) + 1} is still to act")
    return game


def _action(game: Hand, entry: phh.PhhAction) -> Action:
    if entry.verb == "f":
        return Action.fold()
    legal = game.legal_actions()
    if entry.verb == "cc":
        return Action.check() if legal.can_check else Action.call()
    if entry.verb == "cbr" and entry.amount is not None:
        if entry.amount == legal.all_in_to:
            return Action.all_in()
        return Action(legal.bet_kind or ActionKind.RAISE, entry.amount)
    raise ReplayError(f"verb {entry.verb!r} is not part of hold'em")


def _settle_showdown(game: Hand, shows: dict[int, bool]) -> None:
    while game.decision is Decision.SHOW_OR_MUCK and game.actor is not None:
        seat = game.actor
        game.act(seat, Action.show() if shows.get(seat) else Action.muck())


def expected_stacks(hand: phh.PhhHand) -> list[int]:
    """finishing_stacks in whole chips: the chips of halved odd chips to the first such player.

    R24 gives an odd chip to the tied winner first left of the button, p1 side first.

    >>> expected_stacks(phh.PhhHand("NT", [0] * 3, [1, 2, 0], 2, None, None,
    ...                 [10, 10, 10], [], [12.5, 5, 12.5]))
    [13, 5, 12]
    """
    if hand.finishing_stacks is None:
        raise ReplayError("the hand has no finishing_stacks to compare with")
    whole = [math.floor(s) for s in hand.finishing_stacks]
    leftover = round(sum(hand.finishing_stacks) - sum(whole))
    if leftover:
        first = next(i for i, s in enumerate(hand.finishing_stacks) if s != math.floor(s))
        whole[first] += leftover
    return [int(s) for s in whole]
