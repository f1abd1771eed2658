"""Runs a gRPC service the way every service of the suite runs, sync or asyncio.

`serve_forever` runs a thread-pool server (the evaluator, the lobby) and
`serve_forever_async` a grpc.aio one on the running event loop (the dealer), by the
same rules. Health checking (`grpc.health.v1`) and server reflection are added to
every server (reflection v1 and v1alpha, with the protos' comments: poker/reflection.py),
their requests parsed by `poker.wire` as the services' are; SIGTERM and
SIGINT stop it gracefully (in-flight calls get a grace period, health says NOT_SERVING
first) and within a deadline (`arm_stop_deadline`); the bound port is logged and
printed as `listening on HOST:PORT` once the signal handlers are in place, so a test
that asked for port 0 can read the port it got from the first line of stdout.
Given a `poker.tls.ServerTLS`, the port speaks TLS only. Every server counts and
times its RPCs: `poker.wire` registers every service's handlers with poker.metrics'
counting around them (no interceptor).
"""

from __future__ import annotations

import asyncio
import faulthandler
import inspect
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, NoReturn

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from poker import reflection, wire
from poker import tls as tls_options
from poker.log import get_logger

log = get_logger(__name__)

#: Generous message limits: batch RPCs carry megabytes; the services check their own limits.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.so_reuseport", 0),
]


@dataclass
class Service:
    """What a service hands the runner: its full names and how to add it to a server
    (a grpc.aio one for `serve_forever_async`). `on_stopping` runs once the server is
    NOT_SERVING, before calls in flight get their grace (to end long streams at once);
    `on_stop` after the server stopped (on asyncio it may be a coroutine function)."""

    names: Sequence[str]
    add_to_server: Callable[[Any], None]
    on_stop: Callable[[], None | Awaitable[None]] = field(default=lambda: None)
    on_stopping: Callable[[], None] = field(default=lambda: None)


@dataclass
class Running:
    """A started server, its port and its health servicer."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    services: Sequence[Service]

    def stop(self, grace: float = 5.0) -> bool:
        """Refuses new calls, gives those in flight `grace` seconds, then stops the
        services. False when gRPC did not report the server stopped soon after the grace
        (its calls were cancelled): the services are stopped all the same."""
        for name in [*(n for s in self.services for n in s.names), ""]:
            self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        for service in self.services:
            service.on_stopping()
        stopped: bool = self.server.stop(grace).wait(grace + STOP_MARGIN_S)
        if not stopped:
            log_stop_incomplete(grace)
        for service in self.services:
            service.on_stop()
        return stopped


#: How often the main thread of a server wakes up to run a signal handler that is due.
SIGNAL_POLL_S = 0.2
#: How long after the grace period a server waits for gRPC to report it stopped.
STOP_MARGIN_S = 2.0
#: From SIGTERM/SIGINT, how long a server process may take to be gone.
STOP_DEADLINE_S = 20.0


def log_stop_incomplete(grace: float) -> None:
    """gRPC did not report the server stopped within STOP_MARGIN_S after the grace."""
    log.warning("server_stop_incomplete", grace_s=grace,
                hint="gRPC did not finish its calls after cancelling them")


def arm_stop_deadline(seconds: float = STOP_DEADLINE_S) -> None:
    """Gives this process `seconds` to exit. Past them, every thread's stack goes to
    stderr and the process ends with exit code 1, so that an orchestrator's SIGTERM is
    never left hanging and the log says where it hung. faulthandler's watchdog runs on a
    C thread of its own: it works even when Python's threads are stuck."""
    faulthandler.dump_traceback_later(seconds, exit=True)


def exit_process(code: int) -> NoReturn:
    """Ends a server process once it has stopped: its port is closed, its stores are
    closed and its last line is logged. The interpreter's own teardown is skipped, since
    gRPC's threads (the server's poller, the channels' callbacks) can hold a process
    there after everything that matters is done."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def start(services: Sequence[Service], host: str, port: int, max_workers: int = 16,
          tls: tls_options.ServerTLS | None = None,
          options: Sequence[tuple[str, Any]] = ()) -> Running:
    """Binds and starts a server with the services, health and reflection (TLS if `tls`),
    its RPCs counted and timed (poker.metrics); `options`: more gRPC server options."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers),
        options=[*SERVER_OPTIONS, *options])
    health_servicer = health.HealthServicer()
    names = [n for s in services for n in s.names]
    add_health_and_reflection(server, health_servicer, names)
    for service in services:
        service.add_to_server(server)
    bound = tls_options.listen(server, host, port, tls)
    server.start()
    for name in [*names, ""]:
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Running(server, bound, health_servicer, services)


def add_health_and_reflection(server: grpc.Server | grpc.aio.Server,
                              health_servicer: health.HealthServicer | health.aio.HealthServicer,
                              names: Sequence[str]) -> None:
    """Adds health checking and server reflection (of `names` and of both) to a server,
    sync or asyncio, their requests guarded by poker.wire as the services' are."""
    wire.add(server, health.SERVICE_NAME, health_pb2_grpc.add_HealthServicer_to_server,
             health_servicer)
    # grpc.reflection.v1 and v1alpha, with the protos' comments (poker/reflection.py).
    reflection.add(server, [*names, health.SERVICE_NAME])


def serve_forever(services: Sequence[Service], host: str, port: int, name: str,
                  tls: tls_options.ServerTLS | None = None,
                  stop_deadline: float = STOP_DEADLINE_S,
                  options: Sequence[tuple[str, Any]] = ()) -> int:
    """Starts the server, prints its address, and blocks until SIGTERM/SIGINT; then
    stops it, with `stop_deadline` seconds for the process to be gone."""
    stopping = threading.Event()

    def _stop(signum: int, _frame: object) -> None:
        if not stopping.is_set():
            arm_stop_deadline(stop_deadline)
            log.info("server_stopping", service=name, signal=signal.Signals(signum).name)
        stopping.set()

    # Before the address is announced: a signal sent as soon as it is read must find the
    # handler in place, not end the process without a graceful stop.
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    running = start(services, host, port, tls=tls, options=options)
    log.info("server_started", service=name, host=host, port=running.port,
             tls=tls.mode if tls else "off")
    tls_options.announce(host, running.port, tls)
    # Wake up now and then: the kernel may deliver the signal to any thread (gRPC's own
    # included), and Python runs its handler only in the main thread, once that thread
    # runs again. A plain wait() would sleep through it: CI once saw an evaluator still
    # running 15 s after SIGTERM.
    while not stopping.wait(SIGNAL_POLL_S):
        pass
    clean = running.stop()
    log.info("server_stopped", service=name, clean=clean)
    sys.stdout.flush()
    return 0


async def serve_forever_async(services: Sequence[Service], host: str, port: int, name: str,
                              tls: tls_options.ServerTLS | None = None,
                              grace: float = 5.0, stop_deadline: float = STOP_DEADLINE_S,
                              started: Mapping[str, object] | None = None) -> int:
    """`serve_forever` on the running event loop, with a grpc.aio server: starts it,
    prints its address, and waits for SIGTERM/SIGINT; then stops it (`grace` seconds for
    calls in flight), with `stop_deadline` seconds for the process to be gone.
    `started`: more fields for the `server_started` line."""
    names = [n for s in services for n in s.names]
    server = grpc.aio.server(options=SERVER_OPTIONS)
    health_servicer = health.aio.HealthServicer()
    add_health_and_reflection(server, health_servicer, names)
    for service in services:
        service.add_to_server(server)
    bound = tls_options.listen(server, host, port, tls)
    # Before the address is announced: a signal sent as soon as it is read must find the
    # handler in place, not end the process without a graceful stop.
    signals = _on_signals()
    await server.start()
    for health_name in [*names, ""]:
        await health_servicer.set(health_name, health_pb2.HealthCheckResponse.SERVING)
    log.info("server_started", service=name, host=host, port=bound,
             tls=tls.mode if tls else "off", **(started or {}))
    tls_options.announce(host, bound, tls)
    sig = await signals
    arm_stop_deadline(stop_deadline)
    log.info("server_stopping", service=name, signal=sig.name)
    for health_name in [*names, ""]:
        await health_servicer.set(health_name, health_pb2.HealthCheckResponse.NOT_SERVING)
    for service in services:
        service.on_stopping()
    clean = True
    try:
        await asyncio.wait_for(server.stop(grace), grace + STOP_MARGIN_S)
    except TimeoutError:
        clean = False
        log_stop_incomplete(grace)
    for service in services:
        done = service.on_stop()
        if inspect.isawaitable(done):
            await done
    log.info("server_stopped", service=name, clean=clean)
    sys.stdout.flush()
    return 0


def _on_signals() -> asyncio.Future[signal.Signals]:
    """The first SIGTERM or SIGINT from now on. Handled by the loop from whichever thread
    the kernel gives it to (it wakes the loop through its wake-up fd)."""
    loop = asyncio.get_running_loop()
    received: asyncio.Future[signal.Signals] = loop.create_future()

    def _receive(sig: signal.Signals) -> None:
        if not received.done():
            received.set_result(sig)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, _receive, sig)
    return received
