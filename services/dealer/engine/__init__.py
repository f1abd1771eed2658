"""The rule engine: one hand of Texas Hold'em exactly as RULES.md says; pure Python, no I/O.

The public surface is docs/engine-contract.md; everything it lists is importable
from here. Modules, one concept each: config (table options), actions, events,
state (the one state value), blinds (forced bets), dealing, betting, pots,
showdown, ranking, hand (the Hand object), history (PHH export).
"""

from services.dealer.engine.actions import Action, ActionKind, Decision, LegalActions
from services.dealer.engine.config import (
    AnteForm,
    Level,
    MinRaiseRule,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.dealer.engine.errors import ConfigError, EngineError, IllegalAction, NotYourTurn
from services.dealer.engine.events import (
    AUDITOR,
    EVENT_TYPES,
    SPECTATOR,
    ActionTaken,
    AntePosted,
    Audience,
    BetReturned,
    BlindKind,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    DeckSet,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    ShowReason,
    Street,
    Viewer,
    Visibility,
    redact,
)
from services.dealer.engine.hand import Hand, HandResult
from services.dealer.engine.pots import Pot
from services.dealer.engine.ranking import DEFAULT_RANKER, EvaluatorRanker, HandRanker

__all__ = [
    "AUDITOR",
    "DEFAULT_RANKER",
    "EVENT_TYPES",
    "SPECTATOR",
    "Action",
    "ActionKind",
    "ActionTaken",
    "AnteForm",
    "AntePosted",
    "Audience",
    "BetReturned",
    "BlindKind",
    "BlindPosted",
    "BoardDealt",
    "CardsMucked",
    "CardsShown",
    "ConfigError",
    "Decision",
    "DeckSet",
    "EngineError",
    "EvaluatorRanker",
    "Event",
    "Hand",
    "HandEnded",
    "HandRanker",
    "HandResult",
    "HandStarted",
    "HoleCardsDealt",
    "IllegalAction",
    "LegalActions",
    "Level",
    "MinRaiseRule",
    "NotYourTurn",
    "PlayerIn",
    "Pot",
    "PotAwarded",
    "Preset",
    "ShowReason",
    "Street",
    "Structure",
    "TableConfig",
    "Viewer",
    "Visibility",
    "redact",
]
