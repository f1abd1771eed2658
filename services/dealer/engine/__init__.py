"""The rule engine: one hand of Texas Hold'em exactly as RULES.md says; pure Python, no I/O.

The public surface is docs/engine-contract.md; everything it lists is importable
from here. The values it is played with (enums, actions, table options, events,
errors) are the vocabulary's, `poker.vocab`, re-exported here. Modules, one concept
each: state (the one state value), blinds (forced bets), dealing, betting, pots,
showdown, ranking (the protocol of the ranker it is given), hand (the Hand object).
The engine imports nothing but `poker.vocab`; its PHH writer is the dealer's
(`services/dealer/phh_writer.py`).
"""

from poker.vocab.actions import Action, LegalActions
from poker.vocab.config import Level, PlayerIn, Rake, RakeCap, TableConfig
from poker.vocab.enums import (
    ActionKind,
    AnteForm,
    BlindKind,
    ButtonRule,
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
    RakeTaken,
    RunItChosen,
    SecondBoardDealt,
    Viewer,
    redact,
    sees_hole_cards,
)
from services.dealer.engine.blinds import blind_seats
from services.dealer.engine.hand import Hand, HandResult
from services.dealer.engine.pots import Pot
from services.dealer.engine.ranking import HandRanker

__all__ = [
    "AUDITOR",
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
    "ButtonRule",
    "BoardDealt",
    "CardsMucked",
    "CardsShown",
    "ConfigError",
    "Decision",
    "DeckSet",
    "EngineError",
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
    "Rake",
    "RakeCap",
    "RakeTaken",
    "RunItChosen",
    "SecondBoardDealt",
    "ShowReason",
    "Street",
    "Structure",
    "TableConfig",
    "Viewer",
    "Visibility",
    "blind_seats",
    "redact",
    "sees_hole_cards",
]
