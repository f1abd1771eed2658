"""Benchmark of the whole stack through the SDK: bots at several tables for a fixed time.

Starts the suite as local processes (evaluator, `--dealers` dealers, lobby), opens
`--tables` tables of `--seats` through the lobby, buys every bot in, and lets the bots
play through the asyncio SDK (Play streams, the client-side tracker and the fair-deck
check on every hand) in `--procs` client processes for `--seconds`. Prints hands per
second (all tables together), the action round trip (decision sent -> its result) p50
and p99, the chips check, and PokerKit's hands per second in this process for scale.
`--json PATH` writes every figure as one object.

Run: .venv/bin/python bench/table.py [--seconds 20] [--tables 8] [--seats 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

from clients.accounts import TableRules  # noqa: E402
from clients.aio import AsyncTableClient  # noqa: E402
from clients.events import Event, HandEnded  # noqa: E402
from clients.farm import BotFarm  # noqa: E402
from clients.models import (  # noqa: E402
    Action,
    Decision,
    Level,
    Preset,
    TableConfig,
    TableView,
)
from clients.sdk import LobbyClient, TableClient  # noqa: E402
from clients.session import PlayResult  # noqa: E402
from clients.stack import LocalSuite  # noqa: E402
from clients.transport import open_aio_channel  # noqa: E402

DEPOSIT = 10_000_000
BUY_IN = 100_000


@dataclass(frozen=True)
class SeatJob:
    """One bot's seat, as a client process receives it."""

    table_id: str
    dealer: str
    token: str
    counts_hands: bool  # one seat a table times the hands that end


def run_seats(jobs: list[SeatJob], style: str, seconds: float, started_at: float,
              out: Any) -> None:
    """A client process: every seat of `jobs` plays on one asyncio loop."""
    out.put(asyncio.run(_play(jobs, style, seconds, started_at)))


async def _play(jobs: list[SeatJob], style: str, seconds: float,
                started_at: float) -> dict[str, Any]:
    """Plays the seats of `jobs`: style `play`, an AsyncTableClient (its own Play stream)
    per seat; style `farm`, a BotFarm (one PlayMany stream) per dealer."""
    ended: list[float] = []
    cpu_at_start = time.process_time()
    channels = {address: open_aio_channel(address) for address in {j.dealer for j in jobs}}

    def timer(job: SeatJob) -> Any:
        def on_events(events: list[Event]) -> None:
            if job.counts_hands:
                now = time.time() - started_at
                ended.extend(now for e in events if isinstance(e, HandEnded))
        return on_events

    bots = [BenchBot(seed=i) for i in range(len(jobs))]
    left = max(1.0, seconds - (time.time() - started_at))
    results: list[PlayResult]
    if style == "farm":
        farms = {address: BotFarm(address, channel=channel)
                 for address, channel in channels.items()}
        clients = [farms[j.dealer].add(j.table_id, j.token, bot, on_events=timer(j))
                   for j, bot in zip(jobs, bots, strict=True)]
        played = await asyncio.gather(*(farm.play(seconds=left) for farm in farms.values()))
        results = [r for by_seat in played for r in by_seat.values()]
        for farm in farms.values():
            await farm.close()
    else:
        clients = [AsyncTableClient(j.dealer, j.table_id, j.token, channel=channels[j.dealer])
                   for j in jobs]
        results = list(await asyncio.gather(*(
            client.play(bot, seconds=left, on_events=timer(job))
            for client, bot, job in zip(clients, bots, jobs, strict=True))))
        for client in clients:
            await client.close()
    for channel in channels.values():
        await channel.close()
    return {
        "cpu_s": time.process_time() - cpu_at_start,
        "ended": ended,
        "latencies": [x for r in results for x in r.latencies],
        "verified": sum(c.fair_deck.verified for c in clients if c.fair_deck),
        "violations": sum(len(c.fair_deck.violations) for c in clients if c.fair_deck),
        "refused": sum(len(r.refused) for r in results),
        "reconnects": sum(r.reconnects for r in results),
    }


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BenchBot:
    """The policy bench/dealer.py uses: checks and calls mostly, a minimum raise now and
    then, some folds; mucks at showdown. Cheap, so the clients' cost is the SDK's."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: TableView) -> Action:
        legal = view.legal
        assert legal is not None
        if legal.decision is Decision.SHOW_OR_MUCK:
            return Action.muck() if legal.can_muck else Action.show()
        r = self.rng.random()
        if legal.bet_kind is not None and r < 0.1:
            return Action(legal.bet_kind, legal.min_to)
        if legal.can_check:
            return Action.check()
        return Action.call() if r < 0.75 else Action.fold()


def pokerkit_hands_per_s(seats: int, seconds: float) -> float:
    """PokerKit, in process, random decisions (tests/oracles/pokerkit_driver.py)."""
    try:
        from tests.oracles.pokerkit_driver import Spec, random_hand
    except ImportError:
        return float("nan")
    rng = random.Random(1)
    spec = Spec("no_limit", (BUY_IN,) * seats, 50, 100)
    hands, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        random_hand(spec, rng)
        hands += 1
    return hands / (time.perf_counter() - began)


def setup(suite: LocalSuite, tables: int, seats: int, prefix: str,
          time_bank_ms: int | None = None) -> tuple[LobbyClient, list[SeatJob], list[str]]:
    operator = LobbyClient(suite.lobby, suite.operator_token)
    jobs, table_ids = [], []
    # R35's bank only when asked: an older commit's TableConfig (bench/ab.py) has none
    bank = {} if time_bank_ms is None else {"time_bank_ms": time_bank_ms}
    for t in range(tables):
        table = operator.open_table(
            TableConfig(seats=seats, levels=(Level(50, 100),), preset=Preset.STANDARD,
                        action_time_ms=10_000, pause_between_hands_ms=0, **bank),
            TableRules(initial_stack=BUY_IN), table_id=f"{prefix}-{t}")
        table_ids.append(table.table_id)
        for s in range(seats):
            player_id = f"{prefix}-t{t}s{s}"
            _, token = operator.create_player(player_id, player_id)
            operator.deposit(player_id, DEPOSIT)
            seating = LobbyClient(suite.lobby, token).join(table.table_id, BUY_IN)
            jobs.append(SeatJob(table.table_id, seating.dealer_address, seating.seat_token,
                                counts_hands=s == 0))
    return operator, jobs, table_ids


def chips_conserved(operator: LobbyClient, table_ids: list[str], deposited: int) -> bool:
    """After the run: balances + stacks == every deposit so far, and the ledger audit
    holds (earlier runs' tables are closed: their stacks are balances again)."""
    on_tables = 0
    for table_id in table_ids:
        view = TableClient(operator.table(table_id).dealer_address, table_id).view()
        on_tables += sum(s.stack + s.bet for s in view.seats)
        if view.hand is not None:
            on_tables += sum(p.amount for p in view.hand.pots)
    audit = operator.audit()
    return bool(audit.ok and audit.player_balances + on_tables == deposited)


def _by_kind(used: list[tuple[str, float]]) -> dict[str, float]:
    kinds: dict[str, float] = {}
    for name, seconds in used:
        kinds[name] = kinds.get(name, 0.0) + seconds
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=2, help="players a table (2..10)")
    parser.add_argument("--dealers", type=int, default=1)
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--pokerkit-seconds", type=float, default=3.0)
    parser.add_argument("--styles", default="farm,play",
                        help="client styles to run, each on fresh tables: farm, play")
    parser.add_argument("--time-bank-ms", type=int, default=None,
                        help="R35's time bank of every seat (default: the table's, 30 s); "
                             "0 plays as a commit from before R35, which has none")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)

    runs: dict[str, dict[str, Any]] = {}
    with LocalSuite(evaluators=1, dealers=args.dealers) as suite:
        deposited = 0
        for style in args.styles.split(","):
            if style not in STYLES:
                parser.error(f"--styles: unknown style {style!r} ({', '.join(STYLES)})")
            runs[style] = run_style(suite, style, args, deposited)
            deposited += DEPOSIT * args.tables * args.seats
            print_run(style, runs[style], args)
    best = max(runs, key=lambda name: runs[name]["hands_per_s"])
    figures: dict[str, Any] = {
        "tables": args.tables, "seats": args.seats, "dealers": args.dealers,
        "client_processes": args.procs, "seconds": args.seconds, "cores": os.cpu_count(),
        "headline": best, **{k: runs[best][k] for k in HEADLINE}, "runs": runs,
        "chips_conserved": all(r["chips_conserved"] for r in runs.values()),
        "fair_deck_violations": sum(r["fair_deck_violations"] for r in runs.values()),
    }
    print(f"headline: {best} ({STYLES[best]})")
    figures["pokerkit_hands_per_s"] = pokerkit_hands_per_s(args.seats, args.pokerkit_seconds)
    figures["ratio_to_pokerkit"] = figures["hands_per_s"] / figures["pokerkit_hands_per_s"]
    print(f"PokerKit in process: {figures['pokerkit_hands_per_s']:7.1f} hands/s "
          f"(ratio SDK/PokerKit {figures['ratio_to_pokerkit']:.2f})")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["chips_conserved"] and not figures["fair_deck_violations"] else 1


#: The client styles: how the bots of a client process reach the dealer.
STYLES = {"farm": "clients.farm.BotFarm: one PlayMany stream per client process and dealer",
          "play": "AsyncTableClient.play: one Play stream per seat"}
#: The figures of the headline run repeated at the top of the JSON object.
HEADLINE = ("hands_per_s", "action_p50_ms", "action_p99_ms")


def run_style(suite: LocalSuite, style: str, args: argparse.Namespace,
              deposited: int) -> dict[str, Any]:
    """Opens fresh tables, plays them in `args.procs` client processes, checks the chips."""
    operator, jobs, table_ids = setup(suite, args.tables, args.seats, style,
                                     args.time_bank_ms)
    started_at = time.time()
    total = args.warmup + args.seconds
    services = [(p.name, p.popen.pid) for p in suite.processes]
    cpu_before = {pid: cpu_seconds(pid) for _, pid in services}
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    # Each client process plays whole tables (every seat of a table in one process), as a
    # bot farm plays the tables it sits at: a table's events then reach one process, not
    # each of its seats' processes.
    by_table = sorted({j.table_id for j in jobs})
    procs = [context.Process(target=run_seats,
                             args=([j for j in jobs
                                    if by_table.index(j.table_id) % args.procs == i],
                                   style, total, started_at, queue))
             for i in range(args.procs)]
    for p in procs:
        p.start()
    parts = [queue.get(timeout=total + 120) for _ in procs]
    cpu_used = [(name, cpu_seconds(pid) - cpu_before[pid]) for name, pid in services]
    all_hands = sum(len(part["ended"]) for part in parts)
    for p in procs:
        p.join(30)
    time.sleep(0.5)
    conserved = chips_conserved(operator, table_ids, deposited + DEPOSIT * len(jobs))
    for table_id in table_ids:
        operator.close_table(table_id, void_hand_in_progress=True)
    window = [t for part in parts for t in part["ended"]
              if args.warmup <= t <= args.warmup + args.seconds]
    latencies = sorted(x for part in parts for x in part["latencies"])
    return {
        "style": style,
        "hands_per_s": len(window) / args.seconds,
        "actions": len(latencies),
        "action_p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "action_p99_ms": (1000 * latencies[int(0.99 * (len(latencies) - 1))]
                          if latencies else float("nan")),
        "fair_deck_hands_verified": sum(part["verified"] for part in parts),
        "fair_deck_violations": sum(part["violations"] for part in parts),
        "refused": sum(part["refused"] for part in parts),
        "reconnects": sum(part["reconnects"] for part in parts),
        "chips_conserved": conserved,
        # CPU milliseconds per hand over the whole run, by process kind: where the time goes
        "cpu_ms_per_hand": {
            **{name: round(1000 * used / max(1, all_hands), 2) for name, used in
               _by_kind(cpu_used).items()},
            "clients": round(1000 * sum(part["cpu_s"] for part in parts) / max(1, all_hands), 2),
        },
    }


def print_run(style: str, run: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"SDK end to end, {style}: {run['hands_per_s']:7.1f} hands/s  ({args.tables} tables "
          f"x {args.seats} seats, {args.dealers} dealer(s), {args.procs} client process(es), "
          f"{args.seconds:.0f} s; {STYLES[style]})")
    print(f"  action round trip p50 {run['action_p50_ms']:.2f} ms  "
          f"p99 {run['action_p99_ms']:.2f} ms  ({run['actions']} actions)")
    print(f"  fair deck verified on {run['fair_deck_hands_verified']} seat-hands, "
          f"{run['fair_deck_violations']} violations; refused {run['refused']}; "
          f"chips conserved: {run['chips_conserved']}")
    print("  CPU per hand: " + ", ".join(
        f"{name} {ms:.2f} ms" for name, ms in run["cpu_ms_per_hand"].items())
          + f" ({os.cpu_count()} cores)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
