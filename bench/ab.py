"""A/B in one run: a benchmark of this checkout against the same benchmark at an older commit.

The older commit is checked out in a temporary git worktree; the two sides then run
alternately (A B B A A B ...), each as its own process with its own checkout first on
`PYTHONPATH`, so that the machine's drift over the run falls on both alike. Every number
the benchmark writes with `--json` is collected; the medians of both sides and their
ratio (head / base) are printed, with each side's range.

    .venv/bin/python bench/ab.py --base d1e2932 --rounds 5 engine.py --hands 6000
    .venv/bin/python bench/ab.py --base 93dc1d7 dealer.py --seconds 10 --runs farm,play
    .venv/bin/python bench/ab.py --base 93dc1d7 --same-script table_core.py
    .venv/bin/python bench/ab.py --base 93dc1d7 --together --rounds 10 dealer.py
    .venv/bin/python bench/ab.py --base 93dc1d7 --head-args="--time-bank-ms 0" table.py
    .venv/bin/python bench/ab.py --base 93dc1d7 --quotient \
        farm.dealer_us_per_action=farm.dealer_cpu_pct/farm.actions_per_s*1e4 dealer.py

The benchmark's own options follow its file name (a script under `bench/`); `--json`
is added by this script. `--head-args` adds options to this checkout's side only: to
play a feature the base lacks at its "off" setting (R35's time bank at 0), so that both
sides do the same work and the figure is the cost of the code, not of the feature.

`--together` starts a round's two sides at the same moment instead of one after the
other. On a shared machine whose speed moves by 10-20 % from one minute to the next,
each pair then meets the same machine, and the rounds' ratios spread less; the sides
share the cores, so their own figures are lower than alone: compare the ratios. It
suits a benchmark of one phase only: sides whose phases drift apart no longer meet the
same load (bench/table.py's Play style, run after its farm style, came out 1.27 together
against 1.01 alternated on the same commits). Each
paired ratio comes with a 95 % confidence interval of its median (the bootstrap over
the rounds): a change is shown no slower only when that interval's low end is near 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_side(checkout: Path, script: str, args: list[str], out: Path,
               script_from: Path | None = None) -> subprocess.Popen[bytes]:
    """Starts one run of bench/`script` on `checkout`'s code (the script itself from
    `script_from`, default the checkout), writing its figures to `out`."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    source = (script_from or checkout) / "bench" / script
    return subprocess.Popen([sys.executable, str(source), *args, "--json", str(out)],
                            cwd=checkout, env=env, stdout=subprocess.DEVNULL)


def figures_of(run: subprocess.Popen[bytes], out: Path) -> dict[str, float]:
    """The numeric figures a started run wrote, once it ends (an error if it failed)."""
    if run.wait() != 0:
        raise subprocess.CalledProcessError(run.returncode, run.args)
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


def compile_tree(checkout: Path) -> None:
    """Writes the bytecode of a checkout's packages (as `make test` does for this one),
    so that neither side compiles its modules at each start: with
    PYTHONDONTWRITEBYTECODE set, a fresh worktree would otherwise never have any."""
    folders = [name for name in ("poker", "services", "clients", "bench")
               if (checkout / name).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *folders],
                   cwd=checkout, check=True, stdout=subprocess.DEVNULL)


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
    parser.add_argument("--together", action="store_true",
                        help="run a round's two sides at the same time, not one after the "
                             "other: a change of the machine's speed then falls on both "
                             "alike (they share its cores, so each side's figures are lower "
                             "than alone; compare the ratios); for a benchmark of one "
                             "phase, since phases that drift apart meet different loads")
    parser.add_argument("--head-args", default="",
                        help="options for this checkout's side only, one string (shlex)")
    parser.add_argument("--quotient", action="append", default=[], metavar="NAME=A/B",
                        help="a figure of each run worked out from two it wrote, A divided "
                             "by B, scaled by a power of ten when NAME says so (e.g. "
                             "'farm.dealer_us_per_action=farm.dealer_cpu_pct/"
                             "farm.actions_per_s*1e4': CPU an action when the base writes no "
                             "such figure); repeatable")
    parser.add_argument("--json", metavar="PATH",
                        help="also write every round's figures of both sides, to pool runs")
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
        for checkout in (base, ROOT):  # both sides start from bytecode, as `make test` leaves it
            compile_tree(checkout)
        runs: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
        order = [("base", "head"), ("head", "base")]
        for i in range(ns.rounds):
            print(f"round {i + 1}/{ns.rounds}: " + (" and " if ns.together else ", then ").join(
                f"{side} ({base_rev if side == 'base' else head_rev})" for side in order[i % 2])
                + " ...", flush=True)
            started = []
            for side in order[i % 2]:
                checkout = base if side == "base" else ROOT
                args = ns.args + (head_args if side == "head" else [])
                out = Path(tmp) / f"{side}{i}.json"
                run = start_side(checkout, ns.script, args, out,
                                 ROOT if ns.same_script else None)
                started.append((side, run, out))
                if not ns.together:
                    figures_of(run, out)
            for side, run, out in started:
                figures = figures_of(run, out)
                for name, worked_out in quotients:
                    value = worked_out(figures)
                    if value is not None:
                        figures[name] = value
                runs[side].append(figures)
    keys = [k for k in runs["head"][0] if all(k in r for r in runs["base"] + runs["head"])]
    also = f" (head also {' '.join(head_args)})" if head_args else ""
    print(f"\nbench/{ns.script} {' '.join(ns.args)}{also}: base {base_rev}, head {head_rev}, "
          f"{ns.rounds} rounds each, " + ("both sides at once" if ns.together else "alternated")
          + "; medians (ranges)")
    print("paired: the median of each round's own head/base (its two runs are next to each "
          "other in time, so a drift of the machine's speed falls on both), with the range; "
          "95% CI: of that median, by resampling the rounds")
    print(f"{'figure':44} {'base':>24} {'head':>24} {'head/base':>9} {'paired':>21} "
          f"{'95% CI':>13}")
    for key in keys:
        a = [r[key] for r in runs["base"]]
        b = [r[key] for r in runs["head"]]
        ma, mb = statistics.median(a), statistics.median(b)
        ratio = f"{mb / ma:9.3f}" if ma else f"{'-':>9}"
        print(f"{key:44} {_cell(ma, a):>24} {_cell(mb, b):>24} {ratio} {paired(a, b):>21} "
              f"{interval(a, b):>13}")
    if ns.json:
        Path(ns.json).write_text(json.dumps({"base": base_rev, "head": head_rev,
                                             "script": ns.script, "args": ns.args,
                                             "head_args": head_args, "rounds": runs}))
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


def interval(base: list[float], head: list[float], resamples: int = 2000) -> str:
    """A 95% confidence interval of the median of the rounds' own ratios head/base, by
    the bootstrap (the rounds drawn again with replacement, a fixed seed); "-" when a
    base figure is 0 or there are fewer than five rounds.

    >>> interval([100.0] * 6, [97.0, 98.0, 99.0, 101.0, 102.0, 103.0])
    '0.975-1.025'
    >>> interval([100.0] * 4, [90.0] * 4)
    '-'
    """
    if not all(base) or len(base) < 5:
        return "-"
    ratios = [h / b for b, h in zip(base, head, strict=True)]
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(ratios, k=len(ratios)))
                     for _ in range(resamples))
    return f"{medians[int(0.025 * resamples)]:.3f}-{medians[int(0.975 * resamples) - 1]:.3f}"


def _cell(median: float, values: list[float]) -> str:
    return f"{median:,.1f} ({min(values):,.0f}-{max(values):,.0f})"


if __name__ == "__main__":
    raise SystemExit(main())
