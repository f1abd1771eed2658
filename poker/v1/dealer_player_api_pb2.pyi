from poker.v1 import table_events_pb2 as _table_events_pb2
from poker.v1 import table_view_pb2 as _table_view_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class GetTableRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class GetTableResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: _table_view_pb2.TableView
    def __init__(self, table: _Optional[_Union[_table_view_pb2.TableView, _Mapping]] = ...) -> None: ...

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
    kind: _table_view_pb2.ActionKind
    amount: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., hand_id: _Optional[str] = ..., action_number: _Optional[int] = ..., kind: _Optional[_Union[_table_view_pb2.ActionKind, str]] = ..., amount: _Optional[int] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class SitOutRequest(_message.Message):
    __slots__ = ("table_id", "seat", "after_hand")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AFTER_HAND_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    after_hand: int
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., after_hand: _Optional[int] = ...) -> None: ...

class SitOutResponse(_message.Message):
    __slots__ = ("after_hand",)
    AFTER_HAND_FIELD_NUMBER: _ClassVar[int]
    after_hand: int
    def __init__(self, after_hand: _Optional[int] = ...) -> None: ...

class SitInRequest(_message.Message):
    __slots__ = ("table_id", "seat", "wait_for_big_blind")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WAIT_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    wait_for_big_blind: bool
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., wait_for_big_blind: _Optional[bool] = ...) -> None: ...

class SitInResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SetStraddleRequest(_message.Message):
    __slots__ = ("table_id", "seat", "straddle")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STRADDLE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    straddle: bool
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., straddle: _Optional[bool] = ...) -> None: ...

class SetStraddleResponse(_message.Message):
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
    events: _containers.RepeatedCompositeFieldContainer[_table_events_pb2.TableEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[_table_events_pb2.TableEvent, _Mapping]]] = ...) -> None: ...

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
    kind: _table_view_pb2.ActionKind
    amount: int
    def __init__(self, hand_id: _Optional[str] = ..., action_number: _Optional[int] = ..., kind: _Optional[_Union[_table_view_pb2.ActionKind, str]] = ..., amount: _Optional[int] = ...) -> None: ...

class PlayActionResult(_message.Message):
    __slots__ = ("action_number", "code", "message", "sequence", "reason", "metadata")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ACTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    action_number: int
    code: int
    message: str
    sequence: int
    reason: str
    metadata: _containers.ScalarMap[str, str]
    def __init__(self, action_number: _Optional[int] = ..., code: _Optional[int] = ..., message: _Optional[str] = ..., sequence: _Optional[int] = ..., reason: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("events", "action_result")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTION_RESULT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_table_events_pb2.TableEvent]
    action_result: PlayActionResult
    def __init__(self, events: _Optional[_Iterable[_Union[_table_events_pb2.TableEvent, _Mapping]]] = ..., action_result: _Optional[_Union[PlayActionResult, _Mapping]] = ...) -> None: ...

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
    events: _containers.RepeatedCompositeFieldContainer[_table_events_pb2.TableEvent]
    table_id: str
    seat: int
    def __init__(self, events: _Optional[_Iterable[_Union[_table_events_pb2.TableEvent, _Mapping]]] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

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
