import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from poker.v1 import table_config_pb2 as _table_config_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TournamentState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_STATE_UNSPECIFIED: _ClassVar[TournamentState]
    TOURNAMENT_STATE_REGISTERING: _ClassVar[TournamentState]
    TOURNAMENT_STATE_STARTING: _ClassVar[TournamentState]
    TOURNAMENT_STATE_RUNNING: _ClassVar[TournamentState]
    TOURNAMENT_STATE_FINISHED: _ClassVar[TournamentState]
    TOURNAMENT_STATE_CANCELLED: _ClassVar[TournamentState]

class EntryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENTRY_STATUS_UNSPECIFIED: _ClassVar[EntryStatus]
    ENTRY_STATUS_REGISTERED: _ClassVar[EntryStatus]
    ENTRY_STATUS_PLAYING: _ClassVar[EntryStatus]
    ENTRY_STATUS_FINISHED: _ClassVar[EntryStatus]

class TournamentEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_EVENT_KIND_UNSPECIFIED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_CREATED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_REGISTERED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_UNREGISTERED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_STARTED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_LEVEL_UP: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_BREAK: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_MOVED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_BUSTED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_HAND_FOR_HAND: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_TABLE_BROKEN: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_FINAL_TABLE: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_FINISHED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_CANCELLED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_REBUY: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_ADD_ON: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_RE_ENTERED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_SEATED: _ClassVar[TournamentEventKind]
TOURNAMENT_STATE_UNSPECIFIED: TournamentState
TOURNAMENT_STATE_REGISTERING: TournamentState
TOURNAMENT_STATE_STARTING: TournamentState
TOURNAMENT_STATE_RUNNING: TournamentState
TOURNAMENT_STATE_FINISHED: TournamentState
TOURNAMENT_STATE_CANCELLED: TournamentState
ENTRY_STATUS_UNSPECIFIED: EntryStatus
ENTRY_STATUS_REGISTERED: EntryStatus
ENTRY_STATUS_PLAYING: EntryStatus
ENTRY_STATUS_FINISHED: EntryStatus
TOURNAMENT_EVENT_KIND_UNSPECIFIED: TournamentEventKind
TOURNAMENT_EVENT_KIND_CREATED: TournamentEventKind
TOURNAMENT_EVENT_KIND_REGISTERED: TournamentEventKind
TOURNAMENT_EVENT_KIND_UNREGISTERED: TournamentEventKind
TOURNAMENT_EVENT_KIND_STARTED: TournamentEventKind
TOURNAMENT_EVENT_KIND_LEVEL_UP: TournamentEventKind
TOURNAMENT_EVENT_KIND_BREAK: TournamentEventKind
TOURNAMENT_EVENT_KIND_MOVED: TournamentEventKind
TOURNAMENT_EVENT_KIND_BUSTED: TournamentEventKind
TOURNAMENT_EVENT_KIND_HAND_FOR_HAND: TournamentEventKind
TOURNAMENT_EVENT_KIND_TABLE_BROKEN: TournamentEventKind
TOURNAMENT_EVENT_KIND_FINAL_TABLE: TournamentEventKind
TOURNAMENT_EVENT_KIND_FINISHED: TournamentEventKind
TOURNAMENT_EVENT_KIND_CANCELLED: TournamentEventKind
TOURNAMENT_EVENT_KIND_REBUY: TournamentEventKind
TOURNAMENT_EVENT_KIND_ADD_ON: TournamentEventKind
TOURNAMENT_EVENT_KIND_RE_ENTERED: TournamentEventKind
TOURNAMENT_EVENT_KIND_SEATED: TournamentEventKind

class TournamentLevel(_message.Message):
    __slots__ = ("small_blind", "big_blind", "ante", "minutes", "is_break", "duration")
    SMALL_BLIND_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    MINUTES_FIELD_NUMBER: _ClassVar[int]
    IS_BREAK_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    small_blind: int
    big_blind: int
    ante: int
    minutes: float
    is_break: bool
    duration: _duration_pb2.Duration
    def __init__(self, small_blind: _Optional[int] = ..., big_blind: _Optional[int] = ..., ante: _Optional[int] = ..., minutes: _Optional[float] = ..., is_break: _Optional[bool] = ..., duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class PayoutTier(_message.Message):
    __slots__ = ("min_entries", "shares_bp")
    MIN_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    SHARES_BP_FIELD_NUMBER: _ClassVar[int]
    min_entries: int
    shares_bp: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, min_entries: _Optional[int] = ..., shares_bp: _Optional[_Iterable[int]] = ...) -> None: ...

class TournamentStructure(_message.Message):
    __slots__ = ("buy_in", "fee", "starting_stack", "levels", "ante_form", "late_registration_until_level", "max_rebuys", "rebuy_until_level", "rebuy_chips", "rebuy_above_starting_stack", "add_on_chips", "add_on_price", "max_re_entries", "table_size", "payouts", "start_unix_ms", "max_players", "min_players", "action_time_ms", "pay_jumps", "start_time", "action_timeout")
    BUY_IN_FIELD_NUMBER: _ClassVar[int]
    FEE_FIELD_NUMBER: _ClassVar[int]
    STARTING_STACK_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    ANTE_FORM_FIELD_NUMBER: _ClassVar[int]
    LATE_REGISTRATION_UNTIL_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MAX_REBUYS_FIELD_NUMBER: _ClassVar[int]
    REBUY_UNTIL_LEVEL_FIELD_NUMBER: _ClassVar[int]
    REBUY_CHIPS_FIELD_NUMBER: _ClassVar[int]
    REBUY_ABOVE_STARTING_STACK_FIELD_NUMBER: _ClassVar[int]
    ADD_ON_CHIPS_FIELD_NUMBER: _ClassVar[int]
    ADD_ON_PRICE_FIELD_NUMBER: _ClassVar[int]
    MAX_RE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAYOUTS_FIELD_NUMBER: _ClassVar[int]
    START_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ACTION_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    PAY_JUMPS_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    ACTION_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    buy_in: int
    fee: int
    starting_stack: int
    levels: _containers.RepeatedCompositeFieldContainer[TournamentLevel]
    ante_form: _table_config_pb2.AnteForm
    late_registration_until_level: int
    max_rebuys: int
    rebuy_until_level: int
    rebuy_chips: int
    rebuy_above_starting_stack: bool
    add_on_chips: int
    add_on_price: int
    max_re_entries: int
    table_size: int
    payouts: _containers.RepeatedCompositeFieldContainer[PayoutTier]
    start_unix_ms: int
    max_players: int
    min_players: int
    action_time_ms: int
    pay_jumps: _containers.RepeatedScalarFieldContainer[int]
    start_time: _timestamp_pb2.Timestamp
    action_timeout: _duration_pb2.Duration
    def __init__(self, buy_in: _Optional[int] = ..., fee: _Optional[int] = ..., starting_stack: _Optional[int] = ..., levels: _Optional[_Iterable[_Union[TournamentLevel, _Mapping]]] = ..., ante_form: _Optional[_Union[_table_config_pb2.AnteForm, str]] = ..., late_registration_until_level: _Optional[int] = ..., max_rebuys: _Optional[int] = ..., rebuy_until_level: _Optional[int] = ..., rebuy_chips: _Optional[int] = ..., rebuy_above_starting_stack: _Optional[bool] = ..., add_on_chips: _Optional[int] = ..., add_on_price: _Optional[int] = ..., max_re_entries: _Optional[int] = ..., table_size: _Optional[int] = ..., payouts: _Optional[_Iterable[_Union[PayoutTier, _Mapping]]] = ..., start_unix_ms: _Optional[int] = ..., max_players: _Optional[int] = ..., min_players: _Optional[int] = ..., action_time_ms: _Optional[int] = ..., pay_jumps: _Optional[_Iterable[int]] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., action_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class TournamentPlayer(_message.Message):
    __slots__ = ("player_id", "status", "table_id", "seat", "stack", "place", "shared", "prize", "entries", "rebuys", "add_ons")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    PRIZE_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    REBUYS_FIELD_NUMBER: _ClassVar[int]
    ADD_ONS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    status: EntryStatus
    table_id: str
    seat: int
    stack: int
    place: int
    shared: int
    prize: int
    entries: int
    rebuys: int
    add_ons: int
    def __init__(self, player_id: _Optional[str] = ..., status: _Optional[_Union[EntryStatus, str]] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ..., stack: _Optional[int] = ..., place: _Optional[int] = ..., shared: _Optional[int] = ..., prize: _Optional[int] = ..., entries: _Optional[int] = ..., rebuys: _Optional[int] = ..., add_ons: _Optional[int] = ...) -> None: ...

class TournamentTable(_message.Message):
    __slots__ = ("table_id", "number", "dealer_address", "players", "final", "hands_played")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    number: int
    dealer_address: str
    players: int
    final: bool
    hands_played: int
    def __init__(self, table_id: _Optional[str] = ..., number: _Optional[int] = ..., dealer_address: _Optional[str] = ..., players: _Optional[int] = ..., final: _Optional[bool] = ..., hands_played: _Optional[int] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "name", "structure", "state", "level_index", "level", "level_seconds_left", "players_left", "entries", "average_stack", "prize_pool", "fees", "players", "tables", "payouts", "hand_for_hand", "started_unix_ms", "finished_unix_ms", "hands", "moves", "chips_in_play", "chip_checks", "chip_errors", "largest_table_gap", "largest_table_gap_balanced", "level_time_left", "start_time", "end_time")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRUCTURE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_INDEX_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    LEVEL_SECONDS_LEFT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_LEFT_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    AVERAGE_STACK_FIELD_NUMBER: _ClassVar[int]
    PRIZE_POOL_FIELD_NUMBER: _ClassVar[int]
    FEES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    PAYOUTS_FIELD_NUMBER: _ClassVar[int]
    HAND_FOR_HAND_FIELD_NUMBER: _ClassVar[int]
    STARTED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CHIPS_IN_PLAY_FIELD_NUMBER: _ClassVar[int]
    CHIP_CHECKS_FIELD_NUMBER: _ClassVar[int]
    CHIP_ERRORS_FIELD_NUMBER: _ClassVar[int]
    LARGEST_TABLE_GAP_FIELD_NUMBER: _ClassVar[int]
    LARGEST_TABLE_GAP_BALANCED_FIELD_NUMBER: _ClassVar[int]
    LEVEL_TIME_LEFT_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    structure: TournamentStructure
    state: TournamentState
    level_index: int
    level: TournamentLevel
    level_seconds_left: float
    players_left: int
    entries: int
    average_stack: int
    prize_pool: int
    fees: int
    players: _containers.RepeatedCompositeFieldContainer[TournamentPlayer]
    tables: _containers.RepeatedCompositeFieldContainer[TournamentTable]
    payouts: _containers.RepeatedScalarFieldContainer[int]
    hand_for_hand: bool
    started_unix_ms: int
    finished_unix_ms: int
    hands: int
    moves: int
    chips_in_play: int
    chip_checks: int
    chip_errors: _containers.RepeatedScalarFieldContainer[str]
    largest_table_gap: int
    largest_table_gap_balanced: int
    level_time_left: _duration_pb2.Duration
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., structure: _Optional[_Union[TournamentStructure, _Mapping]] = ..., state: _Optional[_Union[TournamentState, str]] = ..., level_index: _Optional[int] = ..., level: _Optional[_Union[TournamentLevel, _Mapping]] = ..., level_seconds_left: _Optional[float] = ..., players_left: _Optional[int] = ..., entries: _Optional[int] = ..., average_stack: _Optional[int] = ..., prize_pool: _Optional[int] = ..., fees: _Optional[int] = ..., players: _Optional[_Iterable[_Union[TournamentPlayer, _Mapping]]] = ..., tables: _Optional[_Iterable[_Union[TournamentTable, _Mapping]]] = ..., payouts: _Optional[_Iterable[int]] = ..., hand_for_hand: _Optional[bool] = ..., started_unix_ms: _Optional[int] = ..., finished_unix_ms: _Optional[int] = ..., hands: _Optional[int] = ..., moves: _Optional[int] = ..., chips_in_play: _Optional[int] = ..., chip_checks: _Optional[int] = ..., chip_errors: _Optional[_Iterable[str]] = ..., largest_table_gap: _Optional[int] = ..., largest_table_gap_balanced: _Optional[int] = ..., level_time_left: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "name", "structure", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRUCTURE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    structure: TournamentStructure
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., structure: _Optional[_Union[TournamentStructure, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class StartTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class StartTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class CancelTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class CancelTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class RegisterTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class RegisterTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class UnregisterTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class UnregisterTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class TournamentRebuyRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class TournamentRebuyResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class TournamentAddOnRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class TournamentAddOnResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ReEnterTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class ReEnterTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "after_sequence")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    after_sequence: int
    def __init__(self, tournament_id: _Optional[str] = ..., after_sequence: _Optional[int] = ...) -> None: ...

class TournamentSeat(_message.Message):
    __slots__ = ("player_id", "table_id", "seat")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    table_id: str
    seat: int
    def __init__(self, player_id: _Optional[str] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class TournamentResult(_message.Message):
    __slots__ = ("player_id", "place", "shared", "prize")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    PRIZE_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    place: int
    shared: int
    prize: int
    def __init__(self, player_id: _Optional[str] = ..., place: _Optional[int] = ..., shared: _Optional[int] = ..., prize: _Optional[int] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("sequence", "time_unix_ms", "kind", "player_id", "table_id", "seat", "to_table_id", "to_seat", "place", "shared", "level_index", "level", "on", "players", "tables", "chips", "seats", "results", "reason", "event_time")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    LEVEL_INDEX_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ON_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    time_unix_ms: int
    kind: TournamentEventKind
    player_id: str
    table_id: str
    seat: int
    to_table_id: str
    to_seat: int
    place: int
    shared: int
    level_index: int
    level: TournamentLevel
    on: bool
    players: int
    tables: int
    chips: int
    seats: _containers.RepeatedCompositeFieldContainer[TournamentSeat]
    results: _containers.RepeatedCompositeFieldContainer[TournamentResult]
    reason: str
    event_time: _timestamp_pb2.Timestamp
    def __init__(self, sequence: _Optional[int] = ..., time_unix_ms: _Optional[int] = ..., kind: _Optional[_Union[TournamentEventKind, str]] = ..., player_id: _Optional[str] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ..., to_table_id: _Optional[str] = ..., to_seat: _Optional[int] = ..., place: _Optional[int] = ..., shared: _Optional[int] = ..., level_index: _Optional[int] = ..., level: _Optional[_Union[TournamentLevel, _Mapping]] = ..., on: _Optional[bool] = ..., players: _Optional[int] = ..., tables: _Optional[int] = ..., chips: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[TournamentSeat, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[TournamentResult, _Mapping]]] = ..., reason: _Optional[str] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[TournamentEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[TournamentEvent, _Mapping]]] = ...) -> None: ...

class GetTournamentSeatRequest(_message.Message):
    __slots__ = ("tournament_id", "player_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class GetTournamentSeatResponse(_message.Message):
    __slots__ = ("state", "status", "table_id", "seat", "seat_token", "dealer_address", "place", "shared", "prize")
    STATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    DEALER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    PRIZE_FIELD_NUMBER: _ClassVar[int]
    state: TournamentState
    status: EntryStatus
    table_id: str
    seat: int
    seat_token: str
    dealer_address: str
    place: int
    shared: int
    prize: int
    def __init__(self, state: _Optional[_Union[TournamentState, str]] = ..., status: _Optional[_Union[EntryStatus, str]] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., dealer_address: _Optional[str] = ..., place: _Optional[int] = ..., shared: _Optional[int] = ..., prize: _Optional[int] = ...) -> None: ...
