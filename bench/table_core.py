"""Benchmark of the dealer's table core in one process, no network: CPU per hand and per
decision of tables, their store and each seat's stream frames.

`--tables` heads-up tables (`--seats` to change) on a real `Dealer` with its SQLite store
in a temporary folder; a fixed bot answers every table's turn in turn (calls and checks
mostly, a min raise one time in five, folds a quarter of the calls); every commit is
framed for each seat as its stream would send it (`views.shared_frames` and
`views.events_for`). What is left out is gRPC and the bots' side: the figure is the
table core's own cost, steadier than the end-to-end benchmarks on a shared machine.

It uses only what older commits have too (Dealer, Table.act, views), so bench/ab.py can
run this file against an older commit's code with `--same-script`:

    .venv/bin/python bench/ab.py --base 93dc1d7 --same-script --rounds 5 table_core.py

Run: .venv/bin/python bench/table_core.py [--hands 3000] [--tables 8] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: bench/ab.py puts the code measured first

import structlog  # noqa: E402

from poker.v1 import dealer_pb2 as pb  # noqa: E402
from services.dealer import views  # noqa: E402
from services.dealer.auth import Authenticator, Caller  # noqa: E402
from services.dealer.dealer import Dealer  # noqa: E402
from services.dealer.store import Store  # noqa: E402


async def play(hands: int, tables: int, seats: int, folder: Path,
               time_bank_ms: int | None = None) -> dict[str, Any]:
    """Plays `hands` hands over `tables` tables; the figures."""
    dealer = Dealer(Store(folder / "dealer.sqlite"), Authenticator("svc", "aud"), None,
                    "resume")
    table_config = pb.TableConfig(seats=seats, pause_between_hands_ms=0,
                                  action_time_ms=60_000, preset=pb.PRESET_STANDARD)
    if time_bank_ms is not None and "time_bank_ms" in pb.TableConfig.DESCRIPTOR.fields_by_name:
        table_config.time_bank_ms = time_bank_ms  # R35's bank; older commits have none
    config, options = views.config_from_proto(table_config)
    framed = [0]
    running = []
    for t in range(tables):
        table_id = f"bench-{t:04d}"
        table = dealer.create_table(table_id, config, options)
        for seat in range(seats):
            dealer.seat_player(table_id, seat, f"{table_id}-p{seat}", 10_000_000, False)
        viewers = [views.viewer_for(Caller("seat", table_id, seat), table)
                   for seat in range(seats)]

        def on_commit(new: Any, _called: Any, viewers: Any = viewers, table: Any = table
                      ) -> None:
            shared, _ = views.shared_frames(new, table)
            for viewer in viewers:
                data, _ = views.events_for(new, viewer, table, shared)
                framed[0] += len(data)

        table.subscribe(on_commit)
        running.append(table)
    rng = random.Random(7)
    for _ in range(1000):  # the first hands begin a loop turn after the seats fill
        if all(t.turn is not None for t in running):
            break
        await asyncio.sleep(0.001)
    start = sum(t.hands_played for t in running)
    cpu, wall, decisions = time.process_time(), time.perf_counter(), 0
    while sum(t.hands_played for t in running) - start < hands:
        acted = False
        for table in running:
            turn, hand = table.turn, table.hand
            if hand is None or turn is None:
                continue
            if turn.decision == "show_or_muck":
                kind, amount = "muck", 0
            elif turn.bet_kind and rng.random() < 0.2:
                kind, amount = turn.bet_kind, turn.min_to
            else:
                kind = ("check" if turn.can_check else
                        ("call" if rng.random() < 0.75 else "fold") if turn.can_call
                        else "fold")
                amount = 0
            table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)
            decisions += 1
            acted = True
        if not acted:
            await asyncio.sleep(0)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    played = sum(t.hands_played for t in running) - start
    dealer.shutdown()
    return {"hands": played, "decisions": decisions, "tables": tables, "seats": seats,
            "cpu_ms_per_hand": 1000 * cpu / played,
            "cpu_us_per_decision": 1e6 * cpu / decisions,
            "hands_per_s": played / wall,
            "frame_bytes_per_hand": framed[0] / played}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--time-bank-ms", type=int, default=None,
                        help="R35's time bank of every seat (default: the table's, 30 s); "
                             "0 plays as a commit from before R35, which has none")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    if not 1 <= args.hands <= 1_000_000 or not 1 <= args.tables <= 1000:
        parser.error("--hands is 1 to 1,000,000 and --tables 1 to 1,000")
    if not 2 <= args.seats <= 10:
        parser.error("--seats is 2 to 10")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with tempfile.TemporaryDirectory(prefix="poker-table-core-") as folder:
        figures = asyncio.run(play(args.hands, args.tables, args.seats, Path(folder),
                                   args.time_bank_ms))
    print(f"table core: {figures['hands']} hands, {figures['decisions']} decisions at "
          f"{args.tables} tables of {args.seats}: {figures['cpu_ms_per_hand']:.3f} ms CPU "
          f"a hand, {figures['cpu_us_per_decision']:.1f} us a decision, "
          f"{figures['hands_per_s']:.0f} hands/s, "
          f"{figures['frame_bytes_per_hand']:.0f} frame bytes a hand (all seats)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
