"""A small client of the evaluator: one hand's rank and the Equity RPC, as SDK values.

>>> ev = EvaluatorClient("127.0.0.1:50051")                                 # doctest: +SKIP
>>> ev.equity([cards("AsAh"), ANY_TWO], board=cards("Kd 7c 2s"))[0].equity  # doctest: +SKIP
0.87...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clients.cards import Card
from clients.transport import DEFAULT_TIMEOUT, TLS, RetryPolicy, call, open_channel
from poker.v1 import evaluator_pb2, evaluator_pb2_grpc

__all__ = ["ANY_TWO", "EquityResult", "EvaluatorClient", "HandRank"]

#: The range of every two-card hand, in the usual notation.
ANY_TWO = ("22+, " + ", ".join(f"{hi}2s+" for hi in "AKQJT9876543")
           + ", " + ", ".join(f"{hi}2o+" for hi in "AKQJT9876543"))


@dataclass(frozen=True, slots=True)
class HandRank:
    """1..7462, higher is better; what a person says; the best five cards."""

    rank: int
    description: str
    best_five: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class EquityResult:
    """One player's share: wins alone, ties, expected share of the pot."""

    win: float
    tie: float
    equity: float
    std_error: float = 0.0


class EvaluatorClient:
    """The EvaluatorService, with deadlines and retries (every call is a pure function)."""

    def __init__(self, address: str, *, tls: TLS | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None,
                 token: str | None = None) -> None:
        #: `token`: the evaluator's service token, for one started with `--service-token`.
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()
        self.channel = open_channel(address, tls)
        #: The generated EvaluatorServiceStub.
        self.stub = evaluator_pb2_grpc.EvaluatorServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.timeout, self.retry = timeout, retry or RetryPolicy()

    def close(self) -> None:
        self.channel.close()

    def _call(self, name: str, request: Any) -> Any:
        return call(getattr(self.stub, name), request, metadata=self._metadata,
                    timeout=self.timeout, retry=self.retry, name=name)

    def evaluate(self, hand: Sequence[Card]) -> HandRank:
        """The rank of 5, 6 or 7 cards."""
        reply = self._call("EvaluateHand", evaluator_pb2.EvaluateHandRequest(
            cards=[c.text for c in hand]))
        return HandRank(reply.rank, reply.description, tuple(Card(c) for c in reply.best_five))

    def equity(self, players: Sequence[Sequence[Card] | str], board: Sequence[Card] = (),
               dead: Sequence[Card] = (), trials: int = 0, seed: int = 0) -> list[EquityResult]:
        """Equity of each player: known cards, or a range string ("QQ+, AKs", `ANY_TWO`)."""
        request = evaluator_pb2.EquityRequest(
            board=[c.text for c in board], dead=[c.text for c in dead], trials=trials, seed=seed)
        if trials:
            request.method = evaluator_pb2.EQUITY_METHOD_MONTE_CARLO
        for player in players:
            if isinstance(player, str):
                request.players.add(range=player)
            else:
                request.players.add(cards=[c.text for c in player])
        reply = self._call("Equity", request)
        return [EquityResult(r.win, r.tie, r.equity, r.std_error) for r in reply.results]
