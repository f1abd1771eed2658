"""Views that say what they mean (issue 16): LobbyTable.config is the configuration as the
dealer runs it, every default filled in (as CreateTableResponse.config), on SQLite and
PostgreSQL, for a table opened with most fields left to their defaults."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, serving

from poker.v1 import dealer_pb2
from poker.v1 import lobby_pb2 as pb
from services.dealer import views
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


def test_lobby_table_config_has_every_default_filled_in(op: Client) -> None:
    asked = dealer_pb2.TableConfig(seats=3, action_time_ms=12_000)
    opened = op.OpenTable(pb.OpenTableRequest(table_id="t1", request_id="o1", config=asked,
                                              rules=pb.TableRules(initial_stack=500))).table
    got = op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table.config
    listed = op.ListTables(pb.ListTablesRequest()).tables[0].config
    as_dealer = views.config_to_proto(*views.config_from_proto(asked))  # CreateTableResponse's
    assert got == listed == opened.config == as_dealer
    assert (got.seats, got.action_time_ms) == (3, 12_000)  # what was asked, kept
    assert got.show_time_ms == 5_000 and got.fixed_limit_cap == 4  # the defaults, said
    assert got.structure == dealer_pb2.STRUCTURE_NO_LIMIT
    assert got.min_raise_rule != dealer_pb2.MIN_RAISE_RULE_UNSPECIFIED
    assert got.HasField("all_in_exposure") and got.all_in_exposure
    assert got.HasField("pause_between_hands_ms") and got.pause_between_hands_ms == 2_000
    assert [(lv.small_blind, lv.big_blind) for lv in got.levels] == [(50, 100)]
