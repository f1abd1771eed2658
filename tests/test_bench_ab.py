"""bench/ab.py's paired figure: each round's own head/base, their median and range (the
two runs of a round are next to each other in time, so a drift of a shared machine's
speed falls on both; the medians of each side alone mix fast and slow spells)."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ab():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_ab", ROOT / "bench" / "ab.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_paired_is_the_median_of_each_rounds_own_ratio() -> None:
    ab = _ab()
    # The machine was slow in round 2 for both sides: each round's head is 10 % faster,
    # though the side medians alone (100 against 99) say 1 %.
    base, head = [100.0, 200.0, 90.0], [90.0, 180.0, 99.0]
    assert ab.paired(base, head) == "0.900 (0.900-1.100)"
    assert ab.paired([0.0, 1.0], [1.0, 1.0]) == "-"
    assert doctest.testmod(ab).failed == 0
