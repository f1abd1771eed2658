"""Helpers of the scale tests: dealers on one PostgreSQL store, as real processes.

Each dealer listens on a port chosen free now and advertises it (TABLE_MOVED
redirects name it); leases are short (LEASE_S) so a failover fits the tests' bounds.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc

from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc

SERVICE_TOKEN = "scale-service-token"
AUDITOR_TOKEN = "scale-auditor-token"
SVC = (("authorization", f"Bearer {SERVICE_TOKEN}"),)
AUDIT = (("authorization", f"Bearer {AUDITOR_TOKEN}"),)
#: The tests' lease: a dead dealer's tables are adopted 4-5 s after its last renewal
#: (2 s once lost tables at a late renewal on a loaded 2-core CI machine).
LEASE_S, RENEW_S = 4.0, 0.5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_dealer(dsn: str, log_path: Path, *extra: str) -> ServiceProcess:
    """A dealer on the room's store, its log (JSON lines) at `log_path`."""
    return start_service("dealer", [
        "--dsn", dsn, "--port", str(free_port()), "--service-token", SERVICE_TOKEN,
        "--auditor-token", AUDITOR_TOKEN, "--lease-seconds", str(LEASE_S),
        "--lease-renew-seconds", str(RENEW_S), "--evaluator-timeout-ms", "500", *extra],
        log_path=log_path)


def stub(address: str) -> dealer_pb2_grpc.DealerServiceStub:
    return dealer_pb2_grpc.DealerServiceStub(grpc.insecure_channel(address))  # type: ignore[no-untyped-call]


def open_tables(address: str, count: int, players: int, stack: int,
                **config: Any) -> dict[str, list[str]]:
    """`count` tables of `players` seats at the dealer: each table's seat tokens."""
    dealer = stub(address)
    config.setdefault("pause_between_hands_ms", 100)
    config.setdefault("action_time_ms", 2_000)
    tables: dict[str, list[str]] = {}
    for i in range(count):
        table_id = f"t{i:03d}"
        dealer.CreateTable(pb.CreateTableRequest(table_id=table_id, config=pb.TableConfig(
            seats=6, **config)), metadata=SVC, timeout=10)
        tables[table_id] = [dealer.SeatPlayer(pb.SeatPlayerRequest(
            table_id=table_id, seat=s, player_id=f"{table_id}-p{s}", stack=stack,
            request_id=f"{table_id}-{s}"), metadata=SVC, timeout=10).seat_token
            for s in range(players)]
    return tables


def view(address: str, table_id: str) -> pb.TableView:
    return stub(address).GetTable(pb.GetTableRequest(table_id=table_id), metadata=AUDIT,
                                  timeout=5).table


def wait_for(what: str, check: Callable[[], bool], timeout: float, every: float = 0.1) -> float:
    """Seconds until `check()` holds (AssertionError naming `what` past `timeout`)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(every)
    return time.monotonic() - start


def log_lines(path: Path, event: str) -> list[dict[str, Any]]:
    found = []
    for line in path.read_text().splitlines():
        if f'"{event}"' in line:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return [e for e in found if e.get("event") == event]


def stored(dsn: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]


def log_checks(dsn: str) -> None:
    """What every scale test asserts of the stored log: per table, epochs never go back
    as sequence numbers grow, and every hand started once."""
    from services.dealer import codec
    from services.dealer.store_pg import _from_db

    rows = stored(dsn, "SELECT table_id, sequence, epoch, payload FROM events"
                       " ORDER BY table_id, sequence")
    last: dict[str, tuple[int, int]] = {}
    started: dict[tuple[str, str], int] = {}
    for table_id, sequence, epoch, payload in rows:
        seq0, epoch0 = last.get(table_id, (0, 0))
        assert sequence == seq0 + 1, f"{table_id}: a gap before {sequence}"
        assert epoch >= epoch0, f"{table_id}: epoch {epoch} after {epoch0} at {sequence}"
        last[table_id] = (sequence, epoch)
        event = codec.loads(_from_db(payload))
        if type(event).__name__ == "HandStarted":
            key = (table_id, event.hand_id)
            started[key] = started.get(key, 0) + 1
    twice = [k for k, n in started.items() if n > 1]
    assert not twice, f"hands started twice: {twice[:5]}"


OPERATOR_TOKEN = "scale-operator-token"


def start_lobby(folder: Path, dealers: Sequence[str]) -> ServiceProcess:
    """A lobby (SQLite) placing tables on `dealers`, following their FollowTables."""
    args = ["--db", str(folder / "lobby.sqlite"), "--operator-token", OPERATOR_TOKEN,
            "--service-token", SERVICE_TOKEN]
    for address in dealers:
        args += ["--dealer", address]
    return start_service("lobby", args, log_path=folder / "lobby.log")


async def lobby_tables(lobby: str, count: int, players: int, stack: int,
                       deposit: int) -> dict[str, list[tuple[str, str]]]:
    """`count` tables opened through the lobby (it spreads them over its dealers), each
    with `players` funded players bought in for `stack`: (table, seat token) by dealer."""
    from clients.accounts import TableRules
    from clients.aio import AsyncLobbyClient
    from clients.models import TableConfig

    by_dealer: dict[str, list[tuple[str, str]]] = {}
    async with AsyncLobbyClient(lobby, OPERATOR_TOKEN, timeout=30) as operator:
        for t in range(count):
            table_id = f"t{t:03d}"
            await operator.open_table(
                TableConfig(seats=6, pause_between_hands_ms=100, action_time_ms=2_000),
                TableRules(min_buy_in=stack, max_buy_in=stack, max_rebuys=0),
                name=table_id, table_id=table_id)
            for seat in range(players):
                player = f"{table_id}-p{seat}"
                await operator.create_player(player, player)
                await operator.deposit(player, deposit)
                seating = await operator.join(table_id, stack, seat=seat, player_id=player)
                by_dealer.setdefault(seating.dealer_address, []).append(
                    (table_id, seating.seat_token))
    return by_dealer


async def audit(lobby: str) -> Any:
    from clients.aio import AsyncLobbyClient

    async with AsyncLobbyClient(lobby, OPERATOR_TOKEN, timeout=30) as operator:
        return await operator.audit()
