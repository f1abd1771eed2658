"""Evaluators by name: a dealer given one DNS name spreads its showdowns over every address
behind it (gRPC round_robin) and picks up replicas that appear or go.

Tests cannot change the machine's DNS, so the name is served by a tiny DNS server of the
test's own (A records over UDP, stdlib only) named in the target's authority, as gRPC
allows: `dns://127.0.0.1:PORT/evaluator.test:EVAL_PORT`. A records carry no port, so the
evaluators listen on the same port at 127.0.0.1, .2, .3 and .4 (all loopback on Linux),
as pods of a Kubernetes headless Service do on their own IPs. They end each connection
after a second (--max-connection-age-s), which makes the dealer look the name up again
(--evaluator-resolve-s): that is how a fourth replica starts getting calls. Calls are
counted per evaluator from each one's own metrics endpoint.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.bots import CallingStation
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from poker.procs import ServiceProcess, start_service
from tests.sdk.conftest import funded, open_table, play_all, wait_until
from tests.test_metrics import free_port, scrape, value

NAME = "evaluator.test"
HOSTS = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"]


class TinyDNS:
    """Answers A queries for the names in `records` (name -> IPv4 addresses) over UDP on
    127.0.0.1; any other type gets an empty answer, an unknown name NXDOMAIN."""

    def __init__(self, records: dict[str, list[str]]) -> None:
        self.records = records
        self.queries = 0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = int(self.sock.getsockname()[1])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                query, peer = self.sock.recvfrom(512)
            except TimeoutError:
                continue
            reply = self.answer(query)
            if reply:
                self.sock.sendto(reply, peer)

    def answer(self, query: bytes) -> bytes:
        if len(query) < 17:
            return b""
        ident, flags = struct.unpack(">HH", query[:4])
        at, labels = 12, []
        while at < len(query) and query[at]:
            labels.append(query[at + 1:at + 1 + query[at]].decode("ascii", "replace"))
            at += 1 + query[at]
        qtype = struct.unpack(">H", query[at + 1:at + 3])[0]
        question = query[12:at + 5]
        name = ".".join(labels).lower()
        self.queries += 1
        found = name in self.records
        addresses = list(self.records.get(name, [])) if qtype == 1 else []
        header = struct.pack(">HHHHHH", ident, 0x8400 | (flags & 0x0100) | (0 if found else 3),
                             1, len(addresses), 0, 0)
        answers = b"".join(b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 1, 4)
                           + socket.inet_aton(a) for a in addresses)
        return header + question + answers

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


def _port_free_on_every_host() -> int:
    for _ in range(20):
        port = free_port()
        try:
            for host in HOSTS:
                with socket.socket() as s:
                    s.bind((host, port))
        except OSError:
            continue
        return port
    raise RuntimeError("no port free on every loopback address")


class Evaluators:
    """Evaluator processes on `port` at HOSTS[i], each with a metrics endpoint of its own."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder = port, folder
        self.running: dict[str, tuple[ServiceProcess, int]] = {}

    def start(self, host: str) -> None:
        metrics_port = free_port()
        proc = start_service("evaluator", ["--host", host, "--port", str(self.port),
                                           "--max-connection-age-s", "1",
                                           "--metrics-port", str(metrics_port)],
                             log_path=self.folder / f"evaluator-{host}.log")
        self.running[host] = (proc, metrics_port)

    def calls(self) -> dict[str, float]:
        """EvaluateBatch calls answered so far, per evaluator."""
        return {host: value(scrape(port), "poker_rpc_handled_total",
                            method="EvaluateBatch", code="OK")
                for host, (_, port) in self.running.items()}

    def stop(self, host: str) -> None:
        proc, _ = self.running.pop(host)
        proc.stop(timeout=10)

    def close(self) -> None:
        for host in list(self.running):
            self.stop(host)


@pytest.fixture()
def setup(tmp_path: Path) -> Iterator[tuple[TinyDNS, Evaluators, LocalSuite]]:
    port = _port_free_on_every_host()
    dns = TinyDNS({NAME: HOSTS[:3]})
    evaluators = Evaluators(port, tmp_path)
    try:
        for host in HOSTS[:3]:
            evaluators.start(host)
        target = f"dns://127.0.0.1:{dns.port}/{NAME}:{port}"
        with LocalSuite(evaluators=0, folder=tmp_path / "suite",
                        dealer_args=["--evaluator", target, "--evaluator-resolve-s", "0.2"]
                        ) as suite:
            yield dns, evaluators, suite
    finally:
        evaluators.close()
        dns.close()


def _play(suite: LocalSuite, hands: int) -> None:
    """Two calling stations play `hands` hands: every one ends in a showdown."""
    with LobbyClient(suite.lobby, suite.operator_token) as operator:
        table = open_table(operator, 2)
        players = funded(suite, operator, 2, deposit=5_000)
        for p in players:
            p.table = p.lobby.sit(table.table_id, buy_in=1000)
        play_all(players, [CallingStation(), CallingStation()], table.table_id,
                 until_hand=hands)


def _new(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {host: after[host] - before.get(host, 0) for host in after}


def test_a_dealer_spreads_over_every_evaluator_of_a_name_and_finds_a_fourth(
        setup: tuple[TinyDNS, Evaluators, LocalSuite]) -> None:
    dns, evaluators, suite = setup
    _play(suite, 60)
    first = evaluators.calls()
    total = sum(first.values())
    assert total >= 50, first  # one call (the prefetch) per showdown, at least
    for host, calls in first.items():  # round robin: each a fair share of a third
        assert total / 3 * 0.6 <= calls <= total / 3 * 1.4, (host, first)
    assert dns.queries >= 1

    evaluators.start(HOSTS[3])  # a replica appears behind the name
    asked = dns.queries
    dns.records[NAME] = HOSTS[:4]
    # a connection ends within a second (--max-connection-age-s): the dealer asks again
    wait_until(lambda: dns.queries > asked, timeout=15)
    time.sleep(0.5)  # and connects to the new address
    _play(suite, 60)
    second = _new(evaluators.calls(), first)
    assert second[HOSTS[3]] >= sum(second.values()) / 4 * 0.4, second

    evaluators.stop(HOSTS[0])  # one goes: its name leaves the records, the rest answer all
    dns.records[NAME] = HOSTS[1:4]
    before = evaluators.calls()
    _play(suite, 40)
    third = _new(evaluators.calls(), before)
    assert all(calls > 0 for calls in third.values()), third
    print("EvaluateBatch calls per evaluator:", first, second, third)
    log = (suite.folder / "dealer.log").read_text()
    assert "evaluators_unavailable" not in log  # no showdown had to rank in process
