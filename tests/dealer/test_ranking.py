"""The remote ranker's prefetch: showdown ranks asked for ahead, off the event loop."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from poker.v1 import evaluator_pb2, evaluator_pb2_grpc
from services.dealer import ranking
from services.dealer.ranking import RemoteRanker, local_ranks

BOARD = [0, 4, 8, 30, 51]
HOLDINGS = [(13, 17), (50, 45), (1, 2)]


class FakeEvaluator(evaluator_pb2_grpc.EvaluatorServiceServicer):
    """EvaluateBatch only (what the dealer calls); `hang` holds every call until released."""

    def __init__(self) -> None:
        self.calls = 0
        self.hands = 0
        self.hang = threading.Event()
        self.release = threading.Event()
        self.authorization: list[str | None] = []  # per call, as sent
        self.refuse: grpc.StatusCode | None = None  # answer every call with this code

    def EvaluateBatch(self, request: evaluator_pb2.EvaluateBatchRequest,
                      context: grpc.ServicerContext) -> evaluator_pb2.EvaluateBatchResponse:
        self.calls += 1
        self.authorization.append(dict(context.invocation_metadata()).get("authorization"))
        if self.refuse is not None:
            context.abort(self.refuse, "refused by the fake")
        if self.hang.is_set():
            self.release.wait(5)
        size, packed = request.cards_per_hand, request.hands
        hands = [list(packed[i:i + size]) for i in range(0, len(packed), size)]
        self.hands += len(hands)
        ranks = [local_ranks(hand[:5], [hand[5:]])[0] for hand in hands]
        return evaluator_pb2.EvaluateBatchResponse(
            ranks=b"".join(r.to_bytes(2, "little") for r in ranks))


@pytest.fixture
def evaluators() -> Iterator[list[tuple[FakeEvaluator, str]]]:
    running = []
    for _ in range(2):
        fake = FakeEvaluator()
        server = grpc.server(futures.ThreadPoolExecutor(4))
        evaluator_pb2_grpc.add_EvaluatorServiceServicer_to_server(fake, server)  # type: ignore[no-untyped-call]
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        running.append((fake, f"127.0.0.1:{port}", server))
    yield [(fake, address) for fake, address, _ in running]
    for fake, _, server in running:
        fake.release.set()
        server.stop(0)


def test_a_showdown_reads_the_ranks_prefetched_off_the_loop(
        evaluators: list[tuple[FakeEvaluator, str]]) -> None:
    ranker = RemoteRanker([address for _, address in evaluators], timeout_s=2.0)

    async def scenario() -> list[int]:
        ranker.prefetch(BOARD, HOLDINGS)
        for _ in range(200):
            if sum(ranker.calls):
                break
            await asyncio.sleep(0.01)
        # The showdown asks for the hands still in, any subset, in any order.
        return ranker.rank_holdings(BOARD, [HOLDINGS[2], HOLDINGS[0]])

    try:
        ranks = asyncio.run(scenario())
    finally:
        ranker.close()
    assert ranks == local_ranks(BOARD, [HOLDINGS[2], HOLDINGS[0]])
    assert ranker.prefetched == 1 and sum(ranker.calls) == 1
    assert sum(fake.calls for fake, _ in evaluators) == 1  # the showdown made no call


def test_a_hung_evaluator_stalls_no_showdown(
        evaluators: list[tuple[FakeEvaluator, str]]) -> None:
    """A prefetch overdue on one evaluator sends the showdown's own call to the other."""
    (hung, _), (healthy, _) = evaluators
    hung.hang.set()
    timeout = 4.0  # waiting for the hung call would take seconds: well apart from a busy call
    ranker = RemoteRanker([address for _, address in evaluators], timeout_s=timeout)

    async def scenario() -> tuple[list[int], float]:
        ranker._turn = itertools.count(0, 2)  # every call starts at the hung one
        ranker.prefetch(BOARD, HOLDINGS)
        await asyncio.sleep(ranking.OVERDUE * timeout + 0.1)
        assert hung.calls == 1 and not sum(ranker.calls)
        started = time.monotonic()
        return ranker.rank_holdings(BOARD, HOLDINGS), time.monotonic() - started

    try:
        ranks, waited = asyncio.run(scenario())
    finally:
        hung.release.set()
        ranker.close()
    assert ranks == local_ranks(BOARD, HOLDINGS)
    assert healthy.calls == 1 and waited < timeout / 2


def test_prefetches_of_one_turn_of_the_loop_share_one_call(
        evaluators: list[tuple[FakeEvaluator, str]]) -> None:
    ranker = RemoteRanker([address for _, address in evaluators], timeout_s=2.0)
    other_board = [5, 9, 13, 26, 40]
    other_holdings = [(0, 1), (2, 3)]

    async def scenario() -> tuple[list[int], list[int]]:
        ranker.prefetch(BOARD, HOLDINGS)  # two tables complete a board in the same turn
        ranker.prefetch(other_board, other_holdings)
        for _ in range(200):
            if sum(ranker.calls):
                break
            await asyncio.sleep(0.01)
        return (ranker.rank_holdings(BOARD, HOLDINGS),
                ranker.rank_holdings(other_board, other_holdings))

    try:
        first, second = asyncio.run(scenario())
    finally:
        ranker.close()
    assert first == local_ranks(BOARD, HOLDINGS)
    assert second == local_ranks(other_board, other_holdings)
    assert sum(fake.calls for fake, _ in evaluators) == 1
    assert sum(fake.hands for fake, _ in evaluators) == len(HOLDINGS) + len(other_holdings)
    assert ranker.prefetched == 2


def test_the_evaluator_token_is_sent_on_every_call(
        evaluators: list[tuple[FakeEvaluator, str]]) -> None:
    ranker = RemoteRanker([address for _, address in evaluators], timeout_s=2.0, token="s3cret")

    async def scenario() -> list[int]:
        ranker.prefetch(BOARD, HOLDINGS)  # the asyncio path
        for _ in range(200):
            if sum(ranker.calls):
                break
            await asyncio.sleep(0.01)
        return ranker.rank_holdings(BOARD, [(3, 7), (9, 10)])  # not prefetched: blocking path

    try:
        asyncio.run(scenario())
    finally:
        ranker.close()
    sent = [a for fake, _ in evaluators for a in fake.authorization]
    assert sent == ["Bearer s3cret", "Bearer s3cret"]


@pytest.mark.parametrize("code", [grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  grpc.StatusCode.UNAUTHENTICATED])
def test_a_busy_or_refusing_evaluator_fails_over_to_the_next(
        evaluators: list[tuple[FakeEvaluator, str]], code: grpc.StatusCode) -> None:
    (refusing, _), (healthy, _) = evaluators
    refusing.refuse = code
    ranker = RemoteRanker([address for _, address in evaluators], timeout_s=2.0)
    ranker._turn = itertools.count(0, 2)  # every call starts at the refusing one
    try:
        assert ranker.rank_holdings(BOARD, HOLDINGS) == local_ranks(BOARD, HOLDINGS)
        assert ranker.rank_holdings(BOARD, HOLDINGS) == local_ranks(BOARD, HOLDINGS)
    finally:
        ranker.close()
    assert refusing.calls == 1  # then passed over while it rests
    assert healthy.calls == 2 and ranker.fallbacks == 0
