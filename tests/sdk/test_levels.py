"""The operator forces a table's blind level through the SDK (LobbyService.SetTableLevel, R9)."""

from __future__ import annotations

import grpc
import pytest

from clients.errors import ServiceError
from clients.models import Level
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from tests.sdk.conftest import open_table, seated


def test_operator_sets_the_level_of_the_next_hand_R9(suite: LocalSuite,
                                                      operator: LobbyClient) -> None:
    table = open_table(operator, 2, levels=(Level(5, 10), Level(10, 20), Level(25, 50, 5)))
    players = seated(suite, operator, table, 2)
    assert operator.set_table_level(table.table_id, 2) == Level(25, 50, 5)
    assert players[0].table is not None
    assert players[0].table.view().next_level == Level(25, 50, 5)
    with pytest.raises(ServiceError) as out_of_range:
        operator.set_table_level(table.table_id, 3)
    assert out_of_range.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(ServiceError) as unknown:
        operator.set_table_level("no-such-table", 0)
    assert unknown.value.code == grpc.StatusCode.NOT_FOUND
    with pytest.raises(ServiceError) as not_operator:
        players[0].lobby.set_table_level(table.table_id, 0)
    assert not_operator.value.code == grpc.StatusCode.PERMISSION_DENIED


def test_a_repeated_level_request_is_answered_and_sets_nothing_again_R9(
        suite: LocalSuite, operator: LobbyClient) -> None:
    # SDK -> lobby -> dealer: the request id goes all the way, and the dealer remembers it
    table = open_table(operator, 2, levels=(Level(5, 10), Level(10, 20), Level(25, 50, 5)))
    players = seated(suite, operator, table, 2)
    assert players[0].table is not None
    assert operator.set_table_level(table.table_id, 1, request_id="to-level-1") == Level(10, 20)
    assert operator.set_table_level(table.table_id, 2) == Level(25, 50, 5)
    assert operator.set_table_level(table.table_id, 1, request_id="to-level-1") == Level(10, 20)
    assert players[0].table.view().next_level == Level(25, 50, 5)
    with pytest.raises(ServiceError) as reused:
        operator.set_table_level(table.table_id, 0, request_id="to-level-1")
    assert reused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert players[0].table.view().next_level == Level(25, 50, 5)
