"""Ranking the hands at a showdown (R25): a protocol, and the default in-process ranker.

The engine calls `rank_holdings` once per showdown with every hand still in.
The default ranker uses the evaluator's core (`services.evaluator.core.evaluate`),
imported on first use so the engine loads without it.

>>> ranks = DEFAULT_RANKER.rank_holdings([0, 4, 8, 30, 51], [[13, 17], [50, 45]])
>>> ranks[0] > ranks[1]  # a six-high straight beats a pair of aces
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class HandRanker(Protocol):
    """Ranks holdings against one board: higher is better, equal hands equal (R25)."""

    def rank_holdings(
        self, board: Sequence[int], holdings: Sequence[Sequence[int]]
    ) -> list[int]: ...


class EvaluatorRanker:
    """The default ranker: the evaluator service's core, in process."""

    __slots__ = ("_evaluate",)

    def __init__(self) -> None:
        self._evaluate: Callable[[Sequence[int]], int] | None = None

    def rank_holdings(self, board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
        evaluate = self._evaluate
        if evaluate is None:
            evaluate = self._evaluate = _load_evaluate()
        cards = list(board)
        return [evaluate(cards + list(hole)) for hole in holdings]


def _load_evaluate() -> Callable[[Sequence[int]], int]:
    from services.evaluator.core import evaluate

    return evaluate


DEFAULT_RANKER = EvaluatorRanker()
