"""R35 time bank: shown in TurnStarted, spent past the decision's own time, refilled every
N hands up to its cap, folded from the log (so a restarted dealer keeps it), and a bot
answering within it over gRPC is not timed out."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from services.dealer import codec
from services.dealer.engine import TableConfig
from services.dealer.table import commands as c
from services.dealer.table.decide import decide
from services.dealer.table.state import Stored, TableState, apply
from tests.dealer.helpers import Client, Watcher, auth, count, start_dealer
from tests.dealer.test_table_state import DECK, NOW, _act, _started, _step

BANK = dict(action_time_ms=1_000, time_bank_ms=20_000, time_bank_refill_ms=3_000,
            time_bank_refill_hands=2)


def _answer_at(state: TableState, now: int, kind: str = "call") -> list[Any]:
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    return _step(state, c.Act(turn.seat, hand.hand_id, turn.action_number, kind, 0), now)


def test_R35_turn_started_shows_the_bank_and_the_deadline_with_it() -> None:
    state = _started(3, **BANK)
    turn = state.turn
    assert turn is not None
    assert (turn.deadline_ms, turn.time_bank_ms, turn.bank_deadline_unix_ms) == (
        NOW + 1_000, 20_000, NOW + 21_000)
    assert turn.ends_ms == NOW + 21_000


def test_R35_an_answer_within_the_bank_spends_what_it_used() -> None:
    state = _started(3, **BANK)
    turn = state.turn
    assert turn is not None
    events = _answer_at(state, NOW + 1_000 + 4_500)
    assert events[0] == ev.TimeBankUsed(turn.seat, 4_500, 15_500)
    assert not any(type(e) is ev.TurnTimedOut for e in events)
    assert state.banks[turn.seat] == 15_500
    assert not state.seats[turn.seat].sitting_out
    # an answer in the decision's own time spends nothing
    nxt = state.turn
    assert nxt is not None and nxt.seat != turn.seat
    assert not any(type(e) is ev.TimeBankUsed for e in _answer_at(state, NOW + 900))


def test_R35_a_time_out_spends_the_whole_bank() -> None:
    state = _started(3, **BANK)
    turn, hand = state.turn, state.hand
    assert turn is not None and hand is not None
    events = _step(state, c.ClockRang(hand.hand_id, turn.action_number), NOW + 21_000)
    assert ev.TimeBankUsed(turn.seat, 20_000, 0) in events
    assert state.banks[turn.seat] == 0
    later = [e for e in events if type(e) is ev.TurnStarted]
    assert later and later[-1].seat != turn.seat


def test_R35_the_bank_grows_back_every_n_hands_up_to_its_cap() -> None:
    state = _started(2, **BANK)
    turn = state.turn
    assert turn is not None
    first = turn.seat
    _answer_at(state, NOW + 1_000 + 10_000, "fold")  # hand 1 ends: 1 hand, no refill
    assert state.hand is None and state.banks[first] == 10_000
    _step(state, c.StartHand(DECK), NOW)
    while state.hand is not None:
        _act(state, "fold")  # hand 2 ends: the refill of 3 s
    assert state.banks[first] == 13_000
    assert state.banks[1 - first] == 20_000  # capped
    for _ in range(2):
        _step(state, c.StartHand(DECK), NOW)
        while state.hand is not None:
            _act(state, "fold")
    assert state.banks[first] == 16_000


def test_R35_zero_means_no_bank() -> None:
    state = _started(3, action_time_ms=1_000, time_bank_ms=0)
    turn = state.turn
    assert turn is not None and (turn.time_bank_ms, turn.bank_deadline_unix_ms) == (0, 0)
    assert turn.ends_ms == turn.deadline_ms
    assert not any(type(e) is ev.TimeBankUsed for e in _answer_at(state, NOW + 50_000))


def test_R35_the_bank_is_the_fold_of_the_log_and_in_the_snapshot() -> None:
    state, log = TableState("t", TableConfig(**BANK), None), []

    def step(command: c.Command, now: int = NOW) -> None:
        hand_id = f"t-{state.hands_played + 1}" if type(command) is c.StartHand else (
            state.hand.hand_id if state.hand is not None else "")
        for event in decide(state, command, now):
            filed = "" if type(event) in ev.TABLE_EVENTS else hand_id
            stored = Stored(state.last_sequence + 1, filed, now, event)
            log.append(stored)
            apply(state, stored)

    for seat in range(3):
        step(c.SeatPlayer(seat, f"p{seat}", 1000))
    step(c.SetButton(0))
    step(c.StartHand(DECK))
    turn = state.turn
    assert turn is not None
    step(c.Act(turn.seat, "t-1", turn.action_number, "call", 0), NOW + 1_000 + 7_000)
    while state.turn is not None:
        t = state.turn
        step(c.Act(t.seat, "t-1", t.action_number, "fold", 0))
    assert state.banks[turn.seat] == 13_000
    fresh = TableState("t", state.config, None)
    for stored in log:  # a restarted dealer folds the same log
        apply(fresh, Stored(stored.sequence, stored.hand_id, stored.time_ms,
                            codec.loads(codec.dumps(stored.event))))
    assert fresh.banks == state.banks
    again = TableState.from_snapshot("t", state.config, None, state.snapshot())
    assert again.banks == state.banks
    old = {k: v for k, v in state.snapshot().items() if k not in ("banks", "away")}
    assert TableState.from_snapshot("t", state.config, None, old).banks == {
        0: 20_000, 1: 20_000, 2: 20_000}  # a snapshot from before R35: full banks


# ------------------------------------------------------------------ over gRPC

def _first_turn(watcher: Watcher) -> pb.TableEvent:
    watcher.wait(lambda evs: count(evs, "turn_started") >= 1)
    return next(e for e in watcher.events if e.HasField("turn_started"))


def test_R35_a_bot_answering_within_the_bank_is_not_timed_out(client: Client) -> None:
    table_id = client.create(seats=2, action_time_ms=300, time_bank_ms=5_000)
    tokens = client.seat(table_id, [1000, 1000])
    spectator = Watcher(client, table_id)  # every viewer sees the bank
    try:
        event = _first_turn(spectator)
        turn = event.turn_started
        assert turn.time_bank_ms == 5_000
        assert turn.bank_deadline_unix_ms == turn.deadline_unix_ms + 5_000
        time.sleep(max(0.0, (turn.deadline_unix_ms + 700) / 1000 - time.time()))
        view = client.view(table_id, tokens[turn.seat])
        assert view.hand.action_number == turn.action_number  # still awaited, in the bank
        assert view.hand.time_bank_ms == 5_000
        client.stub.Act(pb.ActRequest(
            table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
            action_number=turn.action_number, kind=pb.ACTION_KIND_CALL),
            metadata=auth(tokens[turn.seat]), timeout=10)
        spectator.wait(lambda evs: count(evs, "action_taken") >= 1)
        events = spectator.events
        assert count(events, "turn_timed_out") == 0
        used = next(e.time_bank_used for e in events if e.HasField("time_bank_used"))
        assert used.seat == turn.seat and 400 <= used.used_ms < 5_000
        assert used.left_ms == 5_000 - used.used_ms
        taken = next(e.action_taken for e in events if e.HasField("action_taken"))
        assert taken.seat == turn.seat and taken.action == pb.ACTION_KIND_CALL
        seat = next(s for s in client.view(table_id).seats if s.seat == turn.seat)
        # (a slow answer may come after the bank's first mark, a TimeBankUsed of its own)
        last = [e.time_bank_used for e in events if e.HasField("time_bank_used")][-1]
        assert seat.time_bank_ms == last.left_ms
    finally:
        spectator.cancel()


def test_R35_the_bank_is_kept_across_a_dealer_restart(tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        table_id = client.create(seats=2, action_time_ms=200, time_bank_ms=400,
                                 time_bank_refill_hands=0)
        client.seat(table_id, [1000, 1000])
        watcher = Watcher(client, table_id)
        # nobody answers: the first decision times out, its whole bank spent
        watcher.wait(lambda evs: count(evs, "time_bank_used") >= 1, timeout=10)
        used = next(e.time_bank_used for e in watcher.events if e.HasField("time_bank_used"))
        assert (used.used_ms, used.left_ms) == (400, 0)
        watcher.cancel()
        proc.kill()
        client.close()
        proc = start_dealer(db)
        client = Client(proc.address)
        seats = {s.seat: s.time_bank_ms for s in client.view(table_id).seats}
        assert seats[used.seat] == 0 and seats[1 - used.seat] in (0, 400)
    finally:
        client.close()
        proc.stop()


def test_R35_the_hand_history_has_the_time_limit_and_the_bank_used() -> None:
    from services.dealer import history
    from services.dealer.engine import Hand

    state = _started(2, **BANK)
    turn = state.turn
    assert turn is not None
    _answer_at(state, NOW + 1_000 + 2_500, "fold")
    events = [s.event for s in state.hand_events]
    hand = Hand.from_events([e for e in events if type(e) not in ev.DEALER_EVENTS])
    fields = history._clock(events, hand)
    assert fields["time_limit"] == 1
    assert sorted(fields["_time_bank_used_ms"]) == [0, 2_500]  # type: ignore[arg-type]


def test_R35_the_sdk_view_and_tracker_show_the_bank(dealer: Any, client: Client) -> None:
    from clients.convert import event_from_proto
    from clients.sdk import TableClient
    from clients.tracker import TableTracker

    table_id = client.create(seats=2, action_time_ms=60_000, time_bank_ms=7_000)
    client.seat(table_id, [1000, 1000])
    watcher = Watcher(client, table_id)
    try:
        turn = _first_turn(watcher).turn_started
        sdk = TableClient(dealer.address, table_id)
        try:
            view = sdk.view()
        finally:
            sdk.close()
        assert view.hand is not None and view.hand.time_bank_ms == 7_000
        assert view.hand.bank_deadline_unix_ms == turn.deadline_unix_ms + 7_000
        assert {s.time_bank_ms for s in view.seats} == {7_000}
        tracker = TableTracker(view)
        for e in watcher.events:
            if e.sequence > view.sequence:
                tracker.apply(event_from_proto(e))
        assert tracker.view().hand.time_bank_ms == 7_000  # type: ignore[union-attr]
    finally:
        watcher.cancel()
