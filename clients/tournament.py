"""Tournaments in the SDK (RULES.md T1-T9): the TournamentService calls as values (like
`clients.calls`), what `play_tournament` returns, and a field of bots (`play_field`).

Tournament answers are the `poker.v1` messages themselves (`Tournament`,
`GetTournamentSeatResponse`, `TournamentEvent`): read them by field name. Their times
come both ways (AIP-142): `start_time`, `level_time_left`, ... and the deprecated integers
(`started_unix_ms`, `level_seconds_left`, ...), which the SDK sets from the typed fields
when a server sent those (`poker.timefields.from_typed`), so either reads the same.
`AsyncLobbyClient.register(tournament_id)` registers, and
`AsyncLobbyClient.play_tournament(tournament_id, bot)` plays to the end (and
`clients.farm.play_field` a whole field of bots): it asks the
lobby where the player sits, plays there until the seat is unseated (moved, T5, T6),
busted or the table closes, asks again and plays on at the new table, and returns the
place and prize once the tournament is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clients.calls import Call, new_request_id
from poker import timefields
from poker.v1 import tournament_pb2 as pb

__all__ = ["CANCELLED", "FINISHED", "PLAYING", "TournamentFinish", "get_tournament", "register",
           "tournament_seat"]

#: A player at a table (GetTournamentSeatResponse.status).
PLAYING = pb.ENTRY_STATUS_PLAYING
#: A player out, with a place (GetTournamentSeatResponse.status).
FINISHED = pb.ENTRY_STATUS_FINISHED
#: A cancelled tournament (its state).
CANCELLED = pb.TOURNAMENT_STATE_CANCELLED


@dataclass
class TournamentFinish:
    """How a player's tournament ended (T8, T2): place (the best of `shared` places),
    prize, and the tables played at, in order (a move starts a new one)."""

    player_id: str
    place: int
    shared: int
    prize: int
    tables: list[str] = field(default_factory=list)
    cancelled: bool = False


def _tournament(reply: Any) -> pb.Tournament:
    found: pb.Tournament = reply.tournament
    timefields.from_typed(found)  # AIP-142: the typed times win; the ints stay readable
    return found


def _tournaments(reply: Any) -> tuple[list[pb.Tournament], str]:
    found = list(reply.tournaments)
    for t in found:
        timefields.from_typed(t)
    return found, str(reply.next_page_token)


def create(name: str, structure: pb.TournamentStructure, tournament_id: str,
           request_id: str | None) -> Call[pb.Tournament]:
    return Call("CreateTournament", pb.CreateTournamentRequest(
        tournament_id=tournament_id, name=name, structure=structure,
        request_id=request_id or new_request_id()), _tournament)


def start(tournament_id: str, request_id: str | None) -> Call[pb.Tournament]:
    return Call("StartTournament", pb.StartTournamentRequest(
        tournament_id=tournament_id, request_id=request_id or new_request_id()), _tournament)


def cancel(tournament_id: str, request_id: str | None) -> Call[pb.Tournament]:
    return Call("CancelTournament", pb.CancelTournamentRequest(
        tournament_id=tournament_id, request_id=request_id or new_request_id()), _tournament)


def player_call(method: str, tournament_id: str, player_id: str,
                request_id: str | None) -> Call[pb.Tournament]:
    """RegisterTournament, UnregisterTournament, TournamentRebuy, TournamentAddOn or
    ReEnterTournament: one request id kept across retries."""
    request = getattr(pb, f"{method}Request")(tournament_id=tournament_id, player_id=player_id,
                                             request_id=request_id or new_request_id())
    return Call(method, request, _tournament)


def register(tournament_id: str, player_id: str, request_id: str | None) -> Call[pb.Tournament]:
    return player_call("RegisterTournament", tournament_id, player_id, request_id)


def get_tournament(tournament_id: str) -> Call[pb.Tournament]:
    return Call("GetTournament", pb.GetTournamentRequest(tournament_id=tournament_id),
                _tournament)


def list_tournaments(page_size: int, page_token: str
                     ) -> Call[tuple[list[pb.Tournament], str]]:
    return Call("ListTournaments", pb.ListTournamentsRequest(page_size=page_size,
                                                             page_token=page_token),
                _tournaments)


def tournament_seat(tournament_id: str, player_id: str
                    ) -> Call[pb.GetTournamentSeatResponse]:
    return Call("GetTournamentSeat", pb.GetTournamentSeatRequest(
        tournament_id=tournament_id, player_id=player_id), lambda r: r)


def over(state: int) -> bool:
    return state in (pb.TOURNAMENT_STATE_FINISHED, pb.TOURNAMENT_STATE_CANCELLED)
