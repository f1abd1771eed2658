"""R5/R10/R33 and issue 13's table defects end to end over gRPC on a real dealer: a table
told to wait for its players (min_players_to_start), every hand's start carrying its
button and blinds' seats to every viewer, and seat tokens of a closed table read-only."""

from __future__ import annotations

import time

import grpc
import pytest

from poker.v1 import dealer_pb2 as pb
from tests.dealer.helpers import AUDITOR_TOKEN, SVC, Client, Watcher, auth, play

DEALER_ARGS = ("--stream-linger-ms", "10")


def _status(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), info.value.details()


def test_R5_R10_dead_button_rule_over_grpc_and_read_only_tokens_after_close(
        client: Client) -> None:
    table_id = client.create(seats=5, min_players_to_start=4, test_mode=True, deck_seed=11)
    assert client.view(table_id).config.button_rule == pb.BUTTON_RULE_DEAD  # the default
    tokens = client.seat(table_id, [1000, 1000, 1000])
    time.sleep(0.3)
    assert not client.view(table_id).hand.hand_id  # waits for the fourth player
    reply = client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=4, player_id="p4", stack=1000), metadata=SVC, timeout=10)
    tokens[4] = reply.seat_token
    audit = Watcher(client, table_id, AUDITOR_TOKEN)
    spectator = Watcher(client, table_id)
    play(client, table_id, tokens, audit, hands=6, rebuy=True)
    started = [e.hand_started for e in audit.events if e.HasField("hand_started")]
    assert len(started[0].players) == 4  # all four dealt in from the first hand
    bigs = [h.big_blind_seat for h in started]
    plans = [(h.button, [p.seat for p in h.players],
              h.small_blind_seat if h.HasField("small_blind_seat") else None) for h in started]
    assert all(a != b for a, b in zip(bigs, bigs[1:], strict=False)), (bigs, plans)
    for h in started:
        seats = [p.seat for p in h.players]
        assert h.big_blind_seat in seats and h.button_dead == (h.button not in seats)
        if h.HasField("small_blind_seat"):
            assert h.small_blind_seat in seats
    spectator.wait(lambda ev: sum(e.HasField("hand_started") for e in ev) >= len(started))
    seen = [e.hand_started for e in spectator.events if e.HasField("hand_started")]
    assert [(h.button, h.big_blind_seat) for h in seen[:len(started)]] == [
        (h.button, h.big_blind_seat) for h in started]  # every viewer sees the payload
    blinds = [e.blind_posted for e in audit.events if e.HasField("blind_posted")]
    assert any(b.seat == bigs[0] and b.blind == pb.BLIND_KIND_BIG for b in blinds)
    client.stub.CloseTable(pb.CloseTableRequest(table_id=table_id, void_hand_in_progress=True),
                           metadata=SVC, timeout=10)
    audit.cancel()
    spectator.cancel()
    # Issue 13 (f): read-only use goes on with the seat token, acting is refused.
    mine = client.view(table_id, tokens[0])
    assert mine.your_seat == 0
    history = client.stub.GetHandHistory(pb.GetHandHistoryRequest(
        table_id=table_id, hand_id=f"{table_id}-1"), metadata=auth(tokens[0]), timeout=10)
    assert "_button_rule" in history.phh and "'dead'" in history.phh.replace('"', "'")
    code, message = _status(lambda: client.stub.SitIn(pb.SitInRequest(
        table_id=table_id, seat=0), metadata=auth(tokens[0]), timeout=10))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "closed" in message
    code, message = _status(lambda: client.stub.Act(pb.ActRequest(
        table_id=table_id, seat=0, hand_id=f"{table_id}-1", action_number=1,
        kind=pb.ACTION_KIND_FOLD), metadata=auth(tokens[0]), timeout=10))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "closed" in message


def test_R5_moving_rule_and_bad_button_rule_over_grpc(client: Client) -> None:
    table_id = client.create(seats=3, button_rule=pb.BUTTON_RULE_MOVING)
    assert client.view(table_id).config.button_rule == pb.BUTTON_RULE_MOVING
    code, message = _status(lambda: client.create(button_rule=7))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "button_rule" in message
    code, message = _status(lambda: client.create(seats=3, min_players_to_start=4))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "min_players_to_start" in message
