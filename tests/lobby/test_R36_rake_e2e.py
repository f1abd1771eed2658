"""R36 end to end: a lobby, a dealer and an evaluator as processes, two raked tables.

Players are funded and sit at two tables that take a rake (5%, at most 20 chips a
hand); they go all in every hand until one busts (every such hand sees a flop, so
every one is raked); the tables close. Then: the house's rake account holds exactly
the rake the dealer's hand histories took (RakeTaken), chips are conserved
(balances + house rake = deposits - withdrawals), AuditLedger sums to zero and
reports the rake, and RakeReport shows it by table and day, page by page. On
SQLite and on PostgreSQL.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_e2e import (
    Suite,
    backend_args,
    evaluator,
    new_player,
    play_until_bust,
    table_events,
)

from poker.v1 import dealer_pb2 as dpb
from poker.v1 import lobby_pb2 as pb

pytestmark = pytest.mark.slow
RAKE = dpb.Rake(basis_points=500, cap=20)


@pytest.fixture
def suite(tmp_path: Path) -> Iterator[Suite]:
    running = Suite(tmp_path)
    yield running
    running.stop()


def open_raked(op: Any, table_id: str) -> Any:
    config = dpb.TableConfig(seats=2, levels=[dpb.Level(small_blind=5, big_blind=10)],
                             pause_between_hands_ms=0, action_time_ms=5000, rake=RAKE)
    return op.OpenTable(pb.OpenTableRequest(
        table_id=table_id, name=table_id, config=config, request_id=f"open-{table_id}",
        rules=pb.TableRules(min_buy_in=100, max_buy_in=500))).table


def rake_taken(suite: Suite, address: str, table_id: str) -> list[int]:
    events = table_events(suite.dealer_stub(address), table_id,
                          lambda e: e.WhichOneof("event") == "table_closed")
    return [e.rake_taken.amount for e in events if e.HasField("rake_taken")]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_R36_rake_goes_to_the_house_and_every_chip_is_accounted_for(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    dealer = suite.dealer(evaluator(suite), "dealer.sqlite").address
    lobby = suite.lobby([dealer], backend_args(backend, request, tmp_path)).address
    op = suite.lobby_stub(lobby)
    names = ("ann", "bob", "cy", "dan")
    players = {n: suite.lobby_stub(lobby, new_player(op, n, 1000)) for n in names}
    taken: dict[str, list[int]] = {}
    for table_id, pair in (("t1", ("ann", "bob")), ("t2", ("cy", "dan"))):
        table = open_raked(op, table_id)
        assert table.config.rake == RAKE  # the lobby keeps the dealer's rake option
        joined = [players[n].JoinTable(pb.JoinTableRequest(table_id=table_id, buy_in=300,
                                                           request_id="j1")) for n in pair]
        seats = {j.seat: suite.dealer_stub(dealer, j.seat_token) for j in joined}
        stacks = play_until_bust(seats, table_id)
        assert sum(stacks.values()) < 600  # the rake left the players' stacks ...
        held = op.GetLobbyTable(pb.GetLobbyTableRequest(table_id=table_id)).table.chips
        assert held == 600  # ... but not the table's account, until it settles
        op.CloseLobbyTable(pb.CloseLobbyTableRequest(table_id=table_id, request_id=f"c-{table_id}"))
        taken[table_id] = rake_taken(suite, dealer, table_id)
        assert taken[table_id] and all(0 < r <= 20 for r in taken[table_id])
        assert sum(taken[table_id]) == 600 - sum(stacks.values())

    house = sum(sum(r) for r in taken.values())
    balances = sum(op.GetPlayer(pb.GetPlayerRequest(player_id=n)).player.balance for n in names)
    assert balances + house == 4000  # balances + stacks (0, settled) + rake = deposits
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 0
    assert audit.house_rake == house and audit.operator_balance == -4000

    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    first = op.RakeReport(pb.RakeReportRequest(page_size=1))
    assert first.next_page_token
    second = op.RakeReport(pb.RakeReportRequest(page_size=1, page_token=first.next_page_token))
    assert not second.next_page_token
    lines = [(x.table_id, x.day, x.amount) for x in [*first.lines, *second.lines]]
    assert sorted(lines) == [("t1", today, sum(taken["t1"])), ("t2", today, sum(taken["t2"]))]
    assert [(x.table_id, x.amount) for x in op.RakeReport(pb.RakeReportRequest()).lines] == \
        [(t, a) for t, _, a in sorted(lines)]

    bad = dpb.TableConfig(seats=2, rake=dpb.Rake(basis_points=2501))
    with pytest.raises(grpc.RpcError) as refused:
        op.OpenTable(pb.OpenTableRequest(table_id="t3", config=bad, request_id="open-t3",
                                         rules=pb.TableRules(min_buy_in=100, max_buy_in=500)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "R36" in (refused.value.details() or "")
    with pytest.raises(grpc.RpcError) as refused:
        op.RakeReport(pb.RakeReportRequest(page_size=1001))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as refused:
        op.RakeReport(pb.RakeReportRequest(page_token="not-a-token"))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as refused:
        players["ann"].RakeReport(pb.RakeReportRequest())
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
