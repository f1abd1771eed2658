"""The rule engine: one hand of Texas Hold'em exactly as RULES.md says; pure Python, no I/O.

The public surface is docs/engine-contract.md; everything it lists is importable
from here. The values it is played with (enums, actions, table options, events,
errors) are the vocabulary's, `poker.vocab`, re-exported here. Modules, one concept
each: state (the one state value), blinds (forced bets), dealing, betting, pots,
showdown, ranking, hand (the Hand object), history (PHH export).
"""

from poker.vocab.actions import Action, LegalActions
from poker.vocab.config import Level, PlayerIn, TableConfig
from poker.vocab.enums import (
    ActionKind,
    AnteForm,
    BlindKind,
    Decision,
    MinRaiseRule,
    Preset,
    ShowReason,
    Street,
    Structure,
    Visibility,
)
from poker.vocab.errors import ConfigError, EngineError, IllegalAction, NotYourTurn
from poker.vocab.events import (
    AUDITOR,
    EVENT_TYPES,
    SPECTATOR,
    ActionTaken,
    AntePosted,
    Audience,
    BetReturned,
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
    Viewer,
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
