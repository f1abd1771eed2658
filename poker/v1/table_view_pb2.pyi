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

class Street(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STREET_UNSPECIFIED: _ClassVar[Street]
    STREET_PREFLOP: _ClassVar[Street]
    STREET_FLOP: _ClassVar[Street]
    STREET_TURN: _ClassVar[Street]
    STREET_RIVER: _ClassVar[Street]
    STREET_SHOWDOWN: _ClassVar[Street]
    STREET_COMPLETE: _ClassVar[Street]

class Decision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[Decision]
    DECISION_BET: _ClassVar[Decision]
    DECISION_SHOW_OR_MUCK: _ClassVar[Decision]
    DECISION_RUN_IT: _ClassVar[Decision]

class ActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_KIND_UNSPECIFIED: _ClassVar[ActionKind]
    ACTION_KIND_FOLD: _ClassVar[ActionKind]
    ACTION_KIND_CHECK: _ClassVar[ActionKind]
    ACTION_KIND_CALL: _ClassVar[ActionKind]
    ACTION_KIND_BET: _ClassVar[ActionKind]
    ACTION_KIND_RAISE: _ClassVar[ActionKind]
    ACTION_KIND_ALL_IN: _ClassVar[ActionKind]
    ACTION_KIND_SHOW: _ClassVar[ActionKind]
    ACTION_KIND_MUCK: _ClassVar[ActionKind]
    ACTION_KIND_RUN_IT: _ClassVar[ActionKind]
STREET_UNSPECIFIED: Street
STREET_PREFLOP: Street
STREET_FLOP: Street
STREET_TURN: Street
STREET_RIVER: Street
STREET_SHOWDOWN: Street
STREET_COMPLETE: Street
DECISION_UNSPECIFIED: Decision
DECISION_BET: Decision
DECISION_SHOW_OR_MUCK: Decision
DECISION_RUN_IT: Decision
ACTION_KIND_UNSPECIFIED: ActionKind
ACTION_KIND_FOLD: ActionKind
ACTION_KIND_CHECK: ActionKind
ACTION_KIND_CALL: ActionKind
ACTION_KIND_BET: ActionKind
ACTION_KIND_RAISE: ActionKind
ACTION_KIND_ALL_IN: ActionKind
ACTION_KIND_SHOW: ActionKind
ACTION_KIND_MUCK: ActionKind
ACTION_KIND_RUN_IT: ActionKind

class SeatStack(_message.Message):
    __slots__ = ("seat", "player_id", "stack")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ...) -> None: ...

class LegalActions(_message.Message):
    __slots__ = ("seat", "decision", "can_fold", "can_check", "can_call", "call_amount", "bet_kind", "min_to", "max_to", "can_show", "can_muck", "can_all_in", "all_in_to")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CAN_FOLD_FIELD_NUMBER: _ClassVar[int]
    CAN_CHECK_FIELD_NUMBER: _ClassVar[int]
    CAN_CALL_FIELD_NUMBER: _ClassVar[int]
    CALL_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    BET_KIND_FIELD_NUMBER: _ClassVar[int]
    MIN_TO_FIELD_NUMBER: _ClassVar[int]
    MAX_TO_FIELD_NUMBER: _ClassVar[int]
    CAN_SHOW_FIELD_NUMBER: _ClassVar[int]
    CAN_MUCK_FIELD_NUMBER: _ClassVar[int]
    CAN_ALL_IN_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_TO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decision: Decision
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int
    bet_kind: ActionKind
    min_to: int
    max_to: int
    can_show: bool
    can_muck: bool
    can_all_in: bool
    all_in_to: int
    def __init__(self, seat: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., can_fold: _Optional[bool] = ..., can_check: _Optional[bool] = ..., can_call: _Optional[bool] = ..., call_amount: _Optional[int] = ..., bet_kind: _Optional[_Union[ActionKind, str]] = ..., min_to: _Optional[int] = ..., max_to: _Optional[int] = ..., can_show: _Optional[bool] = ..., can_muck: _Optional[bool] = ..., can_all_in: _Optional[bool] = ..., all_in_to: _Optional[int] = ...) -> None: ...

class Pot(_message.Message):
    __slots__ = ("amount", "eligible")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    amount: int
    eligible: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, amount: _Optional[int] = ..., eligible: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "player_id", "stack", "bet", "sitting_out", "in_hand", "folded", "all_in", "hole_cards", "waiting_for_big_blind", "hole_card_salts", "sits_out_after_hand", "time_bank_ms", "time_bank", "owed_blinds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    SITTING_OUT_FIELD_NUMBER: _ClassVar[int]
    IN_HAND_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    WAITING_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARD_SALTS_FIELD_NUMBER: _ClassVar[int]
    SITS_OUT_AFTER_HAND_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    OWED_BLINDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    bet: int
    sitting_out: bool
    in_hand: bool
    folded: bool
    all_in: bool
    hole_cards: _containers.RepeatedScalarFieldContainer[str]
    waiting_for_big_blind: bool
    hole_card_salts: _containers.RepeatedScalarFieldContainer[bytes]
    sits_out_after_hand: int
    time_bank_ms: int
    time_bank: _duration_pb2.Duration
    owed_blinds: OwedBlinds
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., bet: _Optional[int] = ..., sitting_out: _Optional[bool] = ..., in_hand: _Optional[bool] = ..., folded: _Optional[bool] = ..., all_in: _Optional[bool] = ..., hole_cards: _Optional[_Iterable[str]] = ..., waiting_for_big_blind: _Optional[bool] = ..., hole_card_salts: _Optional[_Iterable[bytes]] = ..., sits_out_after_hand: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., time_bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., owed_blinds: _Optional[_Union[OwedBlinds, _Mapping]] = ...) -> None: ...

class OwedBlinds(_message.Message):
    __slots__ = ("big_blind", "small_blind", "joined_late", "waits_for_big_blind", "posts_big_blind_next_hand", "posts_dead_small_blind_next_hand", "big_blind_next_hand", "waits_next_hand")
    BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    SMALL_BLIND_FIELD_NUMBER: _ClassVar[int]
    JOINED_LATE_FIELD_NUMBER: _ClassVar[int]
    WAITS_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    POSTS_BIG_BLIND_NEXT_HAND_FIELD_NUMBER: _ClassVar[int]
    POSTS_DEAD_SMALL_BLIND_NEXT_HAND_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_NEXT_HAND_FIELD_NUMBER: _ClassVar[int]
    WAITS_NEXT_HAND_FIELD_NUMBER: _ClassVar[int]
    big_blind: bool
    small_blind: bool
    joined_late: bool
    waits_for_big_blind: bool
    posts_big_blind_next_hand: bool
    posts_dead_small_blind_next_hand: bool
    big_blind_next_hand: bool
    waits_next_hand: bool
    def __init__(self, big_blind: _Optional[bool] = ..., small_blind: _Optional[bool] = ..., joined_late: _Optional[bool] = ..., waits_for_big_blind: _Optional[bool] = ..., posts_big_blind_next_hand: _Optional[bool] = ..., posts_dead_small_blind_next_hand: _Optional[bool] = ..., big_blind_next_hand: _Optional[bool] = ..., waits_next_hand: _Optional[bool] = ...) -> None: ...

class HandView(_message.Message):
    __slots__ = ("hand_id", "hand_number", "street", "board", "pots", "actor", "decision", "action_number", "deadline_unix_ms", "legal_actions", "commitment", "test_mode", "button", "level", "board_salts", "deck_permutation", "time_bank_ms", "bank_deadline_unix_ms", "time_bank", "bank_deadline_time")
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    STREET_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    POTS_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    TEST_MODE_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BOARD_SALTS_FIELD_NUMBER: _ClassVar[int]
    DECK_PERMUTATION_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    BANK_DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
    hand_id: str
    hand_number: int
    street: Street
    board: _containers.RepeatedScalarFieldContainer[str]
    pots: _containers.RepeatedCompositeFieldContainer[Pot]
    actor: int
    decision: Decision
    action_number: int
    deadline_unix_ms: int
    legal_actions: LegalActions
    commitment: str
    test_mode: bool
    button: int
    level: _table_config_pb2.Level
    board_salts: _containers.RepeatedScalarFieldContainer[bytes]
    deck_permutation: _containers.RepeatedScalarFieldContainer[int]
    time_bank_ms: int
    bank_deadline_unix_ms: int
    time_bank: _duration_pb2.Duration
    bank_deadline_time: _timestamp_pb2.Timestamp
    def __init__(self, hand_id: _Optional[str] = ..., hand_number: _Optional[int] = ..., street: _Optional[_Union[Street, str]] = ..., board: _Optional[_Iterable[str]] = ..., pots: _Optional[_Iterable[_Union[Pot, _Mapping]]] = ..., actor: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., action_number: _Optional[int] = ..., deadline_unix_ms: _Optional[int] = ..., legal_actions: _Optional[_Union[LegalActions, _Mapping]] = ..., commitment: _Optional[str] = ..., test_mode: _Optional[bool] = ..., button: _Optional[int] = ..., level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ..., board_salts: _Optional[_Iterable[bytes]] = ..., deck_permutation: _Optional[_Iterable[int]] = ..., time_bank_ms: _Optional[int] = ..., bank_deadline_unix_ms: _Optional[int] = ..., time_bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bank_deadline_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table_id", "config", "sequence", "seats", "hand", "button", "hands_played", "next_level", "your_seat", "closed", "last_hand_end_unix_ms", "last_hand_end_time")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    YOUR_SEAT_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    LAST_HAND_END_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_HAND_END_TIME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    config: _table_config_pb2.TableConfig
    sequence: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    hand: HandView
    button: int
    hands_played: int
    next_level: _table_config_pb2.Level
    your_seat: int
    closed: bool
    last_hand_end_unix_ms: int
    last_hand_end_time: _timestamp_pb2.Timestamp
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ..., sequence: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., hand: _Optional[_Union[HandView, _Mapping]] = ..., button: _Optional[int] = ..., hands_played: _Optional[int] = ..., next_level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ..., your_seat: _Optional[int] = ..., closed: _Optional[bool] = ..., last_hand_end_unix_ms: _Optional[int] = ..., last_hand_end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
