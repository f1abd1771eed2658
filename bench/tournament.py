"""Benchmark of a tournament: a field of bots (default 200) over several dealers, to the end.

Starts an evaluator, `--dealers` dealers (default 3) and a lobby as local processes,
registers `--players` bots for a sit-and-go of tables of `--table-size` with a fast
structure (levels of `--level-seconds`), plays it to the end with `play_field` (one
`play_tournament` per bot, following its player from table to table), and reports:
the time to the end, hands per second across the tournament (every table's hands),
moves made, the largest gap between table sizes (after each pass of moves, and with
every table between hands: T5 keeps that one at 1), and the lobby's CPU time per hand
(user + system of the lobby process, from /proc, over the whole tournament). It checks
the end as `poker tournament` does (prizes + fees = buy-ins, the audit, every chip).

Run: .venv/bin/python bench/tournament.py [--players 200] [--dealers 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()

from clients import tournament as tn  # noqa: E402
from clients.bots import CallingStation, RandomBot  # noqa: E402
from clients.farm import play_field  # noqa: E402
from clients.sdk import LobbyClient  # noqa: E402
from clients.stack import LocalSuite  # noqa: E402
from clients.tournament_demo import BUY_IN, FEE, structure  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--dealers", type=int, default=3)
    parser.add_argument("--table-size", type=int, default=9)
    parser.add_argument("--level-seconds", type=float, default=10.0)
    args = parser.parse_args()
    with LocalSuite(evaluators=1, dealers=args.dealers) as suite:
        op = LobbyClient(suite.lobby, token=suite.operator_token)
        tokens = []
        for i in range(args.players):
            _, token = op.create_player(f"b{i:04d}", f"B{i}")
            op.deposit(f"b{i:04d}", BUY_IN + FEE)
            tokens.append((f"b{i:04d}", token))
        op._do(tn.create("bench", structure(args.players, args.table_size,
                                             args.level_seconds), "bench", None))
        for _, token in tokens:
            with LobbyClient(suite.lobby, token=token) as me:
                me.register("bench")
        lobby_pid = suite.process("lobby").popen.pid
        cpu0, t0 = cpu_seconds(lobby_pid), time.monotonic()
        finishes = asyncio.run(play_field(
            suite.lobby, tokens, "bench",
            lambda p: CallingStation() if int(p[1:]) % 3 == 0 else RandomBot()))
        elapsed, cpu = time.monotonic() - t0, cpu_seconds(lobby_pid) - cpu0
        t = op._do(tn.get_tournament("bench"))
        audit = op.audit()
        prizes = sum(p.prize for p in t.players)
        taken = sum(p.entries + p.rebuys for p in t.players) * (BUY_IN + FEE)
        ok = (t.state == tn.pb.TOURNAMENT_STATE_FINISHED and audit.ok and not t.chip_errors
              and prizes + t.fees == taken and len(finishes) == args.players)
        print(f"players {args.players}  dealers {args.dealers}  tables of {args.table_size}")
        print(f"time to the end      {elapsed:8.1f} s")
        print(f"hands                {t.hands:8d}   ({t.hands / elapsed:.1f} hands/s)")
        print(f"moves                {t.moves:8d}")
        print(f"largest table gap    {t.largest_table_gap:8d}   (every table between hands: "
              f"{t.largest_table_gap_balanced})")
        print(f"lobby CPU            {cpu:8.2f} s  ({1000 * cpu / max(1, t.hands):.2f} ms a hand)")
        print(f"chip counts          {t.chip_checks:8d}   errors {len(t.chip_errors)}")
        print(f"checks               {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
