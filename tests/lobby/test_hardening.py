"""The hardening issue's lobby findings, on the in-process server (with the in-memory dealer), on
SQLite and PostgreSQL: chips never pass their maximum (2), a bad request is INVALID_ARGUMENT,
never INTERNAL (4), every string and list has a limit (5), errors quote a short prefix (6), a
request_id reused with other fields is INVALID_ARGUMENT (REQUEST_ID_REUSED) (7), and floats
are finite (8).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, code_of, serving

from poker.limits import MAX_CHIPS, MAX_ID_CHARS, MAX_NAME_CHARS, QUOTE_CHARS
from poker.v1 import dealer_pb2
from poker.v1 import lobby_pb2 as pb
from services.lobby import ledger
from services.lobby.dealers import DealerRefused
from services.lobby.errors import InvalidArgument, LimitReached
from services.lobby.ledger import AccountKind
from services.lobby.lobby import Lobby
from services.lobby.rules import TableRules
from services.lobby.storage import PostgresStorage, SqliteStorage, Storage

D1 = "d1:1"
INVALID, FAILED = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION
REUSED = grpc.StatusCode.INVALID_ARGUMENT  # reason REQUEST_ID_REUSED
#: A status message never carries much of what was sent.
SHORT = 400


@pytest.fixture
def lobby(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    room = Lobby(storage, dealer, [D1])
    yield room
    room.stop()


@pytest.fixture
def channel(lobby: Lobby) -> Iterator[grpc.Channel]:
    with serving(lobby) as chan:
        yield chan


@pytest.fixture
def op(channel: grpc.Channel) -> Client:
    return Client(channel, OPERATOR)


def player(op: Client, player_id: str, amount: int = 0) -> str:
    token: str = op.CreatePlayer(pb.CreatePlayerRequest(
        player_id=player_id, display_name=player_id.title())).token
    if amount:
        op.Deposit(pb.DepositRequest(player_id=player_id, amount=amount,
                                     request_id=f"fund-{player_id}"))
    return token


def open_table(op: Client, table_id: str = "t1", **rules: Any) -> pb.LobbyTable:
    table: pb.LobbyTable = op.OpenTable(pb.OpenTableRequest(
        table_id=table_id, request_id=f"open-{table_id}",
        config=dealer_pb2.TableConfig(seats=3, levels=[dealer_pb2.Level(small_blind=5,
                                                                        big_blind=10)]),
        rules=pb.TableRules(**({"min_buy_in": 100, "max_buy_in": 1000, "max_rebuys": -1}
                               | rules)))).table
    return table


def balance(op: Client, player_id: str) -> int:
    got: int = op.GetPlayer(pb.GetPlayerRequest(player_id=player_id)).player.balance
    return got


def audited(op: Client) -> pb.AuditLedgerResponse:
    audit: pb.AuditLedgerResponse = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0, audit.problems
    return audit


# ---------------------------------------------------------------- 2: chips past their maximum

def test_finding2_a_deposit_past_max_chips_is_refused_and_no_chip_is_lost(op: Client) -> None:
    player(op, "ann")
    deposit = lambda amount, rid: op.Deposit(pb.DepositRequest(  # noqa: E731
        player_id="ann", amount=amount, request_id=rid))
    assert deposit(MAX_CHIPS, "big").player.balance == MAX_CHIPS
    for n, amount in enumerate((1, 1, 1, 1024)):
        got, message = code_of(lambda a=amount, i=n: deposit(a, f"more-{i}"))
        assert got == FAILED and f"maximum of {MAX_CHIPS}" in message, message
    assert balance(op, "ann") == MAX_CHIPS
    assert op.Withdraw(pb.WithdrawRequest(player_id="ann", amount=MAX_CHIPS,
                                          request_id="all")).player.balance == 0
    audit = audited(op)
    assert audit.player_balances == 0 and audit.operator_balance == 0
    kinds = [t.kind for t in op.ListTransfers(pb.ListTransfersRequest(player_id="ann")).transfers]
    assert kinds == [pb.TRANSFER_KIND_WITHDRAWAL, pb.TRANSFER_KIND_DEPOSIT]  # nothing else


def test_finding2_a_buy_in_past_a_tables_max_chips_is_refused_whole(op: Client) -> None:
    player(op, "ann", MAX_CHIPS)
    player(op, "bob", 1000)
    open_table(op, min_buy_in=1, max_buy_in=MAX_CHIPS)
    op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=MAX_CHIPS,
                                     request_id="j"))
    got, message = code_of(lambda: op.JoinTable(pb.JoinTableRequest(
        table_id="t1", player_id="bob", buy_in=1, request_id="j2")))
    assert got == FAILED and "table t1" in message and str(MAX_CHIPS) in message
    table = op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table
    assert [s.player_id for s in table.seats] == ["ann"] and table.chips == MAX_CHIPS
    assert balance(op, "bob") == 1000  # nothing half applied: no seat, no debit
    audited(op)


def test_finding2_a_cash_out_past_max_chips_waits_for_room_and_loses_nothing(
        lobby: Lobby, op: Client, channel: grpc.Channel) -> None:
    ann = Client(channel, player(op, "ann", 1000))
    open_table(op)
    ann.JoinTable(pb.JoinTableRequest(table_id="t1", buy_in=500, request_id="j"))
    op.Deposit(pb.DepositRequest(player_id="ann", amount=MAX_CHIPS - 500, request_id="top"))
    got, message = code_of(lambda: ann.LeaveTable(pb.LeaveTableRequest(
        table_id="t1", request_id="l")))
    assert got == FAILED and f"maximum of {MAX_CHIPS}" in message
    assert op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table.chips == 500
    audited(op)
    op.Withdraw(pb.WithdrawRequest(player_id="ann", amount=1000, request_id="w"))
    lobby.recover()
    done = ann.LeaveTable(pb.LeaveTableRequest(table_id="t1", request_id="l"))
    assert done.status == pb.LEAVE_STATUS_DONE and done.stack == 500
    assert done.player.balance == MAX_CHIPS - 1000 + 500
    audited(op)


def test_finding2_the_operators_account_stops_at_its_limit(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    # 2^62 takes 512 players at MAX_CHIPS to reach: the same check, with a smaller bound.
    monkeypatch.setitem(ledger.BOUNDS, AccountKind.OPERATOR, (-1000, 1000))
    for name in ("ann", "bob"):
        lobby.create_player(name, name)
    lobby.deposit("ann", 600, "d1")
    with pytest.raises(LimitReached, match="operator"):
        lobby.deposit("bob", 600, "d2")
    assert lobby.player("bob").balance == 0 and lobby.audit().ok


def test_finding2_racing_deposits_cannot_both_pass_the_maximum(storage: Storage,
                                                                dealer: FakeDealer) -> None:
    second: Storage = (PostgresStorage(storage.dsn) if isinstance(storage, PostgresStorage)
                       else SqliteStorage(storage.path) if isinstance(storage, SqliteStorage)
                       else storage)
    rooms = [Lobby(storage, dealer, [D1]), Lobby(second, dealer, [D1])]
    rooms[0].create_player("ann", "Ann")
    rooms[0].deposit("ann", MAX_CHIPS - 10, "base")
    refused: list[Exception] = []

    def deposit(i: int) -> None:
        try:
            rooms[i % 2].deposit("ann", 10, f"race-{i}")
        except LimitReached as err:
            refused.append(err)

    threads = [threading.Thread(target=deposit, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert rooms[1].player("ann").balance == MAX_CHIPS and len(refused) == 5
    assert rooms[0].audit().ok
    if second is not storage:
        second.close()


# ---------------------------------------------------------------- 4: the caller's fault

@pytest.mark.parametrize("amount", [2**53, 2**63 - 1, 2**63, 2**64 - 1])
def test_finding4_a_deposit_past_max_chips_is_invalid_argument(op: Client, amount: int) -> None:
    player(op, "ann")
    got, message = code_of(lambda: op.Deposit(pb.DepositRequest(
        player_id="ann", amount=amount, request_id="d")))
    assert got == INVALID and "amount" in message and str(MAX_CHIPS) in message
    assert balance(op, "ann") == 0
    audited(op)


@pytest.mark.parametrize("field, value", [
    ("rules.late_join", {"rules": pb.TableRules(initial_stack=100, late_join=99)}),
    ("config.structure", {"config": dealer_pb2.TableConfig(structure=42)}),
    ("config.ante_form", {"config": dealer_pb2.TableConfig(ante_form=-3)}),
])
def test_finding4_an_out_of_range_enum_is_invalid_argument(op: Client, field: str,
                                                           value: dict[str, Any]) -> None:
    request = pb.OpenTableRequest(table_id="t1", request_id="o",
                                  rules=pb.TableRules(initial_stack=100))
    for name, part in value.items():
        getattr(request, name).CopyFrom(part)
    got, message = code_of(lambda: op.OpenTable(request))
    assert got == INVALID and field in message, message
    assert not op.ListTables(pb.ListTablesRequest(include_closed=True)).tables


def test_finding4_amounts_in_rules_and_levels_past_max_chips_are_invalid(op: Client) -> None:
    for rules, config, field in [
        (pb.TableRules(min_buy_in=1, max_buy_in=2**63), None, "max_buy_in"),
        (pb.TableRules(initial_stack=2**64 - 1), None, "initial_stack"),
        (pb.TableRules(initial_stack=100, rebuy_amount=2**60), None, "rebuy_amount"),
        (pb.TableRules(initial_stack=100),
         dealer_pb2.TableConfig(levels=[dealer_pb2.Level(small_blind=2**62, big_blind=2**63)]),
         "config.levels[0].small_blind"),
    ]:
        got, message = code_of(lambda r=rules, c=config, f=field: op.OpenTable(
            pb.OpenTableRequest(table_id="t1", request_id=f"o-{f}", rules=r, config=c)))
        assert got == INVALID and field in message, message
    player(op, "ann", 1000)
    open_table(op)
    for call in (lambda: op.JoinTable(pb.JoinTableRequest(
                     table_id="t1", player_id="ann", buy_in=2**64 - 1, request_id="j")),
                 lambda: op.Rebuy(pb.RebuyRequest(
                     table_id="t1", player_id="ann", amount=2**63, request_id="r")),
                 lambda: op.Withdraw(pb.WithdrawRequest(
                     player_id="ann", amount=2**64 - 1, request_id="w"))):
        got, message = code_of(call)
        assert got == INVALID and str(MAX_CHIPS) in message, message
    got, message = code_of(lambda: op.ListTransfers(pb.ListTransfersRequest(
        player_id="ann", limit=2**32 - 1)))
    assert got == INVALID and "limit" in message


# ---------------------------------------------------------------- 5: length limits

def test_finding5_a_display_name_past_its_limit_is_refused(op: Client) -> None:
    for size in (MAX_NAME_CHARS + 1, 1_000_000):
        got, message = code_of(lambda n=size: op.CreatePlayer(pb.CreatePlayerRequest(
            player_id="ann", display_name="x" * n)))
        assert got == INVALID and "display_name" in message and len(message) < SHORT
    assert op.CreatePlayer(pb.CreatePlayerRequest(
        player_id="ann", display_name="x" * MAX_NAME_CHARS)).player.display_name


def test_finding5_every_id_name_and_request_id_has_a_limit(op: Client,
                                                           channel: grpc.Channel) -> None:
    player(op, "ann", 1000)
    open_table(op)
    long_id = "a" * (MAX_ID_CHARS + 1)
    calls = {
        "player_id": lambda: op.CreatePlayer(pb.CreatePlayerRequest(
            player_id=long_id, display_name="A")),
        "request_id": lambda: op.Deposit(pb.DepositRequest(
            player_id="ann", amount=5, request_id="r" * 1_000_000)),
        "name": lambda: op.OpenTable(pb.OpenTableRequest(
            table_id="t2", name="n" * (MAX_NAME_CHARS + 1), request_id="o2",
            rules=pb.TableRules(initial_stack=100))),
        "table_id": lambda: op.JoinTable(pb.JoinTableRequest(
            table_id=long_id, player_id="ann", buy_in=100, request_id="j")),
        "levels": lambda: op.OpenTable(pb.OpenTableRequest(
            table_id="t3", request_id="o3", rules=pb.TableRules(initial_stack=100),
            config=dealer_pb2.TableConfig(levels=[dealer_pb2.Level(small_blind=1,
                                                                   big_blind=2)] * 1001))),
    }
    for field, call in calls.items():
        got, message = code_of(call)
        assert got == INVALID and field in message and len(message) < SHORT, (field, message)
    assert balance(op, "ann") == 1000
    assert [t.table_id for t in op.ListTables(pb.ListTablesRequest()).tables] == ["t1"]


def test_finding5_a_token_past_its_limit_is_unauthenticated(channel: grpc.Channel) -> None:
    got, message = code_of(lambda: Client(channel, "t" * 5000).ListTables(
        pb.ListTablesRequest()))
    assert got == grpc.StatusCode.UNAUTHENTICATED and "512" in message


# ---------------------------------------------------------------- 6: short error messages

def test_finding6_an_error_quotes_only_a_short_prefix_of_the_input(op: Client) -> None:
    for table_id in ("x" * 1_000_000, "y" * MAX_ID_CHARS):
        got, message = code_of(lambda t=table_id: op.GetLobbyTable(
            pb.GetLobbyTableRequest(table_id=t)))
        assert got in (INVALID, grpc.StatusCode.NOT_FOUND) and len(message) < SHORT, got
        assert table_id[:QUOTE_CHARS] not in message  # cut
    got, message = code_of(lambda: op.CreatePlayer(pb.CreatePlayerRequest(
        player_id="bad id! " * 10, display_name="A")))
    assert got == INVALID and "80 long" in message


def test_finding6_a_long_dealer_message_is_cut(op: Client, dealer: FakeDealer) -> None:
    dealer.refuse_calls["create_table"] = DealerRefused("INVALID_ARGUMENT", "z" * 100_000)
    got, message = code_of(lambda: op.OpenTable(pb.OpenTableRequest(
        table_id="t1", request_id="o", rules=pb.TableRules(initial_stack=100))))
    assert got == INVALID and "refused by the dealer" in message and len(message) < 1200


# ---------------------------------------------------------------- 7: request_id fingerprints

def test_finding7_a_join_reused_with_another_buy_in_is_request_id_reused(op: Client) -> None:
    player(op, "ann", 1000)
    player(op, "bob", 1000)
    open_table(op)
    join = lambda **kw: op.JoinTable(pb.JoinTableRequest(  # noqa: E731
        **({"table_id": "t1", "player_id": "ann", "buy_in": 300, "request_id": "j"} | kw)))
    assert join().buy_in == 300
    assert join().buy_in == 300  # the same request again: the same answer
    for other in ({"buy_in": 400}, {"seat": 2}, {"wait_for_big_blind": True},
                  {"player_id": "bob"}):
        got, message = code_of(lambda o=other: join(**o))
        assert got == REUSED and "'j'" in message and "other fields" in message, (other, message)
    assert balance(op, "ann") == 700 and balance(op, "bob") == 1000
    audited(op)


def test_finding7_a_rebuy_reused_with_another_amount_is_request_id_reused(
        op: Client, dealer: FakeDealer) -> None:
    player(op, "ann", 2000)
    player(op, "bob", 2000)
    open_table(op)
    for name in ("ann", "bob"):
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id=name, buy_in=500,
                                         request_id=f"j-{name}"))
    dealer.play(D1, "t1", {0: -500, 1: 500})
    rebuy = lambda amount: op.Rebuy(pb.RebuyRequest(  # noqa: E731
        table_id="t1", player_id="ann", amount=amount, request_id="r"))
    assert rebuy(500).stack == 500
    got, message = code_of(lambda: rebuy(400))
    assert got == REUSED and "rebuy of 500" in message
    assert balance(op, "ann") == 1000
    audited(op)


def test_finding7_a_deposit_id_reused_for_another_player_is_request_id_reused(op: Client) -> None:
    for name in ("p2", "p3"):
        player(op, name)
    op.Deposit(pb.DepositRequest(player_id="p3", amount=100, request_id="d"))
    got, message = code_of(lambda: op.Deposit(pb.DepositRequest(
        player_id="p2", amount=100, request_id="d")))
    assert got == REUSED and "player p3" in message
    got, _ = code_of(lambda: op.Deposit(pb.DepositRequest(
        player_id="p3", amount=101, request_id="d")))
    assert got == REUSED
    # Another RPC, another namespace: the deposit's id is free for a withdrawal.
    op.Withdraw(pb.WithdrawRequest(player_id="p3", amount=60, request_id="d"))
    got, _ = code_of(lambda: op.Withdraw(pb.WithdrawRequest(
        player_id="p3", amount=40, request_id="d")))
    assert got == REUSED
    assert (balance(op, "p2"), balance(op, "p3")) == (0, 40)
    audited(op)


def test_finding7_the_operators_ids_and_a_players_ids_are_apart(op: Client,
                                                                channel: grpc.Channel) -> None:
    ann = Client(channel, player(op, "ann", 1000))
    player(op, "bob", 1000)
    open_table(op)
    op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="bob", buy_in=200,
                                     request_id="same"))
    got, _ = code_of(lambda: op.JoinTable(pb.JoinTableRequest(  # the operator's id, reused
        table_id="t1", player_id="ann", buy_in=200, request_id="same")))
    assert got == REUSED
    mine = ann.JoinTable(pb.JoinTableRequest(table_id="t1", buy_in=300, request_id="same"))
    assert mine.buy_in == 300 and mine.player.balance == 700  # ann's own id: a new request


def test_finding7_close_leave_and_open_reused_elsewhere_are_request_id_reused(
        op: Client, channel: grpc.Channel) -> None:
    ann = Client(channel, player(op, "ann", 1000))
    open_table(op, "t1")
    open_table(op, "t2")
    got, _ = code_of(lambda: op.OpenTable(pb.OpenTableRequest(
        table_id="t3", request_id="open-t1", rules=pb.TableRules(initial_stack=100))))
    assert got == REUSED
    got, _ = code_of(lambda: op.OpenTable(pb.OpenTableRequest(  # same table, other rules
        table_id="t1", request_id="open-t1", rules=pb.TableRules(initial_stack=100))))
    assert got == REUSED
    for table_id in ("t1", "t2"):
        ann.JoinTable(pb.JoinTableRequest(table_id=table_id, buy_in=100,
                                          request_id=f"j-{table_id}"))
    ann.LeaveTable(pb.LeaveTableRequest(table_id="t1", request_id="l"))
    got, _ = code_of(lambda: ann.LeaveTable(pb.LeaveTableRequest(table_id="t2",
                                                                  request_id="l")))
    assert got == REUSED
    op.CloseLobbyTable(pb.CloseLobbyTableRequest(table_id="t1", request_id="c"))
    got, _ = code_of(lambda: op.CloseLobbyTable(pb.CloseLobbyTableRequest(
        table_id="t2", request_id="c")))
    assert got == REUSED
    got, _ = code_of(lambda: op.CloseLobbyTable(pb.CloseLobbyTableRequest(
        table_id="t1", void_hand_in_progress=True, request_id="c")))
    assert got == REUSED
    assert op.CloseLobbyTable(pb.CloseLobbyTableRequest(
        table_id="t1", request_id="c")).table.status == pb.TABLE_STATUS_CLOSED
    audited(op)


# ---------------------------------------------------------------- 8: floats

@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), -1.0, 1e9])
@pytest.mark.parametrize("field", ["rebuy_until_minutes", "rebuy_wait_seconds"])
def test_finding8_a_float_rule_must_be_finite_and_in_range(op: Client, field: str,
                                                           value: float) -> None:
    got, message = code_of(lambda: op.OpenTable(pb.OpenTableRequest(
        table_id="t1", request_id="o", rules=pb.TableRules(initial_stack=100,
                                                           **{field: value}))))
    assert got == INVALID and field in message, message
    assert not op.ListTables(pb.ListTablesRequest(include_closed=True)).tables


def test_finding8_a_nan_in_the_dealers_config_is_refused_by_the_lobby(op: Client) -> None:
    got, message = code_of(lambda: op.OpenTable(pb.OpenTableRequest(
        table_id="t1", request_id="o", rules=pb.TableRules(initial_stack=100),
        config=dealer_pb2.TableConfig(minutes_per_level=float("nan")))))
    assert got == INVALID and "config.minutes_per_level" in message


def test_finding8_the_rules_refuse_nan_without_a_server() -> None:
    for bad, field in [({"rebuy_until_minutes": float("nan")}, "rebuy_until_minutes"),
                       ({"rebuy_wait_seconds": float("inf")}, "rebuy_wait_seconds"),
                       ({"rebuy_until_minutes": -0.5}, "rebuy_until_minutes"),
                       ({"max_rebuys": -2}, "max_rebuys")]:
        with pytest.raises(InvalidArgument, match=field):
            TableRules(initial_stack=100, **bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="max_buy_in"):
        TableRules(min_buy_in=1, max_buy_in=2**53)


def test_finding5_list_tables_answers_pages_of_at_most_1000(op: Client) -> None:
    for n in range(5):
        open_table(op, f"t{n}")
    op.CloseLobbyTable(pb.CloseLobbyTableRequest(table_id="t1", request_id="c"))
    seen: list[str] = []
    token = ""
    while True:
        page = op.ListTables(pb.ListTablesRequest(page_size=2, page_token=token))
        assert len(page.tables) <= 2
        seen += [t.table_id for t in page.tables]
        token = page.next_page_token
        if not token:
            break
    assert seen == ["t0", "t2", "t3", "t4"]
    everything = op.ListTables(pb.ListTablesRequest(include_closed=True))
    assert len(everything.tables) == 5 and not everything.next_page_token
    for request, field in ((pb.ListTablesRequest(page_size=1001), "page_size"),
                           (pb.ListTablesRequest(page_token="nope"), "page_token"),
                           (pb.ListTablesRequest(page_token="p" * 10_000), "page_token")):
        got, message = code_of(lambda r=request: op.ListTables(r))
        assert got == INVALID and field in message and len(message) < SHORT
