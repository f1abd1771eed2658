"""The evaluator's domain errors, in the suite's taxonomy (poker/errors.py): `poker.status`
maps them to gRPC status codes in one place."""

from __future__ import annotations

from poker.errors import Category, PokerError


class EvaluatorError(PokerError, ValueError):
    """Base of every evaluator error; `str(err)` is a message a person can act on."""

    category = Category.INVALID_ARGUMENT


class InvalidHand(EvaluatorError):
    """A hand that cannot be ranked: wrong length, a card out of 0..51, a card twice.

    `index` is the position of the first bad hand in its request (0 for a single
    hand; None where there is only one, such as the board); `problem` what is wrong.
    """

    def __init__(self, problem: str, index: int | None = 0, what: str = "hand") -> None:
        super().__init__(f"{what}: {problem}" if index is None else f"{what} {index}: {problem}",
                         metadata={} if index is None else {"index": str(index)})
        self.index = index
        self.problem = problem


class InvalidRange(EvaluatorError):
    """Range text that does not parse, or a range with no combo left once cards are known."""


class InvalidRequest(EvaluatorError):
    """A request that is malformed as a whole (player count, board size, method)."""


class LimitExceeded(EvaluatorError):
    """A request over one of the service's limits (batch size, trials, deals)."""


class Overloaded(EvaluatorError):
    """Too many big requests in flight: this one is refused at once, to be retried later."""

    category = Category.RESOURCE_EXHAUSTED


class TooMuchWork(EvaluatorError):
    """A request whose work ran past the compute time one call may take; it was stopped."""

    category = Category.RESOURCE_EXHAUSTED


class Abandoned(EvaluatorError):
    """The call was cancelled or its deadline passed: its work stopped there
    (DEADLINE_EXCEEDED once the deadline has passed: poker.status)."""

    category, reason = Category.CANCELLED, "CALL_ABANDONED"


class Unauthenticated(EvaluatorError):
    """A call without this evaluator's service token, where one is required."""

    category = Category.UNAUTHENTICATED
