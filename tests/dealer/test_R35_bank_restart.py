"""R35 time bank kept across a dealer restart: while a decision runs in its bank the dealer
marks what it spent every second (`TimeBankUsed`), so a dealer killed in the middle
comes back with the bank left at its last mark (never refilled, never below 0), and
the resumed decision gets the own time it had left then, at least a grace
(services.dealer.table.clocks)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from services.dealer import codec
from services.dealer.engine import TableConfig
from services.dealer.table import clocks
from services.dealer.table import commands as c
from services.dealer.table.decide import decide
from services.dealer.table.state import Stored, TableState, apply
from tests.dealer.helpers import Client, Watcher, auth, count, start_dealer
from tests.dealer.test_table_state import DECK, NOW

BANK = dict(action_time_ms=1_000, time_bank_ms=20_000, time_bank_refill_hands=0)


class Logged:
    """A table state and its log, folded as the shell files events (no store, no loop)."""

    def __init__(self, **config: Any) -> None:
        self.state = TableState("t", TableConfig(**config), None)
        self.log: list[Stored] = []

    def step(self, command: c.Command, now: int = NOW) -> list[Any]:
        state = self.state
        hand_id = f"t-{state.hands_played + 1}" if type(command) is c.StartHand else (
            state.hand.hand_id if state.hand is not None else "")
        events = decide(state, command, now)
        for event in events:
            filed = "" if type(event) in ev.TABLE_EVENTS else hand_id
            stored = Stored(state.last_sequence + 1, filed, now, event)
            self.log.append(stored)
            apply(state, stored)
        return events

    def restarted(self) -> TableState:
        """What a restarted dealer folds from the same log."""
        fresh = TableState("t", self.state.config, None)
        for s in self.log:
            apply(fresh, Stored(s.sequence, s.hand_id, s.time_ms,
                                codec.loads(codec.dumps(s.event))))
        return fresh

    def mark(self, now: int) -> list[Any]:
        turn, hand = self.state.turn, self.state.hand
        assert turn is not None and hand is not None
        return self.step(c.MarkBank(hand.hand_id, turn.action_number), now)


def _table(**config: Any) -> Logged:
    table = Logged(**{**BANK, **config})
    for seat in range(3):
        table.step(c.SeatPlayer(seat, f"p{seat}", 1000))
    table.step(c.SetButton(0))
    table.step(c.StartHand(DECK))
    return table


def test_R35_marks_write_what_the_bank_spent_and_an_answer_the_rest() -> None:
    table = _table()
    turn = table.state.turn
    assert turn is not None and turn.deadline_ms == NOW + 1_000
    assert table.mark(NOW + 900) == []  # within its own time: nothing spent
    assert table.mark(NOW + 2_000) == [ev.TimeBankUsed(turn.seat, 1_000, 19_000)]
    assert table.mark(NOW + 3_500) == [ev.TimeBankUsed(turn.seat, 1_500, 17_500)]
    hand = table.state.hand
    assert hand is not None
    answer = table.step(c.Act(turn.seat, hand.hand_id, turn.action_number, "call", 0),
                        NOW + 4_200)
    assert answer[0] == ev.TimeBankUsed(turn.seat, 700, 16_800)
    used = sum(e.used_ms for s in table.log if type(e := s.event) is ev.TimeBankUsed)
    assert used == 3_200 and table.state.banks[turn.seat] == 16_800  # 4.2 s - 1 s own time


def test_R35_a_time_out_after_marks_spends_what_they_left() -> None:
    table = _table()
    turn, hand = table.state.turn, table.state.hand
    assert turn is not None and hand is not None
    table.mark(NOW + 6_000)
    events = table.step(c.ClockRang(hand.hand_id, turn.action_number), NOW + 21_000)
    assert ev.TimeBankUsed(turn.seat, 15_000, 0) in events
    assert table.state.banks[turn.seat] == 0


def test_R35_clock_rings_each_mark_then_at_the_end() -> None:
    table = _table()
    turn = table.state.turn
    assert turn is not None
    assert clocks.next_ring(turn, NOW) == NOW + 2_000  # the first mark, 1 s into the bank
    assert clocks.next_ring(turn, NOW + 2_000) == NOW + 3_000
    assert clocks.next_ring(turn, NOW + 20_500) == NOW + 21_000  # the end, bank included
    none = ev.TurnStarted(0, "bet", 1, NOW + 1_000)
    assert clocks.next_ring(none, NOW) == NOW + 1_000


def test_R35_restart_after_marks_keeps_the_bank_left_and_gives_a_grace() -> None:
    table = _table()
    turn = table.state.turn
    assert turn is not None
    table.mark(NOW + 2_000)
    table.mark(NOW + 3_000)  # the dealer dies about here, 2 s into the bank
    fresh = table.restarted()
    assert fresh.banks[turn.seat] == 18_000
    restart = NOW + 60_000  # down for a minute: charged to nobody
    [resumed] = decide(fresh, c.Resume(), restart)
    assert type(resumed) is ev.TurnStarted and resumed.action_number == turn.action_number
    assert resumed.time_bank_ms == 18_000  # not refilled
    assert resumed.deadline_ms == restart + 1_000  # the grace: min(action time, 5 s)
    assert resumed.bank_deadline_unix_ms == restart + 1_000 + 18_000


def test_R35_restart_within_the_own_time_gives_it_again_with_the_whole_bank() -> None:
    table = _table()
    turn = table.state.turn
    assert turn is not None
    [resumed] = decide(table.restarted(), c.Resume(), NOW + 30_000)
    assert type(resumed) is ev.TurnStarted
    assert (resumed.deadline_ms, resumed.time_bank_ms) == (NOW + 31_000, 20_000)


def test_R35_restarted_twice_the_second_resume_gives_only_what_the_first_left() -> None:
    table = _table(action_time_ms=20_000)  # the grace: 5 s
    turn = table.state.turn
    assert turn is not None
    table.mark(NOW + 21_000)
    first = table.restarted()
    restart = NOW + 40_000
    [resumed] = decide(first, c.Resume(), restart)
    assert resumed.deadline_ms == restart + clocks.RESUME_GRACE_MS
    log = Logged(**{**BANK, "action_time_ms": 20_000})
    log.log = [*table.log, Stored(table.log[-1].sequence + 1, table.log[-1].hand_id,
                                  restart, resumed)]
    again = log.restarted()  # killed again within the grace: no mark in between
    [twice] = decide(again, c.Resume(), NOW + 90_000)
    assert twice.deadline_ms == NOW + 90_000 + clocks.RESUME_GRACE_MS  # not 20 s anew
    assert twice.time_bank_ms == 19_000


def test_R35_restart_with_the_bank_spent_is_never_negative() -> None:
    table = _table(action_time_ms=10_000)
    turn = table.state.turn
    assert turn is not None
    table.mark(NOW + 25_000)
    assert table.mark(NOW + 29_999) == [ev.TimeBankUsed(turn.seat, 4_999, 1)]
    table.mark(NOW + 31_000)  # past the end: what is left is 0, not less
    assert table.state.banks[turn.seat] == 0
    [resumed] = decide(table.restarted(), c.Resume(), NOW + 90_000)
    assert type(resumed) is ev.TurnStarted
    assert (resumed.time_bank_ms, resumed.bank_deadline_unix_ms) == (0, 0)
    assert resumed.deadline_ms == NOW + 90_000 + clocks.RESUME_GRACE_MS
    assert resumed.ends_ms == resumed.deadline_ms


# ------------------------------------------------------------------ over gRPC

def _turns(events: list[pb.TableEvent]) -> list[pb.TableEvent]:
    return [e for e in events if e.HasField("turn_started")]


def test_R35_a_dealer_killed_in_the_bank_comes_back_with_what_was_left(tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    bank = 10_000
    try:
        table_id = client.create(seats=2, action_time_ms=2_000, time_bank_ms=bank,
                                 time_bank_refill_hands=0)
        tokens = client.seat(table_id, [1000, 1000])
        watcher = Watcher(client, table_id)
        watcher.wait(lambda evs: len(_turns(evs)) >= 1, timeout=10)
        first = _turns(watcher.events)[0]
        turn = first.turn_started
        assert turn.time_bank_ms == bank
        # nobody answers: 2.6 s into the bank, the marks of 1 s and 2 s are in the log
        watcher.wait(lambda evs: count(evs, "time_bank_used") >= 2, timeout=10)
        time.sleep(max(0.0, (turn.deadline_unix_ms + 2_600) / 1000 - time.time()))
        proc.kill()  # SIGKILL
        killed_ms = int(time.time() * 1000)
        watcher.cancel()
        client.close()
        spent = killed_ms - turn.deadline_unix_ms
        marks = [e.time_bank_used for e in watcher.events if e.HasField("time_bank_used")]
        assert all(m.seat == turn.seat for m in marks)
        assert sum(m.used_ms for m in marks) <= spent

        proc = start_dealer(db)
        client = Client(proc.address)
        view = client.view(table_id, tokens[turn.seat])
        left = next(s.time_bank_ms for s in view.seats if s.seat == turn.seat)
        # lower by the time spent to within one mark, never refilled, never negative
        # (a mark may ring late on a busy machine: half a mark's slack)
        assert bank - spent <= left <= bank - spent + clocks.BANK_MARK_MS + 500, (left, spent)
        assert 0 <= left < bank
        print(f"bank {bank} ms, spent at the kill {spent} ms, left after the restart {left} ms")
        assert view.hand.action_number == turn.action_number
        assert view.hand.time_bank_ms == left
        watcher = Watcher(client, table_id, after=first.sequence)
        watcher.wait(lambda evs: any(e.turn_started.action_number == turn.action_number
                                     for e in _turns(evs)), timeout=10)
        resumed = _turns(watcher.events)[-1].turn_started
        assert resumed.time_bank_ms == left  # the TurnStarted every viewer gets shows it
        own = resumed.deadline_unix_ms - killed_ms
        assert 2_000 <= own < 2_000 + 15_000  # the grace (min(action time, 5 s)) from restart
        assert resumed.bank_deadline_unix_ms == resumed.deadline_unix_ms + left
        # answered (in the grace, unless the machine is slow): the bank only goes down
        client.stub.Act(pb.ActRequest(
            table_id=table_id, seat=turn.seat, hand_id=first.hand_id,
            action_number=turn.action_number, kind=pb.ACTION_KIND_CALL),
            metadata=auth(tokens[turn.seat]), timeout=10)
        watcher.wait(lambda evs: count(evs, "action_taken") >= 1, timeout=10)
        watcher.cancel()
        after = next(s.time_bank_ms for s in client.view(table_id).seats if s.seat == turn.seat)
        assert 0 <= after <= left
    finally:
        client.close()
        proc.stop()
