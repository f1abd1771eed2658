"""Prometheus metrics of every service: their definitions, the RPCs' counting, the endpoint.

Every metric of the suite is defined here, once, in prometheus-client's default
registry, and documented in README "Metrics". A service serves them over HTTP on
`--metrics-port` (0, the default: not served) at `--metrics-host`
(`serve_from_args`). Only then is anything counted: a service whose metrics nobody can
read does not pay for them (the RPCs are not wrapped, `table_committed`, `evaluated` and
`money_moved` return at once). `enable()` turns counting on without the endpoint (a
process that exposes the default registry itself); it must come before the servers are
built, since their handlers are wrapped when registered.

- RPCs: `instrumented` (poker.wire.register applies it to every service of every server,
  sync and asyncio, when counting is on) counts every call by service, method and status
  code, times the unary ones, and gauges the streams open.
- The dealer: `table_committed` (one call per write of a table: hands dealt, decisions,
  time to act, store commit latency), `gauge_tables` (open tables), and for the
  table leases `set_lease_state` / `set_tables_owned` / `table_adopted` / `table_lost`.
- The evaluator: `evaluated` (batch sizes, evaluations by kind).
- The lobby: `money_moved`, `gauge_buy_ins_pending`, `audited` / `gauge_audit`.

>>> "poker_dealer_lease_state" in metric_names() and "embedded" in LEASE_STATES
True
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import threading
import time
from bisect import bisect_left
from collections import Counter as _tally
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

import grpc
from prometheus_client import REGISTRY, Enum, Gauge, start_http_server
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.registry import CollectorRegistry
from prometheus_client.samples import Sample
from prometheus_client.utils import floatToGoString

from poker.vocab import events as ev
from poker.vocab import table_events as tev
from poker.vocab.enums import ActionKind

# ------------------------------------------------------------------------ RPCs

#: Latency buckets (seconds): a decision takes about a millisecond, an equity call up to seconds.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5, 5.0, 10.0, 30.0)


class _Lockless:
    """A metric family whose children take no lock to count: each observation is appended
    to the child's deque (one atomic C call, from any thread) and folded in when a scrape
    reads it, or when MAX_PENDING are waiting. prometheus-client's own metrics take a lock
    on every observation (a histogram walks its buckets in Python too: about 1.4 us), and
    the dealer counts several times a decision. Exposed exactly as prometheus-client's
    metric of the same kind, name and labels; `labels(...)` gives the child of those label
    values, made once."""

    #: Observations a child holds before the observing thread folds them in.
    MAX_PENDING = 4096

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str],
                 registry: CollectorRegistry | None) -> None:
        self._name, self._documentation = name, documentation
        self._labelnames = tuple(labelnames)
        self._children: dict[tuple[str, ...], Any] = {}
        self._lock = threading.Lock()
        if not self._labelnames:
            self._only = self.labels()
        if registry is not None:
            registry.register(self)  # type: ignore[arg-type]  # describe() and collect()

    def _child(self) -> Any:
        raise NotImplementedError

    def labels(self, *values: str) -> Any:
        if len(values) != len(self._labelnames):
            raise ValueError(f"{self._name}: labels {self._labelnames}, given {values!r}")
        key = tuple(str(v) for v in values)
        child = self._children.get(key)
        if child is None:
            with self._lock:
                child = self._children.setdefault(key, self._child())
        return child

    def _samples(self) -> Iterator[tuple[tuple[str, ...], dict[str, str], Any]]:
        for key, child in list(self._children.items()):
            yield key, dict(zip(self._labelnames, key, strict=True)), child


class _Pending:
    """What a child has counted and what waits to be: `fold(amount)` runs for each waiting
    amount, under the child's lock, when it is read or MAX_PENDING are waiting."""

    __slots__ = ("created", "lock", "pending")

    def __init__(self) -> None:
        self.created = time.time()
        self.pending: deque[float] = deque()
        self.lock = threading.Lock()

    def add(self, amount: float) -> None:
        pending = self.pending
        pending.append(amount)
        if len(pending) > _Lockless.MAX_PENDING:
            self.drain()

    def drain(self) -> None:
        with self.lock:
            pending = self.pending
            # The amounts waiting now, each taken off by one atomic popleft: one appended
            # meanwhile, from any thread, waits for the next drain.
            taken = [pending.popleft() for _ in range(len(pending))]
            if taken:
                self.fold(taken)

    def fold(self, amounts: list[float]) -> None:
        """Folds the amounts taken off the deque in (under the lock)."""
        raise NotImplementedError


class Histogram(_Lockless):
    """A Prometheus histogram that takes no lock to observe (`_Lockless`), scraped as
    prometheus-client's Histogram of the same name, labels and buckets (`_bucket` by
    `le`, `_count`, `_sum`, `_created`).

    >>> registry = CollectorRegistry()
    >>> latency = Histogram("demo_seconds", "Demo", ["method"], buckets=(0.1, 1.0),
    ...                     registry=registry)
    >>> for seconds in (0.05, 0.5, 2.0):
    ...     latency.labels("Act").observe(seconds)
    >>> registry.get_sample_value("demo_seconds_bucket", {"method": "Act", "le": "1.0"})
    2.0
    >>> registry.get_sample_value("demo_seconds_count", {"method": "Act"})
    3.0
    """

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = (),
                 buckets: Sequence[float] = LATENCY_BUCKETS,
                 registry: CollectorRegistry | None = REGISTRY) -> None:
        self._bounds = tuple(float(b) for b in buckets if b != float("inf")) + (float("inf"),)
        self._les = tuple(str(floatToGoString(b)) for b in self._bounds)  # type: ignore[no-untyped-call]
        super().__init__(name, documentation, labelnames, registry)

    def _child(self) -> _HistogramChild:
        return _HistogramChild(self._bounds)

    def observe(self, amount: float) -> None:
        """An observation of a histogram without labels."""
        self._only.add(amount)

    def describe(self) -> list[HistogramMetricFamily]:
        return [HistogramMetricFamily(self._name, self._documentation,
                                      labels=self._labelnames)]

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(self._name, self._documentation,
                                       labels=self._labelnames)
        for key, labels, child in self._samples():
            counts, total = child.read()
            cumulative, buckets = 0, []
            for le, count in zip(self._les, counts, strict=True):
                cumulative += count
                buckets.append((le, float(cumulative)))
            family.add_metric(list(key), buckets, total)
            family.samples.append(Sample(f"{self._name}_created", labels, child.created))
        yield family


class _HistogramChild(_Pending):
    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        super().__init__()
        self.bounds, self.counts, self.sum = bounds, [0] * len(bounds), 0.0

    observe = _Pending.add

    def fold(self, amounts: list[float]) -> None:
        counts = self.counts
        for bucket, n in _tally(map(partial(bisect_left, self.bounds), amounts)).items():
            counts[bucket] += n  # a bucket per distinct one, counted in C
        self.sum += sum(amounts)

    def read(self) -> tuple[list[int], float]:
        """(count per bucket, not cumulative; sum), every observation folded in."""
        self.drain()
        with self.lock:
            return list(self.counts), self.sum


class Counter(_Lockless):
    """A Prometheus counter that takes no lock to count (`_Lockless`), scraped as
    prometheus-client's Counter of the same name and labels (`_total`, `_created`).

    >>> registry = CollectorRegistry()
    >>> moved = Counter("demo_chips", "Demo", ["kind"], registry=registry)
    >>> moved.labels("deposit").inc(250)
    >>> moved.labels("deposit").inc()
    >>> registry.get_sample_value("demo_chips_total", {"kind": "deposit"})
    251.0
    """

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = (),
                 registry: CollectorRegistry | None = REGISTRY) -> None:
        super().__init__(name, documentation, labelnames, registry)

    def _child(self) -> _CounterChild:
        return _CounterChild()

    def inc(self, amount: float = 1) -> None:
        """Counts `amount` (not below 0) on a counter without labels."""
        self._only.inc(amount)

    def describe(self) -> list[CounterMetricFamily]:
        return [CounterMetricFamily(self._name, self._documentation, labels=self._labelnames)]

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(self._name, self._documentation, labels=self._labelnames)
        for key, _labels, child in self._samples():
            family.add_metric(list(key), child.read(), created=child.created)
        yield family


class _CounterChild(_Pending):
    __slots__ = ("value",)

    def __init__(self) -> None:
        super().__init__()
        self.value = 0.0

    def inc(self, amount: float = 1) -> None:
        if amount < 0:
            raise ValueError("counters can only be incremented by non-negative amounts")
        pending = self.pending  # _Pending.add, written out: this runs for every decision
        pending.append(amount)
        if len(pending) > _Lockless.MAX_PENDING:
            self.drain()

    def fold(self, amounts: list[float]) -> None:
        self.value += sum(amounts)

    def read(self) -> float:
        self.drain()
        with self.lock:
            return self.value


RPCS = Counter("poker_rpc_handled", "RPCs finished, by service, method and status code",
               ["service", "method", "code"])
RPC_SECONDS = Histogram("poker_rpc_duration_seconds",
                        "Time to answer a unary RPC, by service, method and status code",
                        ["service", "method", "code"], buckets=LATENCY_BUCKETS)
STREAMS_OPEN = Gauge("poker_rpc_streams_open",
                     "Streaming RPCs in progress (WatchTable, Play, PlayMany...), by method",
                     ["service", "method"])

# ---------------------------------------------------------------------- dealer

HANDS_DEALT = Counter("poker_dealer_hands_dealt", "Hands started by this dealer")
DECISIONS = Counter("poker_dealer_decisions", "Betting decisions taken (time-outs included), "
                    "by action", ["action"])
TIME_TO_ACT = Histogram("poker_dealer_time_to_act_seconds",
                        "From a turn starting to its betting decision",
                        buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                                 10.0, 20.0, 30.0, 60.0, 120.0))
STORE_COMMIT = Histogram("poker_dealer_store_commit_seconds",
                         "One write of a table's events to the dealer's store",
                         buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                  0.025, 0.05, 0.1, 0.25, 1.0))
OPEN_TABLES = Gauge("poker_dealer_open_tables", "Tables this dealer runs (not closed)")
#: `embedded`: a store of one dealer (SQLite), no lease; `holding`: every owned table's
#: lease renewed in time; `renewing_late`: a renewal is overdue; `lost`: fenced off.
LEASE_STATES = ("embedded", "holding", "renewing_late", "lost")
LEASE_STATE = Enum("poker_dealer_lease_state", "The dealer's table leases",
                   states=list(LEASE_STATES))
TABLES_OWNED = Gauge("poker_dealer_tables_owned", "Tables whose lease this dealer holds")
TABLES_ADOPTED = Counter("poker_dealer_tables_adopted",
                         "Tables taken over from a dealer whose lease expired")
TABLES_LOST = Counter("poker_dealer_tables_lost",
                      "Tables this dealer stopped serving because their lease moved on")

# ------------------------------------------------------------------- evaluator

BATCH_HANDS = Histogram("poker_evaluator_batch_hands",
                        "Hands in one EvaluateBatch request or EvaluateBatchStream chunk",
                        buckets=(1, 2, 5, 10, 20, 50, 100, 1_000, 10_000, 100_000,
                                 1_000_000))
EVALUATIONS = Counter("poker_evaluator_evaluations",
                      "Hand evaluations done, by kind (batch, hand, showdown, equity)",
                      ["kind"])

# ----------------------------------------------------------------------- lobby

MONEY_MOVED = Counter("poker_lobby_money_moved_chips",
                      "Chips moved by ledger transfers, by transfer kind", ["kind"])
BUY_INS_PENDING = Gauge("poker_lobby_buy_ins_pending",
                        "Buy-ins and rebuys begun and not yet finished or undone")
AUDIT_OK = Gauge("poker_lobby_ledger_audit_ok",
                 "1 when the last ledger audit found every invariant holding, else 0")
AUDIT_PROBLEMS = Gauge("poker_lobby_ledger_audit_problems", "Problems the last audit found")
AUDIT_TOTAL = Gauge("poker_lobby_ledger_audit_total_chips",
                    "Sum of every account at the last audit (0 when the ledger balances)")
AUDIT_TIME = Gauge("poker_lobby_ledger_audit_timestamp_seconds",
                   "When the last ledger audit ran (Unix time)")

#: A scrape runs the ledger audit again at most this often (it reads every transfer).
AUDIT_EVERY_S = 30.0

# ------------------------------------------------------------- the endpoint


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--metrics-port and --metrics-host, for every `poker serve` command."""
    env = os.environ.get
    parser.add_argument("--metrics-port", type=int, default=int(env("POKER_METRICS_PORT", "0")),
                        help="serve Prometheus metrics over HTTP on this port (/metrics); "
                             "0: not served (env POKER_METRICS_PORT)")
    parser.add_argument("--metrics-host", default=env("POKER_METRICS_HOST", "127.0.0.1"),
                        help="address the metrics endpoint listens on (env POKER_METRICS_HOST)")


_ENABLED = False


def enable(on: bool = True) -> None:
    """Counts from now on (`on`), or stops counting; `serve_from_args` enables it with the
    endpoint. Handlers registered before it stay as they were (wrapped or not)."""
    global _ENABLED
    _ENABLED = on


def enabled() -> bool:
    """Whether anything is counted (the endpoint is served, or `enable()` was called)."""
    return _ENABLED


def serve_from_args(args: argparse.Namespace) -> int:
    """Starts the metrics endpoint if --metrics-port asks for one, and with it the counting
    (`enable`); its port (0: none, and nothing counted)."""
    port = int(getattr(args, "metrics_port", 0) or 0)
    if port <= 0:
        return 0
    enable()
    from poker.log import get_logger

    host = getattr(args, "metrics_host", "127.0.0.1")
    try:
        start_http_server(port, addr=host)
    except OSError as err:  # taken, or no such address: say so, do not run unobserved
        get_logger(__name__).error("metrics_unavailable", host=host, port=port, error=str(err))
        raise SystemExit(f"--metrics-port {port} on {host}: {err.strerror or err}") from None
    get_logger(__name__).info("metrics_serving", host=host, port=port)
    return port


# ------------------------------------------------------------ the RPCs' counting


#: What a call that set no status ended with: an exception, or the caller going away
#: (a stream closed under its generator, a cancelled task).
_UNSET: dict[type[BaseException] | None, str] = {
    None: "OK", Exception: "UNKNOWN", GeneratorExit: "CANCELLED",
    asyncio.CancelledError: "CANCELLED"}


def _ended(err: BaseException | None) -> type[BaseException] | None:
    if err is None:
        return None
    return next((kind for kind in (GeneratorExit, asyncio.CancelledError)
                 if isinstance(err, kind)), Exception)


def _gone(context: Any) -> bool:
    """The caller cancelled or went away (sync and grpc.aio contexts alike)."""
    cancelled = getattr(context, "cancelled", None)
    if cancelled is not None:
        return bool(cancelled())
    is_active = getattr(context, "is_active", None)
    return is_active is not None and not is_active()


def _code_name(context: Any, failed: type[BaseException] | None) -> str:
    code = context.code()
    if code is None:
        if failed is None and _gone(context):  # a stream that ended as its caller left
            return "CANCELLED"
        return _UNSET[failed]
    if isinstance(code, grpc.StatusCode):
        return str(code.name)
    return str(code)


class _Call:
    """One RPC's measurement: started now, recorded once by `done`."""

    __slots__ = ("labels", "started", "timed")

    def __init__(self, labels: tuple[str, str], timed: bool) -> None:
        self.labels, self.timed, self.started = labels, timed, time.perf_counter()

    def done(self, context: Any, failed: type[BaseException] | None) -> None:
        code = _code_name(context, failed)
        key = (self.labels, code)
        children = _CHILDREN.get(key)
        if children is None:  # `labels()` takes a lock and builds a key: once per triple
            children = _CHILDREN[key] = (RPCS.labels(*self.labels, code),
                                         RPC_SECONDS.labels(*self.labels, code))
        children[0].inc()
        if self.timed:
            children[1].observe(time.perf_counter() - self.started)


#: (service, method), code -> the RPCS and RPC_SECONDS children of that triple.
_CHILDREN: dict[tuple[tuple[str, str], str], tuple[Any, Any]] = {}


def _kind(handler: grpc.RpcMethodHandler) -> str:
    return ("stream" if handler.request_streaming else "unary") + "_" + (
        "stream" if handler.response_streaming else "unary")


def _sync_wrap(behavior: Callable[..., Any], labels: tuple[str, str],
               streaming: bool, response_streaming: bool) -> Callable[..., Any]:
    if not response_streaming:  # one answer, to one request or to a stream of them
        def unary(request: Any, context: grpc.ServicerContext) -> Any:
            call = _Call(labels, not streaming)
            gauge = STREAMS_OPEN.labels(*labels) if streaming else None
            if gauge is not None:
                gauge.inc()
            failed: type[BaseException] | None = None
            try:
                return behavior(request, context)
            except BaseException as err:
                failed = _ended(err)
                raise
            finally:
                if gauge is not None:
                    gauge.dec()
                call.done(context, failed)

        return unary

    def stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        call, gauge = _Call(labels, False), STREAMS_OPEN.labels(*labels)
        gauge.inc()
        failed: type[BaseException] | None = None
        try:
            yield from behavior(request, context)
        except BaseException as err:
            failed = _ended(err)
            raise
        finally:
            gauge.dec()
            call.done(context, failed)

    return stream


def _async_wrap(behavior: Callable[..., Any], labels: tuple[str, str],
                streaming: bool, response_streaming: bool) -> Callable[..., Any]:
    if inspect.isasyncgenfunction(behavior):
        async def generator(request: Any, context: Any) -> Any:
            call, gauge = _Call(labels, False), STREAMS_OPEN.labels(*labels)
            gauge.inc()
            failed: type[BaseException] | None = None
            try:
                async for reply in behavior(request, context):
                    yield reply
            except BaseException as err:
                failed = _ended(err)
                raise
            finally:
                gauge.dec()
                call.done(context, failed)

        return generator

    async def coroutine(request: Any, context: Any) -> Any:
        call = _Call(labels, not streaming)
        gauge = STREAMS_OPEN.labels(*labels) if streaming else None
        if gauge is not None:
            gauge.inc()
        failed: type[BaseException] | None = None
        try:
            return await behavior(request, context)
        except BaseException as err:
            failed = _ended(err)
            raise
        finally:
            if gauge is not None:
                gauge.dec()
            call.done(context, failed)

    return coroutine


def instrumented(service: str, handlers: Mapping[str, grpc.RpcMethodHandler],
                 on_loop: bool) -> dict[str, grpc.RpcMethodHandler]:
    """The method handlers of `service` with every call counted and timed (`poker_rpc_*`),
    for a grpc.aio server (`on_loop`) or a thread-pool one. poker.wire.register applies it
    to every service it adds, once, when `enabled()`: a call then pays for its own
    counting and nothing else (an interceptor costs every call a lookup, and on grpc.aio
    two coroutines)."""
    return {name: _instrument(handler, (service, name), on_loop)
            for name, handler in handlers.items()}


def _instrument(handler: grpc.RpcMethodHandler, labels: tuple[str, str],
                on_loop: bool) -> grpc.RpcMethodHandler:
    kind = _kind(handler)
    behavior = getattr(handler, kind)
    if behavior is None:
        return handler
    asynchronous = inspect.isasyncgenfunction(behavior) or inspect.iscoroutinefunction(behavior)
    wrap = _async_wrap if on_loop and asynchronous else _sync_wrap
    responses = bool(handler.response_streaming)
    wrapped = wrap(behavior, labels, responses or bool(handler.request_streaming), responses)
    return handler._replace(**{kind: wrapped})


# ---------------------------------------------------------------- the dealer

_TURN_SINCE_MS: dict[str, int] = {}  # table id -> when its awaited turn started


#: DECISIONS' child of each action kind, bound once: `labels()` costs a lock and a
#: lookup, and this runs for every decision the dealer commits.
_DECISIONS_BY_KIND = {kind: DECISIONS.labels(kind.name.lower()) for kind in ActionKind}


def table_committed(table_id: str, events: Sequence[Any], time_ms: int,
                    seconds: float, kinds: set[type] | None = None) -> None:
    """One write of a table's events, stamped `time_ms` (the write's time, every event's),
    that took `seconds` in the store: hands dealt, decisions and their time to act. The
    kinds (`kinds`, the events' classes, when the caller has them) are looked at once a
    write (a set made in C), not event by event. Nothing when not `enabled()`."""
    if not _ENABLED:
        return
    STORE_COMMIT.observe(seconds)
    if kinds is None:
        kinds = set(map(type, events))
    if ev.ActionTaken in kinds:
        for e in events:
            if type(e) is ev.ActionTaken:
                _DECISIONS_BY_KIND[e.action].inc()
        since = _TURN_SINCE_MS.pop(table_id, None)
        if since is not None:
            TIME_TO_ACT.observe(max(0, time_ms - since) / 1000)
    if ev.HandStarted in kinds:
        HANDS_DEALT.inc()
    if tev.TurnStarted in kinds:  # the turn a write ends on (a hand's end comes before it)
        _TURN_SINCE_MS[table_id] = time_ms
    elif ev.HandEnded in kinds:
        _TURN_SINCE_MS.pop(table_id, None)


def gauge_tables(count: Callable[[], int]) -> None:
    """The open-tables gauge reads `count()` at each scrape."""
    OPEN_TABLES.set_function(count)


def set_lease_state(state: str) -> None:
    """One of LEASE_STATES (the lease code sets it; `embedded` for a SQLite dealer)."""
    LEASE_STATE.state(state)


def set_tables_owned(count: int) -> None:
    TABLES_OWNED.set(count)


def table_adopted() -> None:
    TABLES_ADOPTED.inc()


def table_lost() -> None:
    TABLES_LOST.inc()


# ------------------------------------------------------------- the evaluator


def evaluated(kind: str, evaluations: int, batch: bool = False) -> None:
    """`evaluations` hand evaluations of `kind` done; `batch`: they were one batch."""
    if not _ENABLED:
        return
    EVALUATIONS.labels(kind).inc(evaluations)
    if batch:
        BATCH_HANDS.observe(evaluations)


# ----------------------------------------------------------------- the lobby


def money_moved(kind: str, amount: int) -> None:
    """A ledger transfer of `amount` chips of `kind` (deposit, buy_in, ...) was written.
    Counted when written, in its transaction: one rolled back after it still counts."""
    if not _ENABLED:
        return
    MONEY_MOVED.labels(kind).inc(amount)


def gauge_buy_ins_pending(count: Callable[[], int]) -> None:
    """The buy-ins-pending gauge reads `count()` at each scrape."""
    BUY_INS_PENDING.set_function(count)


_LAST_AUDIT = {"at": 0.0, "ok": 0.0}  # when audited() last ran (Unix time), its result


def audited(ok: bool, problems: int, total: int) -> None:
    """A ledger audit's result."""
    _LAST_AUDIT.update(at=time.time(), ok=1.0 if ok else 0.0)
    AUDIT_OK.set(_LAST_AUDIT["ok"])
    AUDIT_PROBLEMS.set(problems)
    AUDIT_TOTAL.set(total)
    AUDIT_TIME.set(_LAST_AUDIT["at"])


def gauge_audit(audit: Callable[[], object]) -> None:
    """Scrapes see the last audit's result, `audit()` (which calls `audited`) run again
    when the last is older than AUDIT_EVERY_S (an AuditLedger call counts as one)."""
    lock = threading.Lock()

    def fresh() -> float:
        with lock:
            if time.time() - _LAST_AUDIT["at"] >= AUDIT_EVERY_S:
                try:
                    audit()
                except Exception:  # a store down: the gauge says so, the scrape goes on
                    _LAST_AUDIT["ok"] = 0.0
            return _LAST_AUDIT["ok"]

    AUDIT_OK.set_function(fresh)


def metric_names() -> list[str]:
    """Every metric family this module defines (as scraped, without _total/_bucket...)."""
    found: list[str] = []
    for value in globals().values():
        if isinstance(value, Counter | Gauge | Histogram | Enum):
            found.append(value._name)
    return found
