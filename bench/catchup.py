"""Benchmark of streams catching up: what many WatchTable streams opened from sequence 0
cost a busy table's live play.

A store is built with one busy table of 6 seats and a history of `--history` real
recorded events (one table's hands played in process, copied again and again,
renumbered). Then, for each dealer build (`before`: the source of git revision
`--before`, by default where this branch left main (`git merge-base HEAD main`);
`after`: this tree), on a copy of that store:

1. 6 bots (one PlayMany stream, in a process of their own) play the busy table;
2. for `--quiet` seconds, a prober asks GetTable every 10 ms: its p50/p99 and the
   table's hands/s with no watcher;
3. `--watchers` WatchTable streams open from sequence 0 at once (in another process,
   reading raw bytes), and for `--seconds` seconds the same figures are taken, with
   the time until every watcher had caught up on the history.

One line per build and phase, and the ratios after/before.

Run: .venv/bin/python bench/catchup.py [--history 60000] [--watchers 150] [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

import dealer as dealer_bench  # noqa: E402 - bench/dealer.py: its bots
import grpc  # noqa: E402

from poker.log import configure  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from poker.v1 import dealer_pb2_grpc  # noqa: E402
from services.dealer import views  # noqa: E402
from services.dealer.auth import Authenticator, token_hash  # noqa: E402
from services.dealer.dealer import Dealer, dump_setup  # noqa: E402
from services.dealer.store import Store  # noqa: E402

TOKEN = dealer_bench.TOKEN
TABLE = "busy"
SEATS = 6
STACK = 10_000_000


async def _record(path: Path, hands: int) -> list[tuple[int, str, int, str]]:
    store = Store(path)
    dealer = Dealer(store, Authenticator(TOKEN, ""), None, "resume")
    config, options = views.config_from_proto(pb.TableConfig(
        seats=SEATS, pause_between_hands_ms=0, action_time_ms=600_000,
        preset=pb.PRESET_STANDARD))
    table = dealer.create_table(TABLE, config, options)
    for seat in range(SEATS):
        dealer.seat_player(TABLE, seat, f"bot{seat}", STACK, False)
    rng = random.Random(1)
    while table.hands_played < hands:
        turn, hand = table.turn, table.hand
        if turn is None or hand is None:
            await asyncio.sleep(0)
            continue
        if turn.decision == "show_or_muck":
            kind, amount = "muck", 0
        elif turn.bet_kind and rng.random() < 0.1:
            kind, amount = turn.bet_kind, turn.min_to
        else:
            kind, amount = ("check" if turn.can_check else rng.choice(["call", "fold"])), 0
        table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)
    table.shutdown()
    rows = [(r.sequence, r.hand_id, r.time_ms, r.payload) for r in store.events(TABLE)]
    store.close()
    return rows


def build(path: Path, history: int) -> int:
    """The busy table with `history` events (to the end of a hand); its seats' tokens
    are `seat-token-N`."""
    recorded = asyncio.run(_record(path.with_suffix(".recorded"), 300))
    first = next(i for i, r in enumerate(recorded) if r[1])
    last = max(i for i, r in enumerate(recorded) if '"t":"DeckRevealed"' in r[3])
    rows, hands = list(recorded[:first]), recorded[first:last + 1]
    while len(rows) < history:
        rows.extend(hands[:history - len(rows)])
    ends = [i for i, r in enumerate(rows) if '"t":"DeckRevealed"' in r[3]]
    rows = rows[:ends[-1] + 1]
    config, options = views.config_from_proto(pb.TableConfig(
        seats=SEATS, pause_between_hands_ms=0, action_time_ms=5000, preset=pb.PRESET_STANDARD))
    Store(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    db.execute("INSERT INTO tables (table_id, config, created_ms) VALUES (?, ?, 0)",
               (TABLE, dump_setup(config, options)))
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                   [(TABLE, n, h, t, p) for n, (_s, h, t, p) in enumerate(rows, start=1)])
    db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                   [(TABLE, s, f"bot{s}", token_hash(f"seat-token-{s}")) for s in range(SEATS)])
    db.execute("COMMIT")
    db.close()
    return len(rows)


def source_of(rev: str, folder: Path) -> Path:
    """The tree of git revision `rev` (services/ and poker/), extracted under `folder`."""
    out = folder / f"src-{rev[:10]}"
    archive = subprocess.run(["git", "archive", rev, "services", "poker"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(out, filter="data")
    return out


def start_dealer(source: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "poker.cli", "serve", "dealer", "--host", "127.0.0.1",
           "--port", "0", "--db", str(db), "--service-token", TOKEN,
           "--stream-linger-ms", "10"]
    env = {**os.environ, "POKER_LOG_LEVEL": "WARNING", "PYTHONPATH": str(source)}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, cwd=source)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("listening on "):
            return proc, line.split()[-1]
    raise RuntimeError("the dealer did not start")


def watchers_worker(address: str, count: int, history: int, ready: Any, stop: Any,
                    out: Any) -> None:
    """`count` WatchTable streams from 0, read as raw bytes (parsed a few times a second,
    for the sequence reached); sends back when each caught up on `history`, the
    sequence each reached, and the bytes received."""

    async def main() -> tuple[list[float], list[int], int]:
        channels = [grpc.aio.insecure_channel(address) for _ in range(max(1, count // 15))]
        caught: list[float] = []
        reached: list[int] = []  # the sequence each watcher had reached (last looked)
        received = [0]  # bytes
        started = time.perf_counter()

        async def watch(channel: grpc.aio.Channel) -> None:
            call = channel.unary_stream(
                "/poker.v1.DealerService/WatchTable",
                request_serializer=pb.WatchTableRequest.SerializeToString,
                response_deserializer=None)(pb.WatchTableRequest(table_id=TABLE))
            looked, me = 0.0, len(reached)
            reached.append(0)
            try:
                async for data in call:
                    now = time.perf_counter()
                    received[0] += len(data)
                    if now - looked < 0.2:
                        continue
                    looked = now
                    events = pb.WatchTableResponse.FromString(data).events
                    if events:
                        reached[me] = events[-1].sequence
                    if events and events[-1].sequence >= history:
                        caught.append(now - started)
                        break
                async for _data in call:  # live from here on
                    pass
            except (grpc.aio.AioRpcError, asyncio.CancelledError):
                pass

        tasks = [asyncio.ensure_future(watch(channels[i % len(channels)]))
                 for i in range(count)]
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, stop.wait)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels:
            await channel.close()
        return caught, reached, received[0]

    out.put(asyncio.run(main()))


async def probe(stub: Any, seconds: float) -> tuple[list[float], int, int]:
    """GetTable every 10 ms for `seconds`: latencies (ms), hands played at start and end."""
    first = (await stub.GetTable(pb.GetTableRequest(table_id=TABLE))).table.hands_played
    latencies, until = [], time.perf_counter() + seconds
    while time.perf_counter() < until:
        began = time.perf_counter()
        reply = await stub.GetTable(pb.GetTableRequest(table_id=TABLE))
        latencies.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(0.01)
    return latencies, first, reply.table.hands_played


def figures(name: str, latencies: list[float], hands: int, seconds: float) -> dict[str, float]:
    cuts = statistics.quantiles(latencies, n=100)
    row = {"p50": cuts[49], "p99": cuts[98], "hands_s": hands / seconds}
    print(f"  {name:<22} GetTable p50 {row['p50']:7.1f} ms  p99 {row['p99']:7.1f} ms   "
          f"busy table {row['hands_s']:6.1f} hands/s", flush=True)
    return row


def run_build(label: str, source: Path, db: Path, args: argparse.Namespace,
              history: int) -> dict[str, Any]:
    proc, address = start_dealer(source, db)
    context = multiprocessing.get_context("spawn")
    bots = [dealer_bench.Seat(address, TABLE, s, f"seat-token-{s}") for s in range(SEATS)]
    ready, stop, out = context.Event(), context.Event(), context.Queue()
    player = context.Process(target=dealer_bench.bot_worker, args=(bots, "farm", ready, stop, out),
                             daemon=True)
    result: dict[str, Any] = {}
    print(f"{label}:", flush=True)
    try:
        player.start()
        ready.wait(30)
        time.sleep(1.0)  # warm up

        async def measure() -> None:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = dealer_pb2_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
                lat, h0, h1 = await probe(stub, args.quiet)
                result["quiet"] = figures("0 watchers", lat, h1 - h0, args.quiet)
                w_ready, w_stop, w_out = context.Event(), context.Event(), context.Queue()
                watchers = context.Process(target=watchers_worker, args=(
                    address, args.watchers, history, w_ready, w_stop, w_out), daemon=True)
                watchers.start()
                await asyncio.get_running_loop().run_in_executor(None, w_ready.wait, 30)
                lat, h0, h1 = await probe(stub, args.seconds)
                w_stop.set()
                caught, reached, received = await asyncio.get_running_loop().run_in_executor(
                    None, w_out.get, True, 60)
                watchers.join(10)
                if watchers.is_alive():
                    watchers.terminate()
                result["busy"] = figures(f"{args.watchers} watchers from 0", lat, h1 - h0,
                                         args.seconds)
                done = (f"all caught up in {max(caught):.1f} s" if len(caught) == args.watchers
                        else f"{len(caught)}/{args.watchers} caught up in {args.seconds:.0f} s")
                result["caught_up"] = len(caught)
                result["history_sent"] = sum(min(r, history) for r in reached) / (
                    args.watchers * history)
                print(f"  {'':<22} {done}; {result['history_sent']:.0%} of the history sent "
                      f"(median watcher at {statistics.median(reached):,.0f}), "
                      f"{received / 1e6:.0f} MB received", flush=True)

        asyncio.run(measure())
    finally:
        stop.set()
        player.join(15)
        if player.is_alive():
            player.terminate()
        proc.terminate()
        proc.wait(30)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--history", type=int, default=60_000, help="events of the busy table")
    parser.add_argument("--watchers", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=15.0, help="with watchers")
    parser.add_argument("--quiet", type=float, default=5.0, help="without watchers")
    parser.add_argument("--before", default="", help="git revision of the `before` dealer")
    args = parser.parse_args(argv)
    configure(level="WARNING")
    before = args.before or subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=ROOT,
        check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-catchup-") as tmp:
        folder = Path(tmp)
        store = folder / "store.sqlite"
        history = build(store, args.history)
        print(f"busy table: {history:,} events of history; {args.watchers} watchers; "
              f"before = {before}")
        results = {}
        for label, source in (("before", source_of(before, folder)), ("after", ROOT)):
            db = folder / f"{label}.sqlite"
            shutil.copy(store, db)
            results[label] = run_build(label, source, db, args, history)
        b, a = results["before"]["busy"], results["after"]["busy"]
        print(f"with watchers, after/before: GetTable p50 {a['p50'] / b['p50']:.2f}x, "
              f"p99 {a['p99'] / b['p99']:.2f}x, hands/s {a['hands_s'] / b['hands_s']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
