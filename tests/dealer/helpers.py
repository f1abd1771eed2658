"""Helpers of the dealer's end-to-end tests: a client, stream watchers, a scripted table driver."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import grpc

from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc

SERVICE_TOKEN = "test-service-token"
AUDITOR_TOKEN = "test-auditor-token"


def start_dealer(db: Path, *extra: str, log_path: Path | None = None) -> ServiceProcess:
    return start_service("dealer", ["--db", str(db), "--service-token", SERVICE_TOKEN,
                                    "--auditor-token", AUDITOR_TOKEN, "--stream-linger-ms", "0",
                                    *extra],
                         log_path=log_path)


def auth(token: str | None) -> list[tuple[str, str]]:
    return [] if token is None else [("authorization", f"Bearer {token}")]


SVC = auth(SERVICE_TOKEN)
AUDIT = auth(AUDITOR_TOKEN)


class Client:
    """A stub with the calls the tests repeat."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = dealer_pb2_grpc.DealerServiceStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def create(self, table_id: str = "", **config: Any) -> str:
        config.setdefault("pause_between_hands_ms", 0)
        config.setdefault("action_time_ms", 10_000)
        # These tests time decisions out by action_time_ms alone: no R35 time bank
        # (test_R35_* set it).
        config.setdefault("time_bank_ms", 0)
        reply = self.stub.CreateTable(pb.CreateTableRequest(
            table_id=table_id, config=pb.TableConfig(**config)), metadata=SVC, timeout=10)
        return reply.table_id

    def seat(self, table_id: str, stacks: Sequence[int], **kw: Any) -> dict[int, str]:
        tokens = {}
        for seat, stack in enumerate(stacks):
            reply = self.stub.SeatPlayer(pb.SeatPlayerRequest(
                table_id=table_id, seat=seat, player_id=f"p{seat}", stack=stack, **kw),
                metadata=SVC, timeout=10)
            tokens[reply.seat] = reply.seat_token
        return tokens

    def view(self, table_id: str, token: str | None = None) -> pb.TableView:
        return self.stub.GetTable(pb.GetTableRequest(table_id=table_id), metadata=auth(token),
                                  timeout=10).table


class Watcher:
    """A WatchTable stream read on a thread into a list of events."""

    def __init__(self, client: Client, table_id: str, token: str | None = None,
                 after: int = 0) -> None:
        self.events: list[pb.TableEvent] = []
        self.error: grpc.RpcError | None = None
        self._cond = threading.Condition()
        self._call = client.stub.WatchTable(
            pb.WatchTableRequest(table_id=table_id, after_sequence=after), metadata=auth(token))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for response in self._call:
                with self._cond:
                    self.events.extend(response.events)
                    self._cond.notify_all()
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.CANCELLED:
                self.error = err
        with self._cond:
            self._cond.notify_all()

    def wait(self, predicate: Callable[[list[pb.TableEvent]], bool], timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    raise AssertionError(
                        f"watcher: condition not met ({len(self.events)} events, {self.error})")
                self._cond.wait(left)

    def cancel(self) -> None:
        self._call.cancel()
        self._thread.join(5)


def kinds(events: Iterable[pb.TableEvent]) -> list[str]:
    return [e.WhichOneof("event") or "hidden" for e in events]


def count(events: Iterable[pb.TableEvent], kind: str) -> int:
    return sum(1 for e in events if e.WhichOneof("event") == kind)


def choose(legal: pb.LegalActions, rng: random.Random) -> tuple[int, int]:
    """A mixed policy: (kind, amount) from the legal actions of a TurnStarted."""
    if legal.decision == pb.DECISION_SHOW_OR_MUCK:
        return (pb.ACTION_KIND_SHOW if rng.random() < 0.5 else pb.ACTION_KIND_MUCK), 0
    r = rng.random()
    if legal.bet_kind and r < 0.2:
        high = legal.min_to if rng.random() < 0.6 else legal.max_to
        return legal.bet_kind, rng.randint(legal.min_to, max(legal.min_to, high))
    if r < 0.25 and legal.can_all_in:
        return pb.ACTION_KIND_ALL_IN, 0
    if legal.can_check:
        return pb.ACTION_KIND_CHECK, 0
    if legal.can_call and r < 0.85:
        return pb.ACTION_KIND_CALL, 0
    return pb.ACTION_KIND_FOLD, 0


def play(client: Client, table_id: str, tokens: dict[int, str], watcher: Watcher, hands: int,
         seed: int = 1, on_turn: Callable[[pb.TableEvent], bool] | None = None,
         timeout: float = 60, rebuy: bool = True) -> None:
    """Answers every TurnStarted seen by `watcher` until `hands` more hands have ended.

    `on_turn` may return False to leave a turn unanswered (to let it time out).
    A player who lost every chip rebuys 1000 (the lobby's AddChips, R30).
    """
    rng = random.Random(seed)
    start = count(watcher.events, "hand_ended") + count(watcher.events, "hand_voided")
    # From the last turn already seen: it may be awaiting an answer (answering twice is harmless).
    turns = [i for i, e in enumerate(watcher.events) if e.HasField("turn_started")]
    seen = turns[-1] if turns else len(watcher.events)
    deadline = time.monotonic() + timeout
    while True:
        watcher.wait(lambda ev, n=seen: len(ev) > n, timeout=deadline - time.monotonic())
        new = watcher.events[seen:]
        seen += len(new)
        for event in new:
            if event.WhichOneof("event") != "turn_started":
                if event.WhichOneof("event") == "hand_ended" and rebuy:
                    _rebuy(client, table_id, event)
                continue
            turn = event.turn_started
            if on_turn is not None and not on_turn(event):
                continue
            _answer(client, table_id, tokens[turn.seat], event, choose(turn.legal_actions, rng))
        done = count(watcher.events, "hand_ended") + count(watcher.events, "hand_voided")
        if done - start >= hands:
            return


def _answer(client: Client, table_id: str, token: str, event: pb.TableEvent,
            choice: tuple[int, int]) -> None:
    turn = event.turn_started
    for kind, amount in (choice, (pb.ACTION_KIND_CHECK if turn.legal_actions.can_check
                                  else pb.ACTION_KIND_FOLD, 0)):
        try:
            client.stub.Act(pb.ActRequest(
                table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
                action_number=turn.action_number, kind=kind, amount=amount),
                metadata=auth(token), timeout=10)
            return
        except grpc.RpcError as err:  # superseded by a time-out or a later turn, or refused
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()
            if turn.legal_actions.decision == pb.DECISION_SHOW_OR_MUCK:
                return


def _rebuy(client: Client, table_id: str, event: pb.TableEvent) -> None:
    for stack in event.hand_ended.stacks:
        if stack.stack == 0:
            try:
                client.stub.AddChips(pb.AddChipsRequest(
                    table_id=table_id, seat=stack.seat, amount=1000,
                    idempotency_key=f"{event.hand_id}/{stack.seat}"), metadata=SVC, timeout=10)
            except grpc.RpcError as err:  # already in the next hand, or left
                assert err.code() in (grpc.StatusCode.FAILED_PRECONDITION,
                                      grpc.StatusCode.NOT_FOUND), err.details()


def stored_events(table: Any, after: int = 0, limit: int = -1) -> list[Any]:
    """A table's events after `after`, read from its store (the tests' view of the log;
    the dealer itself reads old events off the event loop, services.dealer.streams)."""
    from services.dealer import codec
    from services.dealer.tables import Stored

    return [Stored(r.sequence, r.hand_id, r.time_ms, codec.loads(r.payload))
            for r in table.store.events(table.table_id, after, limit)]
