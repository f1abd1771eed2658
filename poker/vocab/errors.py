"""The engine's domain errors: a bad configuration, a refused action.

Every message is written for the person who caused it: a table operator for
ConfigError, a player for IllegalAction.

>>> str(NotYourTurn("it is seat 3's turn", actor=3)), NotYourTurn("x", actor=3).actor
("it is seat 3's turn", 3)
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

    def __init__(self, message: str, actor: int | None) -> None:
        super().__init__(message)
        self.actor = actor
