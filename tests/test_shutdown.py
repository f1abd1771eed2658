"""Every server stops on SIGTERM the way an orchestrator expects: promptly, with exit code
0 and its last lines logged, even with a stream open; and a server that hangs while
stopping is ended by its deadline with every thread's stack in its log."""

from __future__ import annotations

import ctypes
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from clients.accounts import TableRules
from clients.models import Level, TableConfig
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from clients.transport import RECONNECT_CODES
from poker.procs import start_service
from poker.v1 import dealer_pb2, dealer_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent


def _log(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def _stopped_cleanly(suite: LocalSuite, name: str) -> float:
    """SIGTERMs the service's process; returns how long it took to be gone."""
    proc = suite.process(name)
    started = time.monotonic()
    assert proc.stop(timeout=15) == 0, f"{name} exited with {proc.popen.returncode}"
    took = time.monotonic() - started
    label = {"evaluator": "evaluator-0"}.get(name, name)
    lines = _log(suite.folder / f"{label}.log")
    stopping = [e for e in lines if e["event"] == "server_stopping"]
    stopped = [e for e in lines if e["event"] == "server_stopped"]
    assert [e["signal"] for e in stopping] == ["SIGTERM"], stopping
    assert [e["clean"] for e in stopped] == [True], stopped
    return took


def test_each_server_stops_on_sigterm_with_exit_code_0_even_with_a_stream_open(
        tmp_path: Path) -> None:
    with LocalSuite(folder=tmp_path) as suite:
        with LobbyClient(suite.lobby, suite.operator_token) as operator:
            table = operator.open_table(TableConfig(seats=2, levels=(Level(5, 10),)),
                                        TableRules(initial_stack=1000))
        ended: list[tuple[grpc.StatusCode, str] | None] = []
        with grpc.insecure_channel(suite.dealer) as channel:
            stream = dealer_pb2_grpc.DealerServiceStub(channel).WatchTable(  # type: ignore[no-untyped-call]
                dealer_pb2.WatchTableRequest(table_id=table.table_id, after_sequence=0))

            def watch() -> None:
                try:
                    for _ in stream:
                        pass
                    ended.append(None)
                except grpc.RpcError as err:
                    ended.append((err.code(), err.details()))

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            time.sleep(0.3)  # the stream is open and idle: no hand is dealt at an empty table
            assert not ended
            took = {name: _stopped_cleanly(suite, name)
                    for name in ("lobby", "dealer", "evaluator")}
            watcher.join(10)
            assert ended, "the dealer's stream outlived the dealer"
    # the dealer ended its stream itself, at once, with a status on which the SDK opens
    # the stream again, rather than leaving it to be cut when its grace period ran out
    assert ended[0] is not None, "the stream ended as if the table had closed"
    code, details = ended[0]
    assert code is grpc.StatusCode.UNAVAILABLE and code in RECONNECT_CODES, ended
    assert "the dealer is stopping" in details and table.table_id in details, details
    # in-flight calls get their grace period (5 s, the dealer's 2 s), and a margin, not more
    assert all(seconds < 10 for seconds in took.values()), took


# tgkill(2), which sends a signal to one thread of a process, by architecture.
_TGKILL = {"x86_64": 234, "aarch64": 131, "arm64": 131}
_SERVICE_ARGS = {
    "evaluator": [],
    "dealer": ["--db", "{tmp}/dealer.sqlite", "--service-token", "s"],
    "lobby": ["--db", "{tmp}/lobby.sqlite", "--operator-token", "o", "--service-token", "s"],
}


@pytest.mark.parametrize("name", sorted(_SERVICE_ARGS))
def test_a_sigterm_that_lands_on_any_thread_stops_the_server(name: str, tmp_path: Path) -> None:
    # The kernel gives a process's signal to any of its threads, gRPC's included, and
    # Python runs the handler in the main thread only once that thread runs again: a
    # main thread asleep for good never stopped the server (CI saw it once, by chance).
    machine = platform.machine()
    assert machine in _TGKILL, f"no tgkill(2) number known for {machine}: add it"
    proc = start_service(name, [a.format(tmp=tmp_path) for a in _SERVICE_ARGS[name]])
    try:
        pid = proc.popen.pid
        threads = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid)
        assert threads, "a gRPC server runs threads of its own"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.syscall(_TGKILL[machine], pid, threads[-1], signal.SIGTERM) == 0
        assert proc.popen.wait(15) == 0
    finally:
        proc.kill()


@pytest.mark.parametrize("name", sorted(_SERVICE_ARGS))
def test_a_sigterm_sent_as_soon_as_the_address_is_printed_stops_the_server_gracefully(
        name: str, tmp_path: Path) -> None:
    args = [a.format(tmp=tmp_path) for a in _SERVICE_ARGS[name]]
    proc = subprocess.Popen(
        [sys.executable, "-m", "poker.cli", "serve", name, "--host", "127.0.0.1", "--port", "0",
         *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "POKER_LOG_FORMAT": "json"})
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("listening on 127.0.0.1:")
        proc.send_signal(signal.SIGTERM)  # the handler is in place already: exit code 0
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


_HANGING_SERVER = """
import sys, threading
from poker import log
from poker.serving import Service, serve_forever

log.configure("json")  # to stderr: stdout carries only the `listening on` line

def hang_in_on_stop() -> None:
    threading.Event().wait()

sys.exit(serve_forever([Service([], lambda server: None, on_stop=hang_in_on_stop)],
                       "127.0.0.1", 0, "hanging", stop_deadline=1.0))
"""
# The same on an event loop (the dealer's way): poker.serving.serve_forever_async.
_HANGING_ASYNC_SERVER = """
import asyncio, sys, threading
from poker import log
from poker.serving import Service, serve_forever_async

log.configure("json")

def hang_in_on_stop() -> None:
    threading.Event().wait()

sys.exit(asyncio.run(serve_forever_async(
    [Service([], lambda server: None, on_stop=hang_in_on_stop)], "127.0.0.1", 0, "hanging",
    stop_deadline=1.0)))
"""


@pytest.mark.parametrize("server", [_HANGING_SERVER, _HANGING_ASYNC_SERVER],
                         ids=["sync", "asyncio"])
def test_a_server_that_hangs_while_stopping_is_ended_by_its_deadline(
        server: str, tmp_path: Path) -> None:
    stderr_path = tmp_path / "stderr"
    with open(stderr_path, "w") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", server], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=stderr,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("listening on 127.0.0.1:")
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 1
    dump = stderr_path.read_text()
    assert "most recent call first" in dump and "hang_in_on_stop" in dump, dump[-2000:]
