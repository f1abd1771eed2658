"""Showdown ranking through the evaluator service: the engine's HandRanker over gRPC.

The dealer is given evaluator addresses (--evaluator, repeatable, or
POKER_EVALUATORS=host:port,host:port; an address may be a DNS name of many replicas,
`dns:///evaluator:50051`, balanced round robin by gRPC: CHANNEL_OPTIONS), over TLS when
given the evaluators' CA (--evaluator-tls-ca), sending the evaluators' service token
when given one (--evaluator-token, POKER_EVALUATOR_TOKEN). Calls rotate round robin over
one channel per address; a call that fails with UNAVAILABLE, DEADLINE_EXCEEDED or
RESOURCE_EXHAUSTED (an evaluator too busy), or is refused for its token
(UNAUTHENTICATED, PERMISSION_DENIED: a misconfiguration, logged as an error), is retried
at once on the next address, and the failed address is skipped for a few seconds, so
tables go on when an evaluator dies. When every evaluator fails, the hand is ranked in
process (services.evaluator.core) and an error is logged: a showdown never waits on an
outage.

The engine asks for ranks synchronously, on the event loop that runs every table.
So that a showdown does not wait on the network there, the table asks for them
ahead (`prefetch`) as soon as the board is complete: an asyncio call, with the same
rotation and failover, whose answer the showdown then reads from a cache. Only a
showdown that comes before its prefetch answered (an all-in run-out, or a slow
evaluator) makes the blocking call, and it passes over an address whose prefetch
is overdue.

Calls are EvaluateBatch (packed card indices in, packed ranks out): the dealer needs
ranks only, not Showdown's best five and descriptions, and the prefetches of every
table that completes a board in the same turn of the loop go in one call.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from array import array
from collections.abc import Sequence
from typing import Any

import grpc
import structlog

from poker.tls import RECONNECT_OPTIONS
from poker.v1 import evaluator_pb2, evaluator_pb2_grpc

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.RESOURCE_EXHAUSTED,
                       grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED})
#: Of those, the answers that mean the dealer's token is wrong, not that the evaluator is down.
REFUSED = frozenset({grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED})
#: How long an address that failed is passed over (while others remain).
BACKOFF_S = 2.0
#: A prefetch still unanswered after this share of the timeout marks its address as slow.
OVERDUE = 0.2
#: Ranks kept for showdowns to come, at most (the cache is emptied past it).
CACHE_SIZE = 4096
#: Each address may be a name that resolves to many replicas (`dns:///evaluator:50051`
#: in compose, a headless Service in Kubernetes): gRPC's round_robin spreads calls over
#: all of them, pick_first would not. gRPC looks the name up again when a connection
#: ends (the evaluators' --max-connection-age-s ends each now and then), at most once
#: every `resolve_s` seconds: replicas that appear get calls, those gone get none.
CHANNEL_OPTIONS = [("grpc.lb_policy_name", "round_robin")]
#: How often, at most, a name is looked up again (gRPC's own default is 30 s).
RESOLVE_S = 5.0


def channel_options(resolve_s: float = RESOLVE_S) -> list[tuple[str, object]]:
    """The evaluator channels' options: round_robin, names looked up again every `resolve_s`,
    a restarted evaluator reconnected to quickly (poker.tls.RECONNECT_OPTIONS)."""
    return [*CHANNEL_OPTIONS, *RECONNECT_OPTIONS,
            ("grpc.dns_min_time_between_resolutions_ms", max(0, int(resolve_s * 1000)))]


def local_ranks(board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
    """In-process ranking, higher is better (services.evaluator.core)."""
    from services.evaluator.core import evaluate

    return [int(evaluate([*board, *hole])) for hole in holdings]


class RemoteRanker:
    """Ranks showdowns with EvaluatorService.Showdown over a rotation of evaluators."""

    def __init__(self, addresses: Sequence[str], timeout_s: float = 0.5,
                 credentials: grpc.ChannelCredentials | None = None,
                 token: str | None = None, resolve_s: float = RESOLVE_S) -> None:
        if not addresses:
            raise ValueError("RemoteRanker needs at least one evaluator address")
        self.addresses = list(addresses)
        self._metadata = (("authorization", f"Bearer {token}"),) if token else None
        self._credentials = credentials  # None: plaintext
        self._options = channel_options(resolve_s)
        self._channels = [grpc.secure_channel(a, credentials, options=self._options)
                          if credentials else grpc.insecure_channel(a, options=self._options)
                          for a in self.addresses]
        self._stubs = [evaluator_pb2_grpc.EvaluatorServiceStub(c)  # type: ignore[no-untyped-call]
                       for c in self._channels]
        self._turn = itertools.count()
        self._down_until = [0.0] * len(self.addresses)
        self._timeout = timeout_s
        self.calls = [0] * len(self.addresses)  # answered calls per address, for operators/tests
        self.fallbacks = 0

        self.prefetched = 0  # showdowns answered from a prefetch, for operators/tests
        self._cache: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self._pending: dict[asyncio.Task[None], tuple[int, float]] = {}  # -> (address, since)
        self._queued: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # for the next call
        self._aio_stubs: list[Any] | None = None
        self._aio_channels: list[grpc.aio.Channel] = []

    def close(self) -> None:
        for channel in self._channels:
            channel.close()
        for task in list(self._pending):
            task.cancel()

    async def aclose(self) -> None:
        self.close()
        for aio_channel in self._aio_channels:
            await aio_channel.close()

    def rank_holdings(self, board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
        """HandRanker: one rank per holding, higher is better, equal ties."""
        key = tuple(board)
        cached = [self._cache.get((key, tuple(h))) for h in holdings]
        if None not in cached:
            self.prefetched += 1
            return cached  # type: ignore[return-value]
        request = _request([(tuple(board), tuple(h)) for h in holdings])
        for index in self._order():
            try:
                reply = self._stubs[index].EvaluateBatch(request, timeout=self._timeout,
                                                         metadata=self._metadata)
            except grpc.RpcError as err:
                code = err.code()
                if code not in RETRYABLE:
                    raise
                self._failed(index, code, err.details())
                continue
            self.calls[index] += 1
            return _ranks(reply)
        self.fallbacks += 1
        log.error("evaluators_unavailable", addresses=self.addresses, fallback="in_process")
        return local_ranks(board, holdings)

    def prefetch(self, board: Sequence[int], holdings: Sequence[Sequence[int]]) -> None:
        """Asks for these ranks soon, without waiting, for a showdown to read later
        (call on the event loop). Every prefetch of this turn of the loop goes in one call."""
        key = tuple(board)
        wanted = [(key, tuple(h)) for h in holdings if (key, tuple(h)) not in self._cache]
        if not wanted:
            return
        if not self._queued:
            asyncio.get_running_loop().call_soon(self._flush)
        self._queued.extend(wanted)

    def _flush(self) -> None:
        hands, self._queued = self._queued, []
        if not hands:
            return
        task = asyncio.get_running_loop().create_task(self._fetch(hands))
        self._pending[task] = (-1, time.monotonic())
        task.add_done_callback(self._pending.pop)

    async def _fetch(self, hands: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> None:
        if self._aio_stubs is None:
            self._aio_channels = [
                grpc.aio.secure_channel(a, self._credentials, options=self._options)
                if self._credentials else grpc.aio.insecure_channel(a, options=self._options)
                for a in self.addresses]
            self._aio_stubs = [evaluator_pb2_grpc.EvaluatorServiceStub(c)  # type: ignore[no-untyped-call]
                               for c in self._aio_channels]
        task = asyncio.current_task()
        request = _request(hands)
        for index in self._order():
            if task in self._pending:
                self._pending[task] = (index, time.monotonic())
            try:
                reply = await self._aio_stubs[index].EvaluateBatch(
                    request, timeout=self._timeout, metadata=self._metadata)
            except grpc.aio.AioRpcError as err:
                if err.code() not in RETRYABLE:
                    log.warning("evaluator_prefetch_failed", address=self.addresses[index],
                                code=err.code().name)
                    return
                self._failed(index, err.code(), err.details())
                continue
            self.calls[index] += 1
            if len(self._cache) > CACHE_SIZE:
                self._cache.clear()
            for hand, rank in zip(hands, _ranks(reply), strict=True):
                self._cache[hand] = rank
            return
        # Every evaluator failed: the showdown's own call falls back in process.

    def _failed(self, index: int, code: grpc.StatusCode, details: str | None) -> None:
        self._down_until[index] = time.monotonic() + BACKOFF_S
        log.warning("evaluator_failed", address=self.addresses[index], code=code.name)
        if code in REFUSED:
            log.error("evaluator_refused_token", address=self.addresses[index],
                      code=code.name, reason=details,
                      hint="give the dealer the evaluators' token: --evaluator-token or "
                           "POKER_EVALUATOR_TOKEN")

    def _order(self) -> list[int]:
        """Every address once, starting at the next in turn; those resting from a failure,
        or with a prefetch overdue (a hung evaluator), last."""
        n = len(self._stubs)
        start = next(self._turn) % n
        order = [(start + i) % n for i in range(n)]
        now = time.monotonic()
        overdue = {index for index, since in self._pending.values()
                   if index >= 0 and now - since > OVERDUE * self._timeout}
        return sorted(order, key=lambda i: self._down_until[i] > now or i in overdue)


def _request(hands: Sequence[tuple[tuple[int, ...], tuple[int, ...]]]
             ) -> evaluator_pb2.EvaluateBatchRequest:
    """(board, holding) pairs as one EvaluateBatch: every hand board + holding, packed."""
    size = len(hands[0][0]) + len(hands[0][1])
    if any(len(board) + len(hole) != size for board, hole in hands):
        raise ValueError("every hand of a batch must have the same number of cards")
    return evaluator_pb2.EvaluateBatchRequest(
        cards_per_hand=size, hands=b"".join(bytes(board + hole) for board, hole in hands))


def _ranks(reply: evaluator_pb2.EvaluateBatchResponse) -> list[int]:
    return list(array("H", reply.ranks)) if sys.byteorder == "little" else [
        int.from_bytes(reply.ranks[i:i + 2], "little") for i in range(0, len(reply.ranks), 2)]
