"""Writes the format-1 fixture store with the code of the checkout it runs in.

Run from a worktree of main d1e2932 (`git worktree add /tmp/oldmain d1e2932`, `.venv`
linked): `.venv/bin/python <this file> OUTDIR`; copy OUTDIR/dealer.sqlite to
store_format1.sqlite. Three tables: `t` (three players, a rebuy, a level change, a sit
out and in, left in a hand), `c` (one hand, an unseat, closed), `s` (R39 seeds).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import grpc

sys.path.insert(0, str(Path.cwd()))

from poker.v1 import dealer_pb2 as pb  # noqa: E402
from tests.dealer.helpers import (  # noqa: E402
    AUDITOR_TOKEN,
    SVC,
    Client,
    Watcher,
    auth,
    play,
    start_dealer,
)


def retry(call: Callable[[], object]) -> None:
    """Calls until the table is between hands (FAILED_PRECONDITION until then)."""
    for _ in range(200):
        try:
            call()
            return
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
            time.sleep(0.02)
    raise SystemExit("the table never paused between hands")


def main(out: Path) -> None:
    proc = start_dealer(out / "dealer.sqlite")
    try:
        c = Client(proc.address)
        t = c.create("t", seats=4, levels=[pb.Level(small_blind=50, big_blind=100),
                                           pb.Level(small_blind=100, big_blind=200, ante=10)],
                     test_mode=True, deck_seed=7, pause_between_hands_ms=400)
        tokens = c.seat(t, [1000, 2000, 3000])
        w = Watcher(c, t, AUDITOR_TOKEN)
        play(c, t, tokens, w, hands=3, seed=3)
        retry(lambda: c.stub.AddChips(pb.AddChipsRequest(
            table_id=t, seat=0, amount=500, idempotency_key="k-1"), metadata=SVC, timeout=10))
        c.stub.SetLevel(pb.SetLevelRequest(table_id=t, level_index=1), metadata=SVC, timeout=10)
        c.stub.SitOut(pb.SitOutRequest(table_id=t, seat=2), metadata=auth(tokens[2]), timeout=10)
        play(c, t, tokens, w, hands=2, seed=4)
        c.stub.SitIn(pb.SitInRequest(table_id=t, seat=2), metadata=auth(tokens[2]), timeout=10)
        play(c, t, tokens, w, hands=2, seed=5)
        t2 = c.create("c", pause_between_hands_ms=300)
        tok2 = c.seat(t2, [500, 500])
        w2 = Watcher(c, t2, AUDITOR_TOKEN)
        play(c, t2, tok2, w2, hands=1, seed=6)
        retry(lambda: c.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=t2, seat=1),
                                          metadata=SVC, timeout=10))
        c.stub.CloseTable(pb.CloseTableRequest(table_id=t2, void_hand_in_progress=True),
                          metadata=SVC, timeout=10)
        t3 = c.create("s", player_seeded_decks=True, seed_time_ms=200)
        tok3 = c.seat(t3, [1000, 1000])
        w3 = Watcher(c, t3, AUDITOR_TOKEN)
        play(c, t3, tok3, w3, hands=1, seed=8)
        n = len(w.events)  # leave t in a hand: its next TurnStarted
        w.wait(lambda ev: any(e.HasField("turn_started") for e in ev[n:]), timeout=20)
        time.sleep(0.3)
        for watcher in (w, w2, w3):
            watcher.cancel()
        c.close()
    finally:
        proc.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
