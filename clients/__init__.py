"""The Python SDK of the poker suite: lobby and table clients (sync and asyncio), bots, CLI.

>>> from clients import Action, Card
>>> Action.raise_to(300), str(Card("As"))
(Action(kind=<ActionKind.RAISE: 'raise'>, amount=300), 'As')

The asyncio clients live in `clients.aio` (`AsyncLobbyClient`, `AsyncTableClient`).

Importing the SDK changes nothing in the process. A program whose traffic is many small
messages on long streams (bots, a farm of them) runs faster on gRPC's polling engine,
as the suite's own processes do; it opts in by calling, before anything imports grpc
(the SDK included):

    from poker.grpc_engine import prefer_polling_engine
    prefer_polling_engine()  # GRPC_EXPERIMENTS, unless already set: poker/grpc_engine.py
"""

from clients.accounts import LobbyTable, Player, Seating, TableRules
from clients.bots import CallingStation, EquityBot, RandomBot
from clients.cards import Card, cards
from clients.errors import (
    ActionRefused,
    AlreadyExists,
    FailedPrecondition,
    FairDeckViolation,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    PokerError,
    ResourceExhausted,
    ServiceError,
    StreamGap,
    Unauthenticated,
    Unavailable,
)
from clients.evaluator import EvaluatorClient
from clients.events import Event
from clients.models import (
    Action,
    ActionKind,
    Decision,
    HandView,
    LegalActions,
    Level,
    SeatView,
    Street,
    TableConfig,
    TableView,
)
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot, PlayResult
from clients.transport import TLS, RetryPolicy

#: What a bot is given: the table as its seat sees it.
View = TableView

__all__ = [
    "TLS", "Action", "ActionKind", "ActionRefused", "Bot", "CallingStation", "Card", "Decision",
    "EquityBot", "EvaluatorClient", "Event", "FairDeckViolation", "HandView", "LegalActions",
    "Level", "LobbyClient", "LobbyTable", "PlayResult", "Player", "PokerError", "RandomBot",
    "RetryPolicy", "Seating", "SeatView", "ServiceError", "Street", "StreamGap", "TableClient",
    "TableConfig", "TableRules", "TableView", "View", "cards",
    # typed refusals (clients/errors.py): .reason, .metadata, .field_violations, .retry_after
    "AlreadyExists", "FailedPrecondition", "InvalidArgument", "NotFound", "PermissionDenied",
    "ResourceExhausted", "Unauthenticated", "Unavailable",
]
