"""Tournaments in the SDK (RULES.md T1-T9): the TournamentService's answers as typed values,
its calls as values (like `clients.calls`), and what playing one returns.

Every answer is converted once, here, from its `poker.v1` message by `clients.convert`
(field for field, the same names) into its value, GENERATED from tournament.proto in
`clients/tournament_values.py` (clients/derive.py; no value is written out by hand):
`Tournament` (GetTournament, and every call that changes one), `TournamentPage`
(ListTournaments), `TournamentEvent` (WatchTournament), `TournamentSeating`
(GetTournamentSeat); `TournamentFinish` is the SDK's own (what playing returns: place
and prize). Enums are `StrEnum`s (`TournamentState.FINISHED`), chips `int`s, an
unset level `None`. Times are the integers (`start_unix_ms`, `level_seconds_left`, ...)
read from their AIP-142 twins (`start_time`, `level_time_left`, ...) when the server sent
those (poker.timefields, through the mapping), so either form of the wire reads the same.

`AsyncLobbyClient.register(tournament_id)` registers, and
`AsyncLobbyClient.play_tournament(tournament_id, bot)` plays to the end (and
`clients.field.play_field` a whole field of bots, through `clients.farm.BotFarm`): it
asks the lobby where the player sits, plays there until the seat is unseated (moved,
T5, T6), busted or the table closes, asks again and plays on at the new table, and
returns the place and prize once the tournament is over.

>>> from poker.v1 import tournament_pb2 as pb
>>> t = tournament_of(pb.Tournament(tournament_id="t1", state=pb.TOURNAMENT_STATE_RUNNING,
...     level=pb.TournamentLevel(small_blind=10, big_blind=20, minutes=0.5),
...     players=[pb.TournamentPlayer(player_id="ann", status=pb.ENTRY_STATUS_FINISHED,
...                                  place=2, shared=1, prize=300)]))
>>> t.state, t.level, t.players[0].status, t.players[0].prize
(<TournamentState.RUNNING: 'running'>, TournamentLevel(small_blind=10, big_blind=20, \
ante=0, minutes=0.5, is_break=False), <EntryStatus.FINISHED: 'finished'>, 300)
>>> over(t.state), t.structure.table_size
(False, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clients.calls import Call, new_request_id
from clients.convert import from_proto, to_proto
from clients.tournament_values import (
    EntryStatus,
    PayoutTier,
    Tournament,
    TournamentEvent,
    TournamentEventKind,
    TournamentLevel,
    TournamentPage,
    TournamentPlayer,
    TournamentResult,
    TournamentSeat,
    TournamentSeating,
    TournamentState,
    TournamentStructure,
    TournamentTable,
)
from poker.v1 import tournament_pb2 as pb

__all__ = [
    "CANCELLED", "FINISHED", "PLAYING", "EntryStatus", "PayoutTier", "Tournament",
    "TournamentEvent", "TournamentEventKind", "TournamentFinish", "TournamentLevel",
    "TournamentPage", "TournamentPlayer", "TournamentResult", "TournamentSeat",
    "TournamentSeating", "TournamentState", "TournamentStructure", "TournamentTable",
    "event_of", "get_tournament", "over", "register", "tournament_of", "tournament_seat",
]


# ----------------------------------------------------------------------------- values

#: A player at a table (TournamentSeating.status).
PLAYING = EntryStatus.PLAYING
#: A player out, with a place (TournamentSeating.status).
FINISHED = EntryStatus.FINISHED
#: A cancelled tournament (its state).
CANCELLED = TournamentState.CANCELLED


@dataclass(frozen=True, slots=True)
class TournamentFinish:
    """How a player's tournament ended (T8, T2): place (the best of `shared` places),
    prize, and the tables played at, in order (a move starts a new one)."""

    player_id: str
    place: int
    shared: int
    prize: int
    tables: tuple[str, ...] = ()
    cancelled: bool = False


def tournament_of(message: pb.Tournament) -> Tournament:
    """A `poker.v1.Tournament` as a `Tournament`."""
    return from_proto(Tournament, message)


def event_of(message: pb.TournamentEvent) -> TournamentEvent:
    """A `poker.v1.TournamentEvent` as a `TournamentEvent`.

    >>> event_of(pb.TournamentEvent(sequence=9, kind=pb.TOURNAMENT_EVENT_KIND_MOVED,
    ...     player_id="bo", table_id="a", seat=3, to_table_id="b", to_seat=5, chips=800,
    ...     reason="balance"))  # doctest: +ELLIPSIS
    TournamentEvent(sequence=9, time_unix_ms=0, kind=<TournamentEventKind.MOVED: 'moved'>, \
player_id='bo', table_id='a', seat=3, to_table_id='b', to_seat=5, place=0, ..., chips=800, \
seats=(), results=(), reason='balance')
    """
    return from_proto(TournamentEvent, message)


def finish_of(player_id: str, seating: TournamentSeating,
              tables: tuple[str, ...] = ()) -> TournamentFinish:
    """The finish of a player whose tournament is over, from their last seating."""
    return TournamentFinish(player_id, seating.place, seating.shared, seating.prize, tables,
                            seating.state is TournamentState.CANCELLED)


def structure_message(structure: TournamentStructure | pb.TournamentStructure
                      ) -> pb.TournamentStructure:
    """The message of a structure (a `TournamentStructure`, or the message itself).

    >>> from poker.vocab.enums import AnteForm
    >>> s = TournamentStructure(buy_in=100, fee=10, starting_stack=1000, table_size=6,
    ...     levels=(TournamentLevel(10, 20, minutes=2),), ante_form=AnteForm.BIG_BLIND)
    >>> m = structure_message(s)
    >>> m.levels[0].big_blind, m.ante_form  # ANTE_FORM_BIG_BLIND
    (20, 2)
    >>> from_proto(TournamentStructure, m) == s
    True
    """
    if isinstance(structure, pb.TournamentStructure):
        return structure
    return to_proto(structure, pb.TournamentStructure)


# ------------------------------------------------------------------------------ calls

def _tournament(reply: Any) -> Tournament:
    return tournament_of(reply.tournament)


def create(name: str, structure: TournamentStructure | pb.TournamentStructure,
           tournament_id: str, request_id: str | None) -> Call[Tournament]:
    return Call("CreateTournament", pb.CreateTournamentRequest(
        tournament_id=tournament_id, name=name, structure=structure_message(structure),
        request_id=request_id or new_request_id()), _tournament)


def start(tournament_id: str, request_id: str | None) -> Call[Tournament]:
    return Call("StartTournament", pb.StartTournamentRequest(
        tournament_id=tournament_id, request_id=request_id or new_request_id()), _tournament)


def cancel(tournament_id: str, request_id: str | None) -> Call[Tournament]:
    return Call("CancelTournament", pb.CancelTournamentRequest(
        tournament_id=tournament_id, request_id=request_id or new_request_id()), _tournament)


def player_call(method: str, tournament_id: str, player_id: str,
                request_id: str | None) -> Call[Tournament]:
    """RegisterTournament, UnregisterTournament, TournamentRebuy, TournamentAddOn or
    ReEnterTournament: one request id kept across retries."""
    request = getattr(pb, f"{method}Request")(tournament_id=tournament_id, player_id=player_id,
                                             request_id=request_id or new_request_id())
    return Call(method, request, _tournament)


def register(tournament_id: str, player_id: str, request_id: str | None) -> Call[Tournament]:
    return player_call("RegisterTournament", tournament_id, player_id, request_id)


def get_tournament(tournament_id: str) -> Call[Tournament]:
    return Call("GetTournament", pb.GetTournamentRequest(tournament_id=tournament_id),
                _tournament)


def list_tournaments(page_size: int, page_token: str) -> Call[TournamentPage]:
    return Call("ListTournaments", pb.ListTournamentsRequest(page_size=page_size,
                                                             page_token=page_token),
                lambda r: from_proto(TournamentPage, r))


def tournament_seat(tournament_id: str, player_id: str) -> Call[TournamentSeating]:
    return Call("GetTournamentSeat", pb.GetTournamentSeatRequest(
        tournament_id=tournament_id, player_id=player_id),
        lambda r: from_proto(TournamentSeating, r))


def watch(tournament_id: str, after_sequence: int) -> pb.WatchTournamentRequest:
    return pb.WatchTournamentRequest(tournament_id=tournament_id, after_sequence=after_sequence)


def over(state: TournamentState | None) -> bool:
    """Whether a tournament in `state` is over (finished or cancelled)."""
    return state in (TournamentState.FINISHED, TournamentState.CANCELLED)
