"""Tournaments in the SDK (RULES.md T1-T9): the TournamentService's answers as typed values,
its calls as values (like `clients.calls`), and what playing one returns.

Every answer is converted once, here, from its `poker.v1` message by `clients.convert`
(field for field, the same names): `Tournament` (GetTournament, and every call that
changes one), `TournamentPage` (ListTournaments), `TournamentEvent` (WatchTournament),
`TournamentSeating` (GetTournamentSeat) and `TournamentFinish` (what playing returns:
place and prize). Enums are `StrEnum`s (`TournamentState.FINISHED`), chips `int`s, an
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

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from clients.calls import Call, new_request_id
from clients.convert import from_proto, to_proto
from poker.v1 import tournament_pb2 as pb
from poker.vocab.enums import AnteForm

__all__ = [
    "CANCELLED", "FINISHED", "PLAYING", "EntryStatus", "PayoutTier", "Tournament",
    "TournamentEvent", "TournamentEventKind", "TournamentFinish", "TournamentLevel",
    "TournamentPage", "TournamentPlayer", "TournamentResult", "TournamentSeat",
    "TournamentSeating", "TournamentState", "TournamentStructure", "TournamentTable",
    "event_of", "get_tournament", "over", "register", "tournament_of", "tournament_seat",
]


# ----------------------------------------------------------------------------- values

class TournamentState(StrEnum):
    """Where a tournament is (poker.v1.TournamentState)."""

    REGISTERING = "registering"
    STARTING = "starting"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntryStatus(StrEnum):
    """Where a player of a tournament is (poker.v1.EntryStatus)."""

    REGISTERED = "registered"
    PLAYING = "playing"
    FINISHED = "finished"


class TournamentEventKind(StrEnum):
    """What a TournamentEvent says (poker.v1.TournamentEventKind)."""

    CREATED = "created"
    REGISTERED = "registered"
    UNREGISTERED = "unregistered"
    STARTED = "started"
    LEVEL_UP = "level_up"
    BREAK = "break"
    MOVED = "moved"
    BUSTED = "busted"
    HAND_FOR_HAND = "hand_for_hand"
    TABLE_BROKEN = "table_broken"
    FINAL_TABLE = "final_table"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    RE_ENTERED = "re_entered"
    SEATED = "seated"


#: A player at a table (TournamentSeating.status).
PLAYING = EntryStatus.PLAYING
#: A player out, with a place (TournamentSeating.status).
FINISHED = EntryStatus.FINISHED
#: A cancelled tournament (its state).
CANCELLED = TournamentState.CANCELLED


@dataclass(frozen=True, slots=True)
class TournamentLevel:
    """One level of the schedule (T1); a break has no blinds. `minutes` may be a fraction."""

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    minutes: float = 0.0
    is_break: bool = False


@dataclass(frozen=True, slots=True)
class PayoutTier:
    """The payout shares (basis points, place 1 first) for fields of `min_entries` or more."""

    min_entries: int = 0
    shares_bp: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentStructure:
    """Everything a tournament announces (T1): see poker.v1.TournamentStructure's comments.
    `CreateTournament` takes it as it is (`to_proto`)."""

    buy_in: int = 0
    fee: int = 0
    starting_stack: int = 0
    levels: tuple[TournamentLevel, ...] = ()
    ante_form: AnteForm | None = None
    late_registration_until_level: int = 0
    max_rebuys: int = 0
    rebuy_until_level: int = 0
    rebuy_chips: int = 0
    rebuy_above_starting_stack: bool = False
    add_on_chips: int = 0
    add_on_price: int = 0
    max_re_entries: int = 0
    table_size: int = 0
    payouts: tuple[PayoutTier, ...] = ()
    start_unix_ms: int = 0
    max_players: int = 0
    min_players: int = 0
    action_time_ms: int = 0
    pay_jumps: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    """A player of a tournament: where they are, their stack, and once out their place
    (the best of `shared` places) and prize."""

    player_id: str = ""
    status: EntryStatus | None = None
    table_id: str = ""
    seat: int = 0
    stack: int = 0
    place: int = 0
    shared: int = 0
    prize: int = 0
    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """A tournament table now, at its dealer."""

    table_id: str = ""
    number: int = 0
    dealer_address: str = ""
    players: int = 0
    final: bool = False
    hands_played: int = 0


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament now (GetTournament): state, level and clock, players, tables, money,
    and the director's counts (hands, moves, chip checks, table-size gaps)."""

    tournament_id: str = ""
    name: str = ""
    structure: TournamentStructure = field(default_factory=TournamentStructure)
    state: TournamentState | None = None
    level_index: int = 0
    level: TournamentLevel | None = None
    level_seconds_left: float = 0.0
    players_left: int = 0
    entries: int = 0
    average_stack: int = 0
    prize_pool: int = 0
    fees: int = 0
    players: tuple[TournamentPlayer, ...] = ()
    tables: tuple[TournamentTable, ...] = ()
    payouts: tuple[int, ...] = ()
    hand_for_hand: bool = False
    started_unix_ms: int = 0
    finished_unix_ms: int = 0
    hands: int = 0
    moves: int = 0
    chips_in_play: int = 0
    chip_checks: int = 0
    chip_errors: tuple[str, ...] = ()
    largest_table_gap: int = 0
    largest_table_gap_balanced: int = 0


@dataclass(frozen=True, slots=True)
class TournamentPage:
    """One page of ListTournaments, and the next page's token ("" on the last)."""

    tournaments: tuple[Tournament, ...] = ()
    next_page_token: str = ""


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    """A player's seat (a started event lists every one)."""

    player_id: str = ""
    table_id: str = ""
    seat: int = 0


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A player's place and prize (a finished event lists every one)."""

    player_id: str = ""
    place: int = 0
    shared: int = 0
    prize: int = 0


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """One thing that happened (WatchTournament); the fields its `kind` speaks of are set
    (a move: table_id/seat -> to_table_id/to_seat, chips, reason)."""

    sequence: int = 0
    time_unix_ms: int = 0
    kind: TournamentEventKind | None = None
    player_id: str = ""
    table_id: str = ""
    seat: int = 0
    to_table_id: str = ""
    to_seat: int = 0
    place: int = 0
    shared: int = 0
    level_index: int = 0
    level: TournamentLevel | None = None
    on: bool = False
    players: int = 0
    tables: int = 0
    chips: int = 0
    seats: tuple[TournamentSeat, ...] = ()
    results: tuple[TournamentResult, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TournamentSeating:
    """Where a player plays now (GetTournamentSeat): table, seat, seat token and dealer
    while playing; place, shared and prize once out."""

    state: TournamentState | None = None
    status: EntryStatus | None = None
    table_id: str = ""
    seat: int = 0
    seat_token: str = ""
    dealer_address: str = ""
    place: int = 0
    shared: int = 0
    prize: int = 0


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
