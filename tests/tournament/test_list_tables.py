"""ListTables lists the tournament tables beside the cash tables (LobbyTable.tournament_id),
filters them by tournament, and pages them with the one keyset paging (poker/paging.py);
a database from before `tournament_tables` lists its tournaments' tables too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from poker.v1 import lobby_pb2 as lpb
from poker.v1 import lobby_pb2_grpc, tournament_pb2_grpc
from poker.v1 import table_config_pb2 as cpb
from poker.v1 import tournament_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.rules import TableRules
from services.lobby.storage import Storage
from services.lobby.tournament.director import Director
from tests.tournament.fakes import HandDealer, serve_lobby

OPERATOR = "op-secret"
META = [("authorization", f"Bearer {OPERATOR}")]


class Room:
    def __init__(self, storage: Storage, dealer: HandDealer) -> None:
        self.storage = storage
        self.lobby = Lobby(self.storage, dealer, ["d1"])
        self.director = Director(self.lobby.ctx, ["d1"], rng=random.Random(1))
        self.running, self.channel = serve_lobby(self.lobby, self.director, OPERATOR)
        self.lobby_stub = lobby_pb2_grpc.LobbyServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.tn = tournament_pb2_grpc.TournamentServiceStub(self.channel)  # type: ignore[no-untyped-call]

    def list(self, **kw: Any) -> lpb.ListTablesResponse:
        found: lpb.ListTablesResponse = self.lobby_stub.ListTables(
            lpb.ListTablesRequest(**kw), metadata=META, timeout=10)
        return found

    def close(self) -> None:
        self.channel.close()
        self.running.stop(0)


@pytest.fixture
def dealer() -> HandDealer:
    return HandDealer()


@pytest.fixture
def room(storage: Storage, dealer: HandDealer) -> Iterator[Room]:
    r = Room(storage, dealer)
    try:
        yield r
    finally:
        r.close()


def _tournament(room: Room, tid: str, players: int) -> None:
    room.tn.CreateTournament(pb.CreateTournamentRequest(
        tournament_id=tid, name=f"Sunday {tid}", request_id=f"c-{tid}",
        structure=pb.TournamentStructure(
            buy_in=100, fee=10, starting_stack=1000, table_size=2, max_players=players,
            levels=[pb.TournamentLevel(small_blind=10, big_blind=20, minutes=60)])),
        metadata=META, timeout=10)
    for i in range(players):
        player = f"{tid}-p{i}"
        room.lobby.create_player(player, f"Player {i}")
        room.lobby.deposit(player, 1000, f"d-{player}")
        room.director.register(tid, player, f"r-{player}")
    room.director.tick()  # full: it starts, its tables made


def _cash(room: Room, table_id: str) -> None:
    room.lobby.open_table(f"cash {table_id}", TableRules(min_buy_in=100, max_buy_in=500),
                          {"seats": 2, "levels": [{"smallBlind": 5, "bigBlind": 10}]},
                          f"open-{table_id}", table_id)


def _ids(tables: Any) -> list[tuple[str, str]]:
    return [(t.table_id, t.tournament_id) for t in tables]


def test_T3_list_tables_lists_tournament_tables_filtered_and_paged(room: Room) -> None:
    _cash(room, "cash-1")
    _tournament(room, "tn1", 4)  # two tables of two
    _cash(room, "cash-2")
    _tournament(room, "tn2", 2)  # one table
    listed = room.list().tables
    assert _ids(listed) == [("cash-1", ""), ("tn1-1", "tn1"), ("tn1-2", "tn1"),
                            ("cash-2", ""), ("tn2-1", "tn2")]
    t = room.tn.GetTournament(pb.GetTournamentRequest(tournament_id="tn1"), metadata=META,
                              timeout=10).tournament
    first = next(x for x in listed if x.table_id == "tn1-1")
    seated = {p.player_id: (p.table_id, p.seat, p.stack) for p in t.players}
    assert {s.player_id: ("tn1-1", s.seat) for s in first.seats} == {
        p: (tid, seat) for p, (tid, seat, _) in seated.items() if tid == "tn1-1"}
    assert len(first.seats) == 2 and first.status == lpb.TABLE_STATUS_OPEN
    assert first.chips == 2000 and first.dealer_address == "d1"
    assert first.seats[0].display_name.startswith("Player ")
    assert first.config.seats == 2 and first.config.button_rule == cpb.BUTTON_RULE_DEAD
    assert first.name == "Sunday tn1 table 1"

    # GetLobbyTable answers for a tournament table as ListTables lists it.
    got = room.lobby_stub.GetLobbyTable(lpb.GetLobbyTableRequest(table_id="tn1-1"),
                                        metadata=META, timeout=10).table
    assert got == first and got.tournament_id == "tn1"
    cash = room.lobby_stub.GetLobbyTable(lpb.GetLobbyTableRequest(table_id="cash-1"),
                                         metadata=META, timeout=10).table
    assert cash.tournament_id == "" and cash == next(x for x in listed if x.table_id == "cash-1")
    with pytest.raises(grpc.RpcError) as info:
        room.lobby_stub.GetLobbyTable(lpb.GetLobbyTableRequest(table_id="tn1-9"),
                                      metadata=META, timeout=10)
    assert info.value.code() == grpc.StatusCode.NOT_FOUND

    # The SDK: every table by default, one tournament's with `tournament_id`.
    from clients.sdk import LobbyClient

    with LobbyClient(f"127.0.0.1:{room.running.port}", token=OPERATOR) as sdk:
        assert [(x.table_id, x.tournament_id) for x in sdk.tables()] == _ids(listed)
        assert [x.table_id for x in sdk.tables(tournament_id="tn2")] == ["tn2-1"]
        assert sdk.table("tn1-2").tournament_id == "tn1"

    # One tournament's tables only; an unknown tournament is NOT_FOUND.
    assert _ids(room.list(tournament_id="tn1").tables) == [("tn1-1", "tn1"), ("tn1-2", "tn1")]
    with pytest.raises(grpc.RpcError) as info:
        room.list(tournament_id="nope")
    assert info.value.code() == grpc.StatusCode.NOT_FOUND

    # Paging unchanged: keyset tokens, one table a page, every table once.
    seen, token = [], ""
    while True:
        page = room.list(page_size=1, page_token=token)
        seen += _ids(page.tables)
        token = page.next_page_token
        if not token:
            break
    assert seen == _ids(listed)
    # a table made while paging comes in a later page, none twice
    page = room.list(page_size=2)
    _cash(room, "cash-3")
    rest = room.list(page_token=page.next_page_token)
    assert _ids(page.tables) + _ids(rest.tables) == _ids(listed) + [("cash-3", "")]
    # a token is good only for the query that gave it (the tournament filter is part of it)
    filtered = room.list(tournament_id="tn1", page_size=1)
    with pytest.raises(grpc.RpcError) as info:
        room.list(page_token=filtered.next_page_token)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    # Cancelled: its tables are closed, listed with include_closed only.
    room.tn.CancelTournament(pb.CancelTournamentRequest(tournament_id="tn2",
                                                        request_id="x"), metadata=META,
                             timeout=10)
    assert "tn2-1" not in [t.table_id for t in room.list().tables]
    closed = [t for t in room.list(include_closed=True).tables if t.table_id == "tn2-1"]
    assert closed and closed[0].status == lpb.TABLE_STATUS_CLOSED and not closed[0].seats


def test_T3_list_tables_of_a_database_from_before_tournament_tables(
        storage: Storage, dealer: HandDealer) -> None:
    room = Room(storage, dealer)
    try:
        _tournament(room, "tn1", 4)
    finally:
        room.close()
    # The database as a lobby before `tournament_tables` left it.
    storage.transact(lambda tx: tx.execute("DROP TABLE tournament_tables"))
    room = Room(storage, dealer)  # schema made again, the rows from the documents
    try:
        assert _ids(room.list().tables) == [("tn1-1", "tn1"), ("tn1-2", "tn1")]
        assert all(len(t.seats) == 2 for t in room.list(tournament_id="tn1").tables)
    finally:
        room.close()
