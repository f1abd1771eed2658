"""`poker demo`: the whole suite on this machine, six bots playing, every chip accounted for.

Starts an evaluator, a dealer and a lobby as local processes (SQLite in a temporary
folder), opens a table through the lobby, funds and seats six bots (random, calling
stations, equity bots asking the evaluator), plays `--hands` hands with a progress bar,
prints a few hands as a spectator saw them and a table of results, checks that no chip
was lost (balances + stacks + rake == deposits - withdrawals; exit 1 if not), and stops
every process it started, also on Ctrl-C and errors. The table is a cash game with a
rake (R36: 5% of each hand that sees a flop, at most 3 big blinds): the results show the
rake the hands took and the house's rake account in the ledger once the table closed.

    poker demo --hands 200
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from clients.accounts import TableRules
from clients.bots import CallingStation, EquityBot, RandomBot
from clients.errors import ServiceError
from clients.evaluator import EvaluatorClient
from clients.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BlindPosted,
    Event,
    HandEnded,
    HandStarted,
    HandVoided,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PotAwarded,
    RakeTaken,
)
from clients.models import Level, Rake, TableConfig
from clients.narrate import Narrator
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot, PlayResult
from clients.stack import LocalSuite
from poker.log import add_log_format_argument

DEPOSIT = 20_000
BUY_IN = 1_000
CASH_OUT = 500  # each player withdraws this much at the end, so withdrawals are tested too
#: R36: the demo's cash-game rake: 5% (500 basis points), at most 30 chips (3 big blinds).
RAKE = Rake(500, cap=30)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=200, help="hands to play (default 200)")
    parser.add_argument("--show", type=int, default=2,
                        help="hands to print in full at the start (the last one is printed too)")
    parser.add_argument("--trials", type=int, default=400,
                        help="Monte Carlo trials of each equity question the equity bots ask")
    parser.add_argument("--keep", metavar="FOLDER", default=None,
                        help="keep databases and logs in FOLDER (default: a temporary folder)")
    add_log_format_argument(parser)


@dataclass
class Seat:
    """One bot: who it is, its clients and how it did."""

    name: str
    kind: str
    bot: Bot
    lobby: LobbyClient
    table: TableClient | None = None
    rebuys: int = 0
    result: PlayResult | None = None
    error: BaseException | None = None
    won: int = 0
    biggest_pot: int = 0


@dataclass
class Watch:
    """The spectator's stream: hands counted, a few kept for the log."""

    show: int
    seats: int
    hands: int = 0
    kept: dict[int, list[Event]] = field(default_factory=dict)
    last: list[Event] = field(default_factory=list)
    error: BaseException | None = None
    #: Hands whose public events do not add up: chips put in != chips awarded + raked.
    unbalanced: list[str] = field(default_factory=list)
    rake: int = 0  # R36: the chips RakeTaken took, every hand together
    raked_hands: int = 0


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    started = time.monotonic()
    print(f"poker demo: starting an evaluator, a dealer and a lobby ({args.hands} hands)",
          file=out, flush=True)
    try:
        with LocalSuite(evaluators=1, folder=args.keep) as suite:
            return play_demo(suite, args, out, started)
    except KeyboardInterrupt:
        print("\ninterrupted: every process started was stopped", file=out)
        return 130
    except SystemExit as stopped:  # SIGTERM (see LocalSuite)
        print("\nterminated: every process started was stopped", file=out)
        return int(stopped.code or 143)


def play_demo(suite: LocalSuite, args: argparse.Namespace, out: TextIO,
              started: float) -> int:
    print(f"  evaluator {suite.evaluator_addresses[0]}  dealer {suite.dealer}  "
          f"lobby {suite.lobby}  (data in {suite.folder})", file=out, flush=True)
    operator = LobbyClient(suite.lobby, suite.operator_token)
    evaluator = suite.evaluator_addresses[0]
    seats = _fund_players(operator, suite.lobby, evaluator, args.trials)
    table = operator.open_table(
        TableConfig(seats=6, levels=(Level(5, 10),), action_time_ms=15_000,
                    pause_between_hands_ms=0, rake=RAKE),
        TableRules(initial_stack=BUY_IN, max_rebuys=-1), name="Demo table")
    for seat in seats:
        seat.table = seat.lobby.sit(table.table_id, buy_in=BUY_IN)
    names = {s.table.seat: s.name for s in seats if s.table and s.table.seat is not None}
    spectator = TableClient(table.dealer_address, table.table_id)
    watch = Watch(show=args.show, seats=len(seats))
    threads = [threading.Thread(target=_watch, args=(spectator, watch), daemon=True)]
    threads += [threading.Thread(target=_play, args=(seat, table.table_id, args.hands),
                                 daemon=True) for seat in seats]
    for thread in threads:
        thread.start()
    _progress(watch, args.hands, seats, out,
              on_stall=lambda: operator.close_table(table.table_id, void_hand_in_progress=True))
    for thread in threads[1:]:
        while thread.is_alive():  # in steps: Ctrl-C or SIGTERM is handled between them
            thread.join(0.2)
    failed = [s for s in seats if s.error is not None]
    for s in failed:
        print(f"{s.name}: {type(s.error).__name__}: {s.error}", file=out)
    hands = EvaluatorClient(evaluator)  # names each winner's hand (R25's words)
    try:
        narrator = Narrator(names, describe=hands.evaluate)
        for key in sorted(watch.kept):
            _print_hand(watch.kept[key], narrator, out)
        if watch.last and watch.last[0].hand_id not in {e[0].hand_id
                                                        for e in watch.kept.values()}:
            _print_hand(watch.last, narrator, out)
    finally:
        hands.close()
    conserved = _settle(operator, spectator, table.table_id, seats, out, watch, threads[0])
    if watch.unbalanced:
        conserved = False
        print(f"hands whose events do not add up (chips put in != chips awarded): "
              f"{', '.join(watch.unbalanced[:10])}", file=out)
    spectator.close()
    for seat in seats:
        if seat.table:
            seat.table.close()
        seat.lobby.close()
    elapsed = time.monotonic() - started
    print(f"\n{watch.hands} hands in {elapsed:.1f} s, all processes stopped.", file=out)
    return 0 if conserved and not failed else 1


def _fund_players(operator: LobbyClient, lobby: str, evaluator: str, trials: int) -> list[Seat]:
    kinds: list[tuple[str, str, Callable[[int], Bot]]] = [
        ("Ann", "random", lambda i: RandomBot(seed=i)),
        ("Bob", "calling station", lambda i: CallingStation()),
        ("Cid", "equity", lambda i: EquityBot(evaluator, trials=trials, seed=i)),
        ("Dee", "random", lambda i: RandomBot(seed=i, aggression=0.35)),
        ("Eve", "calling station", lambda i: CallingStation()),
        ("Fay", "equity", lambda i: EquityBot(evaluator, trials=trials, seed=i)),
    ]
    seats = []
    for i, (name, kind, make) in enumerate(kinds):
        player, token = operator.create_player(name.lower(), name)
        operator.deposit(player.player_id, DEPOSIT)
        seats.append(Seat(name, kind, make(i), LobbyClient(lobby, token)))
    return seats


def _play(seat: Seat, table_id: str, hands: int) -> None:
    def rebuy() -> bool:
        try:
            seat.lobby.rebuy(table_id)
        except ServiceError:  # the balance is spent: the bot stops
            return False
        seat.rebuys += 1
        return True

    def on_events(events: list[Event]) -> None:
        me = seat.table.seat if seat.table else None
        for e in events:
            if isinstance(e, PotAwarded) and me in e.winners:
                share = e.shares[e.winners.index(me)]
                seat.won += share
                seat.biggest_pot = max(seat.biggest_pot, e.amount)

    assert seat.table is not None
    try:
        seat.result = seat.table.play(seat.bot, until_hand=hands, rebuy=rebuy,
                                      on_events=on_events)
    except BaseException as err:  # reported by the main thread
        seat.error = err


def _watch(spectator: TableClient, watch: Watch) -> None:
    current: list[Event] = []
    try:
        for event in spectator.events(after=0):
            if isinstance(event, HandStarted):
                current = [event]
            elif current:
                current.append(event)
            if isinstance(event, RakeTaken):
                watch.rake += event.amount
                watch.raked_hands += 1
            if isinstance(event, HandEnded | HandVoided) and current:
                watch.hands += 1
                if isinstance(event, HandEnded) and _put_in(current) != _won(current):
                    watch.unbalanced.append(event.hand_id)
                full = isinstance(current[0], HandStarted) and (
                    len(current[0].players) == watch.seats)
                if full and len(watch.kept) < watch.show:  # the first hands with every bot
                    watch.kept[current[0].sequence] = current
                watch.last = current
    except BaseException as err:  # the table closing ends the stream; anything else is kept
        watch.error = err


def _put_in(hand: list[Event]) -> int:
    """Chips a hand's public events put in the middle (blinds, antes, actions, less returns)."""
    total = 0
    for e in hand:
        if isinstance(e, BlindPosted | AntePosted):
            total += e.amount
        elif isinstance(e, ActionTaken):
            total += e.added
        elif isinstance(e, BetReturned):
            total -= e.amount
    return total


def _won(hand: list[Event]) -> int:
    """Chips that left the middle: the pots awarded and the rake (R36)."""
    return sum(e.amount for e in hand if isinstance(e, PotAwarded | RakeTaken))


def _progress(watch: Watch, hands: int, seats: list[Seat], out: TextIO,
              on_stall: Callable[[], object], stall: float = 20.0) -> None:
    """A plain-text bar: redrawn in place on a terminal, a line per 10% elsewhere.

    When no hand ends for `stall` seconds (fewer than two bots have chips left), the table
    is closed, which ends every bot's session."""
    tty = out.isatty()
    shown, began = -1, time.monotonic()
    last_change, last_count = began, 0
    while not all(s.result is not None or s.error is not None for s in seats):
        done = min(watch.hands, hands)
        rate = done / max(1e-9, time.monotonic() - began)
        bar = "#" * (30 * done // hands) + "." * (30 - 30 * done // hands)
        text = f"[{bar}] {done:>4}/{hands} hands  {rate:5.1f} hands/s"
        if tty:
            print("\r" + text, end="", file=out, flush=True)
        elif done * 10 // hands != shown:
            shown = done * 10 // hands
            print(text, file=out, flush=True)
        if watch.hands != last_count:
            last_change, last_count = time.monotonic(), watch.hands
        elif time.monotonic() - last_change > stall:
            print(f"\nno hand for {stall:.0f} s (fewer than two bots with chips): closing the "
                  "table", file=out, flush=True)
            on_stall()
            last_change = float("inf")
        time.sleep(0.2)
    done = min(watch.hands, hands)
    final = f"[{'#' * (30 * done // hands):.<30}] {done:>4}/{hands} hands"
    print(("\r" if tty else "") + final, file=out, flush=True)


def _print_hand(events: list[Event], narrator: Narrator, out: TextIO) -> None:
    print(file=out)
    for e in events:
        if isinstance(e, PlayerSeated | PlayerSatOut | PlayerSatIn):
            continue  # the bots' comings and goings, not the hand
        line = narrator.line(e)
        if line:
            print("  " + line, file=out)


def _settle(operator: LobbyClient, spectator: TableClient, table_id: str, seats: list[Seat],
            out: TextIO, watch: Watch, watcher: threading.Thread) -> bool:
    """Results, closing the table, cashing out, and the conservation check (R36: the rake
    left the stacks but not the table's account, until the table settles)."""
    view = spectator.view()
    stacks = {s.player_id: s.stack for s in view.seats}
    deposits = DEPOSIT * len(seats)
    balances = {s.name: operator.player(s.name.lower()).balance for s in seats}
    on_table = sum(stacks.values())
    raked = operator.table(table_id).chips - on_table  # the table's account less its stacks
    before = sum(balances.values()) + on_table + raked
    print("\n player  bot              hands  rebuys  won in pots  biggest pot  stack  "
          "net", file=out)
    for s in seats:
        stack = stacks.get(s.name.lower(), 0)
        bought = BUY_IN * (1 + s.rebuys)
        hands = s.result.hands if s.result else 0
        verified = s.table.fair_deck.verified if s.table and s.table.fair_deck else 0
        print(f" {s.name:<6}  {s.kind:<15}  {hands:>5}  {s.rebuys:>6}  {s.won:>11}  "
              f"{s.biggest_pot:>11}  {stack:>5}  {stack - bought:>+5}"
              f"   (fair deck ✓ {verified} hands)", file=out)
    print(" hands: the hands each player was dealt in. fair deck ✓: the hands whose deck\n"
          " proof (R3) that player's client checked: every hand its stream showed from the\n"
          " deal to the reveal, dealt in or not, so it may count more.", file=out)
    violations = sum(len(s.table.fair_deck.violations) for s in seats
                     if s.table and s.table.fair_deck)
    operator.close_table(table_id)
    watcher.join(10)  # the table closing ends the spectator's stream: every RakeTaken seen
    withdrawn = 0
    for s in seats:
        amount = min(CASH_OUT, operator.player(s.name.lower()).balance)
        if amount:
            operator.withdraw(s.name.lower(), amount)
            withdrawn += amount
    after = sum(operator.player(s.name.lower()).balance for s in seats)
    audit = operator.audit()
    ok = (before == deposits and after + audit.house_rake == deposits - withdrawn
          and audit.ok and audit.total == 0 and violations == 0
          and audit.house_rake == raked == watch.rake)
    print(f"\nrake (R36, {RAKE.basis_points / 100:g}% capped at {RAKE.cap}): {watch.rake} "
          f"chips from {watch.raked_hands} hands", file=out)
    print(f"chips: balances {sum(balances.values())} + stacks {on_table} + rake {raked} = "
          f"{before}; deposits {deposits}", file=out)
    print(f"each player withdrew up to {CASH_OUT} at the end (so withdrawals are tested too)",
          file=out)
    print(f"after closing and {withdrawn} withdrawn: balances {after} + house rake "
          f"{audit.house_rake} = {after + audit.house_rake}; deposits - withdrawals "
          f"{deposits - withdrawn}; ledger audit {'ok' if audit.ok else audit.problems}; "
          f"fair-deck violations {violations}", file=out)
    print("no chip was lost ✓" if ok else "CHIPS DO NOT ADD UP ✗", file=out)
    return ok
