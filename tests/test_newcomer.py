"""What a newcomer met in the first hour (issue 16), each pinned so it does not come back."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from poker.cli import build_parser
from poker.procs import start_service

ROOT = Path(__file__).resolve().parents[1]


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif action.dest != "help":
            yield path, action


def test_every_option_of_every_command_says_what_it_does() -> None:
    bare = [f"poker {' '.join(path)} {'/'.join(a.option_strings) or a.dest}"
            for path, a in _options(build_parser()) if not a.help]
    assert bare == []
    log_formats = [a for _, a in _options(build_parser()) if "--log-format" in a.option_strings]
    assert len(log_formats) >= 6 and len({a.help for a in log_formats}) == 1


def _poker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "poker.cli", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_replay_of_a_missing_path_is_an_error_not_a_hand(tmp_path: Path) -> None:
    done = _poker("replay", str(tmp_path / "nowhere.phh"))
    assert done.returncode == 2
    assert "nowhere.phh: no such file or folder" in done.stderr
    assert "replayed" not in done.stdout


def test_health_of_an_unknown_service_says_what_is_wrong(tmp_path: Path) -> None:
    proc = start_service("evaluator", log_path=tmp_path / "evaluator.log")
    try:
        done = _poker("health", proc.address, "--service", "no.such.Service")
        assert done.returncode == 1
        assert "NOT_FOUND" in done.stderr and "knows no service 'no.such.Service'" in done.stderr
        assert _poker("health", proc.address).stdout.strip().endswith("SERVING")
    finally:
        proc.stop(timeout=5)


def test_evaluator_demo_logs_to_a_folder_of_its_own() -> None:
    first, second = (_poker("evaluator-demo", "--hands", "20000") for _ in range(2))
    assert first.returncode == 0 and second.returncode == 0, first.stderr[-2000:]
    paths = [re.search(r"its log: (\S+)\)", run.stdout).group(1)  # type: ignore[union-attr]
             for run in (first, second)]
    assert paths[0] != paths[1] and all(Path(p).is_file() for p in paths)


def test_the_license_is_an_spdx_string_as_setuptools_asks() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])


def test_the_docker_context_holds_what_the_image_copies_and_nothing_heavy() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    copied = [w for line in (ROOT / "Dockerfile").read_text().splitlines()
              if line.startswith("COPY") for w in line.split()[1:-1]]
    assert {"pyproject.toml", "README.md", "poker", "services", "clients", "protos"} <= set(copied)
    assert not set(copied) & set(ignored)
    assert {".git", ".venv", "node_modules", "tests"} <= set(ignored)


def test_the_narrator_speaks_to_you_in_the_second_person_and_names_odd_chips() -> None:
    import doctest

    from clients import narrate

    result = doctest.testmod(narrate)
    assert result.attempted >= 6 and not result.failed


def test_poker_play_answers_help_with_the_actions() -> None:
    import pytest

    from clients.models import ActionKind, Decision, LegalActions
    from clients.play import HELP, BadInput, parse_action

    legal = LegalActions(seat=1, decision=Decision.BET, can_fold=True, can_call=True,
                         call_amount=10, bet_kind=ActionKind.RAISE, min_to=20, max_to=990)
    for asked in ("?", "h", "help", " HELP "):
        with pytest.raises(BadInput) as answer:
            parse_action(asked, legal)
        assert str(answer.value).startswith(HELP) and "did not understand" not in str(
            answer.value)
