"""Benchmark of the dealer: tables of scripted bots over gRPC, against PokerKit in process.

Starts dealer processes, creates `--tables` tables of 6 bots, and lets the bots play
for `--seconds` in each run. A run is a client style on a layout:

* style `unary`: a WatchTable stream per bot, decisions sent with Act;
  style `play`: one bidirectional Play stream per bot;
  style `farm`: one PlayMany stream per bot process and dealer for all its bots (each
  bot still decides from its own seat's events; the decisions of everything received
  so far go up in one request, as clients.farm.BotFarm does);
* layout `DxB`: D dealer processes with the tables spread across them round robin
  (as the lobby spreads tables across dealers), and the bots in B worker processes
  (0: in this process). `1x0` is one dealer process, the single-process figure.

Each run prints hands per second (counted by the dealers: hands begun in the
window), actions per second, the action round trip (a decision sent -> its answer)
p50/p99, and the CPU of the dealers and of the bots; then PokerKit's hands per
second in this process for scale, the resident memory of a dealer holding 1,000
idle tables, and the machine's load average (other work on the machine shows in
every figure). The headline is the run with the most hands per second, named on
its line, and each run says which of the goals (>= 300 hands/s, p50 <= 1 ms,
p99 <= 3 ms) it meets; `--json PATH` writes every figure as one object. The dealers run with
`--stream-linger-ms` 10 (their default; `--linger-ms` to change it).

With `--repeat N` each run is played N times on fresh dealers and its figures are
the median round's (by hands/s): the machine is shared, and one round may land on a
busy or an idle moment.

Run: .venv/bin/python bench/dealer.py [--seconds 20] [--tables 4] [--repeat 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

import grpc  # noqa: E402

from poker.procs import ServiceProcess, start_service  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from poker.v1 import dealer_pb2_grpc  # noqa: E402

TOKEN = "bench-service-token"
SVC = (("authorization", f"Bearer {TOKEN}"),)
SEATS = 6
STACK = 10_000_000
WARM_UP_S = 1.0
#: The default runs: (style, dealers, bot processes).
RUNS = "unary:1x0,play:1x0,play:2x2,farm:1x0,farm:2x2"
#: The goals of the dealer's issue on this 2-core machine: hands/s, p50 and p99 (ms).
GOALS = (300.0, 1.0, 3.0)


@dataclass
class Stats:
    """What the bots of one process measured: (send time, round trip) per answered decision."""

    rtts: list[tuple[float, float]] = field(default_factory=list)
    errors: int = 0


@dataclass(frozen=True)
class Seat:
    """One bot: where its table is, and its credential."""

    address: str
    table_id: str
    seat: int
    token: str


def choose(legal: pb.LegalActions, rng: random.Random) -> tuple[Any, int]:
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


def my_turn(events: Sequence[pb.TableEvent], seat: int) -> pb.TableEvent | None:
    """The decision awaited from `seat`, if the latest TurnStarted of the batch is its own.

    Only the latest counts (earlier ones in a batch were answered already), so the bot
    reads a batch from its end and stops at the first TurnStarted."""
    for event in reversed(events):
        if event.HasField("turn_started"):
            return event if event.turn_started.seat == seat else None
    return None


async def bot_unary(stub: dealer_pb2_grpc.DealerServiceStub, bot: Seat, stop: asyncio.Event,
                    stats: Stats) -> None:
    metadata = (("authorization", f"Bearer {bot.token}"),)
    rng = random.Random(bot.seat)
    call = stub.WatchTable(pb.WatchTableRequest(table_id=bot.table_id), metadata=metadata)
    async for response in call:
        if stop.is_set():
            call.cancel()
            return
        event = my_turn(response.events, bot.seat)
        if event is None:
            continue
        turn = event.turn_started
        action, amount = choose(turn.legal_actions, rng)
        started = time.perf_counter()
        try:
            await stub.Act(pb.ActRequest(
                table_id=bot.table_id, seat=bot.seat, hand_id=event.hand_id,
                action_number=turn.action_number, kind=action, amount=amount),
                metadata=metadata)
        except grpc.aio.AioRpcError:
            if stop.is_set():
                return
            stats.errors += 1
        stats.rtts.append((started, time.perf_counter() - started))


async def bot_play(stub: dealer_pb2_grpc.DealerServiceStub, bot: Seat, stop: asyncio.Event,
                   stats: Stats) -> None:
    metadata = (("authorization", f"Bearer {bot.token}"),)
    rng = random.Random(bot.seat)
    call = stub.Play(metadata=metadata)
    await call.write(pb.PlayRequest(start=pb.PlayStart(table_id=bot.table_id)))
    sent = 0.0
    while not stop.is_set():
        response = await call.read()
        if response is grpc.aio.EOF:
            return
        if response.HasField("action_result"):
            stats.rtts.append((sent, time.perf_counter() - sent))
            stats.errors += response.action_result.code != 0
        event = my_turn(response.events, bot.seat)
        if event is None:
            continue
        turn = event.turn_started
        action, amount = choose(turn.legal_actions, rng)
        sent = time.perf_counter()
        await call.write(pb.PlayRequest(action=pb.PlayAction(
            hand_id=event.hand_id, action_number=turn.action_number, kind=action,
            amount=amount)))
    call.cancel()


async def farm_play(stub: dealer_pb2_grpc.DealerServiceStub, bots: Sequence[Seat],
                    stop: asyncio.Event, stats: Stats) -> None:
    """Every bot of this process at this dealer on one PlayMany stream: each bot still
    decides from its own seat's events; the decisions of everything received so far go
    up together in one request (as clients.farm.BotFarm does)."""
    rngs = {(b.table_id, b.seat): random.Random(b.seat) for b in bots}
    sent: dict[tuple[str, int], float] = {}
    call = stub.PlayMany()
    await call.write(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id=b.table_id, seat_token=b.token) for b in bots]))
    inbox: asyncio.Queue[Any] = asyncio.Queue()

    async def pump() -> None:
        while True:
            response = await call.read()
            inbox.put_nowait(response)
            if response is grpc.aio.EOF:
                return

    reader = asyncio.create_task(pump())
    try:
        while not stop.is_set():
            responses = [await inbox.get()]
            while not inbox.empty():
                responses.append(inbox.get_nowait())
            now = time.perf_counter()
            actions = []
            for response in responses:
                if response is grpc.aio.EOF:
                    return
                for answer in response.results:
                    started = sent.pop((answer.table_id, answer.seat), now)
                    stats.rtts.append((started, now - started))
                    stats.errors += answer.result.code != 0
                for batch in response.events:
                    event = my_turn(batch.events, batch.seat)
                    if event is None:
                        continue
                    turn = event.turn_started
                    key = (batch.table_id, batch.seat)
                    action, amount = choose(turn.legal_actions, rngs[key])
                    actions.append(pb.PlaySeatAction(
                        table_id=batch.table_id, seat=batch.seat, action=pb.PlayAction(
                            hand_id=event.hand_id, action_number=turn.action_number,
                            kind=action, amount=amount)))
            if actions:
                started = time.perf_counter()
                for action in actions:
                    sent[(action.table_id, action.seat)] = started
                await call.write(pb.PlayManyRequest(actions=actions))
    finally:
        reader.cancel()
        call.cancel()


def new_stub(channel: grpc.aio.Channel) -> dealer_pb2_grpc.DealerServiceStub:
    return dealer_pb2_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]


BOTS: dict[str, Callable[..., Coroutine[Any, Any, None]]] = {
    "unary": bot_unary, "play": bot_play, "farm": farm_play}


async def play_bots(bots: Sequence[Seat], style: str, stop: asyncio.Event, stats: Stats) -> None:
    """Runs the bots until `stop`, one channel per dealer."""
    channels = {a: grpc.aio.insecure_channel(a) for a in sorted({b.address for b in bots})}
    try:
        stubs = {a: new_stub(c) for a, c in channels.items()}
        if style == "farm":
            tasks = [asyncio.create_task(farm_play(stub, [b for b in bots if b.address == a],
                                                   stop, stats))
                     for a, stub in stubs.items()]
        else:
            tasks = [asyncio.create_task(BOTS[style](stubs[b.address], b, stop, stats))
                     for b in bots]
        await stop.wait()
        await asyncio.wait(tasks, timeout=5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for channel in channels.values():
            await channel.close()


def bot_worker(bots: list[Seat], style: str, ready: Any, stop: Any, out: Any) -> None:
    """A bot process: plays until `stop` is set, then sends its Stats back."""

    async def main() -> Stats:
        stats, stopping = Stats(), asyncio.Event()
        loop = asyncio.get_running_loop()
        runner = asyncio.create_task(play_bots(bots, style, stopping, stats))
        ready.set()
        await loop.run_in_executor(None, stop.wait)
        stopping.set()
        await runner
        return stats

    stats = asyncio.run(main())
    out.put((stats.rtts, stats.errors))


# ------------------------------------------------------------------ the run


#: R35's time bank of the tables' seats (--time-bank-ms; None: the table's default).
TIME_BANK_MS: int | None = None


async def setup_tables(addresses: Sequence[str], count: int, prefix: str) -> list[Seat]:
    bots = []
    for t in range(count):
        address = addresses[t % len(addresses)]
        async with grpc.aio.insecure_channel(address) as channel:
            stub = new_stub(channel)
            config = pb.TableConfig(seats=SEATS, pause_between_hands_ms=0, action_time_ms=5000,
                                    preset=pb.PRESET_STANDARD)
            if TIME_BANK_MS is not None:  # only when asked: older commits have no R35 bank
                config.time_bank_ms = TIME_BANK_MS
            reply = await stub.CreateTable(pb.CreateTableRequest(
                table_id=f"{prefix}-{t}", config=config), metadata=SVC)
            for seat in range(SEATS):
                seated = await stub.SeatPlayer(pb.SeatPlayerRequest(
                    table_id=reply.table_id, seat=seat, player_id=f"bot{seat}", stack=STACK),
                    metadata=SVC)
                bots.append(Seat(address, reply.table_id, seat, seated.seat_token))
    return bots


async def hands_played(bots: Sequence[Seat]) -> int:
    """Hands begun so far at every table (GetTable, as a spectator)."""
    total = 0
    for address, table_id in sorted({(b.address, b.table_id) for b in bots}):
        async with grpc.aio.insecure_channel(address) as channel:
            reply = await new_stub(channel).GetTable(
                pb.GetTableRequest(table_id=table_id))
            total += reply.table.hands_played
    return total


async def close_tables(bots: Sequence[Seat]) -> None:
    for address, table_id in sorted({(b.address, b.table_id) for b in bots}):
        async with grpc.aio.insecure_channel(address) as channel:
            await new_stub(channel).CloseTable(pb.CloseTableRequest(
                table_id=table_id, void_hand_in_progress=True), metadata=SVC)


def cpu_seconds(pid: int, system_only: bool = False) -> float:
    """User + system CPU time of a process so far (`system_only`: the kernel's part)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    system = int(fields[12])
    return (system if system_only else int(fields[11]) + system) / os.sysconf("SC_CLK_TCK")


def context_switches(pid: int) -> int:
    """Context switches of a process's threads so far (voluntary and not)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for line in (task / "status").read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[1])
    return total


async def run_layout(addresses: Sequence[str], dealer_pids: Sequence[int], style: str,
                     tables: int, bot_procs: int, seconds: float, prefix: str
                     ) -> dict[str, Any]:
    bots = await setup_tables(addresses, tables, prefix)
    stats, stop = Stats(), asyncio.Event()
    workers: list[Any] = []
    local: asyncio.Task[None] | None = None
    if bot_procs:
        context = multiprocessing.get_context("spawn")
        out, stop_all = context.Queue(), context.Event()
        for i in range(bot_procs):
            ready = context.Event()
            worker = context.Process(target=bot_worker, daemon=True, args=(
                [b for j, b in enumerate(bots) if (j // SEATS) % bot_procs == i], style,
                ready, stop_all, out))
            worker.start()
            workers.append((worker, ready))
        for _worker, ready in workers:
            await asyncio.get_running_loop().run_in_executor(None, ready.wait, 60)
        bot_pids = [worker.pid for worker, _ in workers]
    else:
        local = asyncio.create_task(play_bots(bots, style, stop, stats))
        bot_pids = [os.getpid()]
    await asyncio.sleep(WARM_UP_S)
    hands0, window0 = await hands_played(bots), time.perf_counter()
    dealers0 = sum(cpu_seconds(p) for p in dealer_pids)
    kernel0 = sum(cpu_seconds(p, system_only=True) for p in dealer_pids)
    switches0 = sum(context_switches(p) for p in dealer_pids)
    bots0 = sum(cpu_seconds(p) for p in bot_pids)
    await asyncio.sleep(seconds)
    window1 = time.perf_counter()
    dealers1 = sum(cpu_seconds(p) for p in dealer_pids)
    kernel1 = sum(cpu_seconds(p, system_only=True) for p in dealer_pids)
    switches1 = sum(context_switches(p) for p in dealer_pids)
    bots1 = sum(cpu_seconds(p) for p in bot_pids)
    hands = await hands_played(bots) - hands0
    elapsed = window1 - window0
    if bot_procs:
        stop_all.set()
        for _ in workers:
            rtts, errors = out.get(timeout=30)
            stats.rtts += rtts
            stats.errors += errors
        for worker, _ in workers:
            worker.join(10)
    else:
        stop.set()
        assert local is not None
        await local
    await close_tables(bots)
    rtts = sorted(rtt for sent, rtt in stats.rtts if window0 <= sent < window1)
    return {
        "hands_per_s": hands / elapsed,
        "actions_per_s": len(rtts) / elapsed,
        "p50_ms": 1000 * statistics.median(rtts) if rtts else float("nan"),
        "p99_ms": 1000 * rtts[int(0.99 * (len(rtts) - 1))] if rtts else float("nan"),
        "errors": stats.errors,
        "dealer_cpu_pct": 100 * (dealers1 - dealers0) / elapsed,
        # the kernel's part of it (system calls: sockets, the store's files)
        "dealer_system_pct": 100 * (kernel1 - kernel0) / elapsed,
        "dealer_switches_per_action": (switches1 - switches0) / len(rtts) if rtts
        else float("nan"),
        "bots_cpu_pct": 100 * (bots1 - bots0) / elapsed,
        # the dealers' CPU per answered decision: the "dealer CPU per decision" of an A/B
        # (bench/ab.py), each round's own, so its median is not a ratio of two medians
        "dealer_cpu_us_per_action": 1e6 * (dealers1 - dealers0) / len(rtts) if rtts
        else float("nan"),
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
        stub = new_stub(channel)
        for t in range(count):
            reply = await stub.CreateTable(pb.CreateTableRequest(
                table_id=f"idle-{t}", config=pb.TableConfig(seats=9)), metadata=SVC)
            await stub.SeatPlayer(pb.SeatPlayerRequest(
                table_id=reply.table_id, player_id="waiting", stack=1000), metadata=SVC)


def start_dealer(folder: Path, name: str, linger_ms: float = 10.0,
                 dsn: str | None = None) -> ServiceProcess:
    """A dealer on a fresh SQLite file, or (`dsn`) on a fresh schema of that PostgreSQL."""
    store = ["--db", str(folder / f"{name}.sqlite")]
    if dsn:
        store = ["--dsn", fresh_schema(dsn), "--port", str(free_port())]
    return start_service("dealer", [*store, "--service-token", TOKEN,
                                    "--stream-linger-ms", str(linger_ms)],
                         env={"POKER_LOG_LEVEL": "WARNING"})


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fresh_schema(dsn: str) -> str:
    """A new empty schema on the server: the DSN that works in it."""
    import secrets

    import psycopg

    schema = f"bench_{secrets.token_hex(5)}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{dsn} options='-c search_path={schema}'"


def commit_costs(folder: Path, dsn: str, decisions: int = 2000) -> dict[str, float]:
    """Microseconds of the event loop per decision written (an event row and its journal
    entry) by the store itself: one commit per decision on SQLite and PostgreSQL, and on
    PostgreSQL in groups of 8 decisions (a PlayMany request's group commit)."""
    from poker.journal import Retention
    from services.dealer.store import ActRecord, Store
    from services.dealer.store_pg import PgStore

    payload = '{"k":"ActionTaken","seat":1,"kind":"call","amount":20}'
    out: dict[str, float] = {}
    sqlite = Store(folder / "commit-cost.sqlite", retention=Retention())
    pg = PgStore(fresh_schema(dsn), "bench", Retention())
    for store in (sqlite, pg):
        with store.batch():
            store.create_table("t", "{}", 0)
    pg.epochs["t"] = 1
    for name, store, group in (("sqlite", sqlite, 1), ("postgresql", pg, 1),
                               ("postgresql_group8", pg, 8)):
        base = 10_000_000 * (group + 1)
        start = time.perf_counter()
        for n in range(0, decisions, group):
            def one(k: int, store: Any = store, base: int = base) -> None:
                n = base + k
                store.write("t", [(n, "h", 0, payload)], lambda: store.put_act(
                    "t", "h", n, ActRecord(1, "call", 20, n)))
            if group == 1:
                one(n)
            else:
                with store.group():
                    for k in range(n, n + group):
                        one(k)
        out[name] = (time.perf_counter() - start) / decisions * 1e6
    sqlite.close()
    pg.close()
    return out


def parse_runs(text: str) -> list[tuple[str, int, int]]:
    """`style:DxB,...` -> [(style, dealers, bot processes)]."""
    runs = []
    for item in text.split(","):
        style, _, layout = item.strip().partition(":")
        dealers, _, procs = (layout or "1x0").partition("x")
        if style not in BOTS:
            raise SystemExit(f"--runs: unknown style {style!r} (unary, play, farm)")
        runs.append((style, int(dealers), int(procs or 0)))
    return runs


def run_name(style: str, dealers: int, procs: int) -> str:
    return style if (dealers, procs) == (1, 0) else f"{style}_{dealers}x{procs}"


def play_round(folder: Path, name: str, style: str, dealers: int, procs: int,
               args: argparse.Namespace, dsn: str | None = None) -> dict[str, Any]:
    """One round of a run on fresh dealer processes (on PostgreSQL with `dsn`)."""
    started = [start_dealer(folder, f"{name}-{d}", args.linger_ms, dsn)
               for d in range(dealers)]
    try:
        return asyncio.run(run_layout(
            [p.address for p in started], [p.popen.pid for p in started],
            style, args.tables, procs, args.seconds, name))
    finally:
        for proc in started:
            proc.stop()


def describe(dealers: int, procs: int) -> str:
    bots = ("bots in the bench process" if not procs
            else f"bots in {procs} process{'es' if procs > 1 else ''}")
    return f"{dealers} dealer{'s' if dealers > 1 else ''}, {bots}"


def goals_met(figures: dict[str, Any]) -> str:
    """Which goals a run meets, e.g. "hands/s no (271 < 300), p50 yes, p99 yes"."""
    hands, p50, p99 = GOALS
    parts = [("hands/s", figures["hands_per_s"] >= hands, f"{figures['hands_per_s']:.0f}",
              "<", hands),
             ("p50", figures["p50_ms"] <= p50, f"{figures['p50_ms']:.2f}", ">", p50),
             ("p99", figures["p99_ms"] <= p99, f"{figures['p99_ms']:.2f}", ">", p99)]
    return ", ".join(f"{name} yes" if ok else f"{name} no ({value} {sign} {goal:g})"
                     for name, ok, value, sign, goal in parts)


def fmt_load(load: Sequence[float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="play time per run")
    parser.add_argument("--tables", type=int, default=4, help="tables of 6 bots")
    parser.add_argument("--runs", default=RUNS,
                        help=f"style:DxB runs, D dealers and B bot processes (default {RUNS})")
    parser.add_argument("--styles", default=None,
                        help="client styles on one dealer, bots in this process (as --runs "
                             "style:1x0,...)")
    parser.add_argument("--idle-tables", type=int, default=1000)
    parser.add_argument("--linger-ms", type=float, default=10.0,
                        help="the dealers' --stream-linger-ms")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of each run (fresh dealers each); the median round by "
                             "hands/s is the run's figure")
    parser.add_argument("--time-bank-ms", type=int, default=None,
                        help="R35's time bank of every seat (default: the table's, 30 s); "
                             "0 plays as a commit from before R35, which has none")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--dsn", default=None,
                        help="also play every run with the dealers on this PostgreSQL (a "
                             "fresh schema each; --dsn), printed beside SQLite with the ratio")
    parser.add_argument("--pg", action="store_true",
                        help="as --dsn, on a throwaway PostgreSQL server started here "
                             "(tests/pg_server.py: initdb under a temporary folder)")
    args = parser.parse_args(argv)
    if args.pg and not args.dsn:
        from tests.pg_server import pg_server

        with pg_server() as dsn:
            args.dsn = dsn
            return main_with(args)
    return main_with(args)


def main_with(args: argparse.Namespace) -> int:
    """`main` once the flags are read (and a PostgreSQL server started, with --pg)."""
    global TIME_BANK_MS
    TIME_BANK_MS = args.time_bank_ms
    if args.repeat < 1:
        raise SystemExit("--repeat: at least 1")
    runs = parse_runs(args.runs if args.styles is None else
                      ",".join(f"{s}:1x0" for s in args.styles.split(",")))
    results: dict[str, Any] = {"tables": args.tables, "seconds": args.seconds,
                               "linger_ms": args.linger_ms, "cpus": os.cpu_count(),
                               "load_average_before": os.getloadavg()}
    stores: list[str | None] = [None, args.dsn] if args.dsn else [None]
    played = [(*run, dsn) for run in runs for dsn in stores]
    with tempfile.TemporaryDirectory() as folder:
        if args.dsn:
            costs = results["commit_us_per_decision"] = commit_costs(Path(folder), args.dsn)
            print("store commit per decision (the event loop's time): "
                  + ", ".join(f"{k} {v:.0f} us" for k, v in costs.items()), flush=True)
        for index, (style, dealers, procs, dsn) in enumerate(played):
            name = run_name(style, dealers, procs) + ("_pg" if dsn else "")
            rounds = []
            for round_ in range(args.repeat):
                figures = play_round(Path(folder), f"{name}-{index}-{round_}", style, dealers,
                                     procs, args, dsn)
                rounds.append(figures)
                label = name if args.repeat == 1 else f"{name}#{round_ + 1}"
                print(f"{label:10} {figures['hands_per_s']:8.1f} hands/s  "
                      f"{figures['actions_per_s']:8.1f} actions/s  p50 {figures['p50_ms']:.2f} ms"
                      f"  p99 {figures['p99_ms']:.2f} ms  errors {figures['errors']}  "
                      f"cpu: dealers {figures['dealer_cpu_pct']:.0f}% "
                      f"({figures['dealer_cpu_us_per_action']:.0f} us an action) bots "
                      f"{figures['bots_cpu_pct']:.0f}%  ({describe(dealers, procs)})", flush=True)
            # The median round by hands/s stands for the layout (its p50 and p99 with it):
            # the machine is shared, and one round can land on a busy or an idle moment.
            figures = dict(sorted(rounds, key=lambda f: f["hands_per_s"])[len(rounds) // 2])
            figures.update({"style": style, "dealers": dealers, "bot_processes": procs})
            if args.repeat > 1:
                figures["rounds"] = rounds
                print(f"{name:10} median of {args.repeat} rounds: "
                      f"{figures['hands_per_s']:.1f} hands/s, p50 {figures['p50_ms']:.2f} ms, "
                      f"p99 {figures['p99_ms']:.2f} ms", flush=True)
            figures["goals_met"] = goals_met(figures)
            results[name] = figures
            print(f"{'':10} goals: {figures['goals_met']}", flush=True)
            if dsn:
                ratio = figures["hands_per_s"] / max(results[name[:-3]]["hands_per_s"], 1e-9)
                figures["ratio_to_sqlite"] = ratio
                print(f"{'':10} PostgreSQL / SQLite: {ratio:.2f} of the hands/s "
                      f"({'at least half: yes' if ratio >= 0.5 else 'under half'})", flush=True)
        names = [run_name(*run) for run in runs]
        best = max(names, key=lambda n: results[n]["hands_per_s"])
        results.update({k: results[best][k] for k in ("hands_per_s", "p50_ms", "p99_ms")})
        results["headline"] = best
        layout = describe(results[best]["dealers"], results[best]["bot_processes"])
        print(f"headline: {best} ({layout})")
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
    results["load_average_after"] = os.getloadavg()
    print(f"load average (1, 5, 15 min) before {fmt_load(results['load_average_before'])}, "
          f"after {fmt_load(results['load_average_after'])} on {os.cpu_count()} cpus")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
