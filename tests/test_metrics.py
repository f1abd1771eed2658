"""Prometheus metrics (poker/metrics.py) scraped from real processes: each service's
endpoint serves its metrics and they move with what happens (hands dealt, decisions, money
moved, refusals counted by status code); README documents every metric and the Grafana
dashboard asks only for metrics that exist."""

from __future__ import annotations

import asyncio
import doctest
import json
import re
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from clients.bots import CallingStation, RandomBot
from clients.errors import ServiceError
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from poker import metrics, serving
from poker.procs import start_service
from poker.v1 import evaluator_pb2, evaluator_pb2_grpc
from services.evaluator.server import service as evaluator_service
from tests.sdk.conftest import funded, open_table, play_all, wait_until

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(port: int) -> Samples:
    """Every sample of the endpoint: (name, sorted labels) -> value."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named `name` whose labels include `labels`."""
    return sum(v for (n, found), v in samples.items()
               if n == name and set(labels.items()) <= set(found))


@pytest.fixture(scope="module")
def ports() -> dict[str, int]:
    return {"evaluator": free_port(), "dealer": free_port(), "lobby": free_port()}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory, ports: dict[str, int]
          ) -> Iterator[LocalSuite]:
    with LocalSuite(folder=tmp_path_factory.mktemp("metrics"),
                    evaluator_args=["--metrics-port", str(ports["evaluator"])],
                    dealer_args=["--metrics-port", str(ports["dealer"])],
                    lobby_args=["--metrics-port", str(ports["lobby"])]) as running:
        yield running


def test_every_service_serves_metrics_that_move_with_play(
        suite: LocalSuite, ports: dict[str, int]) -> None:
    before = {name: scrape(port) for name, port in ports.items()}
    assert value(before["dealer"], "poker_dealer_open_tables") == 0
    assert value(before["dealer"], "poker_dealer_lease_state",
                 poker_dealer_lease_state="embedded") == 1
    with LobbyClient(suite.lobby, suite.operator_token) as operator:
        table = open_table(operator, 2)
        players = funded(suite, operator, 2, deposit=5_000)
        for p in players:
            p.table = p.lobby.sit(table.table_id, buy_in=1000)
        # a refusal is counted under its status code
        with pytest.raises(ServiceError):
            operator.deposit("nobody-at-all", 10)
        play_all(players, [CallingStation(), RandomBot(seed=2)], table.table_id, until_hand=8)
        assert operator.audit().ok

    dealer = scrape(ports["dealer"])
    hands = value(dealer, "poker_dealer_hands_dealt_total")
    assert hands >= 8 > value(before["dealer"], "poker_dealer_hands_dealt_total")
    decisions = value(dealer, "poker_dealer_decisions_total")
    assert decisions >= hands  # every hand of two needs one decision at least
    assert value(dealer, "poker_dealer_decisions_total", action="call") > 0
    assert value(dealer, "poker_dealer_time_to_act_seconds_count") >= decisions - 2
    assert value(dealer, "poker_dealer_store_commit_seconds_count") > hands
    assert value(dealer, "poker_dealer_open_tables") == 1
    assert value(dealer, "poker_rpc_handled_total", service="poker.v1.DealerService",
                 method="SeatPlayer", code="OK") == 2
    assert value(dealer, "poker_rpc_duration_seconds_count", method="SeatPlayer") == 2
    assert value(dealer, "poker_rpc_handled_total", method="Play") == 2  # both streams ended
    wait_until(lambda: value(scrape(ports["dealer"]), "poker_rpc_streams_open",
                             method="Play") == 0)

    evaluator = scrape(ports["evaluator"])
    showdowns = value(evaluator, "poker_rpc_handled_total", method="EvaluateBatch", code="OK")
    assert showdowns > 0  # a calling station sees many showdowns
    assert value(evaluator, "poker_evaluator_batch_hands_count") == showdowns
    assert value(evaluator, "poker_evaluator_evaluations_total", kind="batch") >= 2 * showdowns

    lobby = scrape(ports["lobby"])
    assert value(lobby, "poker_lobby_money_moved_chips_total", kind="deposit") == 10_000
    assert value(lobby, "poker_lobby_money_moved_chips_total", kind="buy_in") == 2_000
    assert value(lobby, "poker_lobby_buy_ins_pending") == 0
    assert value(lobby, "poker_lobby_ledger_audit_ok") == 1
    assert value(lobby, "poker_lobby_ledger_audit_total_chips") == 0
    assert value(lobby, "poker_rpc_handled_total", method="Deposit", code="NOT_FOUND") == 1
    assert value(lobby, "poker_rpc_handled_total", method="Deposit", code="OK") == 2


@pytest.fixture
def counting() -> Iterator[None]:
    """Metrics counted in this process (as `--metrics-port` turns them on), then off again."""
    was = metrics.enabled()
    metrics.enable()
    try:
        yield
    finally:
        metrics.enable(was)


def _handled(method: str, code: str) -> float:
    return REGISTRY.get_sample_value("poker_rpc_handled_total", {
        "service": "poker.v1.EvaluatorService" if method.startswith("Evaluate")
        else "grpc.health.v1.Health", "method": method, "code": code}) or 0.0


def test_rpc_counting_counts_each_status_and_a_stream_the_caller_left(counting: None) -> None:
    running = serving.start([evaluator_service()], "127.0.0.1", 0)
    calls = [("EvaluateBatch", "OK"), ("EvaluateBatch", "INVALID_ARGUMENT"),
             ("EvaluateBatchStream", "OK"), ("Watch", "CANCELLED")]
    before = {call: _handled(*call) for call in calls}
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = evaluator_pb2_grpc.EvaluatorServiceStub(channel)
            stub.EvaluateBatch(evaluator_pb2.EvaluateBatchRequest(
                cards_per_hand=5, hands=bytes(range(5))))
            with pytest.raises(grpc.RpcError) as refused:
                stub.EvaluateBatch(evaluator_pb2.EvaluateBatchRequest(cards_per_hand=4))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            list(stub.EvaluateBatchStream(iter([evaluator_pb2.EvaluateBatchStreamRequest(
                cards_per_hand=5, hands=bytes(range(5)))])))
            watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
            next(watch)
            watch.cancel()
            wait_until(lambda: _handled("Watch", "CANCELLED") > before[("Watch", "CANCELLED")])
    finally:
        running.stop(0)
    assert {call: _handled(*call) - before[call] for call in calls} == dict.fromkeys(calls, 1)


def test_the_metrics_module_doctests_pass() -> None:
    result = doctest.testmod(metrics)
    assert result.attempted >= 2 and result.failed == 0


def _readme_metrics() -> set[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("### Metrics", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(poker_[a-z_]+)`", section, re.MULTILINE))


def test_readme_documents_every_metric() -> None:
    assert _readme_metrics() == set(metrics.metric_names())


def _exposed(name: str) -> set[str]:
    return {name, f"{name}_total", f"{name}_bucket", f"{name}_count", f"{name}_sum"}


def test_grafana_dashboard_asks_only_for_metrics_that_exist() -> None:
    dashboard = json.loads((ROOT / "deploy/grafana/poker.json").read_text())
    known = {e for n in metrics.metric_names() for e in _exposed(n)}
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel.get("targets", [])]
    assert len(exprs) >= 10
    asked = {m for e in exprs for m in re.findall(r"\bpoker_[a-z_]+", e)}
    assert asked and asked <= known, asked - known
    # every service's own metrics are on the dashboard
    for prefix in ("poker_rpc_", "poker_dealer_", "poker_evaluator_", "poker_lobby_"):
        assert any(m.startswith(prefix) for m in asked), prefix


def test_a_metrics_port_taken_stops_the_service_with_the_reason(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        log = tmp_path / "lobby.log"
        with pytest.raises(RuntimeError, match="did not start"):
            start_service("lobby", ["--db", str(tmp_path / "lobby.sqlite"),
                                    "--operator-token", "x", "--metrics-port", str(port)],
                          log_path=log, timeout=20)
    assert "metrics_unavailable" in log.read_text()
    assert f"--metrics-port {port} on 127.0.0.1" in log.read_text()


class _Capture:
    """A server that keeps the method handlers registered with it, in `registered`."""

    def __init__(self, registered: dict[str, grpc.RpcMethodHandler]) -> None:
        self.registered = registered

    def add_generic_rpc_handlers(self, generic: object) -> None:
        pass

    def add_registered_method_handlers(self, service: str,
                                       handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.registered.update(handlers)


def test_a_service_registered_through_poker_wire_counts_every_call_of_its_handlers(
        counting: None) -> None:
    """poker.wire.register puts poker.metrics' counting around each handler once, as it
    registers them (no interceptor): the handlers the server gets count every call, a
    request refused by the wire guard among them, by its status."""
    from poker import wire

    def answer(request: object, context: object) -> int:
        return 7

    class Context:
        def __init__(self) -> None:
            self.status: grpc.StatusCode | None = None

        def code(self) -> grpc.StatusCode | None:
            return self.status

        def is_active(self) -> bool:
            return True

        def abort(self, code: grpc.StatusCode, message: str) -> None:
            self.status = code
            raise grpc.RpcError(message)

        def set_trailing_metadata(self, metadata: object) -> None:
            pass

    registered: dict[str, grpc.RpcMethodHandler] = {}
    method = grpc.unary_unary_rpc_method_handler(
        answer, request_deserializer=health_pb2.HealthCheckRequest.FromString)
    wire.register(_Capture(registered), "poker.v1.TestOnly", {"Counted": method})  # type: ignore[arg-type]

    def handled(code: str) -> float:
        return REGISTRY.get_sample_value("poker_rpc_handled_total", {
            "service": "poker.v1.TestOnly", "method": "Counted", "code": code}) or 0.0

    before = handled("OK"), handled("INVALID_ARGUMENT")
    handler = registered["Counted"].unary_unary
    for _ in range(3):
        assert handler(health_pb2.HealthCheckRequest(service="x").SerializeToString(),
                       Context()) == 7
    with pytest.raises(grpc.RpcError):
        handler(b"\xff", Context())  # not a HealthCheckRequest: the guard refuses it
    assert (handled("OK") - before[0], handled("INVALID_ARGUMENT") - before[1]) == (3, 1)

    async def later(request: object, context: object) -> int:
        return 8

    counted = metrics.instrumented("poker.v1.TestOnly", {
        "Counted": grpc.unary_unary_rpc_method_handler(later)}, on_loop=True)["Counted"]
    assert asyncio.run(counted.unary_unary(None, Context())) == 8
    assert handled("OK") - before[0] == 4


def test_with_no_metrics_endpoint_nothing_is_counted_and_no_handler_is_wrapped() -> None:
    """Metrics nobody can read cost nothing: with counting off (no --metrics-port, the
    default) poker.wire.register gives the server the guarded handlers themselves, and a
    table's write, an evaluation and a ledger transfer count nothing."""
    from poker import wire
    from poker.vocab import events as ev

    assert not metrics.enabled()  # the default of a process (serve_from_args turns it on)
    handlers = {"Plain": grpc.unary_unary_rpc_method_handler(
        lambda request, context: 7, request_deserializer=health_pb2.HealthCheckRequest.FromString)}
    registered: dict[str, grpc.RpcMethodHandler] = {}
    wire.register(_Capture(registered), "poker.v1.Uncounted", handlers)  # type: ignore[arg-type]
    guarded = wire.guarded("poker.v1.Uncounted", handlers)["Plain"].unary_unary
    assert registered["Plain"].unary_unary.__qualname__ == guarded.__qualname__
    assert "metrics" not in registered["Plain"].unary_unary.__module__

    def counts() -> tuple[float, ...]:
        return tuple(REGISTRY.get_sample_value(name, labels) or 0.0 for name, labels in (
            ("poker_dealer_hands_dealt_total", {}),
            ("poker_dealer_store_commit_seconds_count", {}),
            ("poker_evaluator_evaluations_total", {"kind": "hand"}),
            ("poker_lobby_money_moved_chips_total", {"kind": "deposit"})))

    def count_some() -> None:
        metrics.table_committed("uncounted", [object.__new__(ev.HandStarted)], 1_000, 0.001)
        metrics.evaluated("hand", 5)
        metrics.money_moved("deposit", 100)

    before = counts()
    count_some()
    assert counts() == before
    metrics.enable()  # the same calls, counted: the figures read above are the right ones
    try:
        count_some()
    finally:
        metrics.enable(False)
    assert [after - was for after, was in zip(counts(), before, strict=True)] == [1, 1, 5, 100]


def test_the_lock_free_metrics_expose_what_prometheus_client_s_do() -> None:
    """poker.metrics.Histogram and Counter (an observation appended, folded in when read)
    scrape as prometheus-client's of the same name, labels and buckets do: the same
    bucket counts, counts, sums and totals, by label, bounds and the +Inf bucket
    included; a counter refuses a negative amount as theirs does."""
    import random

    from prometheus_client import CollectorRegistry
    from prometheus_client import Counter as ReferenceCounter
    from prometheus_client import Histogram as Reference

    ours, theirs = CollectorRegistry(), CollectorRegistry()
    mine = metrics.Histogram("demo_seconds", "Demo", ["method", "code"],
                             buckets=(0.001, 0.01, 1.0), registry=ours)
    reference = Reference("demo_seconds", "Demo", ["method", "code"],
                          buckets=(0.001, 0.01, 1.0), registry=theirs)
    my_count = metrics.Counter("demo_chips", "Demo", ["kind"], registry=ours)
    their_count = ReferenceCounter("demo_chips", "Demo", ["kind"], registry=theirs)
    rng = random.Random(7)
    for _ in range(2_000):
        labels = rng.choice([("Act", "OK"), ("Seat", "NOT_FOUND")])
        value = rng.choice([0.0005, 0.001, 0.005, 0.01, 0.5, 1.0, 3.0, rng.random()])
        mine.labels(*labels).observe(value)
        reference.labels(*labels).observe(value)
        chips = rng.randrange(1, 10_000)
        my_count.labels(labels[0]).inc(chips)
        their_count.labels(labels[0]).inc(chips)
    with pytest.raises(ValueError):
        my_count.labels("Act").inc(-1)

    def samples(registry: CollectorRegistry) -> dict[tuple[str, tuple[Any, ...]], float]:
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in registry.collect() for s in family.samples
                if not s.name.endswith("_created")}

    got, want = samples(ours), samples(theirs)
    assert got.keys() == want.keys() and len(got) == 2 * (4 + 2) + 2
    for key, value in want.items():
        assert got[key] == pytest.approx(value), key


def test_the_lock_free_histogram_loses_no_observation_across_threads() -> None:
    """Four threads observe at once, past MAX_PENDING (so the observers fold too) while a
    scrape reads: every observation is counted once."""
    import threading

    from prometheus_client import CollectorRegistry

    registry = CollectorRegistry()
    histogram = metrics.Histogram("race_seconds", "Race", buckets=(0.5,), registry=registry)
    each = metrics.Histogram.MAX_PENDING + 1_500

    def observe() -> None:
        for i in range(each):
            histogram.observe(0.25 if i % 2 else 0.75)

    threads = [threading.Thread(target=observe) for _ in range(4)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        registry.get_sample_value("race_seconds_count")
    for t in threads:
        t.join()
    assert registry.get_sample_value("race_seconds_count") == 4 * each
    assert registry.get_sample_value("race_seconds_bucket", {"le": "0.5"}) == 4 * each // 2
    assert registry.get_sample_value("race_seconds_sum") == pytest.approx(4 * each * 0.5)


def test_a_table_write_counts_hands_decisions_and_the_time_to_act_once_each(
        counting: None) -> None:
    """metrics.table_committed looks at a write's kinds once: a HandStarted counts a hand,
    each ActionTaken a decision of its kind, the time to act runs from the write that
    started the turn to the write that answered it (one observation a write), and a hand
    that ends with no turn after it leaves no turn open."""
    from poker.vocab import events as ev
    from poker.vocab import table_events as tev
    from poker.vocab.enums import ActionKind

    def value(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    def blank(cls: type) -> Any:
        return object.__new__(cls)  # only a write's kinds are read, and an action's kind

    table = "metrics-unit-table"
    hands, calls = value("poker_dealer_hands_dealt_total"), value(
        "poker_dealer_decisions_total", action="call")
    acted = value("poker_dealer_time_to_act_seconds_count")
    acted_sum = value("poker_dealer_time_to_act_seconds_sum")
    metrics.table_committed(table, [blank(ev.HandStarted), blank(tev.TurnStarted)], 1_000,
                            0.001)
    call = ev.ActionTaken(seat=1, action=ActionKind.CALL, to=20, added=10)
    metrics.table_committed(table, [call, call, blank(tev.TurnStarted)], 1_250, 0.001)
    metrics.table_committed(table, [call, blank(ev.HandEnded)], 1_750, 0.001)
    metrics.table_committed(table, [call], 9_000, 0.001)  # no turn open: not timed
    assert value("poker_dealer_hands_dealt_total") == hands + 1
    assert value("poker_dealer_decisions_total", action="call") == calls + 4
    assert value("poker_dealer_time_to_act_seconds_count") == acted + 2
    assert value("poker_dealer_time_to_act_seconds_sum") == pytest.approx(acted_sum + 0.75)
