from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Structure(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRUCTURE_UNSPECIFIED: _ClassVar[Structure]
    STRUCTURE_NO_LIMIT: _ClassVar[Structure]
    STRUCTURE_POT_LIMIT: _ClassVar[Structure]
    STRUCTURE_FIXED_LIMIT: _ClassVar[Structure]

class Preset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRESET_UNSPECIFIED: _ClassVar[Preset]
    PRESET_SEED: _ClassVar[Preset]
    PRESET_STANDARD: _ClassVar[Preset]

class MinRaiseRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MIN_RAISE_RULE_UNSPECIFIED: _ClassVar[MinRaiseRule]
    MIN_RAISE_RULE_DOUBLE: _ClassVar[MinRaiseRule]
    MIN_RAISE_RULE_STANDARD: _ClassVar[MinRaiseRule]

class AnteForm(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANTE_FORM_UNSPECIFIED: _ClassVar[AnteForm]
    ANTE_FORM_EACH_PLAYER: _ClassVar[AnteForm]
    ANTE_FORM_BIG_BLIND: _ClassVar[AnteForm]

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

class BlindKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BLIND_KIND_UNSPECIFIED: _ClassVar[BlindKind]
    BLIND_KIND_SMALL: _ClassVar[BlindKind]
    BLIND_KIND_BIG: _ClassVar[BlindKind]
    BLIND_KIND_LATE: _ClassVar[BlindKind]

class ShowReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHOW_REASON_UNSPECIFIED: _ClassVar[ShowReason]
    SHOW_REASON_SHOWDOWN: _ClassVar[ShowReason]
    SHOW_REASON_ALL_IN: _ClassVar[ShowReason]

class SitOutReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIT_OUT_REASON_UNSPECIFIED: _ClassVar[SitOutReason]
    SIT_OUT_REASON_REQUESTED: _ClassVar[SitOutReason]
    SIT_OUT_REASON_TIMED_OUT: _ClassVar[SitOutReason]
STRUCTURE_UNSPECIFIED: Structure
STRUCTURE_NO_LIMIT: Structure
STRUCTURE_POT_LIMIT: Structure
STRUCTURE_FIXED_LIMIT: Structure
PRESET_UNSPECIFIED: Preset
PRESET_SEED: Preset
PRESET_STANDARD: Preset
MIN_RAISE_RULE_UNSPECIFIED: MinRaiseRule
MIN_RAISE_RULE_DOUBLE: MinRaiseRule
MIN_RAISE_RULE_STANDARD: MinRaiseRule
ANTE_FORM_UNSPECIFIED: AnteForm
ANTE_FORM_EACH_PLAYER: AnteForm
ANTE_FORM_BIG_BLIND: AnteForm
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
ACTION_KIND_UNSPECIFIED: ActionKind
ACTION_KIND_FOLD: ActionKind
ACTION_KIND_CHECK: ActionKind
ACTION_KIND_CALL: ActionKind
ACTION_KIND_BET: ActionKind
ACTION_KIND_RAISE: ActionKind
ACTION_KIND_ALL_IN: ActionKind
ACTION_KIND_SHOW: ActionKind
ACTION_KIND_MUCK: ActionKind
BLIND_KIND_UNSPECIFIED: BlindKind
BLIND_KIND_SMALL: BlindKind
BLIND_KIND_BIG: BlindKind
BLIND_KIND_LATE: BlindKind
SHOW_REASON_UNSPECIFIED: ShowReason
SHOW_REASON_SHOWDOWN: ShowReason
SHOW_REASON_ALL_IN: ShowReason
SIT_OUT_REASON_UNSPECIFIED: SitOutReason
SIT_OUT_REASON_REQUESTED: SitOutReason
SIT_OUT_REASON_TIMED_OUT: SitOutReason

class CommitSeedsRequest(_message.Message):
    __slots__ = ("table_id", "seat", "chain_head")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    chain_head: bytes
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., chain_head: _Optional[bytes] = ...) -> None: ...

class CommitSeedsResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class RevealSeedRequest(_message.Message):
    __slots__ = ("table_id", "seat", "hand_id", "seed")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    hand_id: str
    seed: bytes
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., hand_id: _Optional[str] = ..., seed: _Optional[bytes] = ...) -> None: ...

class RevealSeedResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Level(_message.Message):
    __slots__ = ("small_blind", "big_blind", "ante")
    SMALL_BLIND_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    small_blind: int
    big_blind: int
    ante: int
    def __init__(self, small_blind: _Optional[int] = ..., big_blind: _Optional[int] = ..., ante: _Optional[int] = ...) -> None: ...

class TableConfig(_message.Message):
    __slots__ = ("seats", "structure", "preset", "levels", "hands_per_level", "minutes_per_level", "ante_form", "turn_river_min_bet", "min_raise_rule", "fixed_limit_cap", "all_in_exposure", "action_time_ms", "show_time_ms", "pause_between_hands_ms", "test_mode", "deck_seed", "player_seeded_decks", "seed_time_ms")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STRUCTURE_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    HANDS_PER_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MINUTES_PER_LEVEL_FIELD_NUMBER: _ClassVar[int]
    ANTE_FORM_FIELD_NUMBER: _ClassVar[int]
    TURN_RIVER_MIN_BET_FIELD_NUMBER: _ClassVar[int]
    MIN_RAISE_RULE_FIELD_NUMBER: _ClassVar[int]
    FIXED_LIMIT_CAP_FIELD_NUMBER: _ClassVar[int]
    ALL_IN_EXPOSURE_FIELD_NUMBER: _ClassVar[int]
    ACTION_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    SHOW_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    PAUSE_BETWEEN_HANDS_MS_FIELD_NUMBER: _ClassVar[int]
    TEST_MODE_FIELD_NUMBER: _ClassVar[int]
    DECK_SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SEEDED_DECKS_FIELD_NUMBER: _ClassVar[int]
    SEED_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    seats: int
    structure: Structure
    preset: Preset
    levels: _containers.RepeatedCompositeFieldContainer[Level]
    hands_per_level: int
    minutes_per_level: float
    ante_form: AnteForm
    turn_river_min_bet: int
    min_raise_rule: MinRaiseRule
    fixed_limit_cap: int
    all_in_exposure: bool
    action_time_ms: int
    show_time_ms: int
    pause_between_hands_ms: int
    test_mode: bool
    deck_seed: int
    player_seeded_decks: bool
    seed_time_ms: int
    def __init__(self, seats: _Optional[int] = ..., structure: _Optional[_Union[Structure, str]] = ..., preset: _Optional[_Union[Preset, str]] = ..., levels: _Optional[_Iterable[_Union[Level, _Mapping]]] = ..., hands_per_level: _Optional[int] = ..., minutes_per_level: _Optional[float] = ..., ante_form: _Optional[_Union[AnteForm, str]] = ..., turn_river_min_bet: _Optional[int] = ..., min_raise_rule: _Optional[_Union[MinRaiseRule, str]] = ..., fixed_limit_cap: _Optional[int] = ..., all_in_exposure: _Optional[bool] = ..., action_time_ms: _Optional[int] = ..., show_time_ms: _Optional[int] = ..., pause_between_hands_ms: _Optional[int] = ..., test_mode: _Optional[bool] = ..., deck_seed: _Optional[int] = ..., player_seeded_decks: _Optional[bool] = ..., seed_time_ms: _Optional[int] = ...) -> None: ...

class SeatStack(_message.Message):
    __slots__ = ("seat", "player_id", "stack")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ...) -> None: ...

class CreateTableRequest(_message.Message):
    __slots__ = ("table_id", "config")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    config: TableConfig
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[TableConfig, _Mapping]] = ...) -> None: ...

class CreateTableResponse(_message.Message):
    __slots__ = ("table_id", "config")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    config: TableConfig
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[TableConfig, _Mapping]] = ...) -> None: ...

class SeatPlayerRequest(_message.Message):
    __slots__ = ("table_id", "seat", "player_id", "stack", "wait_for_big_blind", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    WAIT_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    player_id: str
    stack: int
    wait_for_big_blind: bool
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., wait_for_big_blind: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class SeatPlayerResponse(_message.Message):
    __slots__ = ("seat", "seat_token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class AddChipsRequest(_message.Message):
    __slots__ = ("table_id", "seat", "amount", "idempotency_key")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    amount: int
    idempotency_key: str
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., amount: _Optional[int] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class AddChipsResponse(_message.Message):
    __slots__ = ("stack",)
    STACK_FIELD_NUMBER: _ClassVar[int]
    stack: int
    def __init__(self, stack: _Optional[int] = ...) -> None: ...

class UnseatPlayerRequest(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class UnseatPlayerResponse(_message.Message):
    __slots__ = ("stack",)
    STACK_FIELD_NUMBER: _ClassVar[int]
    stack: SeatStack
    def __init__(self, stack: _Optional[_Union[SeatStack, _Mapping]] = ...) -> None: ...

class SetButtonRequest(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SetButtonResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SetLevelRequest(_message.Message):
    __slots__ = ("table_id", "level_index", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    LEVEL_INDEX_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    level_index: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., level_index: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class SetLevelResponse(_message.Message):
    __slots__ = ("level",)
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    level: Level
    def __init__(self, level: _Optional[_Union[Level, _Mapping]] = ...) -> None: ...

class CloseTableRequest(_message.Message):
    __slots__ = ("table_id", "void_hand_in_progress")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    VOID_HAND_IN_PROGRESS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    void_hand_in_progress: bool
    def __init__(self, table_id: _Optional[str] = ..., void_hand_in_progress: _Optional[bool] = ...) -> None: ...

class CloseTableResponse(_message.Message):
    __slots__ = ("stacks",)
    STACKS_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[SeatStack, _Mapping]]] = ...) -> None: ...

class GetTableRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class GetTableResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: TableView
    def __init__(self, table: _Optional[_Union[TableView, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("seat", "player_id", "stack", "bet", "sitting_out", "in_hand", "folded", "all_in", "hole_cards", "waiting_for_big_blind", "hole_card_salts")
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
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., bet: _Optional[int] = ..., sitting_out: _Optional[bool] = ..., in_hand: _Optional[bool] = ..., folded: _Optional[bool] = ..., all_in: _Optional[bool] = ..., hole_cards: _Optional[_Iterable[str]] = ..., waiting_for_big_blind: _Optional[bool] = ..., hole_card_salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

class HandView(_message.Message):
    __slots__ = ("hand_id", "hand_number", "street", "board", "pots", "actor", "decision", "action_number", "deadline_unix_ms", "legal_actions", "commitment", "test_mode", "button", "level", "board_salts", "deck_permutation")
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
    level: Level
    board_salts: _containers.RepeatedScalarFieldContainer[bytes]
    deck_permutation: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand_id: _Optional[str] = ..., hand_number: _Optional[int] = ..., street: _Optional[_Union[Street, str]] = ..., board: _Optional[_Iterable[str]] = ..., pots: _Optional[_Iterable[_Union[Pot, _Mapping]]] = ..., actor: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., action_number: _Optional[int] = ..., deadline_unix_ms: _Optional[int] = ..., legal_actions: _Optional[_Union[LegalActions, _Mapping]] = ..., commitment: _Optional[str] = ..., test_mode: _Optional[bool] = ..., button: _Optional[int] = ..., level: _Optional[_Union[Level, _Mapping]] = ..., board_salts: _Optional[_Iterable[bytes]] = ..., deck_permutation: _Optional[_Iterable[int]] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("table_id", "config", "sequence", "seats", "hand", "button", "hands_played", "next_level", "your_seat", "closed")
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
    table_id: str
    config: TableConfig
    sequence: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    hand: HandView
    button: int
    hands_played: int
    next_level: Level
    your_seat: int
    closed: bool
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[TableConfig, _Mapping]] = ..., sequence: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., hand: _Optional[_Union[HandView, _Mapping]] = ..., button: _Optional[int] = ..., hands_played: _Optional[int] = ..., next_level: _Optional[_Union[Level, _Mapping]] = ..., your_seat: _Optional[int] = ..., closed: _Optional[bool] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("table_id", "seat", "hand_id", "action_number", "kind", "amount")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    hand_id: str
    action_number: int
    kind: ActionKind
    amount: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., hand_id: _Optional[str] = ..., action_number: _Optional[int] = ..., kind: _Optional[_Union[ActionKind, str]] = ..., amount: _Optional[int] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class SitOutRequest(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SitOutResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SitInRequest(_message.Message):
    __slots__ = ("table_id", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SitInResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WatchTableRequest(_message.Message):
    __slots__ = ("table_id", "after_sequence")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    after_sequence: int
    def __init__(self, table_id: _Optional[str] = ..., after_sequence: _Optional[int] = ...) -> None: ...

class WatchTableResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[TableEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[TableEvent, _Mapping]]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("start", "action")
    START_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    start: PlayStart
    action: PlayAction
    def __init__(self, start: _Optional[_Union[PlayStart, _Mapping]] = ..., action: _Optional[_Union[PlayAction, _Mapping]] = ...) -> None: ...

class PlayStart(_message.Message):
    __slots__ = ("table_id", "after_sequence")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    after_sequence: int
    def __init__(self, table_id: _Optional[str] = ..., after_sequence: _Optional[int] = ...) -> None: ...

class PlayAction(_message.Message):
    __slots__ = ("hand_id", "action_number", "kind", "amount")
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    hand_id: str
    action_number: int
    kind: ActionKind
    amount: int
    def __init__(self, hand_id: _Optional[str] = ..., action_number: _Optional[int] = ..., kind: _Optional[_Union[ActionKind, str]] = ..., amount: _Optional[int] = ...) -> None: ...

class PlayActionResult(_message.Message):
    __slots__ = ("action_number", "code", "message", "sequence")
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    action_number: int
    code: int
    message: str
    sequence: int
    def __init__(self, action_number: _Optional[int] = ..., code: _Optional[int] = ..., message: _Optional[str] = ..., sequence: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("events", "action_result")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTION_RESULT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[TableEvent]
    action_result: PlayActionResult
    def __init__(self, events: _Optional[_Iterable[_Union[TableEvent, _Mapping]]] = ..., action_result: _Optional[_Union[PlayActionResult, _Mapping]] = ...) -> None: ...

class PlayManyRequest(_message.Message):
    __slots__ = ("open", "actions")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    open: _containers.RepeatedCompositeFieldContainer[PlaySeat]
    actions: _containers.RepeatedCompositeFieldContainer[PlaySeatAction]
    def __init__(self, open: _Optional[_Iterable[_Union[PlaySeat, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[PlaySeatAction, _Mapping]]] = ...) -> None: ...

class PlaySeat(_message.Message):
    __slots__ = ("table_id", "seat_token", "after_sequence")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat_token: str
    after_sequence: int
    def __init__(self, table_id: _Optional[str] = ..., seat_token: _Optional[str] = ..., after_sequence: _Optional[int] = ...) -> None: ...

class PlaySeatAction(_message.Message):
    __slots__ = ("table_id", "seat", "action")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    action: PlayAction
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[PlayAction, _Mapping]] = ...) -> None: ...

class PlayManyResponse(_message.Message):
    __slots__ = ("events", "results")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[SeatEvents]
    results: _containers.RepeatedCompositeFieldContainer[SeatActionResult]
    def __init__(self, events: _Optional[_Iterable[_Union[SeatEvents, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[SeatActionResult, _Mapping]]] = ...) -> None: ...

class SeatEvents(_message.Message):
    __slots__ = ("events", "table_id", "seat")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[TableEvent]
    table_id: str
    seat: int
    def __init__(self, events: _Optional[_Iterable[_Union[TableEvent, _Mapping]]] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SeatActionResult(_message.Message):
    __slots__ = ("result", "table_id", "seat")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    result: PlayActionResult
    table_id: str
    seat: int
    def __init__(self, result: _Optional[_Union[PlayActionResult, _Mapping]] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GetHandHistoryRequest(_message.Message):
    __slots__ = ("table_id", "hand_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    hand_id: str
    def __init__(self, table_id: _Optional[str] = ..., hand_id: _Optional[str] = ...) -> None: ...

class GetHandHistoryResponse(_message.Message):
    __slots__ = ("phh",)
    PHH_FIELD_NUMBER: _ClassVar[int]
    phh: str
    def __init__(self, phh: _Optional[str] = ...) -> None: ...

class TableEvent(_message.Message):
    __slots__ = ("sequence", "time_unix_ms", "hand_id", "hand_started", "ante_posted", "blind_posted", "hole_cards_dealt", "action_taken", "board_dealt", "bet_returned", "cards_shown", "cards_mucked", "pot_awarded", "hand_ended", "deck_revealed", "turn_started", "deck_set", "hand_voided", "turn_timed_out", "player_seated", "player_unseated", "chips_added", "player_sat_out", "player_sat_in", "button_set", "level_set", "table_closed", "seeds_committed", "deck_committed", "deck_seeded", "blind_missed")
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
    DECK_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    DECK_SEEDED_FIELD_NUMBER: _ClassVar[int]
    BLIND_MISSED_FIELD_NUMBER: _ClassVar[int]
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
    deck_committed: DeckCommitted
    deck_seeded: DeckSeeded
    blind_missed: BlindMissed
    def __init__(self, sequence: _Optional[int] = ..., time_unix_ms: _Optional[int] = ..., hand_id: _Optional[str] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., ante_posted: _Optional[_Union[AntePosted, _Mapping]] = ..., blind_posted: _Optional[_Union[BlindPosted, _Mapping]] = ..., hole_cards_dealt: _Optional[_Union[HoleCardsDealt, _Mapping]] = ..., action_taken: _Optional[_Union[ActionTaken, _Mapping]] = ..., board_dealt: _Optional[_Union[BoardDealt, _Mapping]] = ..., bet_returned: _Optional[_Union[BetReturned, _Mapping]] = ..., cards_shown: _Optional[_Union[CardsShown, _Mapping]] = ..., cards_mucked: _Optional[_Union[CardsMucked, _Mapping]] = ..., pot_awarded: _Optional[_Union[PotAwarded, _Mapping]] = ..., hand_ended: _Optional[_Union[HandEnded, _Mapping]] = ..., deck_revealed: _Optional[_Union[DeckRevealed, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., deck_set: _Optional[_Union[DeckSet, _Mapping]] = ..., hand_voided: _Optional[_Union[HandVoided, _Mapping]] = ..., turn_timed_out: _Optional[_Union[TurnTimedOut, _Mapping]] = ..., player_seated: _Optional[_Union[PlayerSeated, _Mapping]] = ..., player_unseated: _Optional[_Union[PlayerUnseated, _Mapping]] = ..., chips_added: _Optional[_Union[ChipsAdded, _Mapping]] = ..., player_sat_out: _Optional[_Union[PlayerSatOut, _Mapping]] = ..., player_sat_in: _Optional[_Union[PlayerSatIn, _Mapping]] = ..., button_set: _Optional[_Union[ButtonSet, _Mapping]] = ..., level_set: _Optional[_Union[LevelSet, _Mapping]] = ..., table_closed: _Optional[_Union[TableClosed, _Mapping]] = ..., seeds_committed: _Optional[_Union[SeedsCommitted, _Mapping]] = ..., deck_committed: _Optional[_Union[DeckCommitted, _Mapping]] = ..., deck_seeded: _Optional[_Union[DeckSeeded, _Mapping]] = ..., blind_missed: _Optional[_Union[BlindMissed, _Mapping]] = ...) -> None: ...

class HandPlayer(_message.Message):
    __slots__ = ("seat", "player_id", "stack", "posts_late")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    POSTS_LATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    stack: int
    posts_late: bool
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., posts_late: _Optional[bool] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand_number", "button", "level", "players", "commitment", "test_mode")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    TEST_MODE_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    button: int
    level: Level
    players: _containers.RepeatedCompositeFieldContainer[HandPlayer]
    commitment: str
    test_mode: bool
    def __init__(self, hand_number: _Optional[int] = ..., button: _Optional[int] = ..., level: _Optional[_Union[Level, _Mapping]] = ..., players: _Optional[_Iterable[_Union[HandPlayer, _Mapping]]] = ..., commitment: _Optional[str] = ..., test_mode: _Optional[bool] = ...) -> None: ...

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
    action: ActionKind
    to: int
    added: int
    all_in: bool
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[ActionKind, str]] = ..., to: _Optional[int] = ..., added: _Optional[int] = ..., all_in: _Optional[bool] = ...) -> None: ...

class BoardDealt(_message.Message):
    __slots__ = ("street", "cards", "salts")
    STREET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    street: Street
    cards: _containers.RepeatedScalarFieldContainer[str]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, street: _Optional[_Union[Street, str]] = ..., cards: _Optional[_Iterable[str]] = ..., salts: _Optional[_Iterable[bytes]] = ...) -> None: ...

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

class PotAwarded(_message.Message):
    __slots__ = ("index", "amount", "eligible", "winners", "shares")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SHARES_FIELD_NUMBER: _ClassVar[int]
    index: int
    amount: int
    eligible: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    shares: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, index: _Optional[int] = ..., amount: _Optional[int] = ..., eligible: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., shares: _Optional[_Iterable[int]] = ...) -> None: ...

class HandEnded(_message.Message):
    __slots__ = ("stacks",)
    STACKS_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[SeatStack, _Mapping]]] = ...) -> None: ...

class DeckRevealed(_message.Message):
    __slots__ = ("salt", "deck", "commitment", "hashes", "salts", "withheld")
    SALT_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    HASHES_FIELD_NUMBER: _ClassVar[int]
    SALTS_FIELD_NUMBER: _ClassVar[int]
    WITHHELD_FIELD_NUMBER: _ClassVar[int]
    salt: bytes
    deck: _containers.RepeatedScalarFieldContainer[str]
    commitment: str
    hashes: _containers.RepeatedScalarFieldContainer[bytes]
    salts: _containers.RepeatedScalarFieldContainer[bytes]
    withheld: bool
    def __init__(self, salt: _Optional[bytes] = ..., deck: _Optional[_Iterable[str]] = ..., commitment: _Optional[str] = ..., hashes: _Optional[_Iterable[bytes]] = ..., salts: _Optional[_Iterable[bytes]] = ..., withheld: _Optional[bool] = ...) -> None: ...

class SeedsCommitted(_message.Message):
    __slots__ = ("seat", "chain_head")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    chain_head: bytes
    def __init__(self, seat: _Optional[int] = ..., chain_head: _Optional[bytes] = ...) -> None: ...

class DeckCommitted(_message.Message):
    __slots__ = ("hand_number", "commitment", "seats", "deadline_unix_ms")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    commitment: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    deadline_unix_ms: int
    def __init__(self, hand_number: _Optional[int] = ..., commitment: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., deadline_unix_ms: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("seat", "decision", "action_number", "deadline_unix_ms", "legal_actions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decision: Decision
    action_number: int
    deadline_unix_ms: int
    legal_actions: LegalActions
    def __init__(self, seat: _Optional[int] = ..., decision: _Optional[_Union[Decision, str]] = ..., action_number: _Optional[int] = ..., deadline_unix_ms: _Optional[int] = ..., legal_actions: _Optional[_Union[LegalActions, _Mapping]] = ...) -> None: ...

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
    stacks: _containers.RepeatedCompositeFieldContainer[SeatStack]
    reason: str
    def __init__(self, stacks: _Optional[_Iterable[_Union[SeatStack, _Mapping]]] = ..., reason: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("stack",)
    STACK_FIELD_NUMBER: _ClassVar[int]
    stack: SeatStack
    def __init__(self, stack: _Optional[_Union[SeatStack, _Mapping]] = ...) -> None: ...

class ChipsAdded(_message.Message):
    __slots__ = ("seat", "amount", "stack")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    stack: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., stack: _Optional[int] = ...) -> None: ...

class PlayerSatOut(_message.Message):
    __slots__ = ("seat", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: SitOutReason
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[_Union[SitOutReason, str]] = ...) -> None: ...

class PlayerSatIn(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

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
    level: Level
    def __init__(self, level_index: _Optional[int] = ..., level: _Optional[_Union[Level, _Mapping]] = ...) -> None: ...

class TableClosed(_message.Message):
    __slots__ = ("stacks",)
    STACKS_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedCompositeFieldContainer[SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[SeatStack, _Mapping]]] = ...) -> None: ...
