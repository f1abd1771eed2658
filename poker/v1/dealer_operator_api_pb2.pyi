from poker.v1 import table_config_pb2 as _table_config_pb2
from poker.v1 import table_view_pb2 as _table_view_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TableNoteKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_NOTE_KIND_UNSPECIFIED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_SEATED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_SEAT_FREED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_HAND_ENDED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_BUSTED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_CHIPS_ADDED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_SIT_OUT_ENDED: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_SAT_OUT: _ClassVar[TableNoteKind]
    TABLE_NOTE_KIND_TABLE_CLOSED: _ClassVar[TableNoteKind]
TABLE_NOTE_KIND_UNSPECIFIED: TableNoteKind
TABLE_NOTE_KIND_SEATED: TableNoteKind
TABLE_NOTE_KIND_SEAT_FREED: TableNoteKind
TABLE_NOTE_KIND_HAND_ENDED: TableNoteKind
TABLE_NOTE_KIND_BUSTED: TableNoteKind
TABLE_NOTE_KIND_CHIPS_ADDED: TableNoteKind
TABLE_NOTE_KIND_SIT_OUT_ENDED: TableNoteKind
TABLE_NOTE_KIND_SAT_OUT: TableNoteKind
TABLE_NOTE_KIND_TABLE_CLOSED: TableNoteKind

class CreateTableRequest(_message.Message):
    __slots__ = ("table_id", "config")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    config: _table_config_pb2.TableConfig
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ...) -> None: ...

class CreateTableResponse(_message.Message):
    __slots__ = ("table_id", "config")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    config: _table_config_pb2.TableConfig
    def __init__(self, table_id: _Optional[str] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ...) -> None: ...

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
    stack: _table_view_pb2.SeatStack
    def __init__(self, stack: _Optional[_Union[_table_view_pb2.SeatStack, _Mapping]] = ...) -> None: ...

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
    level: _table_config_pb2.Level
    def __init__(self, level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ...) -> None: ...

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
    stacks: _containers.RepeatedCompositeFieldContainer[_table_view_pb2.SeatStack]
    def __init__(self, stacks: _Optional[_Iterable[_Union[_table_view_pb2.SeatStack, _Mapping]]] = ...) -> None: ...

class SetDealLimitRequest(_message.Message):
    __slots__ = ("table_id", "until_hand")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    UNTIL_HAND_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    until_hand: int
    def __init__(self, table_id: _Optional[str] = ..., until_hand: _Optional[int] = ...) -> None: ...

class SetDealLimitResponse(_message.Message):
    __slots__ = ("hands_played", "hand_running")
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    HAND_RUNNING_FIELD_NUMBER: _ClassVar[int]
    hands_played: int
    hand_running: bool
    def __init__(self, hands_played: _Optional[int] = ..., hand_running: _Optional[bool] = ...) -> None: ...

class FollowTablesRequest(_message.Message):
    __slots__ = ("after",)
    AFTER_FIELD_NUMBER: _ClassVar[int]
    after: _containers.RepeatedCompositeFieldContainer[TableCursor]
    def __init__(self, after: _Optional[_Iterable[_Union[TableCursor, _Mapping]]] = ...) -> None: ...

class TableCursor(_message.Message):
    __slots__ = ("table_id", "sequence")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    sequence: int
    def __init__(self, table_id: _Optional[str] = ..., sequence: _Optional[int] = ...) -> None: ...

class FollowTablesResponse(_message.Message):
    __slots__ = ("notes", "tables")
    NOTES_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    notes: _containers.RepeatedCompositeFieldContainer[TableNote]
    tables: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, notes: _Optional[_Iterable[_Union[TableNote, _Mapping]]] = ..., tables: _Optional[_Iterable[str]] = ...) -> None: ...

class TableNote(_message.Message):
    __slots__ = ("table_id", "sequence", "kind", "seat", "player_id", "stack", "hands_played")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    HANDS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    sequence: int
    kind: TableNoteKind
    seat: int
    player_id: str
    stack: int
    hands_played: int
    def __init__(self, table_id: _Optional[str] = ..., sequence: _Optional[int] = ..., kind: _Optional[_Union[TableNoteKind, str]] = ..., seat: _Optional[int] = ..., player_id: _Optional[str] = ..., stack: _Optional[int] = ..., hands_played: _Optional[int] = ...) -> None: ...
