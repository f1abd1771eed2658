"""Starts the suite's services as local processes and stops them again.

Used by the demo and the end-to-end tests: each service is started with
`--host 127.0.0.1 --port 0`, and its address is read from the `listening on`
line it prints once bound.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from poker.tls import upstream_channel


@dataclass
class ServiceProcess:
    """A running service process and the address it listens on."""

    name: str
    popen: subprocess.Popen[str]
    address: str
    output: list[str] = field(default_factory=list)

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it does not stop in time; returns the exit code."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        return self.popen.returncode

    def kill(self) -> None:
        """SIGKILL: the crash case."""
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()


def start_service(
    name: str,
    extra_args: Sequence[str] = (),
    host: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    log_path: Path | None = None,
    timeout: float = 30.0,
    credentials: grpc.ChannelCredentials | None = None,
) -> ServiceProcess:
    """Runs `poker serve NAME --host HOST --port 0 ...` and waits until it is healthy
    (asking over TLS with `credentials`, for a service started with `--tls-cert`)."""
    cmd = [sys.executable, "-m", "poker.cli", "serve", name, "--host", host, "--port", "0",
           *extra_args]
    full_env = {**os.environ, "POKER_LOG_FORMAT": "json", **(env or {})}
    stderr = open(log_path, "a") if log_path else subprocess.DEVNULL  # noqa: SIM115
    popen = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, env=full_env)
    if log_path:
        stderr.close()  # type: ignore[union-attr]
    found: list[str] = []
    ready = threading.Event()

    def _read() -> None:
        assert popen.stdout is not None
        for line in popen.stdout:
            found.append(line.rstrip("\n"))
            if line.startswith("listening on "):
                ready.set()
        ready.set()

    threading.Thread(target=_read, daemon=True).start()
    if not ready.wait(timeout) or popen.poll() is not None or not found:
        popen.kill()
        raise RuntimeError(f"{name} did not start: {found[-5:]}")
    address = next(line for line in found if line.startswith("listening on ")).split()[-1]
    proc = ServiceProcess(name, popen, address, found)
    wait_healthy(address, timeout=timeout, credentials=credentials)
    return proc


def wait_healthy(address: str, service: str = "", timeout: float = 30.0,
                 credentials: grpc.ChannelCredentials | None = None) -> None:
    """Blocks until the health service at `address` answers SERVING."""
    with upstream_channel(address, credentials) as channel:
        grpc.channel_ready_future(channel).result(timeout=timeout)
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
        if reply.status != health_pb2.HealthCheckResponse.SERVING:
            raise RuntimeError(f"{address} is not serving: {reply.status}")
