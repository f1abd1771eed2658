"""Benchmark of the sync SDK's cost per call and per decision, three ways, in one run.

`sync`: the sync `TableClient` of this tree (generated from the asyncio source by
clients/syncgen.py: native sync gRPC, responses read on the caller's thread). `before`: the
hand-written sync client of git revision `--before` (default: the parent of the commit
that made sdk.py generated), loaded from git. `facade`: what a sync facade over a loop
thread would cost: the asyncio client driven from the calling thread through
`asyncio.run_coroutine_threadsafe` on one event loop thread (play() there runs the
asyncio `play` on that loop; each unary call is one hop there and back).

Per style: a unary round trip (`view()`, median of `--calls`) and a heads-up table
played by two bots for `--seconds` (decisions, p50 action round trip, client CPU
microseconds per decision: this process's CPU over the decisions both seats made).
`--stop until` stops play() with an `until=` deadline; `--stop seconds` with `seconds=`,
a timer (whose tick ends a sync client's stream once).

Run: .venv/bin/python bench/sdk_sync.py [--seconds 10] [--calls 2000] [--before REV]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from table import BUY_IN, DEPOSIT, BenchBot  # noqa: E402

from clients.accounts import TableRules  # noqa: E402
from clients.aio import AsyncTableClient  # noqa: E402
from clients.models import Level, Preset, TableConfig  # noqa: E402
from clients.sdk import LobbyClient  # noqa: E402
from clients.session import PlayResult  # noqa: E402
from clients.stack import LocalSuite  # noqa: E402

T = TypeVar("T")


def load_before(rev: str, source: str = "clients/sdk.py", name: str = "sdk_before") -> Any:
    """The module `source` of revision `rev` (the sync client, clients/sdk.py, unless
    told), imported as is under `name`."""
    text = subprocess.run(["git", "show", f"{rev}:{source}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class LoopThread:
    """One event loop on a daemon thread; `run` waits for a coroutine there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()


def open_table(operator: LobbyClient, suite: LocalSuite, name: str) -> list[tuple[str, str]]:
    """A fresh heads-up table; (dealer address, seat token) of its two seats."""
    table = operator.open_table(
        TableConfig(seats=2, levels=(Level(50, 100),), preset=Preset.STANDARD,
                    action_time_ms=10_000, pause_between_hands_ms=0),
        TableRules(initial_stack=BUY_IN), table_id=name)
    seats = []
    for s in range(2):
        player_id = f"{name}-s{s}"
        _, token = operator.create_player(player_id, player_id)
        operator.deposit(player_id, DEPOSIT)
        seating = LobbyClient(suite.lobby, token).join(table.table_id, BUY_IN)
        seats.append((seating.dealer_address, seating.seat_token))
    return seats


def timed(calls: int, one: Callable[[], object]) -> float:
    """Median microseconds of `one()` over `calls` calls (after 50 warm-up calls)."""
    for _ in range(50):
        one()
    times = []
    for _ in range(calls):
        began = time.perf_counter()
        one()
        times.append(time.perf_counter() - began)
    return 1e6 * statistics.median(times)


def figures(results: list[PlayResult], cpu_s: float, unary_us: float) -> dict[str, float]:
    latencies = sorted(x for r in results for x in r.latencies)
    decisions = sum(r.actions for r in results)
    return {"unary_us": unary_us, "decisions": decisions,
            "action_p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
            "cpu_us_per_decision": 1e6 * cpu_s / max(1, decisions)}


def stop(seconds: float, how: str) -> dict[str, Any]:
    """play()'s stop after `seconds`: `seconds=` (a timer: the sync stream then reads on a
    thread), or `until=` a deadline (checked at every event: no timer)."""
    if how == "seconds":
        return {"seconds": seconds}
    deadline = time.monotonic() + seconds
    return {"until": lambda view: time.monotonic() >= deadline}


def run_sync(module: Any, seats: list[tuple[str, str]], table_id: str, seconds: float,
             calls: int, how: str) -> dict[str, float]:
    clients = [module.TableClient(address, table_id, token) for address, token in seats]
    unary = timed(calls, clients[0].view)
    results: list[PlayResult] = []
    cpu = time.process_time()
    threads = [threading.Thread(target=lambda c=c, i=i: results.append(
        c.play(BenchBot(seed=i), **stop(seconds, how)))) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu = time.process_time() - cpu
    for c in clients:
        c.close()
    return figures(results, cpu, unary)


def run_facade(seats: list[tuple[str, str]], table_id: str, seconds: float,
               calls: int, how: str) -> dict[str, float]:
    loop = LoopThread()

    async def make() -> list[AsyncTableClient]:
        return [AsyncTableClient(address, table_id, token) for address, token in seats]

    clients = loop.run(make())
    unary = timed(calls, lambda: loop.run(clients[0].view()))

    async def play_all() -> list[PlayResult]:
        return list(await asyncio.gather(*(c.play(BenchBot(seed=i), **stop(seconds, how))
                                           for i, c in enumerate(clients))))

    cpu = time.process_time()
    results = loop.run(play_all())
    cpu = time.process_time() - cpu
    for c in clients:
        loop.run(c.close())
    return figures(results, cpu, unary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--before", default="HEAD~1",
                        help="git revision of the hand-written sync client")
    parser.add_argument("--styles", default="before,sync,facade",
                        help="styles to run in this order, repeats allowed (A/B/A/B)")
    parser.add_argument("--stop", choices=("until", "seconds"), default="until",
                        help="how play() is stopped: until= a deadline, or seconds=")
    args = parser.parse_args(argv)
    before = load_before(args.before) if "before" in args.styles else None
    with LocalSuite(evaluators=1) as suite:
        operator = LobbyClient(suite.lobby, suite.operator_token)
        for i, style in enumerate(args.styles.split(",")):
            name = f"bench-{i}-{style}"
            seats = open_table(operator, suite, name)
            if style == "facade":
                run = run_facade(seats, name, args.seconds, args.calls, args.stop)
            else:
                module = before if style == "before" else sys.modules["clients.sdk"]
                run = run_sync(module, seats, name, args.seconds, args.calls, args.stop)
            operator.close_table(name, void_hand_in_progress=True)
            print(f"{style:7s} view() {run['unary_us']:7.0f} us   decisions "
                  f"{run['decisions']:6.0f}   action p50 {run['action_p50_ms']:6.2f} ms   "
                  f"client CPU {run['cpu_us_per_decision']:6.0f} us/decision", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
