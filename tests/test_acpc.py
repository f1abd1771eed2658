"""The ACPC gateway (`poker acpc`): ACPC protocol clients play matches at our tables.

The clients (tests/acpc_client.py) are written from the protocol's description, not
from the gateway: each reads every state with its own rules and checks that it is sent
a state exactly when it must act and once at the end of each hand.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from clients.accounts import TableRules
from clients.acpc import AcpcHand, gamedef, parse_action
from clients.models import Level, TableConfig
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from poker.vocab.actions import Action, LegalActions
from poker.vocab.enums import ActionKind, BlindKind, Decision, Street, Structure
from poker.vocab.events import ActionTaken, BlindPosted, BoardDealt, CardsShown, HandEnded
from tests.acpc_client import AcpcClient, Game

STACK = 20_000


# ------------------------------------------------------------------ translation, no I/O


def test_positions_start_after_the_button_and_end_on_it() -> None:
    hand = AcpcHand.start(0, dealt_in=[0, 2, 3, 5], button=3, table_seats=6, limit=False)
    assert hand.seats == (5, 0, 2, 3)  # small blind, big blind, ..., button last
    heads_up = AcpcHand.start(0, dealt_in=[1, 4], button=4, table_seats=6, limit=False)
    assert heads_up.seats == (1, 4)  # position 0 is the big blind, 1 the button


def test_betting_counts_blinds_and_earlier_rounds_in_r_amounts() -> None:
    hand = AcpcHand.start(7, [0, 1], button=1, table_seats=2, limit=False)
    hand.apply(BlindPosted(1, BlindKind.SMALL, 50))
    hand.apply(BlindPosted(0, BlindKind.BIG, 100))
    hand.apply(ActionTaken(1, ActionKind.RAISE, to=300, added=250))
    hand.apply(ActionTaken(0, ActionKind.CALL, to=300, added=200))
    hand.apply(BoardDealt(Street.FLOP, (0, 4, 51)))
    hand.apply(ActionTaken(0, ActionKind.BET, to=200, added=200))
    assert hand.betting() == "r300c/r500"
    assert hand.matchstate(1) == "MATCHSTATE:1:7:r300c/r500:|/2c3cAs"
    legal = LegalActions(seat=1, decision=Decision.BET, can_fold=True, can_call=True,
                         call_amount=200, bet_kind=ActionKind.RAISE, min_to=400, max_to=19700)
    # r1100 is a total for the hand: 300 before the flop, so a raise to 800 on it
    assert hand.action("r1100", 1, legal) == Action(ActionKind.RAISE, 800)
    assert hand.action("r350", 1, legal) == Action(ActionKind.RAISE, 400)  # fixed up
    assert hand.action("r99999", 1, legal) == Action(ActionKind.RAISE, 19700)  # fixed down
    assert hand.action("c", 1, legal) == Action.call()
    assert hand.action("f", 1, legal) == Action.fold()


def test_invalid_actions_are_fixed_as_the_acpc_dealer_fixes_them() -> None:
    hand = AcpcHand.start(0, [0, 1], button=1, table_seats=2, limit=True)
    checkable = LegalActions(seat=0, decision=Decision.BET, can_check=True,
                             bet_kind=None)
    assert hand.action("f", 0, checkable) == Action.check()  # nothing to call: checks
    assert hand.action("r", 0, checkable) == Action.check()  # no raise allowed: calls
    capped = LegalActions(seat=0, decision=Decision.BET, can_fold=True, can_call=True,
                          call_amount=10, bet_kind=ActionKind.RAISE, min_to=40, max_to=40)
    assert hand.action("r", 0, capped) == Action(ActionKind.RAISE, 40)


def test_the_cards_field_shows_own_cards_then_shown_hands_at_the_end() -> None:
    hand = AcpcHand.start(0, [0, 1], button=1, table_seats=2, limit=False)
    hand.hole = {0: "AsKs"}
    assert hand.cards(0) == "AsKs|"
    hand.apply(CardsShown(1, (48, 49)))
    hand.apply(HandEnded(stacks=((0, 100), (1, 100))))
    assert hand.cards(0) == "AsKs|AcAd"


def test_answers_to_another_state_or_garbage_are_not_actions() -> None:
    state = "MATCHSTATE:0:3:cr300:AsKs|"
    assert parse_action(f"{state}:r900", state) == "r900"
    assert parse_action(f"{state}:c", state) == "c"
    assert parse_action("MATCHSTATE:0:2:cr300:AsKs|:c", state) is None
    assert parse_action(f"{state}:x", state) is None
    assert parse_action(f"{state}:r9x", state) is None


def test_the_game_definition_follows_the_competitions_files() -> None:
    text = gamedef(2, 50, 100, STACK, Structure.NO_LIMIT)
    game = Game.parse(text)
    assert (game.players, game.blinds, game.first, game.stack) == (2, [100, 50], [2, 1, 1, 1],
                                                                   STACK)
    limit = Game.parse(gamedef(3, 5, 10, STACK, Structure.FIXED_LIMIT))
    assert limit.limit and limit.blinds == [5, 10, 0] and limit.raise_size == [10, 10, 20, 20]
    assert limit.first == [3, 1, 1, 1] and limit.max_raises == [3, 4, 4, 4]


# --------------------------------------------------------------- matches over TCP


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSuite]:
    with LocalSuite(folder=tmp_path_factory.mktemp("acpc")) as running:
        yield running


def _gateway(suite: LocalSuite, table_id: str, hands: int) -> tuple[subprocess.Popen[str], int,
                                                                       str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "poker.cli", "acpc", "--lobby", suite.lobby, "--token",
         suite.operator_token, "--table", table_id, "--hands", str(hands), "--stack",
         str(STACK)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert "ACPC 2.0.0 gateway" in first, first
    port = int(first.rsplit(":", 1)[1])
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("END GAMEDEF"):
            break
    return proc, port, "".join(lines)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("structure", "players", "hands", "blinds"), [
    (Structure.NO_LIMIT, 2, 300, (50, 100)),
    (Structure.FIXED_LIMIT, 3, 150, (5, 10)),
])
def test_acpc_clients_play_a_match_and_every_chip_is_accounted_for(
        suite: LocalSuite, structure: Structure, players: int, hands: int,
        blinds: tuple[int, int]) -> None:
    with LobbyClient(suite.lobby, suite.operator_token) as operator:
        table = operator.open_table(
            TableConfig(seats=players, structure=structure, levels=(Level(*blinds),),
                        pause_between_hands_ms=0, action_time_ms=5_000, time_bank_ms=0,
                        min_players_to_start=players),
            TableRules(min_buy_in=STACK, max_buy_in=STACK, rebuy_amount=STACK,
                       max_rebuys=-1))
        before = operator.audit()
        proc, port, text = _gateway(suite, table.table_id, hands)
        try:
            game = Game.parse(text)
            assert game.players == players and game.limit == (structure is
                                                               Structure.FIXED_LIMIT)
            # Raises stay small, so no stack runs short in the match: an ACPC client knows
            # only the game definition's stacks (see clients/acpc.py, "Stacks").
            clients = [AcpcClient("127.0.0.1", port, game, seed=i, cap=4 * blinds[1])
                       for i in range(players)]
            seen: list[object] = [None] * players
            threads = [threading.Thread(target=lambda i=i: seen.__setitem__(i, clients[i].run()))
                       for i in range(players)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=540)
            assert not any(t.is_alive() for t in threads), "a match did not end"
            # Every player is off the table again and their chips are in their balances.
            deadline = time.monotonic() + 30
            while operator.table(table.table_id).seats and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not operator.table(table.table_id).seats
            after = operator.audit()
            assert after.ok, after
            # Nothing is left on the table, and the ACPC players hold what was deposited.
            assert after.table_chips == before.table_chips
            assert after.player_balances - before.player_balances == players * 10 * STACK
        finally:
            proc.terminate()
            out, _ = proc.communicate(timeout=10)
        seated = [line.split()[1] for line in out.splitlines() if line.startswith("seated ")]
        assert len(seated) == players
        assert sum(operator.player(p).balance for p in seated) == players * 10 * STACK
        for s in seen:
            assert s is not None
            assert not s.errors, s.errors[:5]  # type: ignore[attr-defined]
            assert s.hands >= hands - 1, s  # type: ignore[attr-defined]
            assert s.answers > s.hands  # type: ignore[attr-defined]
        # Hands were played out, not folded away: every client saw showdowns. (No check on
        # the players' net: after a match it can be exactly 0, and a clean-clone run once
        # ended with both balances where they started.)
        assert all(s.showdowns for s in seen)  # type: ignore[attr-defined]
