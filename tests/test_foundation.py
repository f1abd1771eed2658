"""The foundation: generated code is fresh, the API lints, the `poker` command and logging work."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from poker import cards, protogen

ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_is_not_stale(tmp_path: Path) -> None:
    fresh = protogen.generate(tmp_path)
    assert fresh, "no generated files"
    for path in fresh:
        committed = ROOT / path.relative_to(tmp_path)
        assert committed.exists(), f"{committed} missing: run `make proto` and commit"
        assert committed.read_text() == path.read_text(), (
            f"{committed.relative_to(ROOT)} is stale: run `make proto` and commit"
        )
    generated_dir = ROOT / "poker" / "v1"
    committed_files = {
        p.relative_to(ROOT) for p in generated_dir.iterdir() if p.suffix in {".py", ".pyi"}
    }
    fresh_files = {p.relative_to(tmp_path) for p in fresh}
    assert committed_files == fresh_files


def _buf() -> str:
    found = shutil.which("buf") or str(ROOT / "node_modules" / ".bin" / "buf")
    assert Path(found).exists(), "buf not installed: `make test` installs it with npm ci"
    return found


def test_buf_lint_passes() -> None:
    result = subprocess.run([_buf(), "lint"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_R1_card_text_and_index_agree() -> None:
    assert [cards.card_text(i) for i in range(52)] == list(cards.CARD_TEXT)
    assert cards.parse_card("2c") == 0 and cards.parse_card("As") == 51
    assert cards.parse_card("Td") == 4 * 8 + 1
    assert all(cards.parse_card(cards.card_text(i)) == i for i in range(52))
    with pytest.raises(cards.CardError, match="not a card"):
        cards.parse_card("1x")
    with pytest.raises(cards.CardError, match="out of range"):
        cards.card_text(52)


def test_poker_command_lists_subcommands() -> None:
    poker = Path(sys.executable).parent / "poker"
    result = subprocess.run([str(poker), "--help"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for word in ("serve", "replay", "demo"):
        assert word in result.stdout


def test_logging_is_json_lines_off_a_terminal() -> None:
    code = (
        "from poker import log; log.configure();"
        "log.get_logger('t', table_id='t1').info('hand_started', hand_id=7)"
    )
    env = {**os.environ}
    env.pop("POKER_LOG_FORMAT", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["event"] == "hand_started"
    assert line["table_id"] == "t1" and line["hand_id"] == 7
    assert line["level"] == "info"


def test_module_level_logger_follows_later_configuration() -> None:
    # A logger made at import time, before configure(), must still write JSON.
    code = (
        "from poker import log; early = log.get_logger('early', service='x');"
        "log.configure('json'); early.info('server_started', port=1)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == ""
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["event"] == "server_started" and line["service"] == "x"


def test_ruff_is_clean() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "poker", "services", "clients"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
