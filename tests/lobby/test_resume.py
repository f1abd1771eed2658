"""JoinTable.resume (issue 16), on SQLite and PostgreSQL: a player who sits at the table
already gets that seat back (the same seat token, `resumed`), nothing bought; without
resume the refusal is ALREADY_EXISTS with reason ALREADY_SEATED and the seat number."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, serving

from poker.v1 import dealer_pb2
from poker.v1 import lobby_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.storage import Storage


@pytest.fixture
def op(storage: Storage, dealer: FakeDealer) -> Iterator[Client]:
    room = Lobby(storage, dealer, ["d1:1"])
    try:
        with serving(room) as channel:
            yield Client(channel, OPERATOR)
    finally:
        room.stop()


def test_a_seated_player_resumes_the_seat_and_buys_nothing(op: Client) -> None:
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="Ann"))
    op.Deposit(pb.DepositRequest(player_id="ann", amount=5_000, request_id="d"))
    op.OpenTable(pb.OpenTableRequest(table_id="t1", request_id="o", config=dealer_pb2.TableConfig(
        seats=3), rules=pb.TableRules(initial_stack=1_000)))
    first = op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=1_000,
                                             request_id="j1"))
    assert not first.resumed and first.player.balance == 4_000
    with pytest.raises(grpc.RpcError) as again:
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=1_000,
                                         request_id="j2"))
    assert again.value.code() is grpc.StatusCode.ALREADY_EXISTS
    found = rpc_status.from_call(again.value)
    info = error_details_pb2.ErrorInfo()
    found.details[0].Unpack(info)
    assert (info.reason, info.metadata["seat"]) == ("ALREADY_SEATED", str(first.seat))
    resumed = op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=1_000,
                                               request_id="j3", resume=True))
    assert resumed.resumed and resumed.seat == first.seat
    assert resumed.seat_token == first.seat_token and resumed.buy_in == 1_000
    assert resumed.player.balance == 4_000, "nothing bought"
    transfers = op.ListTransfers(pb.ListTransfersRequest(player_id="ann")).transfers
    assert [t.kind for t in transfers].count(pb.TRANSFER_KIND_BUY_IN) == 1
    # resume for a player not seated: an ordinary buy-in
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="bob", display_name="Bob"))
    op.Deposit(pb.DepositRequest(player_id="bob", amount=1_000, request_id="d-bob"))
    bob = op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="bob", buy_in=1_000,
                                           request_id="b1", resume=True))
    assert not bob.resumed and bob.player.balance == 0
