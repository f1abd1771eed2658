"""R30 on followed events (services/lobby/follower.py): a lobby following its dealers'
FollowTables streams asks no table anything while nothing happens, and asks a table
once a player there busted; the polling lobby asks every table every pass. The figure:
the lobby's dealer calls per second with 100 idle tables, before and after."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from lobby_fakes import FakeDealer

from services.lobby.dealers import DealerEvent
from services.lobby.follower import DealerNote, TableFollower
from services.lobby.lobby import BUSTED_PASS_S, Lobby
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"
TABLES = 100


class StreamsUp:
    """A TableFollower whose streams are up, fed by the test."""

    def __init__(self) -> None:
        self.addresses, self.connected = [D1], {D1}
        self.connections = 1
        self.handlers: list[Callable[[DealerNote], None]] = []

    live_since = TableFollower.live_since

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


def test_R30_a_bust_no_note_named_is_asked_again_until_it_is_settled(
        storage: Storage, dealer: FakeDealer) -> None:
    """A bust that happened before the streams (or while one was down) is seen by the
    pass that reads every table; the passes limited to noted tables keep asking that
    table until the player rebuys or leaves (they used to forget it: the player sat
    there busted for ever and the other bot waited)."""
    lobby = room(storage, dealer)
    dealer.play(D1, "t3", {0: -100, 1: +100})  # ann busts: no note (before the stream)
    streams = StreamsUp()
    lobby.follow(streams)  # type: ignore[arg-type]
    assert calls_per_pass(lobby, dealer, 10.0) == TABLES  # sees the bust; ann may rebuy
    assert calls_per_pass(lobby, dealer, 10.2) == 1  # t3 only, still within the wait
    gone = lobby.send_busted_away(now=11.0)  # past rebuy_wait_seconds
    assert [(op.player_id, op.table_id) for op, _why in gone] == [("ann", "t3")]
    assert calls_per_pass(lobby, dealer, 12.0) == 0  # settled: forgotten
    lobby.stop()


def test_R30_R34_a_stream_that_reconnected_gets_one_pass_over_every_table(
        storage: Storage, dealer: FakeDealer) -> None:
    """A table with no cursor is followed "from now on" by a new stream: what it did
    while the stream was down is not sent. So after each (re)connection the next R30 and
    R34 passes read every table once, and then the noted ones only."""
    lobby = room(storage, dealer)
    streams = StreamsUp()
    lobby.follow(streams)  # type: ignore[arg-type]
    assert calls_per_pass(lobby, dealer, 10.0) == TABLES
    assert calls_per_pass(lobby, dealer, 11.0) == 0
    lobby.follow_tables()
    reads = len(dealer.calls)
    lobby.follow_tables()
    assert len(dealer.calls) == reads  # R34: nothing freed, nothing read
    streams.connected = set()  # the stream drops: every table, every pass
    assert calls_per_pass(lobby, dealer, 12.0) == TABLES
    streams.connected, streams.connections = {D1}, 2  # back: once more every table
    dealer.play(D1, "t5", {0: -100, 1: +100})  # ann busted while it was down: no note
    assert calls_per_pass(lobby, dealer, 13.0) == TABLES
    assert calls_per_pass(lobby, dealer, 13.2) == 1  # then t5 only (ann's wait)
    lobby.follow_tables()
    assert len(dealer.calls) > reads + TABLES + 1  # R34 read every table once again
    reads = len(dealer.calls)
    lobby.follow_tables()
    assert len(dealer.calls) == reads
    lobby.stop()



def test_R34_a_pass_over_every_table_skips_those_opened_while_their_stream_was_up(
        storage: Storage, dealer: FakeDealer) -> None:
    """A table this lobby opened while its dealer's FollowTables stream was up has had
    every note reach this lobby, so R34's pass over every table does not read its log
    (a lobby whose stream answered after its first pass read every busy table's whole
    log once: a benchmark's dealer spent a few per cent of its run serving that). A
    table opened before, or while the stream was down, is read as before, and so is
    every table once a stream reconnects."""
    lobby = Lobby(storage, dealer, [D1])
    rules = TableRules(seats=2, min_buy_in=100, max_buy_in=500, max_rebuys=-1)
    for p in ("ann", "bob"):
        lobby.create_player(p, p)
        lobby.deposit(p, 10_000, f"fund-{p}")

    def open_and_play(table_id: str) -> None:
        lobby.open_table(table_id, rules, {}, f"o-{table_id}", table_id=table_id)
        lobby.join("ann", table_id, 0, 100, False, f"ja-{table_id}")
        lobby.join("bob", table_id, 1, 100, False, f"jb-{table_id}")
        dealer.play(D1, table_id, {0: -10, 1: +10})

    def tables_read_by_a_full_pass() -> int:
        lobby._full_follow_mark = None  # the next pass reads every table
        before = len(dealer.calls)
        lobby.follow_tables()
        return dealer.calls[before:].count("table")

    open_and_play("early")  # before the lobby follows anything
    streams = StreamsUp()
    lobby.follow(streams)  # type: ignore[arg-type]
    open_and_play("late")  # while the stream is up
    streams.connected = set()
    open_and_play("down")  # while it is down
    streams.connected = {D1}
    assert tables_read_by_a_full_pass() == 2  # early and down, not late
    assert tables_read_by_a_full_pass() == 2
    streams.connections = 2  # a reconnection may have lost notes of any table
    assert tables_read_by_a_full_pass() == 3
    assert tables_read_by_a_full_pass() == 3  # late is not skipped again
    lobby.stop()


def _followed_from_the_start(lobby: Lobby) -> tuple[Lobby, StreamsUp]:
    """`lobby` following its streams, then table t opened (so followed throughout), ann
    seated at seat 0, bob funded to join seat 1."""
    for p in ("ann", "bob"):
        lobby.create_player(p, p)
        lobby.deposit(p, 1_000, f"fund-{p}")
    streams = StreamsUp()
    lobby.follow(streams)  # type: ignore[arg-type]
    lobby.open_table("T", TableRules(seats=2, min_buy_in=100, max_buy_in=500, max_rebuys=-1),
                     {}, "o-t", table_id="t")
    lobby.join("ann", "t", 0, 100, False, "ja")
    return lobby, streams


def test_R34_a_limited_pass_reads_a_noted_table_from_its_note_not_from_its_mark(
        storage: Storage, dealer: FakeDealer) -> None:
    """While the streams have been up since the last pass over every table, every seat
    freed since was noted: the pass limited to the noted tables reads each from its
    earliest note, so a player leaving a long-lived table costs the events since then,
    not the table's whole log since its mark (0 for a table no pass has read)."""
    lobby, streams = _followed_from_the_start(Lobby(storage, dealer, [D1]))
    lobby.join("bob", "t", 1, 100, False, "jb")
    table = dealer.tables[(D1, "t")]
    for _ in range(500):  # a long history: the play of many hands
        table.events.append(DealerEvent(len(table.events) + 1, "hand_ended"))
    assert lobby.follow_tables() == []  # the pass over every table skips t (opened followed)
    taken = dealer.take_off(D1, "t", 1)
    sequence = len(table.events)
    streams.send(DealerNote("t", sequence, "SEAT_FREED", 1, "bob", taken.stack, 500))
    asked: list[int] = []
    read = dealer.events

    def events(address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        asked.append(after)
        return read(address, table_id, after, until)

    dealer.events = events  # type: ignore[method-assign]
    [op] = lobby.follow_tables()
    # From the note, not from 0 (the departure it records reads from there too).
    assert asked and all(after == sequence - 1 for after in asked)
    assert op.player_id == "bob" and op.result == taken.stack
    assert lobby.player("bob").balance == 1_000
    assert lobby.follow_tables() == []
    lobby.stop()


def test_R34_a_seat_taken_off_while_still_joining_is_read_again_at_the_next_pass(
        storage: Storage, dealer: FakeDealer) -> None:
    """The pass stops at a seat the dealer took off while the lobby still has it joining
    (a join that died after the dealer seated it); the table goes back to the watch with
    that event's sequence, so the next limited pass reads it again (the note was spent
    before, and only another note or a pass over every table came back to it)."""
    dying = {"join": False}

    def fault(step: str) -> None:
        if dying["join"] and step == "after_seat":
            raise RuntimeError("the lobby dies after the dealer seated the player")

    lobby, streams = _followed_from_the_start(Lobby(storage, dealer, [D1], fault=fault))
    dying["join"] = True
    with pytest.raises(RuntimeError):
        lobby.join("bob", "t", 1, 100, False, "jb")
    dying["join"] = False
    assert lobby.follow_tables() == []  # the first pass (every table): t skipped
    taken = dealer.take_off(D1, "t", 1)
    sequence = len(dealer.tables[(D1, "t")].events)
    streams.send(DealerNote("t", sequence, "SEAT_FREED", 1, "bob", taken.stack, 0))
    assert lobby.follow_tables() == []  # bob's seat is still joining in the lobby
    assert lobby.freed_watch.take() == {"t": sequence}  # read again from that event
    lobby.stop()
