import datetime

from google.protobuf import duration_pb2 as _duration_pb2
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

class ButtonRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BUTTON_RULE_UNSPECIFIED: _ClassVar[ButtonRule]
    BUTTON_RULE_DEAD: _ClassVar[ButtonRule]
    BUTTON_RULE_MOVING: _ClassVar[ButtonRule]
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
BUTTON_RULE_UNSPECIFIED: ButtonRule
BUTTON_RULE_DEAD: ButtonRule
BUTTON_RULE_MOVING: ButtonRule

class Level(_message.Message):
    __slots__ = ("small_blind", "big_blind", "ante")
    SMALL_BLIND_FIELD_NUMBER: _ClassVar[int]
    BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    ANTE_FIELD_NUMBER: _ClassVar[int]
    small_blind: int
    big_blind: int
    ante: int
    def __init__(self, small_blind: _Optional[int] = ..., big_blind: _Optional[int] = ..., ante: _Optional[int] = ...) -> None: ...

class RakeCap(_message.Message):
    __slots__ = ("players", "cap")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    players: int
    cap: int
    def __init__(self, players: _Optional[int] = ..., cap: _Optional[int] = ...) -> None: ...

class Rake(_message.Message):
    __slots__ = ("basis_points", "cap", "caps")
    BASIS_POINTS_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    CAPS_FIELD_NUMBER: _ClassVar[int]
    basis_points: int
    cap: int
    caps: _containers.RepeatedCompositeFieldContainer[RakeCap]
    def __init__(self, basis_points: _Optional[int] = ..., cap: _Optional[int] = ..., caps: _Optional[_Iterable[_Union[RakeCap, _Mapping]]] = ...) -> None: ...

class TableConfig(_message.Message):
    __slots__ = ("seats", "structure", "preset", "levels", "hands_per_level", "minutes_per_level", "ante_form", "turn_river_min_bet", "min_raise_rule", "fixed_limit_cap", "all_in_exposure", "action_time_ms", "show_time_ms", "pause_between_hands_ms", "test_mode", "deck_seed", "player_seeded_decks", "seed_time_ms", "rake", "straddle", "absent_dealt_in", "button_rule", "min_players_to_start", "sit_out_limit_ms", "sit_out_limit_orbits", "time_bank_ms", "time_bank_refill_ms", "time_bank_refill_hands", "run_it_twice", "seed_timeout", "sit_out_limit", "time_bank", "time_bank_refill")
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
    RAKE_FIELD_NUMBER: _ClassVar[int]
    STRADDLE_FIELD_NUMBER: _ClassVar[int]
    ABSENT_DEALT_IN_FIELD_NUMBER: _ClassVar[int]
    BUTTON_RULE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_TO_START_FIELD_NUMBER: _ClassVar[int]
    SIT_OUT_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    SIT_OUT_LIMIT_ORBITS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_REFILL_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_REFILL_HANDS_FIELD_NUMBER: _ClassVar[int]
    RUN_IT_TWICE_FIELD_NUMBER: _ClassVar[int]
    SEED_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIT_OUT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_REFILL_FIELD_NUMBER: _ClassVar[int]
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
    rake: Rake
    straddle: bool
    absent_dealt_in: bool
    button_rule: ButtonRule
    min_players_to_start: int
    sit_out_limit_ms: int
    sit_out_limit_orbits: int
    time_bank_ms: int
    time_bank_refill_ms: int
    time_bank_refill_hands: int
    run_it_twice: bool
    seed_timeout: _duration_pb2.Duration
    sit_out_limit: _duration_pb2.Duration
    time_bank: _duration_pb2.Duration
    time_bank_refill: _duration_pb2.Duration
    def __init__(self, seats: _Optional[int] = ..., structure: _Optional[_Union[Structure, str]] = ..., preset: _Optional[_Union[Preset, str]] = ..., levels: _Optional[_Iterable[_Union[Level, _Mapping]]] = ..., hands_per_level: _Optional[int] = ..., minutes_per_level: _Optional[float] = ..., ante_form: _Optional[_Union[AnteForm, str]] = ..., turn_river_min_bet: _Optional[int] = ..., min_raise_rule: _Optional[_Union[MinRaiseRule, str]] = ..., fixed_limit_cap: _Optional[int] = ..., all_in_exposure: _Optional[bool] = ..., action_time_ms: _Optional[int] = ..., show_time_ms: _Optional[int] = ..., pause_between_hands_ms: _Optional[int] = ..., test_mode: _Optional[bool] = ..., deck_seed: _Optional[int] = ..., player_seeded_decks: _Optional[bool] = ..., seed_time_ms: _Optional[int] = ..., rake: _Optional[_Union[Rake, _Mapping]] = ..., straddle: _Optional[bool] = ..., absent_dealt_in: _Optional[bool] = ..., button_rule: _Optional[_Union[ButtonRule, str]] = ..., min_players_to_start: _Optional[int] = ..., sit_out_limit_ms: _Optional[int] = ..., sit_out_limit_orbits: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., time_bank_refill_ms: _Optional[int] = ..., time_bank_refill_hands: _Optional[int] = ..., run_it_twice: _Optional[bool] = ..., seed_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., sit_out_limit: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., time_bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., time_bank_refill: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...
