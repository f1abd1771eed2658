"""Benchmark of a tournament: a field of bots (default 200) over several dealers, to the end.

Starts an evaluator, `--dealers` dealers (default 3) and a lobby as local processes,
registers `--players` bots for a sit-and-go of tables of `--table-size` with a fast
structure (levels of `--level-seconds`), plays it to the end with
`clients.field.play_field` (each bot following its player from table to table) and
reports: the time to the end, hands per second across the tournament (every table's
hands), moves made, the largest gap between table sizes (after each pass of moves, and
with every table between hands: T5 keeps that one at 1), and the lobby's CPU time per
hand (user + system of the lobby process, from /proc, over the whole tournament). It
checks the end as `poker tournament` does (prizes + fees = buy-ins, the audit, every
chip, every bot's place and prize).

`--streams farm` (default) plays the field through one BotFarm a dealer (one PlayMany
stream for all its bots), `--streams play` with one Play stream a bot; `--compare`
plays one tournament each way in the same run (same suite, same field size, the farm
first) and prints both and their ratios.

Run: .venv/bin/python bench/tournament.py [--players 200] [--dealers 3] [--compare]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()

from clients import tournament as tn  # noqa: E402
from clients.field import STREAMS, play_field, register_field  # noqa: E402
from clients.sdk import LobbyClient  # noqa: E402
from clients.stack import LocalSuite  # noqa: E402
from clients.tournament_demo import BUY_IN, FEE, bot_for, fund_field, structure  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Run:
    """One tournament's figures."""

    streams: str
    elapsed: float
    hands: int
    moves: int
    gap: int
    gap_balanced: int
    lobby_cpu: float
    chip_checks: int
    chip_errors: int
    ok: bool

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.elapsed

    @property
    def cpu_ms_a_hand(self) -> float:
        return 1000 * self.lobby_cpu / max(1, self.hands)


def tournament(suite: LocalSuite, args: argparse.Namespace, streams: str, tid: str) -> Run:
    """Creates, funds, registers and plays one field to the end; its figures."""
    op = LobbyClient(suite.lobby, token=suite.operator_token)
    tokens = fund_field(op, args.players, f"{tid}-{{:04d}}", f"{tid} {{}}")
    op.create_tournament(tid, "bench", structure(args.players, args.table_size,
                                                 args.level_seconds))
    asyncio.run(register_field(suite.lobby, tokens, tid))  # a sit-and-go: starts when full
    lobby_pid = suite.process("lobby").popen.pid
    cpu0, t0 = cpu_seconds(lobby_pid), time.monotonic()
    finishes = asyncio.run(play_field(suite.lobby, tokens, tid, bot_for, streams=streams))
    elapsed, cpu = time.monotonic() - t0, cpu_seconds(lobby_pid) - cpu0
    t = op.tournament(tid)
    audit = op.audit()
    prizes = sum(p.prize for p in t.players)
    taken = sum(p.entries + p.rebuys for p in t.players) * (BUY_IN + FEE)
    ok = (t.state is tn.TournamentState.FINISHED and audit.ok and not t.chip_errors
          and prizes + t.fees == taken and len(finishes) == args.players
          and sorted(f.place for f in finishes)[0] == 1
          and {(f.player_id, f.place, f.prize) for f in finishes}
          == {(p.player_id, p.place, p.prize) for p in t.players})
    op.close()
    return Run(streams, elapsed, t.hands, t.moves, t.largest_table_gap,
               t.largest_table_gap_balanced, cpu, t.chip_checks, len(t.chip_errors), ok)


def show(run: Run) -> None:
    how = "one PlayMany stream a dealer" if run.streams == "farm" else "one Play stream a bot"
    print(f"[{run.streams}: {how}]")
    print(f"time to the end      {run.elapsed:8.1f} s   (from the start, once registered)")
    print(f"hands                {run.hands:8d}   ({run.hands_per_s:.1f} hands/s)")
    print(f"moves                {run.moves:8d}")
    print(f"largest table gap    {run.gap:8d}   (every table between hands: "
          f"{run.gap_balanced})")
    print(f"lobby CPU            {run.lobby_cpu:8.2f} s  ({run.cpu_ms_a_hand:.2f} ms a hand)")
    print(f"chip counts          {run.chip_checks:8d}   errors {run.chip_errors}")
    print(f"checks               {'ok' if run.ok else 'FAILED'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--dealers", type=int, default=3)
    parser.add_argument("--table-size", type=int, default=9)
    parser.add_argument("--level-seconds", type=float, default=10.0)
    parser.add_argument("--streams", choices=STREAMS, default="farm")
    parser.add_argument("--compare", action="store_true",
                        help="play one tournament each way (farm, then play) and compare")
    args = parser.parse_args()
    ways = list(STREAMS) if args.compare else [args.streams]
    with LocalSuite(evaluators=1, dealers=args.dealers) as suite:
        print(f"players {args.players}  dealers {args.dealers}  tables of {args.table_size}  "
              f"levels of {args.level_seconds:g} s")
        runs = []
        for i, streams in enumerate(ways):
            runs.append(tournament(suite, args, streams, f"bench{i}"))
            show(runs[-1])
        if len(runs) == 2:
            farm, play = runs
            print(f"farm / play: time {farm.elapsed / play.elapsed:.2f}, hands/s "
                  f"{farm.hands_per_s / play.hands_per_s:.2f}, lobby CPU a hand "
                  f"{farm.cpu_ms_a_hand / play.cpu_ms_a_hand:.2f}")
        return 0 if all(run.ok for run in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
