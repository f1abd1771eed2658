"""`poker sandbox`: a bot author's first hour. The whole suite on this machine, a player
with chips, a table with house bots, and the three variables README's bot reads.

Starts an evaluator, a dealer and a lobby as local processes on their embedded defaults
(SQLite in a temporary folder, ports chosen free, fresh tokens: what `poker demo`
starts, `clients.stack.LocalSuite`), opens a no-limit table, seats `--bots` house bots
that play on (and rebuy when busted), creates the player `--player` with `--balance`
chips, and prints

    export POKER_LOBBY=127.0.0.1:PORT
    export POKER_TOKEN=...
    export POKER_TABLE=...

then waits. Paste those lines into another shell and run the bot. Ctrl-C (or SIGTERM)
closes the table (every stack back to its owner), stops every process it started and
removes the folder (unless `--keep`).

    poker sandbox --bots 2 --balance 10000
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from typing import TextIO

from clients.accounts import TableRules
from clients.bots import CallingStation, RandomBot
from clients.models import Level, TableConfig
from clients.play import _bot as house_bot
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot
from clients.stack import LocalSuite
from poker.log import add_log_format_argument

#: The blinds of the sandbox's table, and its buy-in (every seat starts with it: README's
#: bot buys in with 1000).
LEVEL = Level(5, 10)
BUY_IN = 1_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=int, default=2, choices=range(1, 9), metavar="1..8",
                        help="house bots at the table (default 2)")
    parser.add_argument("--player", default="you", help="the player id to create (default you)")
    parser.add_argument("--balance", type=int, default=10_000,
                        help="the player's chips in the lobby (default 10000)")
    parser.add_argument("--keep", metavar="FOLDER", default=None,
                        help="keep databases and logs in FOLDER (default: a temporary folder)")
    add_log_format_argument(parser)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    print(f"poker sandbox: starting an evaluator, a dealer and a lobby; {args.bots} house "
          "bots", file=out, flush=True)
    try:
        with LocalSuite(evaluators=1, folder=args.keep) as suite:
            return serve(suite, args, out)
    except KeyboardInterrupt:
        print("\nsandbox stopped: every process started was stopped", file=out, flush=True)
        return 0
    except SystemExit as stopped:  # SIGTERM (see LocalSuite)
        print("\nsandbox stopped (SIGTERM): every process started was stopped", file=out,
              flush=True)
        return 0 if stopped.code in (None, 143) else int(stopped.code)


def serve(suite: LocalSuite, args: argparse.Namespace, out: TextIO,
          stop: threading.Event | None = None) -> int:
    """Sets the sandbox up on a running suite, prints the variables, waits for `stop` (or
    Ctrl-C / SIGTERM), then closes the table."""
    stop = stop or threading.Event()
    operator = LobbyClient(suite.lobby, suite.operator_token)
    table = operator.open_table(
        TableConfig(seats=min(args.bots + 2, 10), levels=(LEVEL,), action_time_ms=30_000,
                    pause_between_hands_ms=300),
        TableRules(initial_stack=BUY_IN, max_rebuys=-1), name="Sandbox")
    house: list[tuple[Bot, TableClient, LobbyClient]] = []
    for i in range(args.bots):
        name = f"house{i + 1}"
        _, token = operator.create_player(name, f"House {i + 1}")
        operator.deposit(name, BUY_IN * 1_000)
        lobby = LobbyClient(suite.lobby, token)
        bot: Bot = CallingStation() if i % 2 else RandomBot(seed=i)
        house.append((bot, lobby.sit(table.table_id, buy_in=BUY_IN), lobby))
    _, token = operator.create_player(args.player, args.player.title())
    if args.balance:
        operator.deposit(args.player, args.balance)
    threads = [threading.Thread(target=house_bot, args=(bot, seat, lobby, table.table_id, stop),
                                daemon=True) for bot, seat, lobby in house]
    for thread in threads:
        thread.start()
    print(f"  lobby {suite.lobby}  dealer {suite.dealer}  (data in {suite.folder})\n"
          f"  player {args.player!r} has {args.balance} chips; table {table.table_id!r} "
          f"(blinds {LEVEL.small_blind}/{LEVEL.big_blind}, buy-in {BUY_IN}) has "
          f"{args.bots} house bots.\n"
          "Paste into another shell, then run your bot (README, \"Your first bot\"):\n",
          file=out)
    print(f"export POKER_LOBBY={suite.lobby}\nexport POKER_TOKEN={token}\n"
          f"export POKER_TABLE={table.table_id}\n", file=out)
    print("Ctrl-C stops the sandbox.", file=out, flush=True)
    try:
        while not stop.wait(0.2):  # in steps: Ctrl-C or SIGTERM is handled between them
            pass
    finally:
        stop.set()
        # stopping: the processes go next whatever the lobby says
        with contextlib.suppress(Exception):
            operator.close_table(table.table_id, void_hand_in_progress=True)
        deadline = time.monotonic() + 5
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for _, seat, lobby in house:
            seat.close()
            lobby.close()
        operator.close()
    return 0
