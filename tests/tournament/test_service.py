"""TournamentService over gRPC (in process, a dealer in memory): who may call what, the
status of every refusal, idempotent money calls, paging, the watch stream resumed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from poker.serving import Service, start
from poker.v1 import lobby_pb2_grpc, tournament_pb2_grpc
from poker.v1 import tournament_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.server import SERVICE_NAME, LobbyServicer
from services.lobby.storage import SqliteStorage
from services.lobby.tournament.director import Director
from services.lobby.tournament.service import SERVICE_NAME as TOURNAMENTS
from services.lobby.tournament.service import TournamentServicer
from tests.tournament.fakes import HandDealer

OPERATOR = "op-secret"


class Stub:
    def __init__(self, channel: grpc.Channel, token: str) -> None:
        self._stub = tournament_pb2_grpc.TournamentServiceStub(channel)  # type: ignore[no-untyped-call]
        self._metadata = [("authorization", f"Bearer {token}")]

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._stub, name)
        return lambda request: method(request, metadata=self._metadata, timeout=10)


@pytest.fixture
def room(tmp_path: Any) -> Iterator[tuple[Stub, dict[str, Stub], Director, HandDealer]]:
    storage = SqliteStorage(str(tmp_path / "lobby.db"))
    dealer = HandDealer()
    lobby = Lobby(storage, dealer, ["d1"])
    director = Director(lobby.ctx, ["d1"], rng=random.Random(1))
    servicer = LobbyServicer(lobby, OPERATOR)
    tournaments = TournamentServicer(director, servicer)
    running = start([Service([SERVICE_NAME, TOURNAMENTS], lambda s: (
        lobby_pb2_grpc.add_LobbyServiceServicer_to_server(servicer, s),
        tournament_pb2_grpc.add_TournamentServiceServicer_to_server(tournaments, s)))],
        "127.0.0.1", 0)
    players = {}
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    for i in range(4):
        _, token = lobby.create_player(f"p{i}", f"P{i}")
        lobby.deposit(f"p{i}", 1000, f"d{i}")
        players[f"p{i}"] = Stub(channel, token)
    try:
        yield Stub(channel, OPERATOR), players, director, dealer
    finally:
        channel.close()
        running.stop(0)
        storage.close()


def _structure(**kw: Any) -> pb.TournamentStructure:
    base: dict[str, Any] = dict(buy_in=100, fee=10, starting_stack=1000, table_size=6,
                                max_players=4, add_on_chips=500, add_on_price=50,
                                levels=[pb.TournamentLevel(small_blind=10, big_blind=20,
                                                           minutes=60)])
    base.update(kw)
    return pb.TournamentStructure(**base)


def _code(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details()


def test_T1_calls_and_refusals_over_grpc(room: Any) -> None:
    op, players, director, dealer = room
    p0 = players["p0"]
    code, _ = _code(lambda: p0.CreateTournament(pb.CreateTournamentRequest(
        name="x", structure=_structure(), request_id="c")))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    code, text = _code(lambda: op.CreateTournament(pb.CreateTournamentRequest(
        name="x", structure=_structure(starting_stack=0), request_id="c0")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "starting_stack" in text
    code, _ = _code(lambda: op.CreateTournament(pb.CreateTournamentRequest(
        name="x", structure=_structure(), request_id="")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    made = op.CreateTournament(pb.CreateTournamentRequest(
        tournament_id="tn1", name="x", structure=_structure(), request_id="c1")).tournament
    assert made.state == pb.TOURNAMENT_STATE_REGISTERING and made.structure.add_on_chips == 500
    again = op.CreateTournament(pb.CreateTournamentRequest(
        tournament_id="tn1", name="x", structure=_structure(), request_id="c1")).tournament
    assert again.tournament_id == "tn1"  # a retry: the same answer
    code, _ = _code(lambda: op.CreateTournament(pb.CreateTournamentRequest(
        tournament_id="tn1", name="other", structure=_structure(), request_id="c1")))
    # the id reused for another request: INVALID_ARGUMENT, REQUEST_ID_REUSED, as every call
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    code, _ = _code(lambda: players["p1"].RegisterTournament(pb.RegisterTournamentRequest(
        tournament_id="tn1", player_id="p0", request_id="r")))
    assert code == grpc.StatusCode.PERMISSION_DENIED  # a player registers only themself
    code, _ = _code(lambda: p0.GetTournament(pb.GetTournamentRequest(tournament_id="nope")))
    assert code == grpc.StatusCode.NOT_FOUND
    for name, stub in players.items():
        t = stub.RegisterTournament(pb.RegisterTournamentRequest(tournament_id="tn1",
                                                                 request_id=f"r-{name}"))
        t = stub.RegisterTournament(pb.RegisterTournamentRequest(
            tournament_id="tn1", request_id=f"r-{name}")).tournament
    assert t.prize_pool == 400 and t.fees == 40 and t.entries == 4
    code, text = _code(lambda: p0.RegisterTournament(pb.RegisterTournamentRequest(
        tournament_id="tn1", request_id="r-again")))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "already registered" in text
    director.tick()  # full: it starts
    seat = p0.GetTournamentSeat(pb.GetTournamentSeatRequest(tournament_id="tn1"))
    assert seat.status == pb.ENTRY_STATUS_PLAYING and seat.seat_token and seat.table_id
    # T1: the add-on at the end of the rebuy period (here level 0), once.
    t = p0.TournamentAddOn(pb.TournamentAddOnRequest(tournament_id="tn1",
                                                     request_id="a1")).tournament
    assert t.prize_pool == 450
    code, text = _code(lambda: p0.TournamentAddOn(pb.TournamentAddOnRequest(
        tournament_id="tn1", request_id="a2")))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "add-on" in text
    code, text = _code(lambda: p0.TournamentRebuy(pb.TournamentRebuyRequest(
        tournament_id="tn1", request_id="rb")))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "no rebuys" in text
    code, _ = _code(lambda: p0.UnregisterTournament(pb.UnregisterTournamentRequest(
        tournament_id="tn1", request_id="u")))
    assert code == grpc.StatusCode.FAILED_PRECONDITION  # only before the start
    director.tick()
    dealer.play_all()
    director.tick()
    t = op.GetTournament(pb.GetTournamentRequest(tournament_id="tn1")).tournament
    assert [p.stack for p in t.players if p.player_id == "p0"] == [1500]
    assert t.chips_in_play == 4500


def test_list_paged_and_watch_resumed(room: Any) -> None:
    op, players, director, dealer = room
    for i in range(3):
        op.CreateTournament(pb.CreateTournamentRequest(
            tournament_id=f"tn{i}", name=f"t{i}", structure=_structure(), request_id=f"c{i}"))
    first = op.ListTournaments(pb.ListTournamentsRequest(page_size=2))
    assert [t.tournament_id for t in first.tournaments] == ["tn0", "tn1"]
    rest = op.ListTournaments(pb.ListTournamentsRequest(page_size=2,
                                                        page_token=first.next_page_token))
    assert [t.tournament_id for t in rest.tournaments] == ["tn2"] and not rest.next_page_token
    code, _ = _code(lambda: op.ListTournaments(pb.ListTournamentsRequest(page_size=5000)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    for name, stub in players.items():
        stub.RegisterTournament(pb.RegisterTournamentRequest(tournament_id="tn0",
                                                             request_id=f"r-{name}"))
    op.CancelTournament(pb.CancelTournamentRequest(tournament_id="tn0", request_id="x"))
    events = [e for r in op._stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id="tn0"), metadata=op._metadata, timeout=10)
        for e in r.events]
    kinds = [pb.TournamentEventKind.Name(e.kind) for e in events]
    assert kinds[0] == "TOURNAMENT_EVENT_KIND_CREATED"
    assert kinds[-1] == "TOURNAMENT_EVENT_KIND_CANCELLED"
    assert kinds.count("TOURNAMENT_EVENT_KIND_REGISTERED") == 4
    tail = [e.sequence for r in op._stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id="tn0", after_sequence=events[2].sequence),
        metadata=op._metadata, timeout=10) for e in r.events]
    assert tail == [e.sequence for e in events[3:]]
