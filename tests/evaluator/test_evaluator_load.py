"""End to end on a real evaluator process: deadlines and cancellation stop the work, big
requests neither starve small ones nor queue without bound, input limits, the service token."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from poker.procs import ServiceProcess, start_service
from poker.v1 import evaluator_pb2 as pb
from poker.v1.evaluator_pb2_grpc import EvaluatorServiceStub

WIDE = "22+, A2s+, K9o+"
OPTIONS = [("grpc.max_send_message_length", 64 << 20),
           ("grpc.max_receive_message_length", 64 << 20)]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_in(pid: int, seconds: float) -> float:
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


def big() -> pb.EquityRequest:
    """Ten players with wide ranges at the Monte Carlo limit: seconds of work."""
    return pb.EquityRequest(players=[pb.EquityPlayer(range=WIDE)] * 10,
                            method=pb.EQUITY_METHOD_MONTE_CARLO, trials=300_000, seed=5)


def small() -> pb.EquityRequest:
    return pb.EquityRequest(players=[pb.EquityPlayer(cards=["Ah", "Kh"]),
                                     pb.EquityPlayer(cards=["Qs", "Qd"])],
                            method=pb.EQUITY_METHOD_MONTE_CARLO, trials=1000, seed=1)


def refused(call: Callable[[], object], code: grpc.StatusCode, *words: str) -> str:
    with pytest.raises(grpc.RpcError) as info:
        call()
    err: grpc.Call = info.value
    assert err.code() == code, (err.code(), err.details())
    for word in words:
        assert word in err.details(), err.details()
    return str(err.details())


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[ServiceProcess, EvaluatorServiceStub]]:
    log_path = tmp_path_factory.mktemp("evaluator") / "evaluator.log"
    proc = start_service("evaluator", ["--max-heavy-calls", "2"], log_path=log_path)
    with grpc.insecure_channel(proc.address, options=OPTIONS) as channel:
        yield proc, EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
    proc.stop()


def wait_idle(pid: int, timeout: float = 30.0) -> None:
    """Until the process burns (almost) no CPU: the previous test's work is gone."""
    deadline = time.monotonic() + timeout
    while cpu_in(pid, 0.5) > 0.1:
        assert time.monotonic() < deadline, "the evaluator never went idle"


def wait_busy(pid: int, cpu: float = 0.3, timeout: float = 30.0) -> None:
    """Until the process has burnt `cpu` more seconds: the calls just sent are computing."""
    start, deadline = cpu_seconds(pid), time.monotonic() + timeout
    while cpu_seconds(pid) - start < cpu:
        assert time.monotonic() < deadline, "the evaluator never started computing"
        time.sleep(0.05)


def test_work_stops_soon_after_the_deadline_passes(
    loaded: tuple[ServiceProcess, EvaluatorServiceStub],
) -> None:
    proc, stub = loaded
    wait_idle(proc.popen.pid)
    refused(lambda: stub.Equity(big(), timeout=1.0), grpc.StatusCode.DEADLINE_EXCEEDED)
    time.sleep(0.3)  # a slice in progress ends (tens of milliseconds)
    spent = cpu_in(proc.popen.pid, 2.0)
    assert spent < 0.5, f"{spent:.2f} CPU seconds in the 2 s after the deadline"


def test_work_stops_soon_after_the_call_is_cancelled(
    loaded: tuple[ServiceProcess, EvaluatorServiceStub],
) -> None:
    proc, stub = loaded
    wait_idle(proc.popen.pid)
    calls = [stub.Equity.future(big(), timeout=120) for _ in range(2)]
    wait_busy(proc.popen.pid)
    for call in calls:
        assert call.cancel()
    time.sleep(0.3)
    spent = cpu_in(proc.popen.pid, 2.0)
    assert spent < 0.5, f"{spent:.2f} CPU seconds in the 2 s after the cancel"


def test_big_requests_neither_starve_small_ones_nor_queue_without_bound(
    loaded: tuple[ServiceProcess, EvaluatorServiceStub],
) -> None:
    proc, stub = loaded
    wait_idle(proc.popen.pid)
    bigs = [stub.Equity.future(big(), timeout=120) for _ in range(2)]
    try:
        wait_busy(proc.popen.pid)  # both admitted (a plan takes milliseconds) and computing
        started = time.monotonic()
        reply = stub.Equity(small(), timeout=30)
        waited = time.monotonic() - started
        assert reply.deals == 1000
        assert not any(b.done() for b in bigs), "the big calls ended first: make them bigger"
        assert waited < 5.0, f"a 1,000-trial Equity took {waited:.1f} s beside two big ones"
        # A third big one finds the queue full: refused at once, saying to retry.
        message = refused(lambda: stub.Equity(big(), timeout=30),
                          grpc.StatusCode.RESOURCE_EXHAUSTED, "busy", "retry")
        assert len(message) < 400
        batch = pb.EvaluateBatchRequest(cards_per_hand=5, hands=bytes(range(5)) * 1000)
        assert len(stub.EvaluateBatch(batch, timeout=30).ranks) == 2000  # small: served
    finally:
        for b in bigs:
            b.cancel()


def test_an_equity_method_out_of_range_is_invalid_argument(
    loaded: tuple[ServiceProcess, EvaluatorServiceStub],
) -> None:
    _, stub = loaded
    request = small()
    request.method = 99  # type: ignore[assignment]
    refused(lambda: stub.Equity(request, timeout=30), grpc.StatusCode.INVALID_ARGUMENT,
            "method 99 is not an EquityMethod")


MB = "A" * (1 << 20)


@pytest.mark.parametrize(
    ("rpc", "request_", "words"),
    [
        ("EvaluateHand", pb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", MB]),
         ("hand 0", "'AAAA", "is not a card")),
        ("EvaluateHand", pb.EvaluateHandRequest(cards=["As"] * 100_000),
         ("hand 0", "100000 entries, at most 52")),
        ("Equity", pb.EquityRequest(players=[pb.EquityPlayer(range=MB),
                                             pb.EquityPlayer(range="KK")]),
         ("player 0: range", "1048576 characters, at most 4096")),
        ("Equity", pb.EquityRequest(players=[pb.EquityPlayer(range="A" * 4000),
                                             pb.EquityPlayer(range="KK")]),
         ("player 0", "is not range notation")),
        ("Equity", pb.EquityRequest(players=[pb.EquityPlayer(cards=["Ah", "Kh"])] * 5000),
         ("2 to 10 players, not 5000",)),
        ("Equity", pb.EquityRequest(players=[pb.EquityPlayer(cards=["Ah", "Kh"]),
                                             pb.EquityPlayer(range="KK")], board=[MB]),
         ("board", "is not a card")),
        ("Showdown", pb.ShowdownRequest(board=["As", "Ks", "Qs", "Js", "2c"],
                                        holdings=[pb.Holding(cards=[MB, "3c"])]),
         ("holding 0", "is not a card")),
        ("Showdown", pb.ShowdownRequest(board=["As", "Ks", "Qs", "Js", "2c"],
                                        holdings=[pb.Holding(cards=["3c", "4c"])] * 5000),
         ("1 to 10 holdings, not 5000",)),
    ],
)
def test_a_huge_bad_input_is_invalid_argument_quoting_a_short_prefix(
    loaded: tuple[ServiceProcess, EvaluatorServiceStub], rpc: str, request_: object,
    words: tuple[str, ...],
) -> None:
    _, stub = loaded
    message = refused(lambda: getattr(stub, rpc)(request_, timeout=30),
                      grpc.StatusCode.INVALID_ARGUMENT, *words)
    assert len(message) < 300, message


def test_a_call_past_its_cpu_allowance_is_stopped_with_resource_exhausted(
    tmp_path: Path,
) -> None:
    proc = start_service("evaluator", ["--max-call-cpu-seconds", "0.3"],
                         log_path=tmp_path / "evaluator.log")
    try:
        with grpc.insecure_channel(proc.address) as channel:
            stub = EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
            refused(lambda: stub.Equity(big(), timeout=60), grpc.StatusCode.RESOURCE_EXHAUSTED,
                    "more than the 0.3 s one call may take", "fewer trials")
            assert stub.Equity(small(), timeout=30).deals == 1000
    finally:
        proc.stop()


def test_a_service_token_is_required_when_configured(tmp_path: Path) -> None:
    proc = start_service("evaluator", env={"POKER_EVALUATOR_TOKEN": "s3cret"},
                         log_path=tmp_path / "evaluator.log")
    hand = pb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", "Ts"])
    try:
        with grpc.insecure_channel(proc.address) as channel:
            stub = EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
            refused(lambda: stub.EvaluateHand(hand, timeout=10),
                    grpc.StatusCode.UNAUTHENTICATED, "requires its service token")
            refused(lambda: stub.EvaluateHand(hand, timeout=10,
                                              metadata=[("authorization", "Bearer nope")]),
                    grpc.StatusCode.UNAUTHENTICATED, "not this evaluator's service token")
            refused(lambda: stub.Equity(small(), timeout=10,
                                        metadata=[("authorization", "Bearer " + "x" * 5000)]),
                    grpc.StatusCode.UNAUTHENTICATED, "not this evaluator's service token")
            stream = stub.EvaluateBatchStream(
                iter([pb.EvaluateBatchStreamRequest(cards_per_hand=5, hands=bytes(range(5)))]),
                timeout=10)
            refused(lambda: list(stream), grpc.StatusCode.UNAUTHENTICATED)
            good = [("authorization", "Bearer s3cret")]
            assert stub.EvaluateHand(hand, timeout=10, metadata=good).rank == 7462
            assert stub.Equity(small(), timeout=10, metadata=good).deals == 1000
            health = health_pb2_grpc.HealthStub(channel)  # open: orchestrators ask it
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
            assert status == health_pb2.HealthCheckResponse.SERVING
        # The SDK's client sends the token it is given, and only then is served.
        from clients.cards import cards
        from clients.evaluator import EvaluatorClient
        sdk = EvaluatorClient(proc.address, token="s3cret", retry=None)
        try:
            assert sdk.evaluate(cards("As Ks Qs Js Ts")).rank == 7462
        finally:
            sdk.close()
        anonymous = EvaluatorClient(proc.address)
        try:
            with pytest.raises(Exception, match="service token"):
                anonymous.evaluate(cards("As Ks Qs Js Ts"))
        finally:
            anonymous.close()
    finally:
        proc.stop()
