"""The engine's domain errors: a bad configuration, a refused action.

Every message is written for the person who caused it: a table operator for
ConfigError, a player for IllegalAction. A raise site gives the precise `reason` (one
of poker.v1.ErrorReason's names: BELOW_MIN_RAISE, CANNOT_CHECK, ...) and the numbers
a program needs in `metadata` (min_to, max_to, call_amount, stack, actor), plain
attributes of the error (poker/errors.py) that poker/status.py sends as an ErrorInfo.

>>> str(NotYourTurn("it is seat 3's turn", actor=3)), NotYourTurn("x", actor=3).actor
("it is seat 3's turn", 3)
>>> err = IllegalAction("raise to 3 is below the minimum raise to 4", reason="BELOW_MIN_RAISE",
...                     metadata={"min_to": 4})
>>> err.reason, err.metadata
('BELOW_MIN_RAISE', {'min_to': '4'})
>>> NotYourTurn("x", actor=3).metadata
{'actor': '3'}
"""

from __future__ import annotations

from poker.errors import Category, PokerError


class EngineError(PokerError):
    """Base of every domain error the engine raises."""

    category = Category.FAILED_PRECONDITION


class ConfigError(EngineError, ValueError):
    """A table configuration (or hand set-up) the rules do not allow; names the option."""

    category, reason = Category.INVALID_ARGUMENT, "INVALID_CONFIG"


class IllegalAction(EngineError):
    """An action the rules refuse now; the hand is left exactly as it was."""


class NotYourTurn(IllegalAction):
    """An action from a seat whose decision is not awaited; `.actor` is the seat that is."""

    def __init__(self, message: str, actor: int | None, reason: str | None = None) -> None:
        super().__init__(message, reason=reason,
                         metadata={} if actor is None else {"actor": actor})
        self.actor = actor
