"""The evaluator's domain errors; the server maps them to gRPC status codes in one place."""

from __future__ import annotations


class EvaluatorError(ValueError):
    """Base of every evaluator error; `str(err)` is a message a person can act on."""


class InvalidHand(EvaluatorError):
    """A hand that cannot be ranked: wrong length, a card out of 0..51, a card twice.

    `index` is the position of the first bad hand in its request (0 for a single
    hand; None where there is only one, such as the board).
    """

    def __init__(self, reason: str, index: int | None = 0, what: str = "hand") -> None:
        super().__init__(f"{what}: {reason}" if index is None else f"{what} {index}: {reason}")
        self.index = index
        self.reason = reason


class InvalidRange(EvaluatorError):
    """Range text that does not parse, or a range with no combo left once cards are known."""


class InvalidRequest(EvaluatorError):
    """A request that is malformed as a whole (player count, board size, method)."""


class LimitExceeded(EvaluatorError):
    """A request over one of the service's limits (batch size, trials, deals)."""


class Overloaded(EvaluatorError):
    """Too many big requests in flight: this one is refused at once, to be retried later."""


class TooMuchWork(EvaluatorError):
    """A request whose work ran past the compute time one call may take; it was stopped."""


class Abandoned(EvaluatorError):
    """The call was cancelled or its deadline passed: its work stopped there."""


class Unauthenticated(EvaluatorError):
    """A call without this evaluator's service token, where one is required."""
