"""Showdown ranking through the evaluator service: the engine's HandRanker over gRPC.

The dealer is given evaluator addresses (--evaluator, repeatable, or
POKER_EVALUATORS=host:port,host:port). Calls rotate round robin over one channel
per address; a call that fails with UNAVAILABLE or DEADLINE_EXCEEDED is retried at
once on the next address, and the failed address is skipped for a few seconds, so
tables go on when an evaluator dies. When every evaluator fails, the hand is
ranked in process (services.evaluator.core) and an error is logged: a showdown
never waits on an outage.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

import grpc
import structlog

from poker.cards import card_text
from poker.v1 import evaluator_pb2, evaluator_pb2_grpc

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
#: How long an address that failed is passed over (while others remain).
BACKOFF_S = 2.0


def local_ranks(board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
    """In-process ranking, higher is better (services.evaluator.core)."""
    from services.evaluator.core import evaluate

    return [int(evaluate([*board, *hole])) for hole in holdings]


class RemoteRanker:
    """Ranks showdowns with EvaluatorService.Showdown over a rotation of evaluators."""

    def __init__(self, addresses: Sequence[str], timeout_s: float = 0.5) -> None:
        if not addresses:
            raise ValueError("RemoteRanker needs at least one evaluator address")
        self.addresses = list(addresses)
        self._channels = [grpc.insecure_channel(a) for a in self.addresses]
        self._stubs = [evaluator_pb2_grpc.EvaluatorServiceStub(c)  # type: ignore[no-untyped-call]
                       for c in self._channels]
        self._turn = itertools.count()
        self._down_until = [0.0] * len(self.addresses)
        self._timeout = timeout_s
        self.calls = [0] * len(self.addresses)  # answered calls per address, for operators/tests
        self.fallbacks = 0

    def close(self) -> None:
        for channel in self._channels:
            channel.close()

    def rank_holdings(self, board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
        """HandRanker: one rank per holding, higher is better, equal ties."""
        request = evaluator_pb2.ShowdownRequest(
            board=[card_text(c) for c in board],
            holdings=[evaluator_pb2.Holding(cards=[card_text(c) for c in h]) for h in holdings],
        )
        for index in self._order():
            try:
                reply = self._stubs[index].Showdown(request, timeout=self._timeout)
            except grpc.RpcError as err:
                code = err.code()
                if code not in RETRYABLE:
                    raise
                self._down_until[index] = time.monotonic() + BACKOFF_S
                log.warning("evaluator_failed", address=self.addresses[index], code=code.name)
                continue
            self.calls[index] += 1
            return [r.rank for r in reply.results]
        self.fallbacks += 1
        log.error("evaluators_unavailable", addresses=self.addresses, fallback="in_process")
        return local_ranks(board, holdings)

    def _order(self) -> list[int]:
        """Every address once, starting at the next in turn; those resting from a failure last."""
        n = len(self._stubs)
        start = next(self._turn) % n
        order = [(start + i) % n for i in range(n)]
        now = time.monotonic()
        return sorted(order, key=lambda i: self._down_until[i] > now)
