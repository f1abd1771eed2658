"""The 1,991 Pluribus hands (PHH) replayed through the engine reach their finishing stacks.

`shared/` is the repository's sibling folder; the test fails, not skips, without it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from services.dealer import phh, replay
from services.dealer.engine import Hand, Preset
from services.evaluator.ranker import DEFAULT_RANKER

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PLURIBUS = SHARED / "phh" / "pluribus"


def pluribus_files() -> list[Path]:
    files = sorted(PLURIBUS.rglob("*.phh"))
    assert len(files) == 1991, f"expected the 1,991 Pluribus hands under {PLURIBUS}"
    return files


def test_every_pluribus_hand_replays_to_its_finishing_stacks() -> None:
    mismatches = []
    for path in pluribus_files():
        hand = phh.load(path)
        game = replay.play(hand, Preset.STANDARD)
        got = [stack for _, stack in sorted(game.stacks.items())]
        if got != replay.expected_stacks(hand):
            mismatches.append((path.name, replay.expected_stacks(hand), got))
        # The hand is its events: replaying them gives the same hand.
        assert Hand.from_events(game.events, ranker=DEFAULT_RANKER).stacks == game.stacks, path
    assert mismatches == []


def test_R24_the_pluribus_odd_chip_goes_to_the_first_tied_winner_left_of_the_button() -> None:
    hand = phh.load(PLURIBUS / "102" / "0.phh")
    assert hand.finishing_stacks == [10112.5, 9775, 10000, 10000, 10112.5, 10000]
    assert replay.replay_hand(hand) == [10113, 9775, 10000, 10000, 10112, 10000]


def run_replay(
    capsys: pytest.CaptureFixture[str], *paths: Path, preset: str = "standard"
) -> tuple[int, list[str]]:
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    code = replay.run(parser.parse_args(["--preset", preset, *map(str, paths)]))
    return code, capsys.readouterr().out.splitlines()


def test_poker_replay_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_replay(capsys, PLURIBUS / "102")
    count = len(list((PLURIBUS / "102").rglob("*.phh")))
    assert lines == [f"replayed {count} hands: 0 mismatches, 0 errors, 0 skipped"]
    assert code == 0


def test_poker_replay_reports_mismatches_errors_and_skipped_variants(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = phh.load(PLURIBUS / "102" / "0.phh")
    wrong = phh.load(PLURIBUS / "102" / "0.phh")
    assert wrong.finishing_stacks is not None
    wrong.finishing_stacks[1] += 1
    broken = phh.load(PLURIBUS / "102" / "0.phh")
    broken.actions = broken.actions[:8] + broken.actions[9:]  # a raise goes missing
    other = phh.load(PLURIBUS / "102" / "0.phh")
    other.variant = "PO"
    (tmp_path / "deep").mkdir()
    for name, hand in (("good", good), ("wrong", wrong), ("deep/broken", broken), ("po", other)):
        phh.dump(hand, tmp_path / f"{name}.phh")
    code, lines = run_replay(capsys, tmp_path)
    assert lines[-1] == "replayed 3 hands: 1 mismatches, 1 errors, 1 skipped"
    assert any(line.startswith(f"{tmp_path / 'wrong.phh'}: expected ") for line in lines)
    assert any(line.startswith(f"{tmp_path / 'deep' / 'broken.phh'}: error: ") for line in lines)
    assert code != 0


def test_replay_maps_heads_up_hands_and_fills_unknown_cards() -> None:
    hand = phh.loads(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n"
        "starting_stacks = [1000, 1000]\n"
        "actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cbr 300', 'p2 f']\n"
        "finishing_stacks = [1100, 900]\n"
    )
    assert replay.replay_hand(hand) == replay.expected_stacks(hand) == [1100, 900]


def test_replay_plays_fixed_limit_hands() -> None:
    hand = phh.loads(
        "variant = 'FT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n"
        "small_bet = 2\nbig_bet = 4\nstarting_stacks = [100, 100, 100]\n"
        "actions = ['p3 cbr 4', 'p1 cbr 6', 'p2 cbr 8', 'p3 f', 'p1 f']\n"
        "finishing_stacks = [94, 110, 96]\n"
    )
    assert replay.replay_hand(hand) == [94, 110, 96]
