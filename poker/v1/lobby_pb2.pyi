from poker.v1 import table_config_pb2 as _table_config_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TransferKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRANSFER_KIND_UNSPECIFIED: _ClassVar[TransferKind]
    TRANSFER_KIND_DEPOSIT: _ClassVar[TransferKind]
    TRANSFER_KIND_WITHDRAWAL: _ClassVar[TransferKind]
    TRANSFER_KIND_BUY_IN: _ClassVar[TransferKind]
    TRANSFER_KIND_REBUY: _ClassVar[TransferKind]
    TRANSFER_KIND_CASH_OUT: _ClassVar[TransferKind]
    TRANSFER_KIND_REFUND: _ClassVar[TransferKind]
    TRANSFER_KIND_RAKE: _ClassVar[TransferKind]
    TRANSFER_KIND_TOURNAMENT_ENTRY: _ClassVar[TransferKind]
    TRANSFER_KIND_TOURNAMENT_FEE: _ClassVar[TransferKind]
    TRANSFER_KIND_PRIZE: _ClassVar[TransferKind]
    TRANSFER_KIND_TOURNAMENT_REFUND: _ClassVar[TransferKind]

class LateJoin(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LATE_JOIN_UNSPECIFIED: _ClassVar[LateJoin]
    LATE_JOIN_PLAYER_CHOICE: _ClassVar[LateJoin]
    LATE_JOIN_POST_BIG_BLIND: _ClassVar[LateJoin]
    LATE_JOIN_WAIT_FOR_BIG_BLIND: _ClassVar[LateJoin]

class TableStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_STATUS_UNSPECIFIED: _ClassVar[TableStatus]
    TABLE_STATUS_OPENING: _ClassVar[TableStatus]
    TABLE_STATUS_OPEN: _ClassVar[TableStatus]
    TABLE_STATUS_CLOSING: _ClassVar[TableStatus]
    TABLE_STATUS_CLOSED: _ClassVar[TableStatus]

class SeatStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_STATUS_UNSPECIFIED: _ClassVar[SeatStatus]
    SEAT_STATUS_JOINING: _ClassVar[SeatStatus]
    SEAT_STATUS_SEATED: _ClassVar[SeatStatus]
    SEAT_STATUS_LEAVING: _ClassVar[SeatStatus]

class LeaveStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEAVE_STATUS_UNSPECIFIED: _ClassVar[LeaveStatus]
    LEAVE_STATUS_DONE: _ClassVar[LeaveStatus]
    LEAVE_STATUS_PENDING: _ClassVar[LeaveStatus]
TRANSFER_KIND_UNSPECIFIED: TransferKind
TRANSFER_KIND_DEPOSIT: TransferKind
TRANSFER_KIND_WITHDRAWAL: TransferKind
TRANSFER_KIND_BUY_IN: TransferKind
TRANSFER_KIND_REBUY: TransferKind
TRANSFER_KIND_CASH_OUT: TransferKind
TRANSFER_KIND_REFUND: TransferKind
TRANSFER_KIND_RAKE: TransferKind
TRANSFER_KIND_TOURNAMENT_ENTRY: TransferKind
TRANSFER_KIND_TOURNAMENT_FEE: TransferKind
TRANSFER_KIND_PRIZE: TransferKind
TRANSFER_KIND_TOURNAMENT_REFUND: TransferKind
LATE_JOIN_UNSPECIFIED: LateJoin
LATE_JOIN_PLAYER_CHOICE: LateJoin
LATE_JOIN_POST_BIG_BLIND: LateJoin
LATE_JOIN_WAIT_FOR_BIG_BLIND: LateJoin
TABLE_STATUS_UNSPECIFIED: TableStatus
TABLE_STATUS_OPENING: TableStatus
TABLE_STATUS_OPEN: TableStatus
TABLE_STATUS_CLOSING: TableStatus
TABLE_STATUS_CLOSED: TableStatus
SEAT_STATUS_UNSPECIFIED: SeatStatus
SEAT_STATUS_JOINING: SeatStatus
SEAT_STATUS_SEATED: SeatStatus
SEAT_STATUS_LEAVING: SeatStatus
LEAVE_STATUS_UNSPECIFIED: LeaveStatus
LEAVE_STATUS_DONE: LeaveStatus
LEAVE_STATUS_PENDING: LeaveStatus

class Player(_message.Message):
    __slots__ = ("player_id", "display_name", "balance")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    BALANCE_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    display_name: str
    balance: int
    def __init__(self, player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., balance: _Optional[int] = ...) -> None: ...

class Transfer(_message.Message):
    __slots__ = ("id", "kind", "from_account", "to_account", "amount", "time_unix_ms")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    FROM_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    TO_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    id: int
    kind: TransferKind
    from_account: str
    to_account: str
    amount: int
    time_unix_ms: int
    def __init__(self, id: _Optional[int] = ..., kind: _Optional[_Union[TransferKind, str]] = ..., from_account: _Optional[str] = ..., to_account: _Optional[str] = ..., amount: _Optional[int] = ..., time_unix_ms: _Optional[int] = ...) -> None: ...

class CreatePlayerRequest(_message.Message):
    __slots__ = ("player_id", "display_name")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    display_name: str
    def __init__(self, player_id: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class CreatePlayerResponse(_message.Message):
    __slots__ = ("player", "token")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    player: Player
    token: str
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class IssuePlayerTokenRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class IssuePlayerTokenResponse(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class GetPlayerRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class GetPlayerResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class DepositRequest(_message.Message):
    __slots__ = ("player_id", "amount", "request_id")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    amount: int
    request_id: str
    def __init__(self, player_id: _Optional[str] = ..., amount: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class DepositResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class WithdrawRequest(_message.Message):
    __slots__ = ("player_id", "amount", "request_id")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    amount: int
    request_id: str
    def __init__(self, player_id: _Optional[str] = ..., amount: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class WithdrawResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class ListTransfersRequest(_message.Message):
    __slots__ = ("player_id", "limit", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    limit: int
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., limit: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTransfersResponse(_message.Message):
    __slots__ = ("transfers", "next_page_token")
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    transfers: _containers.RepeatedCompositeFieldContainer[Transfer]
    next_page_token: str
    def __init__(self, transfers: _Optional[_Iterable[_Union[Transfer, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class TableRules(_message.Message):
    __slots__ = ("min_buy_in", "max_buy_in", "initial_stack", "rebuy_amount", "max_rebuys", "rebuy_until_hand", "rebuy_until_minutes", "late_join", "rebuy_wait_seconds")
    MIN_BUY_IN_FIELD_NUMBER: _ClassVar[int]
    MAX_BUY_IN_FIELD_NUMBER: _ClassVar[int]
    INITIAL_STACK_FIELD_NUMBER: _ClassVar[int]
    REBUY_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    MAX_REBUYS_FIELD_NUMBER: _ClassVar[int]
    REBUY_UNTIL_HAND_FIELD_NUMBER: _ClassVar[int]
    REBUY_UNTIL_MINUTES_FIELD_NUMBER: _ClassVar[int]
    LATE_JOIN_FIELD_NUMBER: _ClassVar[int]
    REBUY_WAIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    min_buy_in: int
    max_buy_in: int
    initial_stack: int
    rebuy_amount: int
    max_rebuys: int
    rebuy_until_hand: int
    rebuy_until_minutes: float
    late_join: LateJoin
    rebuy_wait_seconds: float
    def __init__(self, min_buy_in: _Optional[int] = ..., max_buy_in: _Optional[int] = ..., initial_stack: _Optional[int] = ..., rebuy_amount: _Optional[int] = ..., max_rebuys: _Optional[int] = ..., rebuy_until_hand: _Optional[int] = ..., rebuy_until_minutes: _Optional[float] = ..., late_join: _Optional[_Union[LateJoin, str]] = ..., rebuy_wait_seconds: _Optional[float] = ...) -> None: ...

class LobbySeat(_message.Message):
    __slots__ = ("seat", "player_id", "display_name", "status", "bought_in", "rebuys")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOUGHT_IN_FIELD_NUMBER: _ClassVar[int]
    REBUYS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    display_name: str
    status: SeatStatus
    bought_in: int
    rebuys: int
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., status: _Optional[_Union[SeatStatus, str]] = ..., bought_in: _Optional[int] = ..., rebuys: _Optional[int] = ...) -> None: ...

class LobbyTable(_message.Message):
    __slots__ = ("table_id", "name", "config", "rules", "dealer_address", "status", "seats", "button", "chips", "tournament_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    config: _table_config_pb2.TableConfig
    rules: TableRules
    dealer_address: str
    status: TableStatus
    seats: _containers.RepeatedCompositeFieldContainer[LobbySeat]
    button: int
    chips: int
    tournament_id: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ..., rules: _Optional[_Union[TableRules, _Mapping]] = ..., dealer_address: _Optional[str] = ..., status: _Optional[_Union[TableStatus, str]] = ..., seats: _Optional[_Iterable[_Union[LobbySeat, _Mapping]]] = ..., button: _Optional[int] = ..., chips: _Optional[int] = ..., tournament_id: _Optional[str] = ...) -> None: ...

class OpenTableRequest(_message.Message):
    __slots__ = ("table_id", "name", "config", "rules", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    name: str
    config: _table_config_pb2.TableConfig
    rules: TableRules
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., name: _Optional[str] = ..., config: _Optional[_Union[_table_config_pb2.TableConfig, _Mapping]] = ..., rules: _Optional[_Union[TableRules, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class OpenTableResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: LobbyTable
    def __init__(self, table: _Optional[_Union[LobbyTable, _Mapping]] = ...) -> None: ...

class ListTablesRequest(_message.Message):
    __slots__ = ("include_closed", "page_size", "page_token", "tournament_id")
    INCLUDE_CLOSED_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    include_closed: bool
    page_size: int
    page_token: str
    tournament_id: str
    def __init__(self, include_closed: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., tournament_id: _Optional[str] = ...) -> None: ...

class ListTablesResponse(_message.Message):
    __slots__ = ("tables", "next_page_token")
    TABLES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[LobbyTable]
    next_page_token: str
    def __init__(self, tables: _Optional[_Iterable[_Union[LobbyTable, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLobbyTableRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class GetLobbyTableResponse(_message.Message):
    __slots__ = ("table",)
    TABLE_FIELD_NUMBER: _ClassVar[int]
    table: LobbyTable
    def __init__(self, table: _Optional[_Union[LobbyTable, _Mapping]] = ...) -> None: ...

class CloseLobbyTableRequest(_message.Message):
    __slots__ = ("table_id", "void_hand_in_progress", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    VOID_HAND_IN_PROGRESS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    void_hand_in_progress: bool
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., void_hand_in_progress: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class CloseLobbyTableResponse(_message.Message):
    __slots__ = ("table", "chips_returned")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    CHIPS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    table: LobbyTable
    chips_returned: int
    def __init__(self, table: _Optional[_Union[LobbyTable, _Mapping]] = ..., chips_returned: _Optional[int] = ...) -> None: ...

class DrawnCard(_message.Message):
    __slots__ = ("seat", "player_id", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_id: str
    card: str
    def __init__(self, seat: _Optional[int] = ..., player_id: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...

class ButtonDraw(_message.Message):
    __slots__ = ("cards", "button")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BUTTON_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[DrawnCard]
    button: int
    def __init__(self, cards: _Optional[_Iterable[_Union[DrawnCard, _Mapping]]] = ..., button: _Optional[int] = ...) -> None: ...

class SetTableLevelRequest(_message.Message):
    __slots__ = ("table_id", "level_index", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    LEVEL_INDEX_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    level_index: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., level_index: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class SetTableLevelResponse(_message.Message):
    __slots__ = ("level",)
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    level: _table_config_pb2.Level
    def __init__(self, level: _Optional[_Union[_table_config_pb2.Level, _Mapping]] = ...) -> None: ...

class JoinTableRequest(_message.Message):
    __slots__ = ("table_id", "seat", "player_id", "buy_in", "wait_for_big_blind", "request_id", "resume")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BUY_IN_FIELD_NUMBER: _ClassVar[int]
    WAIT_FOR_BIG_BLIND_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    player_id: str
    buy_in: int
    wait_for_big_blind: bool
    request_id: str
    resume: bool
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., player_id: _Optional[str] = ..., buy_in: _Optional[int] = ..., wait_for_big_blind: _Optional[bool] = ..., request_id: _Optional[str] = ..., resume: _Optional[bool] = ...) -> None: ...

class JoinTableResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "dealer_address", "buy_in", "player", "button_draw", "resumed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    DEALER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    BUY_IN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BUTTON_DRAW_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    dealer_address: str
    buy_in: int
    player: Player
    button_draw: ButtonDraw
    resumed: bool
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., dealer_address: _Optional[str] = ..., buy_in: _Optional[int] = ..., player: _Optional[_Union[Player, _Mapping]] = ..., button_draw: _Optional[_Union[ButtonDraw, _Mapping]] = ..., resumed: _Optional[bool] = ...) -> None: ...

class RebuyRequest(_message.Message):
    __slots__ = ("table_id", "player_id", "amount", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    player_id: str
    amount: int
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., player_id: _Optional[str] = ..., amount: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class RebuyResponse(_message.Message):
    __slots__ = ("amount", "stack", "player")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    amount: int
    stack: int
    player: Player
    def __init__(self, amount: _Optional[int] = ..., stack: _Optional[int] = ..., player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class LeaveTableRequest(_message.Message):
    __slots__ = ("table_id", "player_id", "request_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    player_id: str
    request_id: str
    def __init__(self, table_id: _Optional[str] = ..., player_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class LeaveTableResponse(_message.Message):
    __slots__ = ("status", "stack", "player")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    status: LeaveStatus
    stack: int
    player: Player
    def __init__(self, status: _Optional[_Union[LeaveStatus, str]] = ..., stack: _Optional[int] = ..., player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class GetButtonDrawRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...

class GetButtonDrawResponse(_message.Message):
    __slots__ = ("draw",)
    DRAW_FIELD_NUMBER: _ClassVar[int]
    draw: ButtonDraw
    def __init__(self, draw: _Optional[_Union[ButtonDraw, _Mapping]] = ...) -> None: ...

class AuditLedgerRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AuditLedgerResponse(_message.Message):
    __slots__ = ("ok", "total", "player_balances", "table_chips", "operator_balance", "problems", "house_rake")
    OK_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    PLAYER_BALANCES_FIELD_NUMBER: _ClassVar[int]
    TABLE_CHIPS_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_BALANCE_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    HOUSE_RAKE_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    total: int
    player_balances: int
    table_chips: int
    operator_balance: int
    problems: _containers.RepeatedScalarFieldContainer[str]
    house_rake: int
    def __init__(self, ok: _Optional[bool] = ..., total: _Optional[int] = ..., player_balances: _Optional[int] = ..., table_chips: _Optional[int] = ..., operator_balance: _Optional[int] = ..., problems: _Optional[_Iterable[str]] = ..., house_rake: _Optional[int] = ...) -> None: ...

class RakeReportRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class RakeLine(_message.Message):
    __slots__ = ("table_id", "day", "amount")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    day: str
    amount: int
    def __init__(self, table_id: _Optional[str] = ..., day: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class RakeReportResponse(_message.Message):
    __slots__ = ("lines", "next_page_token")
    LINES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[RakeLine]
    next_page_token: str
    def __init__(self, lines: _Optional[_Iterable[_Union[RakeLine, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
