"""Runs a gRPC service the way every service of the suite runs.

Health checking (`grpc.health.v1`) and server reflection are added to every
server; SIGTERM and SIGINT stop it gracefully (in-flight calls get a grace
period); the bound port is logged and printed as `listening on HOST:PORT`, so a
test that asked for port 0 can read the port it got from the first line of stdout.
Given a `poker.tls.ServerTLS`, the port speaks TLS only.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

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
    """What a service hands the runner: its full names and how to add it to a server."""

    names: Sequence[str]
    add_to_server: Callable[[grpc.Server], None]
    on_stop: Callable[[], None] = field(default=lambda: None)


@dataclass
class Running:
    """A started server, its port and its health servicer."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    services: Sequence[Service]

    def stop(self, grace: float = 5.0) -> None:
        for name in [*(n for s in self.services for n in s.names), ""]:
            self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.stop(grace).wait()
        for service in self.services:
            service.on_stop()


def start(services: Sequence[Service], host: str, port: int, max_workers: int = 16,
          tls: tls_options.ServerTLS | None = None) -> Running:
    """Binds and starts a server with the services, health and reflection (TLS if `tls`)."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers), options=SERVER_OPTIONS
    )
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = [n for s in services for n in s.names]
    for service in services:
        service.add_to_server(server)
    reflection.enable_server_reflection(
        [*names, health.SERVICE_NAME, reflection.SERVICE_NAME], server
    )
    bound = tls_options.listen(server, host, port, tls)
    server.start()
    for name in [*names, ""]:
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Running(server, bound, health_servicer, services)


def serve_forever(services: Sequence[Service], host: str, port: int, name: str,
                  tls: tls_options.ServerTLS | None = None) -> int:
    """Starts the server, prints its address, and blocks until SIGTERM/SIGINT."""
    running = start(services, host, port, tls=tls)
    log.info("server_started", service=name, host=host, port=running.port,
             tls=tls.mode if tls else "off")
    tls_options.announce(host, running.port, tls)
    stopping = threading.Event()

    def _stop(signum: int, _frame: object) -> None:
        log.info("server_stopping", service=name, signal=signal.Signals(signum).name)
        stopping.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    stopping.wait()
    running.stop()
    log.info("server_stopped", service=name)
    sys.stdout.flush()
    return 0
