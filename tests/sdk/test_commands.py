"""`poker play` and `poker demo`: the prompt's answers to good and bad input, a scripted game
through the real command, and the demo's chip check."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clients.cards import cards
from clients.models import (
    Action,
    ActionKind,
    Decision,
    HandView,
    LegalActions,
    Level,
    SeatView,
    Street,
    TableView,
)
from clients.play import BadInput, Human, Quit, draw_table, parse_action
from poker.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
FACING_A_BET = LegalActions(seat=1, decision=Decision.BET, can_fold=True, can_call=True,
                            call_amount=40, bet_kind=ActionKind.RAISE, min_to=80, max_to=960,
                            can_all_in=True, all_in_to=960)
SHOWDOWN = LegalActions(seat=1, decision=Decision.SHOW_OR_MUCK, can_show=True, can_muck=True)


@pytest.mark.parametrize(("typed", "meant"), [
    ("f", Action.fold()), ("FOLD", Action.fold()), ("c", Action.call()),
    ("r 200", Action.raise_to(200)), ("raise 960", Action.raise_to(960)),
    ("b 100", Action.raise_to(100)),  # "bet" when only a raise is possible: that raise
    ("a", Action.all_in()), ("all-in", Action.all_in()),
])
def test_the_prompt_understands_the_usual_words(typed: str, meant: Action) -> None:
    assert parse_action(typed, FACING_A_BET) == meant


@pytest.mark.parametrize(("typed", "says"), [
    ("hello", "Sorry, I did not understand 'hello'. You may: fold (f) · call 40 (c)"),
    ("x", "Sorry, you cannot check now: there is 40 to call."),
    ("r", "Please add the amount, e.g. 'r 80'."),
    ("r lots", "Sorry, 'lots' is not a number of chips."),
    ("r 79", "Sorry, a raise must go to between 80 and 960 (you typed 79)."),
    ("r 961", "Sorry, a raise must go to between 80 and 960 (you typed 961)."),
    ("", "Please type an action (? for help)."),
    ("m", "Sorry, you cannot muck now."),
])
def test_the_prompt_refuses_bad_input_politely(typed: str, says: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_action(typed, FACING_A_BET)
    assert str(refused.value).startswith(says), str(refused.value)


def test_show_or_muck_and_quitting() -> None:
    assert parse_action("s", SHOWDOWN) == Action.show()
    with pytest.raises(BadInput, match="it is time to show or muck"):
        parse_action("c", SHOWDOWN)
    with pytest.raises(Quit):
        parse_action("q", SHOWDOWN)


def _view() -> TableView:
    return TableView(table_id="t", your_seat=1, seats=(
        SeatView(0, "ann", 940, bet=40), SeatView(1, "you", 990, bet=10, in_hand=True,
                                                  hole_cards=cards("Ah Kd"))),
        hand=HandView(hand_id="t-4", hand_number=4, street=Street.FLOP,
                      board=cards("2c 7d Qs"), actor=1, button=0, level=Level(5, 10),
                      legal=FACING_A_BET))


def test_a_person_is_asked_again_until_the_answer_is_legal() -> None:
    typed = iter(["what", "r 10", "r 120"])
    out = io.StringIO()
    human = Human({0: "Ann", 1: "You"}, lambda prompt: next(typed), out)
    assert human.act(_view()) == Action.raise_to(120) and not human.quit
    text = out.getvalue()
    assert "Board: [2c 7d Qs]" in text and "Your cards: [Ah Kd] · to call: 40" in text
    assert "Sorry, I did not understand 'what'" in text
    assert "Sorry, a raise must go to between 80 and 960 (you typed 10)." in text
    assert "raise to 80..960 (r AMOUNT)" in text


def test_the_end_of_input_quits_with_the_safest_action() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    human = Human({}, closed, io.StringIO())
    assert human.act(_view()) == Action.fold() and human.quit
    assert "seat 1  You" in draw_table(_view(), {1: "You"})


def _poker(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "POKER_LOG_FORMAT": "json"}
    return subprocess.run([sys.executable, "-m", "poker.cli", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


#: The scripted player's answers, in a cycle: "c" answers a betting decision (call, or
#: check when free), "m" a show-or-muck one, "1" a run-it decision (R38: the table runs
#: it twice when every player all-in agrees); each answer that does not fit is refused
#: politely and the next line is read, so every decision takes at most three lines.
SCRIPT_CYCLE = ("c", "m", "1")
RUN_IT = LegalActions(seat=1, decision=Decision.RUN_IT)


@pytest.mark.parametrize("legal", [FACING_A_BET, SHOWDOWN, RUN_IT],
                         ids=["bet", "show_or_muck", "run_it"])
def test_the_scripted_player_answers_every_kind_of_decision_within_a_cycle(
        legal: LegalActions) -> None:
    # A script of "c" and "m" alone met R38's run-it decision after an all-in, spent every
    # line on it and quit: the game stopped after one hand (the test's old flake)
    view = TableView(table_id="t", your_seat=1, hand=HandView(
        hand_id="t-1", hand_number=1, street=Street.FLOP, actor=1, legal=legal))
    for start in range(len(SCRIPT_CYCLE)):  # the cycle met at any point
        typed = list(SCRIPT_CYCLE[start:] + SCRIPT_CYCLE * 2)
        human = Human({}, lambda prompt, lines=typed: lines.pop(0), io.StringIO())
        action = human.act(view)
        assert not human.quit and legal.allows(action)
        assert len(typed) >= 3 * len(SCRIPT_CYCLE) - start - len(SCRIPT_CYCLE)  # <= 3 read


@pytest.mark.slow
def test_poker_play_with_a_scripted_player() -> None:
    script = "hello\nr 1\n" + "\n".join(SCRIPT_CYCLE * 60) + "\n"
    done = _poker("play", "--bots", "2", "--hands", "2", "--bot-delay", "0", stdin=script)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "Sorry, I did not understand 'hello'" in out
    # "r 1" answers the first decision: a raise too small, or none possible (an all-in to
    # call as big as the stack)
    assert re.search(r"Sorry, a raise must go to between|Sorry, you cannot bet or raise now",
                     out), out[:3000]
    assert "Your cards: [" in out and "your move>" in out and " seat " in out
    # --hands 2 sits the player out as its second hand starts; a hand it is dealt in and
    # does not act in (a walk in the big blind) can end before the SitOut lands, and it
    # then finishes the next hand too, never leaving one half played
    assert re.search(r"You played [234] hands; your stack: \d+", out), out[-3000:]


def test_poker_demo_plays_and_accounts_for_every_chip(tmp_path: Path) -> None:
    assert build_parser().parse_args(["demo"]).hands == 200
    done = _poker("demo", "--hands", "12", "--show", "1", "--keep", str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "12/12 hands" in out and re.search(r"--- Hand #\d+ · 6 players", out)
    assert "player  bot" in out and "fair deck ✓" in out
    assert "no chip was lost ✓" in out and "all processes stopped" in out
    # R36: the demo's table is raked; balances + stacks + rake = deposits
    assert re.search(r"rake \(R36, 5% capped at 30\): \d+ chips from \d+ hands", out), out
    assert re.search(r"\+ rake \d+ = 120000; deposits 120000", out), out
    assert (tmp_path / "lobby.sqlite").exists() and (tmp_path / "dealer.log").exists()
