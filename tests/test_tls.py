"""TLS end to end: the evaluator (mutual TLS), the dealer and the lobby as real processes with
TLS listeners, the dealer calling the evaluator and the lobby the dealer over TLS, and the SDK
(sync and asyncio) playing through them. A plaintext client, a client trusting another CA
and one without a client certificate (mutual TLS) are refused; `poker health --tls-ca`
reports SERVING. The certificates are made at test time with the `openssl` command."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.aio import AsyncLobbyClient
from clients.bots import CallingStation, EquityBot, RandomBot
from clients.cards import cards
from clients.errors import ServiceError
from clients.evaluator import EvaluatorClient
from clients.events import CardsShown
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot
from clients.transport import TLS, RetryPolicy
from poker import cli, healthcheck
from poker import tls as tls_options
from poker.cards import parse_card
from poker.procs import ServiceProcess, start_service
from services.dealer.ranking import RemoteRanker
from tests.sdk.conftest import (
    Player,
    hands_dealt,
    logged_events,
    open_table,
    play_all,
    wait_until,
)

DEPOSIT = 10_000
ONCE = RetryPolicy(attempts=1)
LEAF_EXTENSIONS = """\
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
"""


@dataclass(frozen=True)
class Certs:
    """A CA, one certificate it signed for localhost/127.0.0.1 (server and client use), and
    a second CA that signed nothing here."""

    ca: Path
    cert: Path
    key: Path
    other_ca: Path

    def tls(self, client_cert: bool = True) -> TLS:
        """The SDK's settings: trust the CA, present the certificate (for mutual TLS)."""
        if client_cert:
            return TLS.from_files(ca=self.ca, cert=self.cert, key=self.key)
        return TLS.from_files(ca=self.ca)

    def credentials(self) -> grpc.ChannelCredentials:
        return self.tls().credentials()


def _openssl(folder: Path, *args: str) -> None:
    done = subprocess.run(["openssl", *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _make_ca(folder: Path, name: str) -> None:
    _openssl(folder, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "1",
             "-subj", f"/CN=poker test {name}",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")


def make_certs(folder: Path) -> Certs:
    _make_ca(folder, "ca")
    _make_ca(folder, "other-ca")
    (folder / "leaf.ext").write_text(LEAF_EXTENSIONS)
    _openssl(folder, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-keyout", "service.key", "-out", "service.csr", "-subj", "/CN=localhost")
    _openssl(folder, "x509", "-req", "-in", "service.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "service.pem", "-days", "1", "-extfile", "leaf.ext")
    return Certs(folder / "ca.pem", folder / "service.pem", folder / "service.key",
                 folder / "other-ca.pem")


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@dataclass
class Suite:
    evaluator: ServiceProcess
    dealer: ServiceProcess
    lobby: ServiceProcess
    operator_token: str
    folder: Path

    def log(self, name: str) -> list[dict[str, object]]:
        text = (self.folder / f"{name}.log").read_text()
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def suite(certs: Certs, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    folder = tmp_path_factory.mktemp("tls-suite")
    operator_token, service_token = secrets.token_hex(16), secrets.token_hex(16)
    serve_tls = ["--tls-cert", str(certs.cert), "--tls-key", str(certs.key)]
    started: list[ServiceProcess] = []

    def start(name: str, *args: str) -> ServiceProcess:
        proc = start_service(name, args, log_path=folder / f"{name}.log",
                             credentials=certs.credentials())
        started.append(proc)
        return proc

    try:
        evaluator = start("evaluator", *serve_tls, "--tls-client-ca", str(certs.ca))
        # The dealer trusts the evaluator's CA and presents its own certificate to it.
        dealer = start("dealer", *serve_tls, "--db", str(folder / "dealer.sqlite"),
                       "--service-token", service_token, "--evaluator", evaluator.address,
                       "--evaluator-tls-ca", str(certs.ca), "--evaluator-timeout-ms", "5000")
        # The lobby reads its TLS settings from the environment.
        env = {"POKER_TLS_CERT": str(certs.cert), "POKER_TLS_KEY": str(certs.key),
               "POKER_DEALER_TLS_CA": str(certs.ca)}
        lobby = start_service("lobby", [
            "--db", str(folder / "lobby.sqlite"), "--operator-token", operator_token,
            "--service-token", service_token, "--dealer", dealer.address],
            env=env, log_path=folder / "lobby.log", credentials=certs.credentials())
        started.append(lobby)
        yield Suite(evaluator, dealer, lobby, operator_token, folder)
    finally:
        for proc in reversed(started):
            proc.stop()


def _funded(suite: Suite, operator: LobbyClient, tls: TLS, count: int) -> list[Player]:
    players = []
    for _ in range(count):
        player_id = f"tls-{secrets.token_hex(4)}"
        _, token = operator.create_player(player_id, player_id)
        operator.deposit(player_id, DEPOSIT)
        players.append(Player(player_id, token, LobbyClient(suite.lobby.address, token, tls=tls)))
    return players


def _conserved(operator: LobbyClient, tls: TLS, players: list[Player], table_id: str) -> None:
    table = TableClient(operator.table(table_id).dealer_address, table_id, tls=tls)
    wait_until(lambda: table.view().hand is None)
    stacks = {s.player_id: s.stack for s in table.view().seats}
    table.close()
    total = sum(operator.player(p.player_id).balance + stacks.get(p.player_id, 0)
                for p in players)
    assert total == DEPOSIT * len(players)
    audit = operator.audit()
    assert audit.ok and audit.total == 0, audit.problems


def test_a_bot_match_through_the_lobby_over_tls_conserves_chips(
        suite: Suite, certs: Certs) -> None:
    tls = certs.tls()
    with LobbyClient(suite.lobby.address, suite.operator_token, tls=tls) as operator:
        table = open_table(operator, 4)
        assert table.dealer_address == suite.dealer.address
        players = _funded(suite, operator, tls, 4)
        for p in players:
            p.table = p.lobby.sit(table.table_id, buy_in=1000)  # the lobby's TLS settings
        equity_bot = EquityBot(suite.evaluator.address, trials=200, tls=tls, seed=5)
        bots: list[Bot] = [CallingStation(), CallingStation(), RandomBot(seed=3), equity_bot]
        play_all(players, bots, table.table_id, until_hand=12)
        events = logged_events(table.dealer_address, table.table_id, tls)
        for p in players:
            assert p.result is not None and not p.result.refused
            # The bot counted the hands the table dealt it; one that never busted was dealt
            # every hand from its first (a seat taken during a hand waits for the big blind,
            # R10) to hand 12. A bust costs a hand or more: the next one is dealt before the
            # rebuy lands, and R33 may keep the seat out longer.
            seen = set(p.events)  # of the hands its bot saw
            dealt = [e.hand_number for e in hands_dealt(events, p.player_id)
                     if e.sequence in seen]
            assert p.result.hands == len(dealt) > 0
            if p.rebuys == 0:
                assert dealt == list(range(dealt[0], 13))
            assert p.table is not None and p.table.fair_deck is not None
            assert p.table.fair_deck.verified >= 11 and not p.table.fair_deck.violations
        assert equity_bot.errors == 0 and equity_bot.last_equity is not None
        _conserved(operator, tls, players, table.table_id)
        # Showdowns were ranked by the evaluator over (mutual) TLS, never in process.
        assert any(isinstance(e, CardsShown) for e in events)
        logged = [line["event"] for line in suite.log("dealer")]
        for failure in ("evaluator_failed", "evaluator_prefetch_failed",
                        "evaluators_unavailable"):
            assert failure not in logged
        _, returned = operator.close_table(table.table_id)
        assert returned > 0
        assert sum(operator.player(p.player_id).balance for p in players) == DEPOSIT * 4
        for p in players:
            p.lobby.close()


def test_the_asyncio_client_plays_over_tls(suite: Suite, certs: Certs) -> None:
    tls = certs.tls()
    with LobbyClient(suite.lobby.address, suite.operator_token, tls=tls) as operator:
        table = open_table(operator, 2)
        players = _funded(suite, operator, tls, 2)

        async def main() -> list[int]:
            lobbies = [AsyncLobbyClient(suite.lobby.address, p.token, tls=tls) for p in players]
            tables = [await lobby.sit(table.table_id, buy_in=1000) for lobby in lobbies]
            results = await asyncio.gather(
                tables[0].play(CallingStation(), until_hand=4),
                tables[1].play(RandomBot(seed=9), until_hand=4))
            assert not any(r.refused for r in results)
            for table_client in tables:
                await table_client.close()
            for lobby in lobbies:
                await lobby.close()
            return [r.hands for r in results]

        assert min(asyncio.run(main())) >= 3
        _conserved(operator, tls, players, table.table_id)
        operator.close_table(table.table_id)
        for p in players:
            p.lobby.close()


def _health(address: str, credentials: grpc.ChannelCredentials | None) -> str:
    with (grpc.secure_channel(address, credentials) if credentials
          else grpc.insecure_channel(address)) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=3)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def test_a_plaintext_client_is_refused_by_every_tls_port(suite: Suite, certs: Certs) -> None:
    for proc in (suite.evaluator, suite.dealer, suite.lobby):
        assert _health(proc.address, certs.credentials()) == "SERVING"
        with pytest.raises(grpc.RpcError) as refused:
            _health(proc.address, None)
        assert refused.value.code() is grpc.StatusCode.UNAVAILABLE, proc.name
    with pytest.raises(ServiceError) as sdk_refused:
        LobbyClient(suite.lobby.address, suite.operator_token, retry=ONCE).audit()
    assert sdk_refused.value.code is grpc.StatusCode.UNAVAILABLE


def test_a_client_trusting_another_ca_is_refused(suite: Suite, certs: Certs) -> None:
    wrong = TLS.from_files(ca=certs.other_ca, cert=certs.cert, key=certs.key)
    with pytest.raises(ServiceError) as lobby_refused:
        LobbyClient(suite.lobby.address, suite.operator_token, tls=wrong, retry=ONCE).audit()
    assert lobby_refused.value.code is grpc.StatusCode.UNAVAILABLE
    with pytest.raises(ServiceError) as dealer_refused:
        TableClient(suite.dealer.address, "any", tls=wrong, retry=ONCE).view()
    assert dealer_refused.value.code is grpc.StatusCode.UNAVAILABLE
    # the same call with the right CA reaches the service (and is answered by it)
    with LobbyClient(suite.lobby.address, suite.operator_token, tls=certs.tls()) as right:
        assert right.audit().ok


def test_mutual_tls_refuses_a_client_without_a_certificate(suite: Suite, certs: Certs) -> None:
    hand = cards("As Ks Qs Js Ts")
    anonymous = EvaluatorClient(suite.evaluator.address, tls=certs.tls(client_cert=False),
                                retry=ONCE, timeout=3)
    with pytest.raises(ServiceError) as refused:
        anonymous.evaluate(hand)
    assert refused.value.code is grpc.StatusCode.UNAVAILABLE
    anonymous.close()
    known = EvaluatorClient(suite.evaluator.address, tls=certs.tls(), timeout=3)
    assert known.evaluate(hand).rank == 7462
    known.close()


def test_the_dealers_evaluator_calls_need_the_right_ca_and_certificate(
        suite: Suite, certs: Certs) -> None:
    board, holdings = [parse_card(c) for c in ("2c", "7d", "9h", "Js", "Kd")], [
        [parse_card("As"), parse_card("Ah")], [parse_card("3c"), parse_card("4c")]]
    settings = {
        "right": tls_options.channel_credentials(certs.ca, certs.cert, certs.key),
        "no client certificate": tls_options.channel_credentials(certs.ca),
        "another CA": tls_options.channel_credentials(certs.other_ca, certs.cert, certs.key),
        "plaintext": None,
    }
    answered = {}
    for name, credentials in settings.items():
        ranker = RemoteRanker([suite.evaluator.address], 3.0, credentials)
        ranks = ranker.rank_holdings(board, holdings)
        assert ranks[0] > ranks[1]  # the in-process fallback ranks too
        answered[name] = (ranker.calls[0], ranker.fallbacks)
        ranker.close()
    assert answered == {"right": (1, 0), "no client certificate": (0, 1),
                        "another CA": (0, 1), "plaintext": (0, 1)}


def _poker_health(*args: str) -> int:
    # the command as `poker` parses it; cli.main would configure this process's logging
    code: int = healthcheck.run(cli.build_parser().parse_args(["health", *args]))
    return code


def test_poker_health_asks_a_tls_port(suite: Suite, certs: Certs,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    probe = subprocess.run(
        [sys.executable, "-m", "poker.cli", "health", "--tls-ca", str(certs.ca),
         suite.lobby.address], capture_output=True, text=True, timeout=30)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == f"{suite.lobby.address}: SERVING"
    ca, client_cert = str(certs.ca), ["--tls-cert", str(certs.cert), "--tls-key", str(certs.key)]
    assert _poker_health("--tls-ca", ca, suite.dealer.address) == 0
    assert _poker_health("--tls-ca", ca, *client_cert, suite.evaluator.address) == 0
    assert _poker_health("--tls-ca", ca, "--tls-server-name", "localhost",
                         suite.dealer.address) == 0
    assert capsys.readouterr().out.count(": SERVING") == 3
    assert _poker_health(suite.lobby.address) == 1  # plaintext
    assert _poker_health("--tls-ca", str(certs.other_ca), suite.lobby.address) == 1
    assert _poker_health("--tls-ca", ca, suite.evaluator.address) == 1  # no client certificate
    assert "UNAVAILABLE" in capsys.readouterr().err
    assert _poker_health("--tls-ca", ca, "--tls-cert", str(certs.cert),
                         suite.evaluator.address) == 2


def test_every_service_says_that_tls_is_on(suite: Suite) -> None:
    for proc, mode in ((suite.evaluator, "mutual"), (suite.dealer, "on"), (suite.lobby, "on")):
        assert proc.output[0] == f"listening on {proc.address}"
        assert any(line.startswith("tls on: certificate ") for line in proc.output), proc.output
        started = [line for line in suite.log(proc.name) if line["event"] == "server_started"]
        assert started and started[0]["tls"] == mode, started
    dealer_started = next(line for line in suite.log("dealer")
                          if line["event"] == "server_started")
    assert dealer_started["evaluator_tls"] is True
    lobby_starting = next(line for line in suite.log("lobby") if line["event"] == "lobby_starting")
    assert lobby_starting["dealer_tls"] is True


@pytest.mark.parametrize(("args", "message"), [
    (["--tls-cert", "service.pem"], "--tls-cert needs --tls-key"),
    (["--tls-key", "service.key"], "--tls-key needs --tls-cert"),
    (["--tls-client-ca", "ca.pem"], "--tls-client-ca needs --tls-cert and --tls-key"),
    (["--tls-cert", "missing.pem", "--tls-key", "service.key"],
     "--tls-cert {folder}/missing.pem: No such file"),
    (["--tls-cert", "service.pem", "--tls-key", "service.key", "--tls-client-ca", "leaf.ext"],
     "--tls-client-ca {folder}/leaf.ext: not a PEM file"),
])
@pytest.mark.parametrize("service", ["evaluator", "dealer", "lobby"])
def test_bad_tls_settings_are_refused_saying_which_option(
        certs: Certs, service: str, args: list[str], message: str) -> None:
    folder = certs.ca.parent
    paths = [str(folder / a) if not a.startswith("--") else a for a in args]
    parsed = cli.build_parser().parse_args(["serve", service, *paths])
    with pytest.raises(SystemExit) as stopped:
        tls_options.from_args(parsed)
    said = str(stopped.value.code)
    assert said.startswith("poker serve: ") and message.format(folder=folder) in said, said


@pytest.mark.parametrize("service", ["evaluator", "dealer", "lobby"])
def test_a_service_with_half_its_tls_settings_does_not_start(certs: Certs, service: str,
                                                             tmp_path: Path) -> None:
    needs = {"evaluator": [], "dealer": ["--db", str(tmp_path / "dealer.sqlite")],
             "lobby": ["--db", str(tmp_path / "lobby.sqlite"), "--operator-token", "t"]}
    done = subprocess.run(
        [sys.executable, "-m", "poker.cli", "serve", service, "--port", "0", *needs[service],
         "--tls-cert", str(certs.cert)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "poker serve: --tls-cert needs --tls-key" in done.stderr
    assert "listening on" not in done.stdout
