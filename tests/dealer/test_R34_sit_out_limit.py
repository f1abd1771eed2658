"""R34 sit-out limit at the dealer: a seat sat out past the table's limit (time or orbits,
whichever first; 0: none) is taken off between hands with PlayerUnseated, reason
sit_out_limit, in the table's log (the lobby follows it: tests/lobby/test_R34_*)."""

from __future__ import annotations

import time
from pathlib import Path

from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from services.dealer.table import commands as c
from services.dealer.table.decide import decide
from services.dealer.table.state import TableState
from tests.dealer.helpers import Client, Watcher, auth, start_dealer
from tests.dealer.test_table_state import DECK, NOW, _act, _seated, _step

MINUTE = 60_000


def _play_hand(state: TableState) -> None:
    _step(state, c.StartHand(DECK))
    while state.hand is not None:
        _act(state, "fold")


def test_R34_a_seat_sat_out_past_the_time_limit_is_taken_off() -> None:
    state = _seated(3, sit_out_limit_ms=10 * MINUTE, sit_out_limit_orbits=0)
    _step(state, c.SitOut(2), NOW)
    assert decide(state, c.TakeOffSatOut(), NOW + 10 * MINUTE - 1) == []
    events = _step(state, c.TakeOffSatOut(), NOW + 10 * MINUTE)
    assert events == [ev.PlayerUnseated(2, "p2", 1000, "sit_out_limit")]
    assert 2 not in state.seats and 2 not in state.away


def test_R34_the_default_is_30_minutes_or_3_orbits_whichever_first() -> None:
    state = _seated(3)
    assert (state.config.sit_out_limit_ms, state.config.sit_out_limit_orbits) == (
        30 * MINUTE, 3)
    _step(state, c.SetButton(0))
    _step(state, c.SitOut(2), NOW)
    hands = 0
    while not decide(state, c.TakeOffSatOut(), NOW + MINUTE):
        _play_hand(state)  # heads-up 0/1: the button passes seat 2 every second hand
        hands += 1
        assert hands <= 10
    assert state.away[2][1] == 3 and hands == 7  # the first hand keeps the button
    assert decide(state, c.TakeOffSatOut(), NOW + 30 * MINUTE)  # time alone would too


def test_R34_sitting_in_again_resets_the_clock() -> None:
    state = _seated(3, sit_out_limit_ms=10 * MINUTE)
    _step(state, c.SitOut(1), NOW)
    _step(state, c.SitIn(1), NOW + 9 * MINUTE)
    assert decide(state, c.TakeOffSatOut(), NOW + 11 * MINUTE) == []
    _step(state, c.SitOut(1), NOW + 11 * MINUTE)
    assert decide(state, c.TakeOffSatOut(), NOW + 20 * MINUTE) == []
    assert decide(state, c.TakeOffSatOut(), NOW + 21 * MINUTE)


def test_R34_zero_means_no_limit() -> None:
    state = _seated(3, sit_out_limit_ms=0, sit_out_limit_orbits=0)
    _step(state, c.SetButton(0))
    _step(state, c.SitOut(2), NOW)
    for _ in range(8):
        _play_hand(state)
    assert decide(state, c.TakeOffSatOut(), NOW + 10**9) == []


def test_R34_a_seat_in_the_running_hand_waits_for_its_end() -> None:
    state = _seated(3, sit_out_limit_ms=MINUTE, sit_out_limit_orbits=0)
    _step(state, c.SetButton(0))
    _step(state, c.StartHand(DECK))
    _step(state, c.SitOut(0), NOW)  # sits out during the hand it plays
    assert decide(state, c.TakeOffSatOut(), NOW + 2 * MINUTE) == []
    while state.hand is not None:
        _act(state, "fold")
    assert [e.seat for e in decide(state, c.TakeOffSatOut(), NOW + 2 * MINUTE)] == [0]


def test_R34_the_clock_is_in_the_snapshot() -> None:
    state = _seated(3, sit_out_limit_ms=MINUTE)
    _step(state, c.SitOut(1), NOW)
    again = TableState.from_snapshot("t", state.config, None, state.snapshot())
    assert again.away == state.away == {1: [NOW, 0]}


# ------------------------------------------------------------------ over gRPC

def _unseated(events: list[pb.TableEvent]) -> list[pb.PlayerUnseated]:
    return [e.player_unseated for e in events if e.HasField("player_unseated")]


def test_R34_the_dealer_takes_the_seat_off_and_logs_why(client: Client) -> None:
    table_id = client.create(seats=3, sit_out_limit_ms=400, action_time_ms=60_000,
                             pause_between_hands_ms=60_000)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    try:
        client.stub.SitOut(pb.SitOutRequest(table_id=table_id, seat=2),
                           metadata=auth(tokens[2]), timeout=10)
        watcher.wait(lambda evs: bool(_unseated(evs)), timeout=10)
        [gone] = _unseated(watcher.events)
        assert gone.reason == pb.UNSEAT_REASON_SIT_OUT_LIMIT
        assert (gone.stack.seat, gone.stack.player_id) == (2, "p2") and gone.stack.stack > 0
        assert 2 not in {s.seat for s in client.view(table_id).seats}
    finally:
        watcher.cancel()


def test_R34_the_limit_holds_across_a_dealer_restart(tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        table_id = client.create(seats=3, sit_out_limit_ms=1_500, action_time_ms=60_000,
                                 pause_between_hands_ms=60_000)
        tokens = client.seat(table_id, [1000, 1000, 1000])
        client.stub.SitOut(pb.SitOutRequest(table_id=table_id, seat=1),
                           metadata=auth(tokens[1]), timeout=10)
        sat_out = time.monotonic()
        proc.kill()  # SIGKILL, before the limit
        client.close()
        proc = start_dealer(db)
        client = Client(proc.address)
        watcher = Watcher(client, table_id)
        watcher.wait(lambda evs: bool(_unseated(evs)), timeout=10)
        assert time.monotonic() - sat_out >= 1.4  # from the sit-out, not from the restart
        [gone] = _unseated(watcher.events)
        assert gone.reason == pb.UNSEAT_REASON_SIT_OUT_LIMIT and gone.stack.seat == 1
        watcher.cancel()
    finally:
        client.close()
        proc.stop()
