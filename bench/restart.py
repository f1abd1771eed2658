"""Benchmark of a dealer's restart: the time to `listening on` against the size of its store.

Builds stores of `--sizes` events (default 10^5 and 10^6): real recorded events (one
6-seat table playing random hands in process, its hands copied again and again with
their sequences renumbered), 80 % of them in `--open` open tables with long
histories and the rest in closed tables of 5,000 events each, bulk-written straight
into SQLite. Each store is then started three times, each start timed from the
process's spawn to its `listening on` line:

* `first start`: the store has no snapshots (as one written by the dealer before
  them): every open table folds its whole log, and is snapshotted;
* `snapshots`: the same store again: each open table loads its snapshot and folds
  the events after it;
* `--full-replay`: the snapshots ignored, every log folded whole (the old way, on
  today's code).

Then one line per size: the times, and the ratio of the full replay to the snapshot
start. A dealer with an empty store is timed too, for scale.

Run: .venv/bin/python bench/restart.py [--sizes 100000,1000000] [--open 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

from poker.log import configure  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from services.dealer import views  # noqa: E402
from services.dealer.auth import Authenticator  # noqa: E402
from services.dealer.dealer import Dealer, dump_setup  # noqa: E402
from services.dealer.store import Store  # noqa: E402

TOKEN = "bench-service-token"
CLOSED_EVENTS = 5_000


async def _record(path: Path, hands: int) -> list[tuple[int, str, int, str]]:
    """A real table's log: 6 seats, `hands` hands of random decisions, rebuys."""
    store = Store(path)
    dealer = Dealer(store, Authenticator(TOKEN, ""), None, "resume")
    config, options = views.config_from_proto(pb.TableConfig(
        seats=6, pause_between_hands_ms=0, action_time_ms=600_000, preset=pb.PRESET_STANDARD))
    table = dealer.create_table("r", config, options)
    for seat in range(6):
        dealer.seat_player("r", seat, f"p{seat}", 5_000, False)
    rng = random.Random(1)
    while table.hands_played < hands:
        turn, hand = table.turn, table.hand
        if turn is None or hand is None:
            for seat, state in table.seats.items():
                if state.stack == 0 and not table.in_hand(seat):
                    dealer.add_chips("r", seat, 5_000, f"k{table.hands_played}-{seat}")
            await asyncio.sleep(0)
            continue
        if turn.decision == "show_or_muck":
            kind, amount = "muck", 0
        elif turn.bet_kind and rng.random() < 0.15:
            kind, amount = turn.bet_kind, turn.min_to
        else:
            kind, amount = ("check" if turn.can_check else
                            rng.choice(["call", "fold", "fold"])), 0
        table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)
    table.shutdown()
    rows = [(r.sequence, r.hand_id, r.time_ms, r.payload) for r in store.events("r")]
    store.close()
    return rows


def _history(recorded: list[tuple[int, str, int, str]], size: int
             ) -> list[tuple[int, str, int, str]]:
    """`size` events or a little fewer: the recorded seating, then its hands again and
    again (renumbered), ending at the end of a hand."""
    first = next(i for i, r in enumerate(recorded) if r[1])
    last = max(i for i, r in enumerate(recorded) if '"t":"DeckRevealed"' in r[3])
    prefix, hands = recorded[:first], recorded[first:last + 1]
    out = list(prefix)
    while len(out) < size:
        out.extend(hands[:size - len(out)])
    ends = [i for i, r in enumerate(out) if '"t":"DeckRevealed"' in r[3]]
    out = out[:ends[-1] + 1]
    return [(n, hand_id, time_ms, payload)
            for n, (_s, hand_id, time_ms, payload) in enumerate(out, start=1)]


def build(path: Path, recorded: list[tuple[int, str, int, str]], size: int,
          open_tables: int) -> int:
    """A store of about `size` events, as the old dealer wrote it (no snapshots)."""
    config, options = views.config_from_proto(pb.TableConfig(
        seats=6, pause_between_hands_ms=600_000, action_time_ms=600_000,
        preset=pb.PRESET_STANDARD))
    setup = dump_setup(config, options)
    Store(path).close()  # the schema
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    written = 0
    long_history = _history(recorded, size * 8 // 10 // open_tables)
    closed_history = _history(recorded, CLOSED_EVENTS)
    tables = [(f"open-{t}", long_history, False) for t in range(open_tables)]
    closed = max(0, (size - open_tables * len(long_history)) // len(closed_history))
    tables += [(f"closed-{t}", closed_history, True) for t in range(closed)]
    for n, (table_id, rows, is_closed) in enumerate(tables):
        db.execute("INSERT INTO tables (table_id, config, created_ms, closed)"
                   " VALUES (?, ?, ?, ?)", (table_id, setup, n, int(is_closed)))
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                       [(table_id, *row) for row in rows])
        if not is_closed:
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                           [(table_id, seat, f"p{seat}", f"h-{table_id}-{seat}")
                            for seat in range(6)])
        written += len(rows)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return written


def time_start(path: Path, *extra: str) -> tuple[float, dict[str, object]]:
    """Seconds from spawn to `listening on`, and the dealer's tables_restored line."""
    cmd = [sys.executable, "-m", "poker.cli", "serve", "dealer", "--host", "127.0.0.1",
           "--port", "0", "--db", str(path), "--service-token", TOKEN, *extra]
    env = {**os.environ, "POKER_LOG_FORMAT": "json"}
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("listening on "):
            break
    else:
        _out, err = proc.communicate(timeout=60)
        raise RuntimeError(f"the dealer did not start: {err[-2000:]}")
    took = time.perf_counter() - started
    proc.terminate()
    _out, err = proc.communicate(timeout=60)
    restored: dict[str, object] = {}
    for line in err.splitlines():
        if '"tables_restored"' in line:
            restored = json.loads(line)
    return took, restored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000",
                        help="events per store, comma-separated")
    parser.add_argument("--open", type=int, default=8, help="open tables per store")
    parser.add_argument("--hands", type=int, default=400, help="hands recorded to copy")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    configure(level="WARNING")  # the recording table's own log lines
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        folder = Path(tmp)
        began = time.perf_counter()
        recorded = asyncio.run(_record(folder / "recorded.sqlite", args.hands))
        print(f"recorded {len(recorded):,} events of {args.hands} hands in "
              f"{time.perf_counter() - began:.1f} s")
        empty, _ = time_start(folder / "empty.sqlite")
        print(f"empty store: {empty:.2f} s to 'listening on'")
        print(f"{'events':>10} {'open':>5} {'first start':>12} {'snapshots':>10} "
              f"{'--full-replay':>14} {'folded (snapshots)':>19} {'ratio':>6}")
        for size in sizes:
            path = folder / f"store-{size}.sqlite"
            written = build(path, recorded, size, args.open)
            first, _ = time_start(path)
            snap, restored = time_start(path)
            full, _ = time_start(path, "--full-replay")
            print(f"{written:>10,} {args.open:>5} {first:>10.2f} s {snap:>8.2f} s "
                  f"{full:>12.2f} s {restored.get('events_folded', '?'):>19} "
                  f"{full / snap:>5.1f}x", flush=True)
            path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
