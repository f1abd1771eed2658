"""`poker evaluator-demo` shows the evaluator working and stops the process it started."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_demo_ranks_settles_answers_equity_and_stops_its_evaluator() -> None:
    poker = Path(sys.executable).parent / "poker"
    result = subprocess.run([str(poker), "evaluator-demo", "--hands", "100000"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for expected in ("Royal flush", "Straight flush, five high", "Full house, kings full of fives",
                     "card As appears twice", "split the pot", "equity  46.21 %",
                     "1,712,304 deals", "monte carlo, 200,000 deals", "million hands a second",
                     "Stopped the evaluator (exit code 0)"):
        assert expected in out, f"{expected!r} missing from the demo:\n{out}"
