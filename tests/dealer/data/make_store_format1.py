"""Writes a dealer store with the code of the checkout this runs in (old main d1e2932)."""
import sys, time, shutil
from pathlib import Path
sys.path.insert(0, str(Path.cwd()))
from tests.dealer.helpers import Client, Watcher, start_dealer, play, SVC, AUDITOR_TOKEN
from poker.v1 import dealer_pb2 as pb

out = Path(sys.argv[1])
db = out / "dealer.sqlite"
proc = start_dealer(db)
try:
    c = Client(proc.address)
    # Table t: three players, a rebuy, a sit out/in, a level change, an unseat, R39 seeds off.
    t = c.create("t", seats=4, levels=[pb.Level(small_blind=50, big_blind=100),
                                        pb.Level(small_blind=100, big_blind=200, ante=10)],
                 test_mode=True, deck_seed=7, pause_between_hands_ms=400)
    tokens = c.seat(t, [1000, 2000, 3000])
    w = Watcher(c, t, AUDITOR_TOKEN)
    play(c, t, tokens, w, hands=3, seed=3)
    import grpc
    for _ in range(200):
        try:
            c.stub.AddChips(pb.AddChipsRequest(table_id=t, seat=0, amount=500, idempotency_key="k-1"),
                            metadata=SVC, timeout=10)
            break
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
            time.sleep(0.02)
    else:
        raise SystemExit("no AddChips")
    c.stub.SetLevel(pb.SetLevelRequest(table_id=t, level_index=1),
                    metadata=SVC, timeout=10)
    c.stub.SitOut(pb.SitOutRequest(table_id=t, seat=2), metadata=[("authorization", f"Bearer {tokens[2]}")], timeout=10)
    play(c, t, tokens, w, hands=2, seed=4)
    c.stub.SitIn(pb.SitInRequest(table_id=t, seat=2), metadata=[("authorization", f"Bearer {tokens[2]}")], timeout=10)
    play(c, t, tokens, w, hands=2, seed=5)
    # Table c: two players, one hand, then closed.
    t2 = c.create("c", pause_between_hands_ms=300)
    tok2 = c.seat(t2, [500, 500])
    w2 = Watcher(c, t2, AUDITOR_TOKEN)
    play(c, t2, tok2, w2, hands=1, seed=6)
    for _ in range(200):
        try:
            c.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=t2, seat=1), metadata=SVC, timeout=10)
            break
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
            time.sleep(0.02)
    else:
        raise SystemExit("no unseat")
    c.stub.CloseTable(pb.CloseTableRequest(table_id=t2, void_hand_in_progress=True), metadata=SVC, timeout=10)
    # Table s: player-seeded decks (R39), two players, one hand, left mid-hand.
    t3 = c.create("s", player_seeded_decks=True, seed_time_ms=200)
    tok3 = c.seat(t3, [1000, 1000])
    w3 = Watcher(c, t3, AUDITOR_TOKEN)
    play(c, t3, tok3, w3, hands=1, seed=8)
    # leave t mid-hand: wait for the next TurnStarted
    n = len(w.events)
    w.wait(lambda ev: any(e.HasField("turn_started") for e in ev[n:]), timeout=20)
    time.sleep(0.3)
    w.cancel(); w2.cancel(); w3.cancel()
    c.close()
finally:
    proc.stop() if hasattr(proc, "stop") else proc.terminate()
print("ok", db)
