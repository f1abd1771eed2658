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


def test_a_quotient_is_worked_out_for_each_run_or_refused_when_malformed() -> None:
    """`--quotient` gives a per-round figure the base does not write (the dealer's CPU an
    action from its CPU % and actions a second), so it gets a paired ratio too."""
    ab = _ab()
    name, worked_out = ab.quotient("farm.us=farm.cpu_pct/farm.actions*1e4")
    assert name == "farm.us"
    assert round(worked_out({"farm.cpu_pct": 110.0, "farm.actions": 1000.0}), 6) == 1100.0
    assert worked_out({"farm.cpu_pct": 110.0, "farm.actions": 0.0}) is None
    assert worked_out({"farm.actions": 1000.0}) is None
    for bad in ("us", "us=a", "=a/b", "us=a/b*fast"):
        try:
            ab.quotient(bad)
        except ValueError as err:
            assert "NAME=A/B" in str(err)
        else:
            raise AssertionError(f"{bad!r} was taken")


def test_the_interval_holds_the_paired_median_and_narrows_as_rounds_agree() -> None:
    """The 95 % interval of the paired median: it contains the median, it is one point
    when every round gives the same ratio, wider when the rounds scatter, and absent for
    fewer than five rounds (too few to resample)."""
    ab = _ab()
    base = [100.0] * 9
    agreeing = [95.0] * 9
    scattered = [80.0, 85.0, 90.0, 95.0, 95.0, 100.0, 105.0, 110.0, 115.0]
    assert ab.interval(base, agreeing) == "0.950-0.950"
    low, high = map(float, ab.interval(base, scattered).split("-"))
    assert low < 0.95 < high and high - low >= 0.05
    assert ab.interval(base[:4], agreeing[:4]) == "-"
    assert ab.interval([0.0] * 6, [1.0] * 6) == "-"
