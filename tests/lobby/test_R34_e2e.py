"""R34 end to end, as processes: the dealer takes a seat sat out past the table's limit
off the table and the lobby, following the table's events, credits the stack to the
player's balance. The lobby killed between the dealer's event and its credit, and the
dealer killed (SIGKILL) before the lobby read the event: the chips arrive once."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_e2e import Suite, new_player, wait_for

from poker.v1 import dealer_pb2 as dpb
from poker.v1 import lobby_pb2 as pb
from services.lobby import ledger

pytestmark = pytest.mark.slow


@pytest.fixture
def suite(tmp_path: Path) -> Iterator[Suite]:
    running = Suite(tmp_path)
    yield running
    running.stop()


def _open(op: Any, limit_ms: int) -> None:
    config = dpb.TableConfig(seats=2, levels=[dpb.Level(small_blind=5, big_blind=10)],
                             pause_between_hands_ms=60_000, action_time_ms=60_000,
                             sit_out_limit_ms=limit_ms)
    op.OpenTable(pb.OpenTableRequest(
        table_id="t1", name="t1", config=config, request_id="open-t1",
        rules=pb.TableRules(min_buy_in=100, max_buy_in=500)))


def _sit_out(suite: Suite, dealer: str, token: str, seat: int) -> None:
    suite.dealer_stub(dealer, token).SitOut(dpb.SitOutRequest(table_id="t1", seat=seat))


def _balance(op: Any, player: str) -> int:
    return int(op.GetPlayer(pb.GetPlayerRequest(player_id=player)).player.balance)


def _seated_in_lobby(op: Any) -> list[str]:
    return [s.player_id for s in op.GetLobbyTable(pb.GetLobbyTableRequest(
        table_id="t1")).table.seats]


def _ann_and_bob(op: Any) -> dict[str, Any]:
    joined = {}
    for seat, player in enumerate(("ann", "bob")):
        new_player(op, player, 1000)
        joined[player] = op.JoinTable(pb.JoinTableRequest(
            table_id="t1", player_id=player, buy_in=300, seat=seat, request_id=f"j-{player}"))
    return joined


def test_R34_a_lobby_killed_between_the_event_and_the_credit_credits_once(
        suite: Suite, tmp_path: Path) -> None:
    dealer = suite.dealer(None, "dealer.sqlite").address
    backend = ["--db", str(tmp_path / "lobby.sqlite")]
    first = suite.lobby([dealer], backend, fault="r34_before_credit")
    op = suite.lobby_stub(first.address)
    _open(op, 300)
    joined = _ann_and_bob(op)
    _sit_out(suite, dealer, joined["ann"].seat_token, joined["ann"].seat)
    assert first.popen.wait(20) == 17  # the lobby followed the event and died before crediting
    assert _balance_of_db(tmp_path, "ann") == 700
    op = suite.lobby_stub(suite.lobby([dealer], backend).address)
    wait_for(lambda: _balance(op, "ann") == 1000, 20, "ann's stack back on her balance")
    assert _seated_in_lobby(op) == ["bob"]
    time.sleep(2.5)  # another follow pass: nothing credited twice
    assert _balance(op, "ann") == 1000 and _balance(op, "bob") == 700
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 300


def _balance_of_db(tmp_path: Path, player: str) -> int:
    """A balance read from the dead lobby's database."""
    with sqlite3.connect(tmp_path / "lobby.sqlite") as db:
        row = db.execute("SELECT balance FROM accounts WHERE id = ?",
                         (ledger.player_account(player),)).fetchone()
    return int(row[0])


def test_R34_a_dealer_killed_after_its_event_is_followed_when_it_is_back(
        suite: Suite, tmp_path: Path) -> None:
    first = suite.dealer(None, "dealer.sqlite")
    dealer = first.address
    port = int(dealer.rsplit(":", 1)[1])
    backend = ["--db", str(tmp_path / "lobby.sqlite")]
    lobby = suite.lobby([dealer], backend)
    op = suite.lobby_stub(lobby.address)
    _open(op, 400)
    joined = _ann_and_bob(op)
    lobby.kill()  # the lobby is down when the dealer acts ...
    _sit_out(suite, dealer, joined["bob"].seat_token, joined["bob"].seat)
    watch = suite.dealer_stub(dealer).GetTable

    def gone() -> bool:
        return "bob" not in {s.player_id for s in watch(dpb.GetTableRequest(
            table_id="t1")).table.seats}

    wait_for(gone, 10, "the dealer taking bob off")
    first.kill()  # ... and the dealer dies (SIGKILL) before the lobby read it
    op = suite.lobby_stub(suite.lobby([dealer], backend).address)
    time.sleep(2.5)  # a follow pass with the dealer down
    assert _balance(op, "bob") == 700  # nothing credited while the dealer is down
    suite.dealer(None, "dealer.sqlite", port=port)  # back, on its store
    wait_for(lambda: _balance(op, "bob") == 1000, 30, "bob's stack back on his balance")
    assert _seated_in_lobby(op) == ["ann"]
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 300
