"""The evaluator's core as the engine's showdown ranker (R25), in process.

The engine ranks through whatever `HandRanker` it is given; this is the one the
dealer, the replayer and the tests give it when no evaluator service is configured
(and the dealer's fallback when every evaluator is down).

>>> ranks = DEFAULT_RANKER.rank_holdings([0, 4, 8, 30, 51], [[13, 17], [50, 45]])
>>> ranks[0] > ranks[1]  # a six-high straight beats a pair of aces
True
"""

from __future__ import annotations

from collections.abc import Sequence

from services.evaluator.core import evaluate


class EvaluatorRanker:
    """The evaluator service's core, in process."""

    __slots__ = ()

    def rank_holdings(self, board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
        cards = list(board)
        return [evaluate(cards + list(hole)) for hole in holdings]


DEFAULT_RANKER = EvaluatorRanker()
