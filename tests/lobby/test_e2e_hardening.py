"""The hardening issue's lobby findings over the wire, as they were found: a `poker serve lobby`
process (and a dealer, an evaluator) on SQLite and PostgreSQL for the money findings.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_e2e import Suite, backend_args, evaluator, new_player, open_table, play_until_bust

from poker.limits import MAX_CHIPS
from poker.v1 import lobby_pb2 as pb

pytestmark = pytest.mark.slow
INVALID, FAILED = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION
REUSED = grpc.StatusCode.INVALID_ARGUMENT  # reason REQUEST_ID_REUSED


@pytest.fixture
def suite(tmp_path: Path) -> Iterator[Suite]:
    running = Suite(tmp_path)
    yield running
    running.stop()


def refused(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details() or ""


def audited(op: Any) -> Any:
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0, audit.problems
    return audit


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_findings_2_4_7_money_over_the_wire(suite: Suite, request: pytest.FixtureRequest,
                                            tmp_path: Path, backend: str) -> None:
    dealer = suite.dealer(evaluator(suite), "dealer.sqlite").address
    lobby = suite.lobby([dealer], backend_args(backend, request, tmp_path)).address
    op = suite.lobby_stub(lobby)
    for name in ("ann", "p2", "p3"):
        op.CreatePlayer(pb.CreatePlayerRequest(player_id=name, display_name=name))

    def deposit(amount: int, request_id: str, player_id: str = "ann") -> Any:
        return op.Deposit(pb.DepositRequest(player_id=player_id, amount=amount,
                                            request_id=request_id))

    # 4: amounts no uint64 column holds are the caller's fault, not INTERNAL or UNKNOWN.
    for n, amount in enumerate((2**63 - 1, 2**63, 2**64 - 1)):
        got, message = refused(lambda a=amount, i=n: deposit(a, f"huge-{i}"))
        assert got == INVALID and str(MAX_CHIPS) in message, message
    # 2: up to the maximum, then nothing more; no chip is lost and the audit still answers.
    assert deposit(MAX_CHIPS, "max").player.balance == MAX_CHIPS
    for n, amount in enumerate((1, 1, 1, 1024)):
        got, message = refused(lambda a=amount, i=n: deposit(a, f"more-{i}"))
        assert got == FAILED and "maximum" in message, message
    assert op.Withdraw(pb.WithdrawRequest(player_id="ann", amount=MAX_CHIPS,
                                          request_id="all")).player.balance == 0
    audit = audited(op)
    assert audit.player_balances == 0 and audit.operator_balance == 0

    # 7: a request_id reused with other fields is INVALID_ARGUMENT (REQUEST_ID_REUSED), for
    # every money call.
    deposit(100, "for-p3", "p3")
    got, _ = refused(lambda: deposit(100, "for-p3", "p2"))
    assert got == REUSED
    tokens = {name: new_player(op, name, 1000) for name in ("bob", "cy")}
    players = {name: suite.lobby_stub(lobby, token) for name, token in tokens.items()}
    open_table(op, "t1")
    join = lambda buy_in: players["bob"].JoinTable(pb.JoinTableRequest(  # noqa: E731
        table_id="t1", buy_in=buy_in, request_id="j"))
    bob = join(300)
    got, message = refused(lambda: join(400))
    assert got == REUSED and "other fields" in message
    assert join(300).seat_token == bob.seat_token  # the same request: the same answer
    cy = players["cy"].JoinTable(pb.JoinTableRequest(table_id="t1", buy_in=300,
                                                     request_id="j"))
    seats = {s.seat: suite.dealer_stub(dealer, s.seat_token) for s in (bob, cy)}
    stacks = play_until_bust(seats, "t1")
    loser = players["bob" if stacks[bob.seat] == 0 else "cy"]
    rebuy = lambda amount: loser.Rebuy(pb.RebuyRequest(  # noqa: E731
        table_id="t1", amount=amount, request_id="r"))
    assert rebuy(500).stack == 500
    got, _ = refused(lambda: rebuy(400))
    assert got == REUSED
    assert rebuy(500).amount == 500
    assert (loser.GetPlayer(pb.GetPlayerRequest()).player.balance == 1000 - 300 - 500)
    audited(op)


def test_findings_4_5_6_8_bad_requests_over_the_wire(suite: Suite, tmp_path: Path) -> None:
    dealer = suite.dealer(None, "dealer.sqlite").address
    lobby = suite.lobby([dealer], ["--db", str(tmp_path / "lobby.sqlite")]).address
    op = suite.lobby_stub(lobby)
    new_player(op, "ann", 1000)

    # 5: a 60 MB display name, a 1 MB request_id: refused, quickly and briefly.
    got, message = refused(lambda: op.CreatePlayer(pb.CreatePlayerRequest(
        player_id="big", display_name="x" * 60_000_000), timeout=60))
    assert got == INVALID and "display_name" in message and len(message) < 300
    got, message = refused(lambda: op.Deposit(pb.DepositRequest(
        player_id="ann", amount=5, request_id="r" * 1_000_000)))
    assert got == INVALID and "request_id" in message and len(message) < 300
    assert op.ListTables(pb.ListTablesRequest()).tables == []  # still answers everyone

    # 6: the real status, not RESOURCE_EXHAUSTED from an echoed 1 MB id.
    got, message = refused(lambda: op.GetLobbyTable(pb.GetLobbyTableRequest(
        table_id="i" * 1_000_000)))
    assert got == INVALID and len(message) < 300

    # 4: an enum value the enum does not have; 8: NaN in a float rule.
    for rules, field in ((pb.TableRules(initial_stack=100, late_join=99), "late_join"),
                         (pb.TableRules(initial_stack=100, rebuy_until_minutes=float("nan")),
                          "rebuy_until_minutes"),
                         (pb.TableRules(initial_stack=100, rebuy_wait_seconds=float("-inf")),
                          "rebuy_wait_seconds")):
        got, message = refused(lambda r=rules, f=field: op.OpenTable(pb.OpenTableRequest(
            table_id="t1", request_id=f"o-{f}", rules=r)))
        assert got == INVALID and field in message, message
    assert op.ListTables(pb.ListTablesRequest(include_closed=True)).tables == []
    audited(op)
