"""R30 on followed events (services/lobby/follower.py): a lobby following its dealers'
FollowTables streams asks no table anything while nothing happens, and asks a table
once a player there busted; the polling lobby asks every table every pass. The figure:
the lobby's dealer calls per second with 100 idle tables, before and after."""

from __future__ import annotations

from collections.abc import Callable

from lobby_fakes import FakeDealer

from services.lobby.follower import DealerNote
from services.lobby.lobby import BUSTED_PASS_S, Lobby
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"
TABLES = 100


class StreamsUp:
    """A TableFollower whose streams are up, fed by the test."""

    def __init__(self) -> None:
        self.addresses, self.connected = [D1], {D1}
        self.handlers: list[Callable[[DealerNote], None]] = []

    def subscribe(self, handler: Callable[[DealerNote], None]) -> None:
        self.handlers.append(handler)

    def start(self) -> None:
        pass

    def send(self, note: DealerNote) -> None:
        for handler in self.handlers:
            handler(note)


def room(storage: Storage, dealer: FakeDealer) -> Lobby:
    lobby = Lobby(storage, dealer, [D1])
    rules = TableRules(seats=2, min_buy_in=100, max_buy_in=500, max_rebuys=-1,
                       rebuy_wait_seconds=0.5)
    for p in ("ann", "bob"):
        lobby.create_player(p, p)
        lobby.deposit(p, 100 * TABLES + 1000, f"fund-{p}")  # each may rebuy
    for t in range(TABLES):
        lobby.open_table(f"T{t}", rules, {}, f"o{t}", table_id=f"t{t}")
        lobby.join("ann", f"t{t}", 0, 100, False, f"ja{t}")
        lobby.join("bob", f"t{t}", 1, 100, False, f"jb{t}")
    return lobby


def calls_per_pass(lobby: Lobby, dealer: FakeDealer, now: float) -> int:
    before = dealer.calls.count("table")
    lobby.send_busted_away(now=now)
    return dealer.calls.count("table") - before


def test_R30_the_lobby_following_events_asks_no_idle_table_and_a_busted_one_once(
        storage: Storage, dealer: FakeDealer) -> None:
    polling = room(storage, dealer)
    polled = [calls_per_pass(polling, dealer, float(n)) for n in range(3)]
    assert polled == [TABLES] * 3  # every open table with players, every pass
    streams = StreamsUp()
    polling.follow(streams)  # type: ignore[arg-type]
    followed = [calls_per_pass(polling, dealer, 10.0 + n) for n in range(3)]
    assert followed[0] == TABLES  # the first pass asks everything once (nothing missed)
    assert followed[1:] == [0, 0]  # idle: nothing asked
    # ann busts at t7: that table, and only it, is asked, and R30 takes its course.
    dealer.play(D1, "t7", {0: -100, 1: +100})
    streams.send(DealerNote("t7", 9, "BUSTED", 0, "ann", 0, 1))
    assert calls_per_pass(polling, dealer, 20.0) == 1
    gone = polling.send_busted_away(now=21.0)  # past rebuy_wait_seconds
    assert [(op.player_id, op.table_id) for op, _why in gone] == [("ann", "t7")]
    streams.send(DealerNote("t7", 10, "SEAT_FREED", 0, "ann", 0, 1))
    assert calls_per_pass(polling, dealer, 22.0) == 0
    per_s = {"polling": polled[-1] / BUSTED_PASS_S, "following": followed[-1] / BUSTED_PASS_S}
    print(f"lobby dealer calls per second, {TABLES} idle tables: {per_s}")
    polling.stop()
