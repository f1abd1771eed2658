"""Showdowns ranked by evaluator services over gRPC: round robin, and failover when one dies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from poker.cards import parse_card
from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2 as pb
from services.evaluator.core import evaluate
from tests.dealer.helpers import (
    AUDITOR_TOKEN,
    SERVICE_TOKEN,
    Client,
    Watcher,
    play,
    start_dealer,
)


@pytest.fixture(scope="module")
def evaluators() -> Iterator[list[ServiceProcess]]:
    procs = [start_service("evaluator"), start_service("evaluator")]
    yield procs
    for proc in procs:
        proc.stop()


def _check_showdowns(events: list[pb.TableEvent]) -> int:
    """Every pot contested at showdown went to the best shown hand (R25); returns how many."""
    checked = 0
    hands: dict[str, list[pb.TableEvent]] = {}
    for e in events:
        hands.setdefault(e.hand_id, []).append(e)
    for hand in hands.values():
        board = [parse_card(c) for e in hand if e.HasField("board_dealt")
                 for c in e.board_dealt.cards]
        shown = {e.cards_shown.seat: [parse_card(c) for c in e.cards_shown.cards]
                 for e in hand if e.HasField("cards_shown")}
        for e in hand:
            pot = e.pot_awarded
            if not e.HasField("pot_awarded") or len(board) < 5:
                continue
            contenders = [s for s in pot.eligible if s in shown]
            if len(contenders) < 2 or len(contenders) != len(pot.eligible):
                continue
            ranks = {s: evaluate([*board, *shown[s]]) for s in contenders}
            best = max(ranks.values())
            assert sorted(pot.winners) == sorted(s for s in contenders if ranks[s] == best)
            checked += 1
    return checked


def test_tables_go_on_when_an_evaluator_dies(evaluators: list[ServiceProcess],
                                             tmp_path: Path) -> None:
    log = tmp_path / "dealer.log"
    dealer = start_dealer(tmp_path / "dealer.sqlite",
                          *(a for p in evaluators for a in ("--evaluator", p.address)),
                          log_path=log)
    client = Client(dealer.address)
    try:
        table_id = client.create(seats=3, test_mode=True, deck_seed=17)
        tokens = client.seat(table_id, [5000, 5000, 5000])
        watcher = Watcher(client, table_id, AUDITOR_TOKEN)
        play(client, table_id, tokens, watcher, 20, seed=2)
        before = _check_showdowns(watcher.events)
        evaluators[0].kill()
        play(client, table_id, tokens, watcher, 30, seed=3)
        after = _check_showdowns(watcher.events) - before
        assert before > 0 and after > 0, (before, after)
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
        names = [line["event"] for line in lines]
        assert "evaluator_failed" in names  # the dead one was tried, then passed over
        assert "evaluators_unavailable" not in names  # the survivor answered every showdown
        failed = [line for line in lines if line["event"] == "evaluator_failed"]
        assert {line["address"] for line in failed} == {evaluators[0].address}
    finally:
        client.close()
        dealer.stop()


def _events(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def test_the_dealer_sends_the_evaluator_token_and_its_showdowns_use_that_evaluator(
        tmp_path: Path) -> None:
    evaluator_log = tmp_path / "evaluator.log"
    evaluator = start_service("evaluator", ["--service-token", "ev-s3cret"],
                              log_path=evaluator_log)
    try:
        for name, token in (("right", "ev-s3cret"), ("wrong", "not-it")):
            log = tmp_path / f"dealer-{name}.log"
            args = ["--db", str(tmp_path / f"{name}.sqlite"), "--service-token", SERVICE_TOKEN,
                    "--auditor-token", AUDITOR_TOKEN, "--stream-linger-ms", "0",
                    "--evaluator", evaluator.address]
            # The right token from the environment, the wrong one from the flag.
            dealer = (start_service("dealer", args, env={"POKER_EVALUATOR_TOKEN": token},
                                    log_path=log) if name == "right" else
                      start_service("dealer", [*args, "--evaluator-token", token],
                                    log_path=log))
            client = Client(dealer.address)
            try:
                table_id = client.create(seats=3, test_mode=True, deck_seed=17)
                tokens = client.seat(table_id, [5000, 5000, 5000])
                watcher = Watcher(client, table_id, AUDITOR_TOKEN)
                play(client, table_id, tokens, watcher, 15, seed=2)
                assert _check_showdowns(watcher.events) > 0  # right either way (R25)
            finally:
                client.close()
                dealer.stop()
            names = [line["event"] for line in _events(log)]
            if name == "right":
                # Every showdown was answered by the evaluator: none failed, none fell back.
                assert not {"evaluator_failed", "evaluators_unavailable",
                            "evaluator_prefetch_failed"} & set(names), names
                refused = [line for line in _events(evaluator_log)
                           if line["event"] == "request_refused"]
                assert not refused, refused
            else:
                assert "evaluator_refused_token" in names  # said loudly, ranked in process
                assert "evaluators_unavailable" in names
    finally:
        evaluator.stop()
