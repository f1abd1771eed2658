"""LobbyService over gRPC (in process, with the in-memory dealer): who may call what, and each bad
request answered with the right status code and a message a person can act on.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, code_of, serving

from poker.v1 import dealer_pb2
from poker.v1 import lobby_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.storage import SqliteStorage


@pytest.fixture
def channel(tmp_path: Path) -> Iterator[grpc.Channel]:
    lobby = Lobby(SqliteStorage(str(tmp_path / "lobby.db")), FakeDealer(), ["d1:1"])
    with serving(lobby) as chan:
        yield chan


@pytest.fixture
def op(channel: grpc.Channel) -> Client:
    return Client(channel, OPERATOR)


def table_request(**rules: Any) -> pb.OpenTableRequest:
    return pb.OpenTableRequest(
        table_id="t1", name="Main", request_id="open-t1",
        config=dealer_pb2.TableConfig(seats=2, levels=[dealer_pb2.Level(small_blind=5,
                                                                        big_blind=10)]),
        rules=pb.TableRules(**({"min_buy_in": 100, "max_buy_in": 500} | rules)))


def test_operator_creates_funds_and_opens(op: Client) -> None:
    created = op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="Ann"))
    assert created.token and created.player.balance == 0
    assert op.Deposit(pb.DepositRequest(player_id="ann", amount=700,
                                        request_id="d1")).player.balance == 700
    table = op.OpenTable(table_request()).table
    assert table.status == pb.TABLE_STATUS_OPEN and table.dealer_address == "d1:1"
    assert table.config.seats == 2 and table.config.levels[0].big_blind == 10
    assert table.rules.max_buy_in == 500
    assert table.rules.rebuy_wait_seconds == 60  # R30's wait, unset: the default
    listed = op.ListTables(pb.ListTablesRequest()).tables
    assert [t.table_id for t in listed] == ["t1"]
    t2 = op.OpenTable(pb.OpenTableRequest(
        table_id="t2", request_id="open-t2", rules=pb.TableRules(
            initial_stack=100, rebuy_wait_seconds=0))).table
    assert t2.rules.HasField("rebuy_wait_seconds") and t2.rules.rebuy_wait_seconds == 0
    got, message = code_of(lambda: op.OpenTable(pb.OpenTableRequest(
        table_id="t3", request_id="open-t3",
        rules=pb.TableRules(initial_stack=100, rebuy_wait_seconds=-1))))
    assert got == grpc.StatusCode.INVALID_ARGUMENT and "rebuy_wait_seconds" in message


def test_players_act_only_on_their_own_money(channel: grpc.Channel, op: Client) -> None:
    ann = Client(channel, op.CreatePlayer(pb.CreatePlayerRequest(
        player_id="ann", display_name="Ann")).token)
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="bob", display_name="Bob"))
    op.Deposit(pb.DepositRequest(player_id="ann", amount=700, request_id="d1"))
    op.Deposit(pb.DepositRequest(player_id="bob", amount=700, request_id="d2"))
    op.OpenTable(table_request())
    assert ann.GetPlayer(pb.GetPlayerRequest()).player.balance == 700
    code, message = code_of(lambda: ann.GetPlayer(pb.GetPlayerRequest(player_id="bob")))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "own money" in message
    code, _ = code_of(lambda: ann.JoinTable(pb.JoinTableRequest(
        table_id="t1", player_id="bob", buy_in=100, request_id="j")))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    code, message = code_of(lambda: ann.Deposit(pb.DepositRequest(
        player_id="ann", amount=5, request_id="x")))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "operator" in message
    joined = ann.JoinTable(pb.JoinTableRequest(table_id="t1", buy_in=200, request_id="j1"))
    assert joined.seat_token and joined.player.balance == 500 and joined.dealer_address == "d1:1"
    kinds = [t.kind for t in ann.ListTransfers(pb.ListTransfersRequest()).transfers]
    assert kinds == [pb.TRANSFER_KIND_BUY_IN, pb.TRANSFER_KIND_DEPOSIT]


def test_unknown_or_missing_tokens_are_unauthenticated(channel: grpc.Channel) -> None:
    for token in (None, "nonsense"):
        code, _ = code_of(lambda t=token: Client(channel, t).ListTables(pb.ListTablesRequest()))
        assert code == grpc.StatusCode.UNAUTHENTICATED


def test_bad_requests_get_the_right_status(channel: grpc.Channel, op: Client) -> None:
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="Ann"))
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="bob", display_name="Bob"))
    op.Deposit(pb.DepositRequest(player_id="ann", amount=700, request_id="d1"))
    op.Deposit(pb.DepositRequest(player_id="bob", amount=50, request_id="d2"))
    op.OpenTable(table_request(max_rebuys=0))

    def join(player: str, buy_in: int, seat: int | None = None, table: str = "t1") -> Any:
        return lambda: op.JoinTable(pb.JoinTableRequest(
            table_id=table, player_id=player, buy_in=buy_in, seat=seat,
            request_id=f"{player}-{buy_in}-{seat}-{table}"))

    cases = [
        (join("ann", 50), grpc.StatusCode.INVALID_ARGUMENT, "outside this table's range"),
        (join("bob", 100), grpc.StatusCode.FAILED_PRECONDITION, "needs 50 more"),
        (join("zed", 100), grpc.StatusCode.NOT_FOUND, "no player 'zed'"),
        (join("ann", 100, table="t9"), grpc.StatusCode.NOT_FOUND, "no table 't9'"),
        (lambda: op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="A")),
         grpc.StatusCode.ALREADY_EXISTS, "already exists"),
        (lambda: op.OpenTable(table_request(initial_stack=100)),
         grpc.StatusCode.INVALID_ARGUMENT, "either initial_stack or"),
    ]
    for call, code, text in cases:
        got, message = code_of(call)
        assert got == code and text in message, (got, message)
    join("ann", 100, seat=1)()
    op.Deposit(pb.DepositRequest(player_id="bob", amount=500, request_id="d3"))
    got, message = code_of(join("bob", 100, seat=1))
    assert got == grpc.StatusCode.FAILED_PRECONDITION and "seat 1 is taken" in message
    join("bob", 100)()
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="cy", display_name="Cy"))
    op.Deposit(pb.DepositRequest(player_id="cy", amount=500, request_id="d4"))
    got, message = code_of(join("cy", 100))
    assert got == grpc.StatusCode.FAILED_PRECONDITION and "full" in message
    got, message = code_of(lambda: op.Rebuy(pb.RebuyRequest(
        table_id="t1", player_id="ann", amount=100, request_id="r1")))
    assert got == grpc.StatusCode.FAILED_PRECONDITION and "no rebuys" in message
    draw = op.GetButtonDraw(pb.GetButtonDrawRequest(table_id="t1")).draw
    assert [c.seat for c in draw.cards] == [0, 1] and draw.button in (0, 1)
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 200
    assert audit.player_balances + audit.table_chips == -audit.operator_balance == 1750
