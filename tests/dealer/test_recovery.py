"""Nothing lost: a dealer killed with SIGKILL restarts on its store, every chip where it was."""

from __future__ import annotations

import contextlib
import random
import threading
from pathlib import Path

import grpc
import pytest

from poker.v1 import dealer_pb2 as pb
from services.dealer.tables import SNAPSHOT_EVERY_EVENTS
from tests.dealer.helpers import (
    AUDITOR_TOKEN,
    SVC,
    Client,
    Watcher,
    auth,
    count,
    play,
    start_dealer,
)

STACKS = [1000, 1500, 2000, 2500]


def chips_on_table(view: pb.TableView) -> int:
    in_pots = sum(p.amount for p in view.hand.pots) if view.HasField("hand") else 0
    return sum(s.stack + s.bet for s in view.seats) + in_pots


def chips_bought(client: Client, table_id: str, upto: int) -> int:
    """Every chip brought to the table up to sequence `upto`: stacks seated plus rebuys."""
    watcher = Watcher(client, table_id, AUDITOR_TOKEN)
    watcher.wait(lambda ev: bool(ev) and ev[-1].sequence >= upto)
    watcher.cancel()
    events = [e for e in watcher.events if e.sequence <= upto]
    return (sum(e.player_seated.stack for e in events if e.HasField("player_seated"))
            + sum(e.chips_added.amount for e in events if e.HasField("chips_added")))


def _kill_soon(proc: object, delay: float) -> threading.Timer:
    timer = threading.Timer(delay, proc.kill)  # type: ignore[attr-defined]
    timer.start()
    return timer


def _play_until_killed(client: Client, table_id: str, tokens: dict[int, str],
                       watcher: Watcher) -> None:
    with contextlib.suppress(grpc.RpcError, AssertionError):  # the dealer dies under the driver
        play(client, table_id, tokens, watcher, 10_000, seed=random.randrange(1000), timeout=15)


def _rebuy_busted(client: Client, table_id: str, view: pb.TableView) -> None:
    """The lobby tops up a busted seat: the driver does it on HandEnded, and a kill may
    land between the two (with every other seat busted too, no hand would start)."""
    for seat in view.seats:
        if seat.stack == 0 and not seat.in_hand:
            with contextlib.suppress(grpc.RpcError):  # a hand began in between: next time
                client.stub.AddChips(pb.AddChipsRequest(
                    table_id=table_id, seat=seat.seat, amount=1000,
                    idempotency_key=f"restart-{view.sequence}/{seat.seat}"), metadata=SVC,
                    timeout=10)


@pytest.mark.parametrize("on_crash", ["resume", "void"])
def test_sigkill_mid_hand_restarts_with_every_chip(tmp_path: Path, on_crash: str) -> None:
    db, log = tmp_path / "dealer.sqlite", tmp_path / "dealer.log"
    proc = start_dealer(db, "--on-crash", on_crash, log_path=log)
    client = Client(proc.address)
    table_id = client.create(seats=4, test_mode=True, deck_seed=99)
    tokens = client.seat(table_id, STACKS)
    rng = random.Random(1 if on_crash == "resume" else 2)
    seen: list[pb.TableEvent] = []
    resumed = 0
    try:
        for _round in range(3):
            watcher = Watcher(client, table_id, AUDITOR_TOKEN,
                              after=seen[-1].sequence if seen else 0)
            timer = _kill_soon(proc, rng.uniform(0.3, 0.8))
            _play_until_killed(client, table_id, tokens, watcher)
            timer.join()
            watcher.cancel()
            client.close()
            # Streams resume from the last sequence: no gap, no duplicate.
            if watcher.events:
                assert watcher.events[0].sequence == (seen[-1].sequence + 1 if seen else 1)
            seen.extend(watcher.events)
            proc = start_dealer(db, "--on-crash", on_crash, log_path=log)
            client = Client(proc.address)
            view = client.view(table_id, AUDITOR_TOKEN)
            assert view.sequence >= (seen[-1].sequence if seen else 0)
            assert chips_on_table(view) == chips_bought(client, table_id, view.sequence), view
            resumed += view.HasField("hand") and view.hand.action_number > 0
            _rebuy_busted(client, table_id, view)
        watcher = Watcher(client, table_id, AUDITOR_TOKEN, after=seen[-1].sequence)
        play(client, table_id, tokens, watcher, 2, seed=4)
        watcher.cancel()
        seen.extend(watcher.events)
        assert [e.sequence for e in seen] == list(range(1, len(seen) + 1))
        closing = client.stub.CloseTable(pb.CloseTableRequest(
            table_id=table_id, void_hand_in_progress=True), metadata=SVC)
        last = client.view(table_id).sequence
        assert sum(s.stack for s in closing.stacks) == chips_bought(client, table_id, last)
        if on_crash == "void":
            assert count(seen, "hand_voided") >= 1
        else:
            assert resumed >= 1, "no kill landed mid-hand"
    finally:
        client.close()
        proc.stop()


def _heads_up(client: Client, deck_seed: int) -> tuple[str, dict[int, str]]:
    """A test-mode table of two seats, both taken with 1000: its id and seat tokens."""
    table_id = client.create(seats=2, test_mode=True, deck_seed=deck_seed)
    return table_id, client.seat(table_id, [1000, 1000])


def test_a_retried_act_is_answered_the_same_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        table_id, tokens = _heads_up(client, deck_seed=5)
        watcher = Watcher(client, table_id)
        watcher.wait(lambda ev: count(ev, "turn_started") >= 1)
        event = next(e for e in watcher.events if e.HasField("turn_started"))
        turn = event.turn_started
        act = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
                            action_number=turn.action_number, kind=pb.ACTION_KIND_CALL)
        answer = client.stub.Act(act, metadata=auth(tokens[turn.seat]))
        watcher.cancel()
        proc.kill()
        client.close()
        proc = start_dealer(db)
        client = Client(proc.address)
        again = client.stub.Act(act, metadata=auth(tokens[turn.seat]))
        assert again.sequence == answer.sequence
        view = client.view(table_id, tokens[1 - turn.seat])
        assert view.hand.actor == 1 - turn.seat and view.hand.legal_actions.seat == 1 - turn.seat
    finally:
        client.close()
        proc.stop()


def _restored(log: Path) -> dict[str, object]:
    """The last tables_restored line of a dealer's log."""
    import json

    lines = [json.loads(line) for line in log.read_text().splitlines()
             if '"tables_restored"' in line]
    return lines[-1]


def _state(view: pb.TableView) -> tuple[object, ...]:
    seats = tuple((s.seat, s.player_id, s.stack, s.bet, s.sitting_out) for s in view.seats)
    hand = (view.hand.hand_id, tuple(p.amount for p in view.hand.pots)) if view.HasField(
        "hand") else None
    return view.hands_played, view.button, view.next_level.big_blind, seats, hand


def test_a_restart_folds_the_snapshot_and_the_tail_and_streams_catch_up_from_the_store(
        tmp_path: Path) -> None:
    """The table a restart rebuilds from its snapshot (a few events folded) is the one it
    rebuilds from the whole log (--full-replay); watchers from 0 then read the whole log
    from the store, in order, while the table plays on."""
    db, log = tmp_path / "dealer.sqlite", tmp_path / "dealer.log"
    proc = start_dealer(db, log_path=log)
    client = Client(proc.address)
    try:
        table_id = client.create(seats=4, test_mode=True, deck_seed=7, hands_per_level=5)
        tokens = client.seat(table_id, STACKS)
        watcher = Watcher(client, table_id, AUDITOR_TOKEN)
        play(client, table_id, tokens, watcher, 60, seed=3)
        watcher.cancel()
        before = client.view(table_id, AUDITOR_TOKEN)
        client.close()
        proc.stop()
        for extra in ((), ("--full-replay",)):
            proc = start_dealer(db, *extra, log_path=log)
            client = Client(proc.address)
            restored = _restored(log)
            assert restored["from_snapshots"] == (0 if extra else 1)
            folded = int(restored["events_folded"])  # type: ignore[call-overload]
            # from the snapshot: fewer than its interval and one hand's events
            assert (folded >= before.sequence) if extra else (
                folded < SNAPSHOT_EVERY_EVENTS + 100 < before.sequence)
            assert _state(client.view(table_id, AUDITOR_TOKEN)) == _state(before)
            if extra:
                break
            client.close()
            proc.stop()
        watchers = [Watcher(client, table_id, AUDITOR_TOKEN) for _ in range(3)]
        watchers += [Watcher(client, table_id) for _ in range(5)]
        play(client, table_id, tokens, watchers[0], 3, seed=4)
        last = client.view(table_id).sequence
        for w in watchers:
            w.wait(lambda ev: bool(ev) and ev[-1].sequence >= last)
            w.cancel()
            sequences = [e.sequence for e in w.events]
            assert sequences == list(range(1, len(sequences) + 1))
    finally:
        client.close()
        proc.stop()


def test_a_closed_tables_seat_tokens_read_its_view_and_history_after_a_restart(
        tmp_path: Path) -> None:
    """Issue 13: after CloseTable a player's token still reads the table and the history
    of their hands, and acts no more: across a dealer restart too (the closed table is
    folded from the store on its first use; the restart loads only open tables)."""
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db)
    client = Client(proc.address)
    try:
        table_id, tokens = _heads_up(client, deck_seed=3)
        watcher = Watcher(client, table_id, AUDITOR_TOKEN)
        play(client, table_id, tokens, watcher, hands=2)
        watcher.cancel()
        client.stub.CloseTable(pb.CloseTableRequest(table_id=table_id,
                                                    void_hand_in_progress=True),
                               metadata=SVC, timeout=10)
        before = client.view(table_id, tokens[0])
        history = client.stub.GetHandHistory(pb.GetHandHistoryRequest(
            table_id=table_id, hand_id=f"{table_id}-1"), metadata=auth(tokens[0]), timeout=10)
        proc.kill()
        client.close()
        proc = start_dealer(db)
        client = Client(proc.address)
        after = client.view(table_id, tokens[0])
        assert after.closed and after.your_seat == 0
        assert (after.sequence, after.hands_played) == (before.sequence, before.hands_played)
        assert client.view(table_id).closed  # a spectator's view too
        again = client.stub.GetHandHistory(pb.GetHandHistoryRequest(
            table_id=table_id, hand_id=f"{table_id}-1"), metadata=auth(tokens[1]), timeout=10)
        assert again.phh and history.phh.count("actions") == again.phh.count("actions")
        with pytest.raises(grpc.RpcError) as refused:
            client.stub.Act(pb.ActRequest(table_id=table_id, seat=0, hand_id=f"{table_id}-3",
                                          action_number=1, kind=pb.ACTION_KIND_FOLD),
                            metadata=auth(tokens[0]), timeout=10)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "closed" in (refused.value.details() or "")
        with pytest.raises(grpc.RpcError) as missing:
            client.view(f"{table_id}-none")
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    finally:
        client.close()
        proc.stop()
