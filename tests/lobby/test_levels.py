"""SetTableLevel over gRPC (in process, the in-memory dealer, SQLite and PostgreSQL): the operator
forces a table's blind level (R9); every wrong request gets its own status code.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, code_of, serving

from poker.v1 import dealer_pb2
from poker.v1 import lobby_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.storage import Storage

D1 = "d1:1"


@dataclass
class Room:
    channel: grpc.Channel
    dealer: FakeDealer
    op: Client


@pytest.fixture
def room(storage: Storage) -> Iterator[Room]:
    dealer = FakeDealer()
    lobby = Lobby(storage, dealer, [D1])
    with serving(lobby) as channel:
        op = Client(channel, OPERATOR)
        levels = [dealer_pb2.Level(small_blind=5, big_blind=10),
                  dealer_pb2.Level(small_blind=10, big_blind=20),
                  dealer_pb2.Level(small_blind=25, big_blind=50, ante=5)]
        op.OpenTable(pb.OpenTableRequest(
            table_id="t1", request_id="open-t1", config=dealer_pb2.TableConfig(levels=levels),
            rules=pb.TableRules(min_buy_in=100, max_buy_in=500)))
        yield Room(channel, dealer, op)
    lobby.stop()


def level_at_dealer(room: Room) -> int:
    return room.dealer.tables[(D1, "t1")].level_index


def test_R9_operator_sets_a_tables_level(room: Room) -> None:
    reply = room.op.SetTableLevel(pb.SetTableLevelRequest(table_id="t1", level_index=2))
    assert (reply.level.small_blind, reply.level.big_blind, reply.level.ante) == (25, 50, 5)
    assert level_at_dealer(room) == 2
    back = room.op.SetTableLevel(pb.SetTableLevelRequest(table_id="t1", level_index=0))
    assert back.level.big_blind == 10 and level_at_dealer(room) == 0


def test_R9_a_repeated_set_table_level_request_sets_nothing_again(room: Room) -> None:
    def set_level(index: int, request_id: str) -> int:
        return int(room.op.SetTableLevel(pb.SetTableLevelRequest(
            table_id="t1", level_index=index, request_id=request_id)).level.big_blind)

    assert set_level(2, "L1") == 50
    assert set_level(1, "L2") == 20 and level_at_dealer(room) == 1
    # L1 delivered again, late: the first answer, and the level stays where L2 put it
    assert set_level(2, "L1") == 50 and level_at_dealer(room) == 1
    code, message = code_of(lambda: set_level(0, "L1"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "L1" in message
    assert level_at_dealer(room) == 1


def test_R9_set_table_level_refusals_and_their_codes(room: Room) -> None:
    room.op.SetTableLevel(pb.SetTableLevelRequest(table_id="t1", level_index=1))
    code, message = code_of(lambda: room.op.SetTableLevel(
        pb.SetTableLevelRequest(table_id="nope", level_index=0)))
    assert code == grpc.StatusCode.NOT_FOUND and "nope" in message
    code, message = code_of(lambda: room.op.SetTableLevel(
        pb.SetTableLevelRequest(table_id="t1", level_index=3)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "0..2" in message
    player = room.op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann",
                                                         display_name="Ann")).token
    code, message = code_of(lambda: Client(room.channel, player).SetTableLevel(
        pb.SetTableLevelRequest(table_id="t1", level_index=0)))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "operator" in message
    code, _ = code_of(lambda: Client(room.channel, None).SetTableLevel(
        pb.SetTableLevelRequest(table_id="t1", level_index=0)))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    assert level_at_dealer(room) == 1  # none of them changed the level
    room.dealer.down.add(D1)
    code, message = code_of(lambda: room.op.SetTableLevel(
        pb.SetTableLevelRequest(table_id="t1", level_index=0)))
    assert code == grpc.StatusCode.UNAVAILABLE and "not set" in message
    room.dealer.down.clear()
    room.op.CloseLobbyTable(pb.CloseLobbyTableRequest(table_id="t1", request_id="c1"))
    code, message = code_of(lambda: room.op.SetTableLevel(
        pb.SetTableLevelRequest(table_id="t1", level_index=0)))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "closed" in message
    assert level_at_dealer(room) == 1
