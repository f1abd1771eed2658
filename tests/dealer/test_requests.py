"""SeatPlayer by request_id and AddChips by idempotency key are carried out once: a repeat gets
the answer the first copy got (seat and token, or the refusal) and changes nothing, even after
a SIGKILL and a restart, so the lobby may send again whatever went unanswered.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from poker.journal import Entry, Key
from poker.status import code_of
from poker.v1 import dealer_pb2 as pb
from services.dealer.auth import Authenticator, derived_token
from services.dealer.dealer import Dealer
from services.dealer.engine import TableConfig
from services.dealer.errors import AlreadyExists, InvalidArgument, Remembered, TokenLost
from services.dealer.store import Store
from services.dealer.tables import TableOptions
from tests.dealer.helpers import AUDITOR_TOKEN, SVC, Client, Watcher, auth, start_dealer


def status(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), info.value.details()


def seat_request(table_id: str, request_id: str, **fields: object) -> pb.SeatPlayerRequest:
    values: dict[str, object] = {"seat": 0, "player_id": "ann", "stack": 300}
    values.update(fields)
    return pb.SeatPlayerRequest(table_id=table_id, request_id=request_id, **values)  # type: ignore[arg-type]


def seated_events(client: Client, table_id: str) -> list[pb.TableEvent]:
    """Every PlayerSeated event of the table so far."""
    last = client.view(table_id).sequence
    watcher = Watcher(client, table_id, AUDITOR_TOKEN)
    watcher.wait(lambda ev: bool(ev) and ev[-1].sequence >= last)
    watcher.cancel()
    return [e for e in watcher.events if e.HasField("player_seated")]


def test_seat_player_repeated_gets_the_same_seat_and_token_and_seats_once(
    client: Client,
) -> None:
    table_id = client.create(seats=3)
    request = seat_request(table_id, "buy-in-1")
    request.ClearField("seat")  # the first free seat: a repeat must not take the next one
    first = client.stub.SeatPlayer(request, metadata=SVC)
    again = client.stub.SeatPlayer(request, metadata=SVC)
    assert (again.seat, again.seat_token) == (first.seat, first.seat_token) == (0, first.seat_token)
    mine = client.view(table_id, first.seat_token)  # the token is the seat's credential
    assert [s.player_id for s in mine.seats] == ["ann"] and mine.seats[0].stack == 300
    assert len(seated_events(client, table_id)) == 1
    code, message = status(lambda: client.stub.SeatPlayer(
        seat_request(table_id, "buy-in-1", stack=500), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert "'buy-in-1'" in message and "another request" in message and "stack 300" in message
    assert len(seated_events(client, table_id)) == 1


def test_seat_player_repeated_after_the_player_left_changes_nothing(client: Client) -> None:
    table_id = client.create(seats=2)
    first = client.stub.SeatPlayer(seat_request(table_id, "late-1"), metadata=SVC)
    client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=table_id, seat=0), metadata=SVC)
    late = client.stub.SeatPlayer(seat_request(table_id, "late-1"), metadata=SVC)
    assert (late.seat, late.seat_token) == (first.seat, first.seat_token)
    assert client.view(table_id).seats == []  # the late copy did not seat the player again
    assert len(seated_events(client, table_id)) == 1


def test_a_refused_seat_player_is_refused_the_same_way_again(client: Client) -> None:
    table_id = client.create(seats=2)
    client.stub.SeatPlayer(seat_request(table_id, "", player_id="bob"), metadata=SVC)
    code, message = status(lambda: client.stub.SeatPlayer(
        seat_request(table_id, "taken-1"), metadata=SVC))
    assert code == grpc.StatusCode.ALREADY_EXISTS and "seat 0 is taken" in message
    client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=table_id, seat=0), metadata=SVC)
    # The seat is free now, but the answer to taken-1 was given: a late copy gets it again.
    assert status(lambda: client.stub.SeatPlayer(
        seat_request(table_id, "taken-1"), metadata=SVC)) == (code, message)
    assert client.view(table_id).seats == []
    code, message = status(lambda: client.stub.SeatPlayer(
        seat_request(table_id, "taken-1", player_id="cy"), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "taken-1" in message


def test_a_request_for_an_unknown_table_stays_refused_once_it_exists(client: Client) -> None:
    code, message = status(lambda: client.stub.SeatPlayer(
        seat_request("later-table", "early-1"), metadata=SVC))
    assert code == grpc.StatusCode.NOT_FOUND and "later-table" in message
    client.create("later-table", seats=2)
    assert status(lambda: client.stub.SeatPlayer(
        seat_request("later-table", "early-1"), metadata=SVC)) == (code, message)
    assert client.view("later-table").seats == []


def test_seat_player_without_a_request_id_is_a_new_request_each_time(client: Client) -> None:
    table_id = client.create(seats=2)
    first = client.stub.SeatPlayer(seat_request(table_id, ""), metadata=SVC)
    assert first.seat == 0 and first.seat_token
    code, message = status(lambda: client.stub.SeatPlayer(seat_request(table_id, ""),
                                                          metadata=SVC))
    assert code == grpc.StatusCode.ALREADY_EXISTS and "already seated" in message


def test_seat_player_request_id_limits_and_credentials(client: Client) -> None:
    table_id = client.create(seats=2)
    code, message = status(lambda: client.stub.SeatPlayer(
        seat_request(table_id, "x" * 129), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "128" in message
    code, _ = status(lambda: client.stub.SeatPlayer(seat_request(table_id, "r-auth"),
                                                    metadata=auth("wrong")))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    # Neither refusal was remembered: the same id seats the player now.
    assert client.stub.SeatPlayer(seat_request(table_id, "r-auth"), metadata=SVC).seat == 0


def test_R30_a_refused_add_chips_is_refused_the_same_way_again(client: Client) -> None:
    table_id = client.create(seats=2)
    rebuy = pb.AddChipsRequest(table_id=table_id, seat=1, amount=100, idempotency_key="rb-1")
    code, message = status(lambda: client.stub.AddChips(rebuy, metadata=SVC))
    assert code == grpc.StatusCode.NOT_FOUND and "seat 1" in message
    client.stub.SeatPlayer(seat_request(table_id, "", seat=1), metadata=SVC)
    assert status(lambda: client.stub.AddChips(rebuy, metadata=SVC)) == (code, message)
    assert client.view(table_id).seats[0].stack == 300  # the late copy added nothing
    code, message = status(lambda: client.stub.AddChips(pb.AddChipsRequest(
        table_id=table_id, seat=1, amount=200, idempotency_key="rb-1"), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "rb-1" in message
    fresh = pb.AddChipsRequest(table_id=table_id, seat=1, amount=100, idempotency_key="rb-2")
    assert client.stub.AddChips(fresh, metadata=SVC).stack == 400


LEVELS = [pb.Level(small_blind=5, big_blind=10), pb.Level(small_blind=10, big_blind=20),
          pb.Level(small_blind=25, big_blind=50, ante=5)]


def set_level(client: Client, table_id: str, index: int, request_id: str) -> int:
    """SetLevel; the big blind of the level answered."""
    return int(client.stub.SetLevel(pb.SetLevelRequest(
        table_id=table_id, level_index=index, request_id=request_id), metadata=SVC).level.big_blind)


def levels_set(client: Client, table_id: str) -> list[int]:
    """The level_index of every LevelSet event of the table so far."""
    last = client.view(table_id).sequence
    watcher = Watcher(client, table_id, AUDITOR_TOKEN)
    watcher.wait(lambda ev: bool(ev) and ev[-1].sequence >= last)
    watcher.cancel()
    return [e.level_set.level_index for e in watcher.events if e.HasField("level_set")]


def test_R9_a_set_level_delivered_again_late_sets_nothing_again(client: Client) -> None:
    table_id = client.create(seats=2, levels=LEVELS)
    assert set_level(client, table_id, 2, "L1") == 50
    assert set_level(client, table_id, 1, "L2") == 20
    # L1 again (a retry, or the network's late copy): its answer, and no LevelSet
    assert set_level(client, table_id, 2, "L1") == 50
    assert client.view(table_id).next_level.big_blind == 20
    code, message = status(lambda: set_level(client, table_id, 0, "L1"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "request_id 'L1'" in message
    code, message = status(lambda: set_level(client, table_id, 3, "L3"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "0..2" in message
    assert status(lambda: set_level(client, table_id, 3, "L3")) == (code, message)
    assert set_level(client, table_id, 0, "") == 10  # no id: set each time
    assert set_level(client, table_id, 0, "") == 10
    assert levels_set(client, table_id) == [2, 1, 0, 0]


def test_answers_are_remembered_across_a_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "dealer.sqlite"
    proc = start_dealer(db, log_path=tmp_path / "dealer.log")
    client = Client(proc.address)
    try:
        table_id = client.create(seats=2, levels=LEVELS)
        first = client.stub.SeatPlayer(seat_request(table_id, "kept-1"), metadata=SVC)
        assert set_level(client, table_id, 2, "level-1") == 50
        refused = status(lambda: client.stub.SeatPlayer(
            seat_request(table_id, "kept-2", player_id="bob"), metadata=SVC))
        assert refused[0] == grpc.StatusCode.ALREADY_EXISTS
        chips = pb.AddChipsRequest(table_id=table_id, seat=0, amount=50, idempotency_key="c-1")
        assert client.stub.AddChips(chips, metadata=SVC).stack == 350
        proc.kill()
        client.close()
        proc = start_dealer(db, log_path=tmp_path / "dealer.log")
        client = Client(proc.address)
        again = client.stub.SeatPlayer(seat_request(table_id, "kept-1"), metadata=SVC)
        assert (again.seat, again.seat_token) == (first.seat, first.seat_token)
        assert client.view(table_id, again.seat_token).seats[0].player_id == "ann"
        assert status(lambda: client.stub.SeatPlayer(
            seat_request(table_id, "kept-2", player_id="bob"), metadata=SVC)) == refused
        code, _ = status(lambda: client.stub.SeatPlayer(
            seat_request(table_id, "kept-1", stack=301), metadata=SVC))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert client.stub.AddChips(chips, metadata=SVC).stack == 350
        assert [s.stack for s in client.view(table_id).seats] == [350]
        assert len(seated_events(client, table_id)) == 1
        assert set_level(client, table_id, 2, "level-1") == 50
        assert levels_set(client, table_id) == [2]
    finally:
        client.close()
        proc.stop()


# ---------------------------------------------------------------------------- units


def test_derived_seat_tokens_need_the_secret() -> None:
    token = derived_token("service-secret", "nonce-1")
    assert token == derived_token("service-secret", "nonce-1") and len(token) == 43
    assert token != derived_token("service-secret", "nonce-2")
    assert token != derived_token("other-secret", "nonce-1")


def test_store_journals_answers_by_call_scope_and_id(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite")
    entry = Entry("fp", "seat 0", '{"refused": {"code": "NOT_FOUND", "message": "m"}}', 1)
    store.journal.put_alone(Key("add_chips", "t1", "k"), entry)
    assert store.journal.find(Key("add_chips", "t1", "k")) == entry
    assert store.journal.find(Key("add_chips", "t2", "k")) is None  # a key belongs to one table
    assert store.journal.find(Key("seat_player", "", "k")) is None
    store.close()


def test_a_changed_service_token_cannot_give_the_seat_token_again(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    store = Store(db)
    dealer = Dealer(store, Authenticator("first-secret", None))
    dealer.create_table("t1", TableConfig(), TableOptions())
    seat, token = dealer.seat_player("t1", None, "ann", 100, False, "r1")
    assert dealer.seat_player("t1", None, "ann", 100, False, "r1") == (seat, token)
    with pytest.raises(AlreadyExists, match="seat 0 is taken") as refused:
        dealer.seat_player("t1", 0, "bob", 100, False, "r2")
    with pytest.raises(Remembered) as again:
        dealer.seat_player("t1", 0, "bob", 100, False, "r2")
    assert (again.value.code, str(again.value)) == (refused.value.code, str(refused.value))
    with pytest.raises(InvalidArgument, match="another request"):
        dealer.seat_player("t1", None, "ann", 200, False, "r1")
    store.close()
    store = Store(db)
    rotated = Dealer(store, Authenticator("second-secret", None))
    rotated.restore()
    with pytest.raises(TokenLost, match="service token changed") as lost:
        rotated.seat_player("t1", None, "ann", 100, False, "r1")
    assert code_of(lost.value) == grpc.StatusCode.DATA_LOSS  # not a refusal: the seat stands
    assert [s.player_id for s in rotated.table("t1").seats.values()] == ["ann"]
    store.close()
