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
    assert "royal flush" in out and "high card" in out


def test_the_demos_category_spans_are_the_evaluators() -> None:
    # The demo (an SDK program) does not import the evaluator: its spans must agree.
    from clients.evaluator_demo import CATEGORY_SIZES
    from services.evaluator.tables import CLASSES, HandCategory

    categories = [int(category) for category, _ in CLASSES]  # rank r is CLASSES[r - 1]
    assert categories == sorted(categories), "each category is one span of ranks"
    sizes = [categories.count(c) for c in sorted(HandCategory)]
    assert tuple(sizes) == CATEGORY_SIZES
