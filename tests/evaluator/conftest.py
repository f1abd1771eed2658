"""Fixtures of the evaluator's tests: seeded random hands, and one evaluator process per module."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import numpy as np
import numpy.typing as npt
import pytest

from poker.procs import ServiceProcess, start_service
from poker.v1 import evaluator_pb2_grpc


def _random_hands(count: int, size: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    hands = np.empty((count, size), dtype=np.uint8)
    for start in range(0, count, 1 << 16):  # in pieces: the sort keys stay small
        n = min(1 << 16, count - start)
        hands[start : start + n] = np.argsort(rng.random((n, 52)), axis=1)[:, :size]
    return hands


@pytest.fixture
def random_hands() -> Callable[[int, int, int], npt.NDArray[np.uint8]]:
    """`random_hands(count, size, seed)`: hands of `size` distinct cards, uniform, seeded."""
    return _random_hands


@pytest.fixture(scope="module")
def evaluator_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log_path = tmp_path_factory.mktemp("evaluator") / "evaluator.log"
    proc = start_service("evaluator", ["--max-batch-hands", "50000", "--max-trials", "2000000"],
                         log_path=log_path)
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def stub(evaluator_process: ServiceProcess) -> Iterator[evaluator_pb2_grpc.EvaluatorServiceStub]:
    options = [("grpc.max_send_message_length", 64 << 20),
               ("grpc.max_receive_message_length", 64 << 20)]
    with grpc.insecure_channel(evaluator_process.address, options=options) as channel:
        yield evaluator_pb2_grpc.EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
