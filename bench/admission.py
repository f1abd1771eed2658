"""Benchmark: how long a small Equity waits while big ones are in flight on the same evaluator.

Starts an evaluator process, sends `--big` large Monte Carlo questions (ten players
with wide ranges, `--big-trials` trials each: seconds of work apiece), waits until
they compute, then times a 1,000-trial heads-up Equity, `--small` times in a row.
Printed: the small call's latencies (median and worst), the same call on the idle
server, and how much CPU the server burnt in the 2 s after the big calls were
cancelled (work for a cancelled call should stop). Wall-clock, on a shared machine.

    .venv/bin/python bench/admission.py [--big 2] [--big-trials 300000] [--json PATH]

Measured on the 2-core development machine (shared), defaults, 2026-12-01:

    before (one semaphore of 2, no slices)   first small call 15.9 s (it waited for a big
                                             call to end), median 0.003 s after that
    after (fair turns of a few ms)           first 0.039 s, median 0.026 s, worst 0.039 s;
                                             idle 0.005 s; 0.00 CPU s after the cancel

(Before, a call past its deadline went on computing: 1.4 CPU s in the 2 s after
DEADLINE_EXCEEDED, tests/evaluator/test_evaluator_load.py; after, under 0.5.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

import grpc  # noqa: E402

from poker.procs import start_service  # noqa: E402
from poker.v1 import evaluator_pb2 as pb  # noqa: E402
from poker.v1.evaluator_pb2_grpc import EvaluatorServiceStub  # noqa: E402

WIDE = "22+, A2s+, K9o+"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def small_request() -> pb.EquityRequest:
    return pb.EquityRequest(players=[pb.EquityPlayer(cards=["Ah", "Kh"]),
                                     pb.EquityPlayer(cards=["Qs", "Qd"])],
                            method=pb.EQUITY_METHOD_MONTE_CARLO, trials=1000, seed=1)


def big_request(trials: int) -> pb.EquityRequest:
    return pb.EquityRequest(players=[pb.EquityPlayer(range=WIDE)] * 10,
                            method=pb.EQUITY_METHOD_MONTE_CARLO, trials=trials, seed=2)


def timed(stub: EvaluatorServiceStub, timeout: float) -> float:
    started = time.perf_counter()
    stub.Equity(small_request(), timeout=timeout)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=2, help="big calls in flight")
    parser.add_argument("--big-trials", type=int, default=300_000, help="trials of a big call")
    parser.add_argument("--small", type=int, default=5, help="small calls timed")
    parser.add_argument("--timeout", type=float, default=120.0, help="deadline of a small call")
    parser.add_argument("--json", type=Path, help="write the figures as one JSON object here")
    args = parser.parse_args(argv)

    proc = start_service("evaluator", ["--max-trials", str(max(args.big_trials, 1000))])
    figures: dict[str, float] = {}
    try:
        with grpc.insecure_channel(proc.address) as channel:
            stub = EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
            idle = [timed(stub, args.timeout) for _ in range(args.small)]
            figures["small_idle_median_s"] = statistics.median(idle)
            bigs = [stub.Equity.future(big_request(args.big_trials), timeout=600)
                    for _ in range(args.big)]
            time.sleep(0.5)  # the big calls are computing
            busy = []
            for _ in range(args.small):
                busy.append(timed(stub, args.timeout))
            figures["small_busy_first_s"] = busy[0]
            figures["small_busy_median_s"] = statistics.median(busy)
            figures["small_busy_worst_s"] = max(busy)
            figures["big_done_before_small"] = sum(b.done() for b in bigs)
            for big in bigs:
                big.cancel()
            time.sleep(0.3)
            before = cpu_seconds(proc.popen.pid)
            time.sleep(2.0)
            figures["cpu_s_in_2s_after_cancel"] = cpu_seconds(proc.popen.pid) - before
    finally:
        proc.stop()
    print(f"small Equity (1,000 trials, heads-up), {args.small} calls each:")
    print(f"  idle server                   median {figures['small_idle_median_s']:8.3f} s")
    print(f"  {args.big} x {args.big_trials:,}-trial 10-way in flight "
          f"median {figures['small_busy_median_s']:8.3f} s, worst "
          f"{figures['small_busy_worst_s']:8.3f} s")
    print(f"  the first of them             {figures['small_busy_first_s']:8.3f} s")
    print(f"  big calls finished before the small ones: {figures['big_done_before_small']:.0f}")
    print(f"server CPU in the 2 s after the big calls were cancelled: "
          f"{figures['cpu_s_in_2s_after_cancel']:.2f} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
