"""Benchmark of the dealer: tables of scripted bots over gRPC, against PokerKit in process.

Starts a dealer process, creates `--tables` tables of 6 bots, and lets the bots play
for `--seconds` in each of two client styles: `unary` (a WatchTable stream per bot,
decisions sent with Act) and `play` (one bidirectional Play stream per bot). Prints
hands per second, the action round trip (send a decision -> its answer) p50/p99, and
PokerKit's hands per second in this process for scale; then the resident memory of a
dealer holding 1,000 idle tables. `--json PATH` writes every figure as one object.

Run: .venv/bin/python bench/dealer.py [--seconds 20] [--tables 4] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from poker.procs import ServiceProcess, start_service  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from poker.v1 import dealer_pb2_grpc  # noqa: E402

TOKEN = "bench-service-token"
SVC = (("authorization", f"Bearer {TOKEN}"),)
SEATS = 6
STACK = 10_000_000


@dataclass
class Stats:
    """What the bots of one run measured."""

    hands: int = 0
    rtts: list[float] = field(default_factory=list)
    errors: int = 0


def choose(legal: pb.LegalActions, rng: random.Random) -> tuple[int, int]:
    """A bot that plays like a tight table: most hands folded to a bet, some called, a few raised.

    About 9 decisions a hand at six players; the figures printed include actions/s so
    that another policy can be compared.
    """
    if legal.decision == pb.DECISION_SHOW_OR_MUCK:
        return pb.ACTION_KIND_MUCK, 0
    r = rng.random()
    if legal.bet_kind and r < 0.08:
        return legal.bet_kind, legal.min_to
    if legal.can_check:
        return pb.ACTION_KIND_CHECK, 0
    if r < 0.35:
        return pb.ACTION_KIND_CALL, 0
    return pb.ACTION_KIND_FOLD, 0


async def setup_tables(stub: dealer_pb2_grpc.DealerServiceStub, count: int,
                       prefix: str) -> list[tuple[str, dict[int, str]]]:
    tables = []
    for t in range(count):
        config = pb.TableConfig(seats=SEATS, pause_between_hands_ms=0, action_time_ms=5000,
                                preset=pb.PRESET_STANDARD)
        reply = await stub.CreateTable(pb.CreateTableRequest(
            table_id=f"{prefix}-{t}", config=config), metadata=SVC)
        tokens = {}
        for seat in range(SEATS):
            seated = await stub.SeatPlayer(pb.SeatPlayerRequest(
                table_id=reply.table_id, seat=seat, player_id=f"bot{seat}", stack=STACK),
                metadata=SVC)
            tokens[seat] = seated.seat_token
        tables.append((reply.table_id, tokens))
    return tables


async def bot_unary(stub: dealer_pb2_grpc.DealerServiceStub, table_id: str, seat: int,
                    token: str, stop: asyncio.Event, stats: Stats) -> None:
    metadata = (("authorization", f"Bearer {token}"),)
    rng = random.Random(seat)
    call = stub.WatchTable(pb.WatchTableRequest(table_id=table_id), metadata=metadata)
    async for response in call:
        if stop.is_set():
            call.cancel()
            return
        for event in response.events:
            kind = event.WhichOneof("event")
            if kind == "hand_ended" and seat == 0:
                stats.hands += 1
            if kind != "turn_started" or event.turn_started.seat != seat:
                continue
            action, amount = choose(event.turn_started.legal_actions, rng)
            started = time.perf_counter()
            try:
                await stub.Act(pb.ActRequest(
                    table_id=table_id, seat=seat, hand_id=event.hand_id,
                    action_number=event.turn_started.action_number, kind=action, amount=amount),
                    metadata=metadata)
            except grpc.aio.AioRpcError:
                stats.errors += 1
            stats.rtts.append(time.perf_counter() - started)


async def bot_play(stub: dealer_pb2_grpc.DealerServiceStub, table_id: str, seat: int,
                   token: str, stop: asyncio.Event, stats: Stats) -> None:
    metadata = (("authorization", f"Bearer {token}"),)
    rng = random.Random(seat)
    call = stub.Play(metadata=metadata)
    await call.write(pb.PlayRequest(start=pb.PlayStart(table_id=table_id)))
    sent = 0.0
    while not stop.is_set():
        response = await call.read()
        if response is grpc.aio.EOF:
            return
        if response.HasField("action_result"):
            stats.rtts.append(time.perf_counter() - sent)
            stats.errors += response.action_result.code != 0
        for event in response.events:
            kind = event.WhichOneof("event")
            if kind == "hand_ended" and seat == 0:
                stats.hands += 1
            if kind != "turn_started" or event.turn_started.seat != seat:
                continue
            action, amount = choose(event.turn_started.legal_actions, rng)
            sent = time.perf_counter()
            await call.write(pb.PlayRequest(action=pb.PlayAction(
                hand_id=event.hand_id, action_number=event.turn_started.action_number,
                kind=action, amount=amount)))
    call.cancel()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_bots(address: str, style: str, tables: int, seconds: float,
                   pid: int) -> dict[str, float]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = dealer_pb2_grpc.DealerServiceStub(channel)
        setup = await setup_tables(stub, tables, style)
        stats, stop = Stats(), asyncio.Event()
        bot = bot_unary if style == "unary" else bot_play
        tasks = [asyncio.create_task(bot(stub, table_id, seat, token, stop, stats))
                 for table_id, tokens in setup for seat, token in tokens.items()]
        await asyncio.sleep(1.0)  # warm-up
        hands0, stats.rtts = stats.hands, []
        started, server0, client0 = time.perf_counter(), cpu_seconds(pid), time.process_time()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        server_cpu = (cpu_seconds(pid) - server0) / elapsed
        client_cpu = (time.process_time() - client0) / elapsed
        hands = stats.hands - hands0
        rtts = sorted(stats.rtts)
        stop.set()
        for table_id, _ in setup:
            await stub.CloseTable(pb.CloseTableRequest(table_id=table_id,
                                                       void_hand_in_progress=True), metadata=SVC)
        await asyncio.wait(tasks, timeout=5)
        for task in tasks:
            task.cancel()
    return {
        "hands_per_s": hands / elapsed,
        "actions_per_s": len(rtts) / elapsed,
        "p50_ms": 1000 * statistics.median(rtts) if rtts else float("nan"),
        "p99_ms": 1000 * rtts[int(0.99 * (len(rtts) - 1))] if rtts else float("nan"),
        "errors": stats.errors,
        "dealer_cpu_pct": 100 * server_cpu,
        "bots_cpu_pct": 100 * client_cpu,
    }


def pokerkit_hands_per_s(seconds: float) -> float:
    """PokerKit, in process, 6 players, random decisions (tests/oracles/pokerkit_driver.py)."""
    try:
        from tests.oracles.pokerkit_driver import Spec, random_hand
    except ImportError:
        return float("nan")
    rng = random.Random(1)
    spec = Spec("no_limit", (STACK,) * SEATS, 50, 100)
    hands, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        random_hand(spec, rng)
        hands += 1
    return hands / (time.perf_counter() - started)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def idle_tables(address: str, count: int) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = dealer_pb2_grpc.DealerServiceStub(channel)
        for t in range(count):
            reply = await stub.CreateTable(pb.CreateTableRequest(
                table_id=f"idle-{t}", config=pb.TableConfig(seats=9)), metadata=SVC)
            await stub.SeatPlayer(pb.SeatPlayerRequest(
                table_id=reply.table_id, player_id="waiting", stack=1000), metadata=SVC)


def start_dealer(folder: Path, name: str, linger_ms: float = 10.0) -> ServiceProcess:
    return start_service("dealer", ["--db", str(folder / f"{name}.sqlite"),
                                    "--service-token", TOKEN,
                                    "--stream-linger-ms", str(linger_ms)],
                         env={"POKER_LOG_LEVEL": "WARNING"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="play time per client style")
    parser.add_argument("--tables", type=int, default=4, help="tables of 6 bots")
    parser.add_argument("--styles", default="unary,play", help="client styles to run")
    parser.add_argument("--idle-tables", type=int, default=1000)
    parser.add_argument("--linger-ms", type=float, default=10.0,
                        help="the dealer's --stream-linger-ms")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    results: dict[str, object] = {"tables": args.tables, "seconds": args.seconds}
    with tempfile.TemporaryDirectory() as folder:
        for style in args.styles.split(","):
            proc = start_dealer(Path(folder), style, args.linger_ms)
            try:
                figures = asyncio.run(run_bots(proc.address, style, args.tables, args.seconds,
                                               proc.popen.pid))
            finally:
                proc.stop()
            results[style] = figures
            print(f"{style:6} {figures['hands_per_s']:8.1f} hands/s  "
                  f"{figures['actions_per_s']:8.1f} actions/s  p50 {figures['p50_ms']:.2f} ms  "
                  f"p99 {figures['p99_ms']:.2f} ms  errors {figures['errors']}  "
                  f"cpu: dealer {figures['dealer_cpu_pct']:.0f}% bots "
                  f"{figures['bots_cpu_pct']:.0f}%", flush=True)
        best = max((s for s in args.styles.split(",")),
                   key=lambda s: results[s]["hands_per_s"])  # type: ignore[index]
        results.update({k: results[best][k] for k in ("hands_per_s", "p50_ms", "p99_ms")})  # type: ignore[index]
        results["best_style"] = best
        results["pokerkit_hands_per_s"] = pokerkit_hands_per_s(min(5.0, args.seconds))
        print(f"pokerkit {results['pokerkit_hands_per_s']:8.1f} hands/s (in process, no network)")
        if args.idle_tables:
            proc = start_dealer(Path(folder), "idle")
            try:
                asyncio.run(idle_tables(proc.address, args.idle_tables))
                results["idle_tables_rss_mb"] = rss_mb(proc.popen.pid)
            finally:
                proc.stop()
            print(f"idle   {args.idle_tables} tables: {results['idle_tables_rss_mb']:.1f} MB "
                  "resident (VmRSS)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
