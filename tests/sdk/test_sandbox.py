"""A bot author's first hour (issue 16): `poker sandbox` started as a process prints the
three variables README's bot reads; the README bot, run as written, plays; stopped with
Ctrl-C and run again it resumes its seat (no `ALREADY_EXISTS: you already sit at seat
N`), plays, and leaves with `play(leave=True)`: its stack is back in the balance, one
buy-in was ever taken. SIGTERM stops the sandbox and every process it started."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from clients import LobbyClient, TableClient
from clients.accounts import TransferKind

ROOT = Path(__file__).resolve().parent.parent.parent
BALANCE = 10_000
BUY_IN = 1_000  # the README bot's


def _readme_bot() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Write a bot"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README shows the bot in a python block"
    return match.group(1)


def _read_exports(sandbox: subprocess.Popen[str],
                  timeout: float = 240) -> tuple[dict[str, str], queue.Queue[str]]:
    """The three variables the sandbox prints. Its lines are read on a thread (a select on
    the pipe would miss lines already in the reader's buffer)."""
    assert sandbox.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = sandbox.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    found: dict[str, str] = {}
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while len(found) < 3:
        left = deadline - time.monotonic()
        assert left > 0 and sandbox.poll() is None, f"no variables printed: {seen}"
        try:
            line = lines.get(timeout=min(left, 1.0))
        except queue.Empty:
            continue
        seen.append(line)
        exported = re.fullmatch(r"export (POKER_LOBBY|POKER_TOKEN|POKER_TABLE)=(\S+)\n", line)
        if exported:
            found[exported[1]] = exported[2]
    return found, lines


def _rest(lines: queue.Queue[str]) -> str:
    """What the sandbox printed after its variables, once it has ended."""
    rest = []
    while True:
        try:
            rest.append(lines.get(timeout=2))
        except queue.Empty:
            return "".join(rest)


def _seat_of(lobby: LobbyClient, table_id: str) -> int | None:
    return next((s.seat for s in lobby.table(table_id).seats if s.player_id == "you"), None)


@pytest.mark.slow
def test_the_readme_bot_twice_against_poker_sandbox_resumes_and_leaves_with_its_stack(
        tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    sandbox = subprocess.Popen(
        [sys.executable, "-m", "poker.cli", "sandbox", "--bots", "2", "--balance",
         str(BALANCE), "--keep", str(tmp_path / "suite")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        exports, lines = _read_exports(sandbox)
        bot_env = {**env, **exports}
        table_id = exports["POKER_TABLE"]
        lobby = LobbyClient(exports["POKER_LOBBY"], token=exports["POKER_TOKEN"])
        assert lobby.player().balance == BALANCE
        code = _readme_bot()
        assert "leave=True" in code

        # first run: it sits and plays; its author stops it with Ctrl-C mid-game
        first = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=bot_env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while (seat := _seat_of(lobby, table_id)) is None:
            assert time.monotonic() < deadline and first.poll() is None, first.stderr
            time.sleep(0.2)
        table = lobby.table(table_id)
        spectator = TableClient(table.dealer_address, table_id)
        start = spectator.view().hands_played
        # It plays: Ctrl-C as soon as a hand ended, well before its 20 hands (about 7 s at
        # the sandbox's pace; a loaded CI box once let a slower wait miss that window).
        while spectator.view().hands_played < start + 1:
            assert time.monotonic() < deadline and first.poll() is None, "no hands dealt"
            time.sleep(0.05)
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=30)
        assert "played" not in out, f"the first run ended before Ctrl-C: {out!r}"
        assert _seat_of(lobby, table_id) == seat, f"Ctrl-C left the seat as it was: {err[-2000:]}"
        assert lobby.player().balance == BALANCE - BUY_IN

        # second run: the same script resumes that seat, plays, leaves with its stack
        second = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=bot_env,
                                capture_output=True, text=True, timeout=180)
        assert second.returncode == 0, second.stderr[-3000:]
        assert "ALREADY_EXISTS" not in second.stderr
        played = re.fullmatch(r"played (\d+) hands; stack now (\d+)\n", second.stdout)
        assert played, second.stdout
        hands, stack = int(played[1]), int(played[2])
        assert hands >= 20 or (stack == 0 and hands >= 1), second.stdout
        assert _seat_of(lobby, table_id) is None, "play(leave=True) left the table"
        assert lobby.player().balance == BALANCE - BUY_IN + stack, "the stack is back"
        buy_ins = [t for t in lobby.transfers() if t.kind is TransferKind.BUY_IN]
        assert len(buy_ins) == 1, "the second run resumed: it bought nothing"
        spectator.close()
        lobby.close()

        # SIGTERM stops the sandbox, and every process it started
        sandbox.send_signal(signal.SIGTERM)
        sandbox.wait(timeout=60)
        out = _rest(lines)
        assert sandbox.returncode == 0 and "sandbox stopped" in out, out
        with grpc.insecure_channel(exports["POKER_LOBBY"]) as channel:
            try:
                grpc.channel_ready_future(channel).result(timeout=2)
                answered = True
            except grpc.FutureTimeoutError:
                answered = False
        assert not answered, "the lobby still answers after the sandbox stopped"
    finally:
        if sandbox.poll() is None:  # a failed step: SIGTERM first, so it stops its processes
            sandbox.send_signal(signal.SIGTERM)
            try:
                sandbox.wait(timeout=60)
            except subprocess.TimeoutExpired:
                sandbox.kill()
            sandbox.wait(10)
