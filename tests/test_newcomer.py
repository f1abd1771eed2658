"""What a newcomer met in the first hour (issue 16), each pinned so it does not come back."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from poker.cli import build_parser
from poker.procs import start_service

ROOT = Path(__file__).resolve().parents[1]


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif action.dest != "help":
            yield path, action


def test_every_option_of_every_command_says_what_it_does() -> None:
    bare = [f"poker {' '.join(path)} {'/'.join(a.option_strings) or a.dest}"
            for path, a in _options(build_parser()) if not a.help]
    assert bare == []
    log_formats = [a for _, a in _options(build_parser()) if "--log-format" in a.option_strings]
    assert len(log_formats) >= 6 and len({a.help for a in log_formats}) == 1


def _poker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "poker.cli", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_replay_of_a_missing_path_is_an_error_not_a_hand(tmp_path: Path) -> None:
    done = _poker("replay", str(tmp_path / "nowhere.phh"))
    assert done.returncode == 2
    assert "nowhere.phh: no such file or folder" in done.stderr
    assert "replayed" not in done.stdout


def test_health_of_an_unknown_service_says_what_is_wrong(tmp_path: Path) -> None:
    proc = start_service("evaluator", log_path=tmp_path / "evaluator.log")
    try:
        done = _poker("health", proc.address, "--service", "no.such.Service")
        assert done.returncode == 1
        assert "NOT_FOUND" in done.stderr and "knows no service 'no.such.Service'" in done.stderr
        assert _poker("health", proc.address).stdout.strip().endswith("SERVING")
    finally:
        proc.stop(timeout=5)


def test_evaluator_demo_logs_to_a_folder_of_its_own() -> None:
    first, second = (_poker("evaluator-demo", "--hands", "20000") for _ in range(2))
    assert first.returncode == 0 and second.returncode == 0, first.stderr[-2000:]
    paths = [re.search(r"its log: (\S+)\)", run.stdout).group(1)  # type: ignore[union-attr]
             for run in (first, second)]
    assert paths[0] != paths[1] and all(Path(p).is_file() for p in paths)


def test_the_license_is_an_spdx_string_as_setuptools_asks() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])


def test_the_docker_context_holds_what_the_image_copies_and_nothing_heavy() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    copied = [w for line in (ROOT / "Dockerfile").read_text().splitlines()
              if line.startswith("COPY") for w in line.split()[1:-1]]
    assert {"pyproject.toml", "README.md", "poker", "services", "clients", "protos"} <= set(copied)
    assert not set(copied) & set(ignored)
    assert {".git", ".venv", "node_modules", "tests"} <= set(ignored)


def test_the_narrator_speaks_to_you_in_the_second_person_and_names_odd_chips() -> None:
    import doctest

    from clients import narrate

    result = doctest.testmod(narrate)
    assert result.attempted >= 6 and not result.failed


def test_poker_play_answers_help_with_the_actions() -> None:
    import pytest

    from clients.models import ActionKind, Decision, LegalActions
    from clients.play import HELP, BadInput, parse_action

    legal = LegalActions(seat=1, decision=Decision.BET, can_fold=True, can_call=True,
                         call_amount=10, bet_kind=ActionKind.RAISE, min_to=20, max_to=990)
    for asked in ("?", "h", "help", " HELP "):
        with pytest.raises(BadInput) as answer:
            parse_action(asked, legal)
        assert str(answer.value).startswith(HELP) and "did not understand" not in str(
            answer.value)


# ----------------------------------------------------------------- poker play's screen


def _hand_events(first: int, hand_number: int, seats: tuple[int, ...], winner: int):
    """A short hand at seats `seats`: its start, blinds, a fold, the pot and the reveal."""
    from clients.events import (
        ActionTaken,
        BlindPosted,
        DeckRevealed,
        HandEnded,
        HandPlayer,
        HandStarted,
        PotAwarded,
    )
    from clients.models import ActionKind, BlindKind, Level, SeatStack

    hand_id = f"t-{hand_number}"
    loser = next(s for s in seats if s != winner)
    return [
        HandStarted(sequence=first, hand_id=hand_id, hand_number=hand_number, button=seats[0],
                    level=Level(5, 10), commitment="",
                    players=tuple(HandPlayer(s, f"p{s}", 1000) for s in seats)),
        BlindPosted(sequence=first + 1, hand_id=hand_id, seat=loser, blind=BlindKind.SMALL,
                    amount=5),
        BlindPosted(sequence=first + 2, hand_id=hand_id, seat=winner, blind=BlindKind.BIG,
                    amount=10),
        ActionTaken(sequence=first + 3, hand_id=hand_id, seat=loser, action=ActionKind.FOLD,
                    to=5, added=0),
        PotAwarded(sequence=first + 4, hand_id=hand_id, index=0, amount=15, winners=(winner,),
                   shares=(15,)),
        HandEnded(sequence=first + 5, hand_id=hand_id,
                  stacks=tuple(SeatStack(s, 1000) for s in seats)),
        DeckRevealed(sequence=first + 6, hand_id=hand_id, commitment=""),
    ]


def test_poker_play_announces_a_hand_already_under_way_when_you_sit_down() -> None:
    import io

    from clients.models import HandView, SeatView, Street, TableView
    from clients.narrate import Narrator
    from clients.play import Screen

    out = io.StringIO()
    hand = HandView(hand_id="t-4", hand_number=4, street=Street.FLOP)
    seats = (SeatView(seat=0, player_id="you", stack=1000),
             SeatView(seat=1, player_id="ann", stack=980, in_hand=True))
    Screen(Narrator({0: "You", 1: "Ann"}, you=0), out).open(
        TableView(table_id="t", hand=hand, seats=seats, your_seat=0))
    assert out.getvalue() == " --- Hand #4 in progress · you are dealt in from the next hand ---\n"
    out = io.StringIO()
    Screen(Narrator({0: "You"}, you=0), out).open(TableView(table_id="t", your_seat=0))
    assert out.getvalue() == ""  # no hand on: the next event is a hand's header


def test_poker_play_tells_no_hand_dealt_without_you_once_you_sit_out() -> None:
    import io

    from clients.events import PlayerSatOut
    from clients.models import SitOutReason
    from clients.narrate import Narrator
    from clients.play import Screen

    out = io.StringIO()
    screen = Screen(Narrator({0: "You", 1: "Ann", 2: "Bob"}, you=0), out)
    last = _hand_events(1, 1, (0, 1, 2), winner=0)
    sat_out = PlayerSatOut(sequence=8, seat=0, reason=SitOutReason.REQUESTED)
    screen.tell([*last[:2], sat_out, *last[2:]])
    screen.tell(_hand_events(9, 2, (1, 2), winner=2))  # dealt on without you: not told
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(" --- Hand #1 ") and lines[-1] == " You win the pot of 15"
    assert " You sit out" in lines and not any("Hand #2" in line for line in lines)
    # R32's sit-out after a slow answer is undone at once: those hands are still told
    out = io.StringIO()
    screen = Screen(Narrator({0: "You", 1: "Ann", 2: "Bob"}, you=0), out)
    screen.tell([PlayerSatOut(sequence=1, seat=0, reason=SitOutReason.TIMED_OUT),
                 *_hand_events(2, 1, (1, 2), winner=2)])
    assert " --- Hand #1 · 2 players · blinds 5/10 · button Ann ---" in out.getvalue()


#: A narrated line of a hand's play (not the table drawn at your turn, nor a rebuy).
_HAND_LINE = re.compile(r"^ \S+ (posts|calls?|raises?|bets?|checks?|folds?)\b|^ \*\*\* "
                        r"|^ Dealt to ")
_POT_LINE = re.compile(r" (wins?|split) (the|side pot|the first|the second)")


@pytest.mark.slow
def test_poker_play_tells_each_hand_whole_from_its_header_to_its_result() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "poker.cli", "play", "--bots", "2", "--hands", "3",
         "--bot-delay", "0"], input="c\nm\n1\n" * 100, capture_output=True, text=True,
        timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    told = done.stdout.split("You sit at seat", 1)[1].split("\nYou played ", 1)[0]
    blocks = re.split(r"\n(?= --- Hand #)", told)
    # before the first hand's header: who sits down, nothing of a hand
    assert not any(_HAND_LINE.search(line) for line in blocks[0].splitlines()), blocks[0]
    assert len(blocks) >= 4, told  # the hands you played and the first one
    for block in blocks[1:]:
        lines = block.splitlines()
        pots = [i for i, line in enumerate(lines) if _POT_LINE.search(line)]
        assert pots, block  # each hand's result is in its own block, before the next header
        assert not any(_HAND_LINE.search(line) for line in lines[pots[-1]:]), block
        for i in pots:  # each winner named with the hand that won, or no showdown said
            assert re.search(r" with (a |an |two |three |four |\w+ high)|without a showdown",
                             lines[i]), lines[i]


def test_poker_demo_names_each_winner_with_the_hand_that_won(tmp_path: Path) -> None:
    done = _poker("demo", "--hands", "8", "--show", "3", "--trials", "50", "--keep",
                  str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    pots = [line for line in done.stdout.splitlines() if _POT_LINE.search(line)]
    assert pots, done.stdout
    for line in pots:  # "Ann wins the pot of 340 with a flush, ace high (As Ks 9s 4s 2s)"
        shown = re.search(r" with (a |two |three |four |\w+ high)[^()]*"
                          r"\(([2-9TJQKA][cdhs] ){4}[2-9TJQKA][cdhs]\)$"
                          r"|, each with |without a showdown \(everyone else folded\)$", line)
        assert shown, line


def test_poker_play_stops_its_bots_before_it_closes_the_table(monkeypatch, capsys) -> None:
    # A bot busted as the game ends calls Rebuy; a close while that rebuy is under way is
    # refused (FAILED_PRECONDITION: "buy-in(s), rebuy(s) or departure(s) still in
    # progress"), and poker play exited 1. Here each bot thread ends half a second late,
    # as a slow rebuy would: the table must close only after it.
    import threading
    import time

    from clients import play
    from clients.sdk import LobbyClient

    order: list[str] = []
    bot_play = play._bot

    def slow_to_stop(*args) -> None:
        bot_play(*args)
        time.sleep(0.5)
        order.append("bot stopped")

    close_table = LobbyClient.close_table

    def closing(self, *args, **kwargs):
        order.append("table closed")
        return close_table(self, *args, **kwargs)

    answers = iter(["c", "m", "1"] * 200)
    monkeypatch.setattr(play, "_bot", slow_to_stop)
    monkeypatch.setattr(LobbyClient, "close_table", closing)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    args = build_parser().parse_args(["play", "--bots", "2", "--hands", "1", "--bot-delay",
                                      "0"])
    assert play.run(args) == 0, capsys.readouterr().out[-3000:]
    assert order == ["bot stopped", "bot stopped", "table closed"], order
    assert threading.active_count() < 50  # nothing left spinning


def test_a_winner_is_named_without_the_hand_when_the_evaluator_is_out_of_reach() -> None:
    import grpc

    from clients.cards import cards
    from clients.errors import ServiceError
    from clients.events import BoardDealt, CardsShown, HandPlayer, HandStarted, PotAwarded
    from clients.models import Level, Street
    from clients.narrate import Narrator

    def unreachable(seven):
        raise ServiceError("EvaluateHand: UNAVAILABLE", grpc.StatusCode.UNAVAILABLE)

    n = Narrator({0: "Ann", 1: "Bob"}, describe=unreachable)
    n.line(HandStarted(sequence=1, hand_number=1, button=0, level=Level(5, 10), commitment="",
                       players=(HandPlayer(0, "ann", 1000), HandPlayer(1, "bob", 1000))))
    n.line(BoardDealt(sequence=2, street=Street.FLOP, cards=cards("Ks 9s 2s 7d 4c")))
    n.line(CardsShown(sequence=3, seat=0, cards=cards("As 4s")))
    assert n.line(PotAwarded(sequence=4, index=0, amount=340, winners=(0,), shares=(340,))) == (
        "Ann wins the pot of 340")


def test_poker_play_says_you_rebuy_in_the_second_person() -> None:
    # poker play printed " You rebuys 1000" itself, before the narrator's line
    import io

    from clients import play
    from clients.events import ChipsAdded
    from clients.narrate import Narrator

    out = io.StringIO()
    play.Screen(Narrator({0: "You"}, you=0), out).tell(
        [ChipsAdded(sequence=9, seat=0, amount=1000, stack=1000)])
    assert out.getvalue() == " You rebuy 1000 (stack 1000)\n"


def test_poker_play_tells_the_button_draw_after_the_players_sit_down() -> None:
    # R4's draw is made as the second player sits, before that player's PlayerSeated: the
    # screen said "The button starts at Ann" before "Ann sits down"
    import io

    from clients.events import ButtonSet, PlayerSeated
    from clients.narrate import Narrator
    from clients.play import Screen

    out = io.StringIO()
    screen = Screen(Narrator({0: "You", 1: "Ann", 2: "Bob"}, you=0), out)
    screen.tell([ButtonSet(sequence=2, seat=1),
                 PlayerSeated(sequence=3, seat=1, player_id="ann", stack=1000),
                 PlayerSeated(sequence=4, seat=2, player_id="bob", stack=1000)])
    screen.tell(_hand_events(5, 1, (1, 2, 0), winner=0)[:1])  # the button at seat 1
    assert out.getvalue().splitlines() == [
        " Ann sits down with 1000", " Bob sits down with 1000", " The button starts at Ann",
        " --- Hand #1 · 3 players · blinds 5/10 · button Ann ---"]
