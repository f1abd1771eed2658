"""Ranking the hands at a showdown (R25): the protocol of the ranker a hand is given.

The engine calls `rank_holdings` once per showdown with every hand still in. It has
no ranker of its own (it imports nothing but the vocabulary): the dealer passes the
evaluator's (`services.evaluator.ranker.DEFAULT_RANKER` in process, or a remote one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class HandRanker(Protocol):
    """Ranks holdings against one board: higher is better, equal hands equal (R25)."""

    def rank_holdings(
        self, board: Sequence[int], holdings: Sequence[Sequence[int]]
    ) -> list[int]: ...
