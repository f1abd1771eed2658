import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from poker.v1 import table_config_pb2 as _table_config_pb2
from poker.v1 import table_view_pb2 as _table_view_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BlindKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BLIND_KIND_UNSPECIFIED: _ClassVar[BlindKind]
    BLIND_KIND_SMALL: _ClassVar[BlindKind]
    BLIND_KIND_BIG: _ClassVar[BlindKind]
    BLIND_KIND_LATE: _ClassVar[BlindKind]
    BLIND_KIND_STRADDLE: _ClassVar[BlindKind]
    BLIND_KIND_DEAD: _ClassVar[BlindKind]

class ShowReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHOW_REASON_UNSPECIFIED: _ClassVar[ShowReason]
    SHOW_REASON_SHOWDOWN: _ClassVar[ShowReason]
    SHOW_REASON_ALL_IN: _ClassVar[ShowReason]

class UnseatReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UNSEAT_REASON_UNSPECIFIED: _ClassVar[UnseatReason]
    UNSEAT_REASON_SIT_OUT_LIMIT: _ClassVar[UnseatReason]

class SitOutReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIT_OUT_REASON_UNSPECIFIED: _ClassVar[SitOutReason]
    SIT_OUT_REASON_REQUESTED: _ClassVar[SitOutReason]
    SIT_OUT_REASON_TIMED_OUT: _ClassVar[SitOutReason]
BLIND_KIND_UNSPECIFIED: BlindKind
BLIND_KIND_SMALL: BlindKind
BLIND_KIND_BIG: BlindKind
BLIND_KIND_LATE: BlindKind
BLIND_KIND_STRADDLE: BlindKind
BLIND_KIND_DEAD: BlindKind
SHOW_REASON_UNSPECIFIED: ShowReason
SHOW_REASON_SHOWDOWN: ShowReason
SHOW_REASON_ALL_IN: ShowReason
UNSEAT_REASON_UNSPECIFIED: UnseatReason
UNSEAT_REASON_SIT_OUT_LIMIT: UnseatReason
SIT_OUT_REASON_UNSPECIFIED: SitOutReason
SIT_OUT_REASON_REQUESTED: SitOutReason
SIT_OUT_REASON_TIMED_OUT: SitOutReason

class TableEvent(_message.Message):
    __slots__ = ("sequence", "time_unix_ms", "hand_id", "hand_started", "ante_posted", "blind_posted", "hole_cards_dealt", "action_taken", "board_dealt", "bet_returned", "cards_shown", "cards_mucked", "pot_awarded", "hand_ended", "deck_revealed", "turn_started", "deck_set", "hand_voided", "turn_timed_out", "player_seated", "player_unseated", "chips_added", "player_sat_out", "player_sat_in", "button_set", "level_set", "table_closed", "seeds_committed", "deal_limit_set", "deck_committed", "deck_seeded", "blind_missed", "sit_out_scheduled", "rake_taken", "straddle_set", "time_bank_used", "run_it_chosen", "second_board_dealt", "hand_salt")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    ANTE_POSTED_FIELD_NUMBER: _ClassVar[int]
    BLIND_POSTED_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    BOARD_DEALT_FIELD_NUMBER: _ClassVar[int]
    BET_RETURNED_FIELD_NUMBER: _ClassVar[int]
    CARDS_SHOWN_FIELD_NUMBER: _ClassVar[int]
    CARDS_MUCKED_FIELD_NUMBER: _ClassVar[int]
    POT_AWARDED_FIELD_NUMBER: _ClassVar[int]
    HAND_ENDED_FIELD_NUMBER: _ClassVar[int]
    DECK_REVEALED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    DECK_SET_FIELD_NUMBER: _ClassVar[int]
    HAND_VOIDED_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SEATED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_UNSEATED_FIELD_NUMBER: _ClassVar[int]
    CHIPS_ADDED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SAT_OUT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SAT_IN_FIELD_NUMBER: _ClassVar[int]
    BUTTON_SET_FIELD_NUMBER: _ClassVar[int]
    LEVEL_SET_FIELD_NUMBER: _ClassVar[int]
    TABLE_CLOSED_FIELD_NUMBER: _ClassVar[int]
    SEEDS_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    DEAL_LIMIT_SET_FIELD_NUMBER: _ClassVar[int]
    DECK_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    DECK_SEEDED_FIELD_NUMBER: _ClassVar[int]
    BLIND_MISSED_FIELD_NUMBER: _ClassVar[int]
    SIT_OUT_SCHEDULED_FIELD_NUMBER: _ClassVar[int]
    RAKE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    STRADDLE_SET_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_USED_FIELD_NUMBER: _ClassVar[int]
    RUN_IT_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    SECOND_BOARD_DEALT_FIELD_NUMBER: _ClassVar[int]
    HAND_SALT_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    time_unix_ms: int
    hand_id: str
    hand_started: HandStarted
    ante_posted: AntePosted
    blind_posted: BlindPosted
    hole_cards_dealt: HoleCardsDealt
    action_taken: ActionTaken
    board_dealt: BoardDealt
    bet_returned: BetReturned
    cards_shown: CardsShown
    cards_mucked: CardsMucked
    pot_awarded: PotAwarded
    hand_ended: HandEnded
    deck_revealed: DeckRevealed
    turn_started: TurnStarted
    deck_set: DeckSet
    hand_voided: HandVoided
    turn_timed_out: TurnTimedOut
    player_seated: PlayerSeated
    player_unseated: PlayerUnseated
    chips_added: ChipsAdded
    player_sat_out: PlayerSatOut
    player_sat_in: PlayerSatIn
    button_set: ButtonSet
    level_set: LevelSet
    table_closed: TableClosed
    seeds_committed: SeedsCommitted
    deal_limit_set: DealLimitSet
    deck_committed: DeckCommitted
    deck_seeded: DeckSeeded
    blind_missed: BlindMissed
    sit_out_scheduled: SitOutScheduled
    rake_taken: RakeTaken
    straddle_set: StraddleSet
    time_bank_used: TimeBankUsed
    run_it_chosen: RunItChosen
    second_board_dealt: SecondBoardDealt
    hand_salt: HandSalt
    def __init__(self, sequence: _Optional[int] = ..., time_unix_ms: _Optional[int] = ..., hand_id: _Optional[str] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., ante_posted: _Optional[_Union[AntePosted, _Mapping]] = ..., blind_posted: _Optional[_Union[BlindPosted, _Mapping]] = ..., hole_cards_dealt: _Optional[_Union[HoleCardsDealt, _Mapping]] = ..., action_taken: _Optional[_Union[ActionTaken, _Mapping]] = ..., board_dealt: _Optional[_Union[BoardDealt, _Mapping]] = ..., bet_returned: _Optional[_Union[BetReturned, _Mapping]] = ..., cards_shown: _Optional[_Union[CardsShown, _Mapping]] = ..., cards_mucked: _Optional[_Union[CardsMucked, _Mapping]] = ..., pot_awarded: _Optional[_Union[PotAwarded, _Mapping]] = ..., hand_ended: _Optional[_Union[HandEnded, _Mapping]] = ..., deck_revealed: _Optional[_Union[DeckRevealed, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., deck_set: _Optional[_Union[DeckSet, _Mapping]] = ..., hand_voided: _Optional[_Union[HandVoided, _Mapping]] = ..., turn_timed_out: _Optional[_Union[TurnTimedOut, _Mapping]] = ..., player_seated: _Optional[_Union[PlayerSeated, _Mapping]] = ..., player_unseated: _Optional[_Union[PlayerUnseated, _Mapping]] = ..., chips_added: _Optional[_Union[ChipsAdded, _Mapping]] = ..., player_sat_out: _Optional[_Union[PlayerSatOut, _Mapping]] = ..., player_sat_in: _Optional[_Union[PlayerSatIn, _Mapping]] = ..., button_set: _Optional[_Union[ButtonSet, _Mapping]] = ..., level_set: _Optional[_Union[LevelSet, _Mapping]] = ..., table_closed: _Optional[_Union[TableClosed, _Mapping]] = ..., seeds_committed: _Optional[_Union[SeedsCommitted, _Mapping]] = ..., deal_limit_set: _Optional[_Union[DealLimitSet, _Mapping]] = ..., deck_committed: _Optional[_Union[DeckCommitted, _Mapping]] = ..., deck_seeded: _Optional[_Union[DeckSeeded, _Mapping]] = ..., blind_missed: _Optional[_Union[BlindMissed, _Mapping]] = ..., sit_out_scheduled: _Optional[_Union[SitOutScheduled, _Mapping]] = ..., rake_taken: _Optional[_Union[RakeTaken, _Mapping]] = ..., straddle_set: _Optional[_Union[StraddleSet, _Mapping]] = ..., time_bank_used: _Optional[_Union[TimeBankUsed, _Mapping]] = ..., run_it_chosen: _Optional[_Union[RunItChosen, _Mapping]] = ..., second_board_dealt: _Optional[_Union[SecondBoardDealt, _Mapping]] = ..., hand_salt: _Optional[_Union[HandSalt, _Mapping]] = ...) -> None: ...

class HandPlayer(_message.Message):
    __slots__ = ("seat", "player_id", "stack", "posts_late", "straddles", "posts_dead_small_blind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    POSTS_LATE_FIELD_NUMBER: _ClassVar[int]
    STRADDLES_FIELD_NUMBER: _ClassVar[int]
    POSTS_DEAD_SMALL_BLIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    posts_late: bool
    straddles: bool
    posts_dead_small_blind: bool
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., posts_late: _Optional[bool] = ..., straddles: _Optional[bool] = ..., posts_dead_small_blind: _Optional[bool] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand_number", "button", "level", "players", "commitment", "test_mode", "small_blind_seat", "big_blind_seat", "button_dead", "config")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    TEST_MODE_FIELD_NUMBER: _ClassVar[int]
    SMALL_BLIND_SEAT_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_SEAT_FIELD_NUMBER: _ClassVar[int]
    BUTTON_DEAD_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    button: int
    level: _table_config_pb2.Level
    players: _containers.RepeatedCompositeFieldContainer[HandPlayer]
    commitment: str
    test_mode: bool
    small_blind_seat: int
    big_blind_seat: int
    button_dead: bool
    config: _table_config_pb2.TableConfig
    def __init__(self, hand_number: _Optional[int] = ..., button: _Optional[int] = ..., level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ..., players: _Optional[_Iterable[_Union[HandPlayer, _Mapping]]] = ..., commitment: _Optional[str] = ..., test_mode: _Optional[bool] = ..., small_blind_seat: _Optional[int] = ..., big_blind_seat: _Optional[int] = ..., button_dead: _Optional[bool] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ...) -> None: ...

class DeckSet(_message.Message):
    __slots__ = ("deck",)
    DECK_FIELD_NUMBER: _ClassVar[int]
    deck: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, deck: _Optional[_Iterable[str]] = ...) -> None: ...

class AntePosted(_message.Message):
    __slots__ = ("seat", "amount", "all_in")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    all_in: bool
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., all_in: _Optional[bool] = ...) -> None: ...

class BlindPosted(_message.Message):
    __slots__ = ("seat", "blind", "amount", "all_in")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    blind: BlindKind
    amount: int
    all_in: bool
    def __init__(self, seat: _Optional[int] = ..., blind: _Optional[_Union[BlindKind, str]] = ..., amount: _Optional[int] = ..., all_in: _Optional[bool] = ...) -> None: ...

class HoleCardsDealt(_message.Message):
    __slots__ = ("seat", "cards", "salts")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

class ActionTaken(_message.Message):
    __slots__ = ("seat", "action", "to", "added", "all_in")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: _table_view_pb2.ActionKind
    to: int
    added: int
    all_in: bool
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[_table_view_pb2.ActionKind, str]] = ..., to: _Optional[int] = ..., added: _Optional[int] = ..., all_in: _Optional[bool] = ...) -> None: ...

class BoardDealt(_message.Message):
    __slots__ = ("street", "cards", "salts")
    STREET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    street: _table_view_pb2.Street
    cards: _containers.RepeatedScalarFieldContainer[str]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, street: _Optional[_Union[_table_view_pb2.Street, str]] = ..., cards: _Optional[_Iterable[str]] = ..., salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

class BetReturned(_message.Message):
    __slots__ = ("seat", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class CardsShown(_message.Message):
    __slots__ = ("seat", "cards", "reason", "salts")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    reason: ShowReason
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., reason: _Optional[_Union[ShowReason, str]] = ..., salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

class CardsMucked(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RakeTaken(_message.Message):
    __slots__ = ("amount", "pots")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    POTS_FIELD_NUMBER: _ClassVar[int]
    amount: int
    pots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, amount: _Optional[int] = ..., pots: _Optional[_Iterable[int]] = ...) -> None: ...

class PotAwarded(_message.Message):
    __slots__ = ("index", "amount", "eligible", "winners", "shares", "run")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SHARES_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    index: int
    amount: int
    eligible: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    shares: _containers.RepeatedScalarFieldContainer[int]
    run: int
    def __init__(self, index: _Optional[int] = ..., amount: _Optional[int] = ..., eligible: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., shares: _Optional[_Iterable[int]] = ..., run: _Optional[int] = ...) -> None: ...

class HandEnded(_message.Message):
    __slots__ = ("stacks",)
    STACKS_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[_table_view_pb2.SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[_table_view_pb2.SeatStack, _Mapping]]] = ...) -> None: ...

class DeckRevealed(_message.Message):
    __slots__ = ("salt", "deck", "commitment", "hashes", "salts", "withheld", "public", "dealt")
    SALT_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    WITHHELD_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    salt: bytes
    deck: _containers.RepeatedScalarFieldContainer[str]
    commitment: str
    hashes: _containers.RepeatedScalarFieldContainer[bytes]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    withheld: bool
    public: _containers.RepeatedScalarFieldContainer[int]
    dealt: _containers.RepeatedCompositeFieldContainer[DealtPositions]
    def __init__(self, salt: _Optional[bytes] = ..., deck: _Optional[_Iterable[str]] = ..., commitment: _Optional[str] = ..., hashes: _Optional[_Iterable[bytes]] = ..., salts: _Optional[_Iterable[bytes]] = ..., withheld: _Optional[bool] = ..., public: _Optional[_Iterable[int]] = ..., dealt: _Optional[_Iterable[_Union[DealtPositions, _Mapping]]] = ...) -> None: ...

class DealtPositions(_message.Message):
    __slots__ = ("seat", "first", "second")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    first: int
    second: int
    def __init__(self, seat: _Optional[int] = ..., first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class HandSalt(_message.Message):
    __slots__ = ("salt", "salts", "deck")
    SALT_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    salt: bytes
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    deck: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, salt: _Optional[bytes] = ..., salts: _Optional[_Iterable[bytes]] = ..., deck: _Optional[_Iterable[str]] = ...) -> None: ...

class SeedsCommitted(_message.Message):
    __slots__ = ("seat", "chain_head")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chain_head: bytes
    def __init__(self, seat: _Optional[int] = ..., chain_head: _Optional[bytes] = ...) -> None: ...

class DeckCommitted(_message.Message):
    __slots__ = ("hand_number", "commitment", "seats", "deadline_unix_ms", "deadline_time")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    commitment: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    deadline_unix_ms: int
    deadline_time: _timestamp_pb2.Timestamp
    def __init__(self, hand_number: _Optional[int] = ..., commitment: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., deadline_unix_ms: _Optional[int] = ..., deadline_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SeatSeed(_message.Message):
    __slots__ = ("seat", "seed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seed: bytes
    def __init__(self, seat: _Optional[int] = ..., seed: _Optional[bytes] = ...) -> None: ...

class DeckSeeded(_message.Message):
    __slots__ = ("seeds", "permutation")
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    PERMUTATION_FIELD_NUMBER: _ClassVar[int]
    seeds: _containers.RepeatedCompositeFieldContainer[SeatSeed]
    permutation: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seeds: _Optional[_Iterable[_Union[SeatSeed, _Mapping]]] = ..., permutation: _Optional[_Iterable[int]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "decision", "action_number", "deadline_unix_ms", "legal_actions", "time_bank_ms", "bank_deadline_unix_ms", "time_bank", "bank_deadline_time")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    BANK_DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decision: _table_view_pb2.Decision
    action_number: int
    deadline_unix_ms: int
    legal_actions: _table_view_pb2.LegalActions
    time_bank_ms: int
    bank_deadline_unix_ms: int
    time_bank: _duration_pb2.Duration
    bank_deadline_time: _timestamp_pb2.Timestamp
    def __init__(self, seat: _Optional[int] = ..., decision: _Optional[_Union[_table_view_pb2.Decision, str]] = ..., action_number: _Optional[int] = ..., deadline_unix_ms: _Optional[int] = ..., legal_actions: _Optional[_Union[_table_view_pb2.LegalActions, _Mapping]] = ..., time_bank_ms: _Optional[int] = ..., bank_deadline_unix_ms: _Optional[int] = ..., time_bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bank_deadline_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TimeBankUsed(_message.Message):
    __slots__ = ("seat", "used_ms", "left_ms", "time_used", "time_left")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    USED_MS_FIELD_NUMBER: _ClassVar[int]
    LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_USED_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    used_ms: int
    left_ms: int
    time_used: _duration_pb2.Duration
    time_left: _duration_pb2.Duration
    def __init__(self, seat: _Optional[int] = ..., used_ms: _Optional[int] = ..., left_ms: _Optional[int] = ..., time_used: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., time_left: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class RunItChosen(_message.Message):
    __slots__ = ("seat", "times")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TIMES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    times: int
    def __init__(self, seat: _Optional[int] = ..., times: _Optional[int] = ...) -> None: ...

class SecondBoardDealt(_message.Message):
    __slots__ = ("street", "cards", "salts")
    STREET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    street: _table_view_pb2.Street
    cards: _containers.RepeatedScalarFieldContainer[str]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, street: _Optional[_Union[_table_view_pb2.Street, str]] = ..., cards: _Optional[_Iterable[str]] = ..., salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

class TurnTimedOut(_message.Message):
    __slots__ = ("seat", "action_number")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action_number: int
    def __init__(self, seat: _Optional[int] = ..., action_number: _Optional[int] = ...) -> None: ...

class HandVoided(_message.Message):
    __slots__ = ("stacks", "reason")
    STACKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[_table_view_pb2.SeatStack]
    reason: str
    def __init__(self, stacks: _Optional[_Iterable[_Union[_table_view_pb2.SeatStack, _Mapping]]] = ..., reason: _Optional[str] = ...) -> None: ...

class PlayerSeated(_message.Message):
    __slots__ = ("seat", "player_id", "stack", "wait_for_big_blind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    WAIT_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    wait_for_big_blind: bool
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., wait_for_big_blind: _Optional[bool] = ...) -> None: ...

class PlayerUnseated(_message.Message):
    __slots__ = ("stack", "reason")
    STACK_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    stack: _table_view_pb2.SeatStack
    reason: UnseatReason
    def __init__(self, stack: _Optional[_Union[_table_view_pb2.SeatStack, _Mapping]] = ..., reason: _Optional[_Union[UnseatReason, str]] = ...) -> None: ...

class ChipsAdded(_message.Message):
    __slots__ = ("seat", "amount", "stack", "idempotency_key")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    stack: int
    idempotency_key: str
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., stack: _Optional[int] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class PlayerSatOut(_message.Message):
    __slots__ = ("seat", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: SitOutReason
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[_Union[SitOutReason, str]] = ...) -> None: ...

class SitOutScheduled(_message.Message):
    __slots__ = ("seat", "after_hand")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AFTER_HAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    after_hand: int
    def __init__(self, seat: _Optional[int] = ..., after_hand: _Optional[int] = ...) -> None: ...

class PlayerSatIn(_message.Message):
    __slots__ = ("seat", "wait_for_big_blind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WAIT_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    wait_for_big_blind: bool
    def __init__(self, seat: _Optional[int] = ..., wait_for_big_blind: _Optional[bool] = ...) -> None: ...

class StraddleSet(_message.Message):
    __slots__ = ("seat", "straddle")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STRADDLE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    straddle: bool
    def __init__(self, seat: _Optional[int] = ..., straddle: _Optional[bool] = ...) -> None: ...

class BlindMissed(_message.Message):
    __slots__ = ("seat", "blind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    blind: BlindKind
    def __init__(self, seat: _Optional[int] = ..., blind: _Optional[_Union[BlindKind, str]] = ...) -> None: ...

class ButtonSet(_message.Message):
    __slots__ = ("seat", "draw")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    seat: int
    draw: _containers.RepeatedCompositeFieldContainer[SeatCard]
    def __init__(self, seat: _Optional[int] = ..., draw: _Optional[_Iterable[_Union[SeatCard, _Mapping]]] = ...) -> None: ...

class SeatCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class LevelSet(_message.Message):
    __slots__ = ("level_index", "level")
    LEVEL_INDEX_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    level_index: int
    level: _table_config_pb2.Level
    def __init__(self, level_index: _Optional[int] = ..., level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ...) -> None: ...

class DealLimitSet(_message.Message):
    __slots__ = ("until_hand", "limited")
    UNTIL_HAND_FIELD_NUMBER: _ClassVar[int]
    LIMITED_FIELD_NUMBER: _ClassVar[int]
    until_hand: int
    limited: bool
    def __init__(self, until_hand: _Optional[int] = ..., limited: _Optional[bool] = ...) -> None: ...

class TableClosed(_message.Message):
    __slots__ = ("stacks",)
    STACKS_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[_table_view_pb2.SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[_table_view_pb2.SeatStack, _Mapping]]] = ...) -> None: ...
