"""Fixtures of the SDK's end-to-end tests: the whole suite (evaluator, dealer, lobby) once per
module, and helpers that open a table through the lobby and seat funded players."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator, Sized
from dataclasses import dataclass, field
from typing import Any

import pytest

from clients.accounts import LobbyTable, TableRules
from clients.errors import ServiceError, Unavailable
from clients.events import Event, HandStarted, PlayerSeated
from clients.models import Level, TableConfig
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot, PlayResult
from clients.stack import LocalSuite
from clients.transport import TLS

DEPOSIT = 20_000
_ids = itertools.count(1)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSuite]:
    with LocalSuite(folder=tmp_path_factory.mktemp("suite")) as running:
        yield running


@pytest.fixture(scope="module")
def operator(suite: LocalSuite) -> Iterator[LobbyClient]:
    with LobbyClient(suite.lobby, suite.operator_token) as client:
        yield client


@dataclass
class Player:
    """A funded player: their lobby client (player token), token, and seat at the table."""

    player_id: str
    token: str
    lobby: LobbyClient
    table: TableClient | None = None
    result: PlayResult | None = None
    error: BaseException | None = None
    rebuys: int = 0
    events: list[int] = field(default_factory=list)
    # Called on the player's own thread with each batch of events, after they are recorded:
    # a test's hook that must happen at a known point of the game (a crash mid-game).
    watch: Callable[[list[object]], None] | None = None


def open_table(operator: LobbyClient, seats: int, **config: object) -> LobbyTable:
    settings: dict[str, object] = {"seats": seats, "levels": (Level(5, 10),),
                                   "pause_between_hands_ms": 0, "action_time_ms": 10_000}
    settings.update(config)
    return operator.open_table(TableConfig(**settings),  # type: ignore[arg-type]
                               TableRules(initial_stack=1000, max_rebuys=-1))


def funded(suite: LocalSuite, operator: LobbyClient, count: int,
           deposit: int = DEPOSIT) -> list[Player]:
    players = []
    for _ in range(count):
        player_id = f"p{next(_ids)}"
        _, token = operator.create_player(player_id, player_id.upper())
        operator.deposit(player_id, deposit)
        players.append(Player(player_id, token, LobbyClient(suite.lobby, token)))
    return players


def seated(suite: LocalSuite, operator: LobbyClient, table: LobbyTable, count: int,
           **table_options: object) -> list[Player]:
    players = funded(suite, operator, count)
    for p in players:
        p.table = p.lobby.sit(table.table_id, **table_options)  # type: ignore[arg-type]
    return players


def play_all(players: list[Player], bots: list[Bot], table_id: str,
             stops: list[dict[str, object]] | None = None, **stop: object) -> list[Player]:
    """Each player plays its bot on a thread (rebuying when busted) until `stop` (or its
    own of `stops`, one a player); joined."""

    def run(p: Player, bot: Bot, stop: dict[str, object]) -> None:
        def rebuy() -> bool:
            try:
                p.lobby.rebuy(table_id)
            except ServiceError:  # the balance is spent: this player is done
                return False
            p.rebuys += 1
            return True

        def record(events: list[object]) -> None:
            p.events.extend(e.sequence for e in events)  # type: ignore[attr-defined]
            if p.watch is not None:
                p.watch(events)

        assert p.table is not None
        try:
            p.result = p.table.play(bot, rebuy=rebuy, on_events=record,  # type: ignore[arg-type]
                                    **stop)
        except BaseException as err:  # noqa: BLE001 - reported by the test
            p.error = err

    own = stops if stops is not None else [stop] * len(players)
    threads = [threading.Thread(target=run, args=triple, daemon=True)
               for triple in zip(players, bots, own, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    errors = [p.error for p in players if p.error is not None]
    assert not errors, errors
    return players


def logged_events(address: str, table_id: str, tls: TLS | None = None) -> list[Event]:
    """Every event of the table's log so far, read from the start by a spectator."""
    spectator = TableClient(address, table_id, tls=tls)
    last = spectator.view().sequence
    events = []
    for event in spectator.events(after=0):
        events.append(event)
        if event.sequence >= last:
            break
    spectator.close()
    return events


def hands_dealt(events: list[Event], player_id: str) -> list[HandStarted]:
    """The HandStarted of each hand the log's seat of `player_id` was dealt (none before
    the player sat down)."""
    seat: int | None = None
    dealt = []
    for e in events:
        if isinstance(e, PlayerSeated) and e.player_id == player_id:
            seat = e.seat
        elif isinstance(e, HandStarted) and any(p.seat == seat for p in e.players):
            dealt.append(e)
    return dealt


def stacks_between_hands(operator: LobbyClient, table_id: str) -> dict[str, int]:
    """Each player's stack at the table, once no hand holds chips in the middle."""
    with TableClient(operator.table(table_id).dealer_address, table_id) as table:
        wait_until(lambda: table.view().hand is None)
        return {s.player_id: s.stack for s in table.view().seats}


def conserved(operator: LobbyClient, players: list[Player], table_ids: list[str]) -> None:
    """Balances + stacks at `table_ids` == deposits (nothing withdrawn), and the ledger's
    invariants hold."""
    stacks: dict[str, int] = {}
    for table_id in table_ids:
        stacks.update(stacks_between_hands(operator, table_id))
    total = sum(operator.player(p.player_id).balance + stacks.get(p.player_id, 0)
                for p in players)
    assert total == DEPOSIT * len(players)
    audit = operator.audit()
    assert audit.ok and audit.total == 0, audit.problems


def close_after_restart(operator: LobbyClient, table_id: str,
                        void_hand_in_progress: bool = False, within: float = 30.0) -> int:
    """Closes a table whose dealer restarted a moment ago, as an operator would: the lobby
    may answer UNAVAILABLE ("the table is closing and its stacks are credited as soon as
    the dealer answers") until it reaches the dealer again; the same request then tells
    how the close ended. The chips returned."""
    request_id = f"close-{table_id}"
    deadline = time.monotonic() + within
    while True:
        try:
            return operator.close_table(table_id, void_hand_in_progress, request_id)[1]
        except Unavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def restart_dealer_after(suite: LocalSuite, events: Sized, count: int,
                         stop: str) -> tuple[Callable[[list[Any]], None], list[int]]:
    """A hook for one seat's batches of events (`Player.watch`, `Farmer.watch`): once
    `events` holds more than `count`, it crashes ("SIGKILL") or stops ("SIGTERM") the
    dealer and starts it again on its port. It runs on the seat's own thread or event
    loop, so the restart comes mid-game however fast the hands go (a watcher thread once
    lost that race). The list it returns holds `len(events)` at the restart."""
    port = suite.dealer.rsplit(":", 1)[1]
    restarted: list[int] = []

    def hook(_batch: list[Any]) -> None:
        if len(events) > count and not restarted:
            if stop == "SIGKILL":
                suite.process("dealer").kill()
            else:
                assert suite.process("dealer").stop(timeout=15) == 0
            suite.start_dealer(["--port", port])
            restarted.append(len(events))

    return hook, restarted


def contiguous(sequences: list[int]) -> bool:
    return sequences == list(range(sequences[0], sequences[0] + len(sequences)))


def wait_until(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)
