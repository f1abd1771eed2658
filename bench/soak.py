"""Soak bench: many tables over several dealers on one PostgreSQL store, a lobby, bots.

Starts a PostgreSQL server (or uses `--dsn`), `--dealers` dealers sharing it (leases,
services/dealer/lease.py), and a lobby placing `--tables` heads-up tables on them; funds
and seats two calling-station bots a table through the lobby, and lets them play for
`--seconds` over one PlayMany stream per dealer (clients.farm.BotFarm). Then reports:

* hands dealt (every table's hands_played, from its dealer) and hands per second;
* each dealer's resident memory (VmRSS) and per table, and the lobby's;
* the lobby's CPU over the play, per hand: the cost of following the dealers'
  table-level events (FollowTables, the default) or, with `--modes poll`, of R30's
  polling of every table (`--poll-dealers`); `--modes follow,poll` runs both.

A short bounded run on a shared 2-core machine: the figures say what this machine
did then, not what the services can do.

Run: .venv/bin/python bench/soak.py [--tables 1000] [--dealers 3] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()

import grpc  # noqa: E402

from bench.dealer import cpu_seconds, free_port, fresh_schema, rss_mb  # noqa: E402
from poker.procs import ServiceProcess, start_service  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from poker.v1 import dealer_pb2_grpc  # noqa: E402

SERVICE, OPERATOR = "soak-service-token", "soak-operator-token"
BUY_IN = 1_000


def start_room(folder: Path, dsn: str, dealers: int, poll: bool,
               ) -> tuple[list[ServiceProcess], ServiceProcess]:
    quiet = {"POKER_LOG_LEVEL": "WARNING"}
    schema = fresh_schema(dsn)
    started = [start_service("dealer", [
        "--dsn", schema, "--port", str(free_port()), "--service-token", SERVICE,
        "--stream-linger-ms", "10"], env=quiet) for _ in range(dealers)]
    lobby_args = ["--db", str(folder / f"lobby-{secrets.token_hex(3)}.sqlite"),
                  "--operator-token", OPERATOR, "--service-token", SERVICE]
    for proc in started:
        lobby_args += ["--dealer", proc.address]
    if poll:
        lobby_args.append("--poll-dealers")
    return started, start_service("lobby", lobby_args, env=quiet)


async def seat_everyone(lobby: str, tables: int, pause_ms: int, seats: tuple[int, ...] = (0, 1),
                        by_dealer: dict[str, list[tuple[str, str]]] | None = None,
                        ) -> dict[str, list[tuple[str, str]]]:
    """Opens the tables (seat 0 among `seats`) and seats a funded bot at each of `seats`;
    (table, seat token) by dealer."""
    from clients.accounts import TableRules
    from clients.aio import AsyncLobbyClient
    from clients.errors import ServiceError
    from clients.models import TableConfig

    by_dealer = {} if by_dealer is None else by_dealer
    async with AsyncLobbyClient(lobby, OPERATOR, timeout=30) as operator:
        async def one(t: int) -> None:
            table_id = f"s{t:04d}"
            if 0 in seats:
                await operator.open_table(
                    TableConfig(seats=2, pause_between_hands_ms=pause_ms, action_time_ms=10_000),
                    TableRules(min_buy_in=BUY_IN, max_buy_in=BUY_IN, max_rebuys=-1),
                    name=f"soak-{t}", table_id=table_id)
            for seat in seats:
                player = f"b{t:04d}-{seat}"
                await operator.create_player(player, player)
                await operator.deposit(player, 10 * BUY_IN)
                for attempt in range(30):  # a loaded machine: "being completed right now"
                    try:
                        seating = await operator.join(table_id, BUY_IN, seat=seat,
                                                      player_id=player,
                                                      request_id=f"join-{player}")
                        break
                    except ServiceError as err:
                        if err.code != grpc.StatusCode.UNAVAILABLE or attempt == 29:
                            raise
                        await asyncio.sleep(1.0)
                by_dealer.setdefault(seating.dealer_address, []).append(
                    (table_id, seating.seat_token))

        for start in range(0, tables, 20):
            await asyncio.gather(*(one(t) for t in range(start, min(tables, start + 20))))
    return by_dealer


async def play(by_dealer: dict[str, list[tuple[str, str]]], seconds: float) -> None:
    from clients.bots import CallingStation
    from clients.farm import BotFarm

    farms = []
    for address, seats in by_dealer.items():
        farm = BotFarm(address, dealers=list(by_dealer), fair_deck="off")
        for table_id, token in seats:
            farm.add(table_id, token, CallingStation())
        farms.append(farm)
    try:
        await asyncio.gather(*(f.play(seconds=seconds) for f in farms))
    finally:
        for farm in farms:
            await farm.close()


def hands_dealt(by_dealer: dict[str, list[tuple[str, str]]]) -> int:
    total = 0
    for address, seats in by_dealer.items():
        with grpc.insecure_channel(address) as channel:
            stub = dealer_pb2_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
            for table_id in sorted({t for t, _ in seats}):
                total += stub.GetTable(pb.GetTableRequest(table_id=table_id),
                                       timeout=10).table.hands_played
    return total


def soak(folder: Path, dsn: str, args: argparse.Namespace, mode: str) -> dict[str, Any]:
    dealers, lobby = start_room(folder, dsn, args.dealers, mode == "poll")
    try:
        began = time.monotonic()
        # One player a table first: no hand can start, the room is idle with every table
        # open and a player at each (what R30's polling asks about every pass).
        by_dealer = asyncio.run(seat_everyone(lobby.address, args.tables, args.pause_ms, (0,)))
        idle_cpu = cpu_seconds(lobby.popen.pid)
        time.sleep(args.idle_seconds)
        idle_cpu = cpu_seconds(lobby.popen.pid) - idle_cpu
        asyncio.run(seat_everyone(lobby.address, args.tables, args.pause_ms, (1,), by_dealer))
        seated_s = time.monotonic() - began - args.idle_seconds
        lobby_cpu = cpu_seconds(lobby.popen.pid)
        dealer_cpu = sum(cpu_seconds(d.popen.pid) for d in dealers)
        before = hands_dealt(by_dealer)
        start = time.monotonic()
        asyncio.run(play(by_dealer, args.seconds))
        wall = time.monotonic() - start
        lobby_cpu = cpu_seconds(lobby.popen.pid) - lobby_cpu
        dealer_cpu = sum(cpu_seconds(d.popen.pid) for d in dealers) - dealer_cpu
        hands = hands_dealt(by_dealer) - before
        rss = [rss_mb(d.popen.pid) for d in dealers]
        return {"mode": mode, "tables": args.tables, "dealers": args.dealers,
                "seating_s": seated_s, "hands": hands, "hands_per_s": hands / wall,
                "dealer_rss_mb": rss, "dealer_kb_per_table": sum(rss) * 1024 / args.tables,
                "lobby_rss_mb": rss_mb(lobby.popen.pid), "lobby_cpu_s": lobby_cpu,
                "lobby_idle_cpu_pct": idle_cpu * 100 / args.idle_seconds,
                "lobby_cpu_ms_per_hand": lobby_cpu * 1000 / max(hands, 1),
                "dealer_cpu_ms_per_hand": dealer_cpu * 1000 / max(hands, 1),
                "tables_per_dealer": {a: len({t for t, _ in s}) for a, s in by_dealer.items()}}
    finally:
        lobby.stop()
        for proc in dealers:
            proc.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--dealers", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="play time")
    parser.add_argument("--idle-seconds", type=float, default=10.0,
                        help="the lobby's CPU is measured this long with every table open "
                             "and one player at each (no hand can start)")
    parser.add_argument("--pause-ms", type=int, default=2000,
                        help="the tables' pause between hands")
    parser.add_argument("--modes", default="follow",
                        help="lobby modes, comma separated: follow (FollowTables), poll "
                             "(--poll-dealers, R30's GetTable of every table)")
    parser.add_argument("--dsn", default=None, help="a PostgreSQL server's DSN; default: "
                        "start a throwaway one (tests/pg_server.py)")
    args = parser.parse_args(argv)
    if args.dsn:
        return run(args, args.dsn)
    from tests.pg_server import pg_server

    with pg_server() as dsn:
        return run(args, dsn)


def run(args: argparse.Namespace, dsn: str) -> int:
    print(f"load average before {os.getloadavg()} on {os.cpu_count()} cpus", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for mode in args.modes.split(","):
            f = soak(Path(folder), dsn, args, mode.strip())
            print(f"{f['mode']:7} {f['tables']} tables over {f['dealers']} dealers "
                  f"{f['tables_per_dealer']}: seated in {f['seating_s']:.1f} s; "
                  f"{f['hands']} hands in {args.seconds:g} s ({f['hands_per_s']:.1f}/s); "
                  f"dealers {', '.join(f'{m:.0f}' for m in f['dealer_rss_mb'])} MB "
                  f"({f['dealer_kb_per_table']:.0f} KB a table); lobby {f['lobby_rss_mb']:.0f} MB,"
                  f" CPU idle {f['lobby_idle_cpu_pct']:.1f}%, playing {f['lobby_cpu_s']:.2f} s ="
                  f" {f['lobby_cpu_ms_per_hand']:.2f} ms a hand; "
                  f"dealers' CPU {f['dealer_cpu_ms_per_hand']:.2f} ms a hand", flush=True)
    print(f"load average after {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
