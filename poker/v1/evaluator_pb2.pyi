from poker.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EquityMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EQUITY_METHOD_UNSPECIFIED: _ClassVar[EquityMethod]
    EQUITY_METHOD_EXACT: _ClassVar[EquityMethod]
    EQUITY_METHOD_MONTE_CARLO: _ClassVar[EquityMethod]
EQUITY_METHOD_UNSPECIFIED: EquityMethod
EQUITY_METHOD_EXACT: EquityMethod
EQUITY_METHOD_MONTE_CARLO: EquityMethod

class EvaluateHandRequest(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class EvaluateHandResponse(_message.Message):
    __slots__ = ("rank", "category", "best_five", "description")
    RANK_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    BEST_FIVE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    rank: int
    category: _cards_pb2.HandCategory
    best_five: _containers.RepeatedScalarFieldContainer[str]
    description: str
    def __init__(self, rank: _Optional[int] = ..., category: _Optional[_Union[_cards_pb2.HandCategory, str]] = ..., best_five: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ...) -> None: ...

class EvaluateBatchRequest(_message.Message):
    __slots__ = ("cards_per_hand", "hands")
    CARDS_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    cards_per_hand: int
    hands: bytes
    def __init__(self, cards_per_hand: _Optional[int] = ..., hands: _Optional[bytes] = ...) -> None: ...

class EvaluateBatchResponse(_message.Message):
    __slots__ = ("ranks",)
    RANKS_FIELD_NUMBER: _ClassVar[int]
    ranks: bytes
    def __init__(self, ranks: _Optional[bytes] = ...) -> None: ...

class EvaluateBatchStreamRequest(_message.Message):
    __slots__ = ("cards_per_hand", "hands")
    CARDS_PER_HAND_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    cards_per_hand: int
    hands: bytes
    def __init__(self, cards_per_hand: _Optional[int] = ..., hands: _Optional[bytes] = ...) -> None: ...

class EvaluateBatchStreamResponse(_message.Message):
    __slots__ = ("chunk", "ranks")
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    chunk: int
    ranks: bytes
    def __init__(self, chunk: _Optional[int] = ..., ranks: _Optional[bytes] = ...) -> None: ...

class Holding(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class ShowdownRequest(_message.Message):
    __slots__ = ("board", "holdings")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    HOLDINGS_FIELD_NUMBER: _ClassVar[int]
    board: _containers.RepeatedScalarFieldContainer[str]
    holdings: _containers.RepeatedCompositeFieldContainer[Holding]
    def __init__(self, board: _Optional[_Iterable[str]] = ..., holdings: _Optional[_Iterable[_Union[Holding, _Mapping]]] = ...) -> None: ...

class ShowdownResult(_message.Message):
    __slots__ = ("rank", "category", "best_five", "description", "place")
    RANK_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    BEST_FIVE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    category: _cards_pb2.HandCategory
    best_five: _containers.RepeatedScalarFieldContainer[str]
    description: str
    place: int
    def __init__(self, rank: _Optional[int] = ..., category: _Optional[_Union[_cards_pb2.HandCategory, str]] = ..., best_five: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., place: _Optional[int] = ...) -> None: ...

class ShowdownResponse(_message.Message):
    __slots__ = ("results", "winners")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShowdownResult]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, results: _Optional[_Iterable[_Union[ShowdownResult, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class EquityPlayer(_message.Message):
    __slots__ = ("cards", "range")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RANGE_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    range: str
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., range: _Optional[str] = ...) -> None: ...

class EquityRequest(_message.Message):
    __slots__ = ("players", "board", "dead", "method", "trials", "seed")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    TRIALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[EquityPlayer]
    board: _containers.RepeatedScalarFieldContainer[str]
    dead: _containers.RepeatedScalarFieldContainer[str]
    method: EquityMethod
    trials: int
    seed: int
    def __init__(self, players: _Optional[_Iterable[_Union[EquityPlayer, _Mapping]]] = ..., board: _Optional[_Iterable[str]] = ..., dead: _Optional[_Iterable[str]] = ..., method: _Optional[_Union[EquityMethod, str]] = ..., trials: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class EquityResult(_message.Message):
    __slots__ = ("win", "tie", "equity", "std_error", "wins", "ties")
    WIN_FIELD_NUMBER: _ClassVar[int]
    TIE_FIELD_NUMBER: _ClassVar[int]
    EQUITY_FIELD_NUMBER: _ClassVar[int]
    STD_ERROR_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    TIES_FIELD_NUMBER: _ClassVar[int]
    win: float
    tie: float
    equity: float
    std_error: float
    wins: int
    ties: int
    def __init__(self, win: _Optional[float] = ..., tie: _Optional[float] = ..., equity: _Optional[float] = ..., std_error: _Optional[float] = ..., wins: _Optional[int] = ..., ties: _Optional[int] = ...) -> None: ...

class EquityResponse(_message.Message):
    __slots__ = ("results", "method", "deals", "seed")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[EquityResult]
    method: EquityMethod
    deals: int
    seed: int
    def __init__(self, results: _Optional[_Iterable[_Union[EquityResult, _Mapping]]] = ..., method: _Optional[_Union[EquityMethod, str]] = ..., deals: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...
