"""A/B in one run: a benchmark of this checkout against the same benchmark at an older commit.

The older commit is checked out in a temporary git worktree; the two sides then run
alternately (A B B A A B ...), each as its own process with its own checkout first on
`PYTHONPATH`, so that the machine's drift over the run falls on both alike. Every number
the benchmark writes with `--json` is collected; the medians of both sides and their
ratio (head / base) are printed, with each side's range.

    .venv/bin/python bench/ab.py --base d1e2932 --rounds 5 engine.py --hands 6000
    .venv/bin/python bench/ab.py --base 93dc1d7 dealer.py --seconds 10 --runs farm,play
    .venv/bin/python bench/ab.py --base 93dc1d7 --same-script table_core.py
    .venv/bin/python bench/ab.py --base 93dc1d7 --head-args="--time-bank-ms 0" table.py
    .venv/bin/python bench/ab.py --base 93dc1d7 --quotient \
        farm.dealer_us_per_action=farm.dealer_cpu_pct/farm.actions_per_s*1e4 dealer.py

The benchmark's own options follow its file name (a script under `bench/`); `--json`
is added by this script. `--head-args` adds options to this checkout's side only: to
play a feature the base lacks at its "off" setting (R35's time bank at 0), so that both
sides do the same work and the figure is the cost of the code, not of the feature.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_side(checkout: Path, script: str, args: list[str], out: Path,
             script_from: Path | None = None) -> dict[str, float]:
    """One run of bench/`script` on `checkout`'s code (the script itself from
    `script_from`, default the checkout); the numeric figures it wrote."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    source = (script_from or checkout) / "bench" / script
    subprocess.run([sys.executable, str(source), *args, "--json", str(out)],
                   cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    return dict(_numbers(json.loads(out.read_text())))


@contextlib.contextmanager
def worktree(rev: str, path: Path) -> Iterator[Path]:
    """`rev` checked out at `path` (a detached git worktree of this checkout), removed
    afterwards (bench/dealer_instructions.py's --base too)."""
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), rev],
                   cwd=ROOT, check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT,
                       check=False)


def _numbers(value: object, prefix: str = "") -> Iterator[tuple[str, float]]:
    """(dotted key, number) for every number in a JSON value, lists and objects walked."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield prefix, float(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, f"{prefix}[{i}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the older commit (any git revision)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (default 3)")
    parser.add_argument("--same-script", action="store_true",
                        help="run this checkout's benchmark file on both sides (each on its "
                             "own code): for a benchmark newer than the base that uses only "
                             "what the base has too")
    parser.add_argument("--head-args", default="",
                        help="options for this checkout's side only, one string (shlex)")
    parser.add_argument("--quotient", action="append", default=[], metavar="NAME=A/B",
                        help="a figure of each run worked out from two it wrote, A divided "
                             "by B, scaled by a power of ten when NAME says so (e.g. "
                             "'farm.dealer_us_per_action=farm.dealer_cpu_pct/"
                             "farm.actions_per_s*1e4': CPU an action when the base writes no "
                             "such figure); repeatable")
    parser.add_argument("script", help="a benchmark under bench/, e.g. engine.py")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the benchmark's own options")
    ns = parser.parse_args(argv)
    if not 1 <= ns.rounds <= 50:
        parser.error("--rounds is 1 to 50")
    if not (ROOT / "bench" / ns.script).is_file():
        parser.error(f"no benchmark bench/{ns.script}")
    head_args = shlex.split(ns.head_args)
    try:
        quotients = [quotient(text) for text in ns.quotient]
    except ValueError as err:
        parser.error(str(err))
    base_rev = subprocess.run(["git", "rev-parse", "--short", ns.base], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    head_rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="poker-ab-") as tmp, \
            worktree(base_rev, Path(tmp) / "base") as base:
        runs: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
        order = [("base", "head"), ("head", "base")]
        for i in range(ns.rounds):
            for side in order[i % 2]:
                checkout = base if side == "base" else ROOT
                print(f"round {i + 1}/{ns.rounds}: {side} "
                      f"({base_rev if side == 'base' else head_rev}) ...", flush=True)
                args = ns.args + (head_args if side == "head" else [])
                figures = run_side(checkout, ns.script, args, Path(tmp) / f"{side}{i}.json",
                                   ROOT if ns.same_script else None)
                for name, worked_out in quotients:
                    value = worked_out(figures)
                    if value is not None:
                        figures[name] = value
                runs[side].append(figures)
    keys = [k for k in runs["head"][0] if all(k in r for r in runs["base"] + runs["head"])]
    also = f" (head also {' '.join(head_args)})" if head_args else ""
    print(f"\nbench/{ns.script} {' '.join(ns.args)}{also}: base {base_rev}, head {head_rev}, "
          f"{ns.rounds} rounds each, alternated; medians (ranges)")
    print("paired: the median of each round's own head/base (its two runs are next to each "
          "other in time, so a drift of the machine's speed falls on both), with the range")
    print(f"{'figure':44} {'base':>24} {'head':>24} {'head/base':>9} {'paired':>21}")
    for key in keys:
        a = [r[key] for r in runs["base"]]
        b = [r[key] for r in runs["head"]]
        ma, mb = statistics.median(a), statistics.median(b)
        ratio = f"{mb / ma:9.3f}" if ma else f"{'-':>9}"
        print(f"{key:44} {_cell(ma, a):>24} {_cell(mb, b):>24} {ratio} {paired(a, b):>21}")
    return 0


def quotient(text: str) -> tuple[str, Callable[[dict[str, float]], float | None]]:
    """`NAME=A/B` or `NAME=A/B*SCALE`: the name and a function of a run's figures giving
    A / B (times SCALE), or None when the run lacks one of them or B is 0.

    >>> name, worked_out = quotient("us=cpu_pct/actions*1e4")
    >>> name, worked_out({"cpu_pct": 85.5, "actions": 2898.0}), worked_out({"cpu_pct": 1.0})
    ('us', 295.03105590062114, None)
    >>> quotient("us=cpu_pct")
    Traceback (most recent call last):
    ...
    ValueError: --quotient 'us=cpu_pct': say NAME=A/B or NAME=A/B*SCALE
    """
    name, _, formula = text.partition("=")
    numerator, _, rest = formula.partition("/")
    denominator, _, scale_text = rest.partition("*")
    try:
        scale: float | None = float(scale_text) if scale_text else 1.0
    except ValueError:
        scale = None
    if not (name and numerator and denominator) or scale is None:
        raise ValueError(f"--quotient {text!r}: say NAME=A/B or NAME=A/B*SCALE")
    factor = scale

    def worked_out(figures: dict[str, float]) -> float | None:
        a, b = figures.get(numerator), figures.get(denominator)
        return None if a is None or not b else a / b * factor

    return name, worked_out


def paired(base: list[float], head: list[float]) -> str:
    """The median of the rounds' own ratios head/base and their range ("-" when a base
    figure is 0).

    >>> paired([100.0, 80.0, 120.0], [90.0, 84.0, 108.0])
    '0.900 (0.900-1.050)'
    >>> paired([0.0], [1.0])
    '-'
    """
    if not all(base):
        return "-"
    ratios = [h / b for b, h in zip(base, head, strict=True)]
    return f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"


def _cell(median: float, values: list[float]) -> str:
    return f"{median:,.1f} ({min(values):,.0f}-{max(values):,.0f})"


if __name__ == "__main__":
    raise SystemExit(main())
