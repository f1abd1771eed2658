"""`poker play`: you against bots in the terminal — the table drawn in text, your cards, the
legal actions with their amounts, and a prompt that explains what it did not understand.

    poker play --bots 3 --hands 10

Type `f` fold, `x` check, `c` call, `b 200` bet, `r 300` raise to, `a` all-in, `s` show,
`m` muck, `1`/`2` run the board once or twice (R38), `?` help, `q` quit.

The clock of your decision is shown at the prompt (R32's time, then your time bank, R35)
and, once your own time is up, the time bank counts down every few seconds until you
answer; an empty line shows the clock again.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from clients.accounts import TableRules
from clients.bots import CallingStation, EquityBot, RandomBot
from clients.errors import ServiceError
from clients.evaluator import EvaluatorClient
from clients.events import ButtonSet, Event, HandStarted, PlayerSatIn, PlayerSatOut
from clients.models import (
    Action,
    ActionKind,
    Decision,
    LegalActions,
    Level,
    SitOutReason,
    TableConfig,
    TableView,
)
from clients.narrate import Narrator, show_cards
from clients.sdk import LobbyClient, TableClient
from clients.session import Bot
from clients.stack import LocalSuite
from poker.log import add_log_format_argument

HELP = ("f fold · x check · c call · b AMOUNT bet · r AMOUNT raise to · a all-in · "
        "s show · m muck · 1/2 run it once/twice · ? help · q quit")
#: R35: how often the time bank's countdown is printed once the decision is in it.
TICK_S = 5.0
_WORDS = {
    "f": ActionKind.FOLD, "fold": ActionKind.FOLD,
    "x": ActionKind.CHECK, "k": ActionKind.CHECK, "check": ActionKind.CHECK,
    "c": ActionKind.CALL, "call": ActionKind.CALL,
    "b": ActionKind.BET, "bet": ActionKind.BET,
    "r": ActionKind.RAISE, "raise": ActionKind.RAISE,
    "a": ActionKind.ALL_IN, "allin": ActionKind.ALL_IN, "all-in": ActionKind.ALL_IN,
    "s": ActionKind.SHOW, "show": ActionKind.SHOW, "m": ActionKind.MUCK, "muck": ActionKind.MUCK,
}


_TIMES = {"1": 1, "once": 1, "2": 2, "twice": 2}


class BadInput(ValueError):
    """What the player typed does not fit: the message says why, politely."""


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def parse_action(text: str, legal: LegalActions) -> Action:
    """The action a line of input means under `legal`; BadInput says what is wrong.

    >>> from clients.models import Decision, LegalActions, ActionKind
    >>> legal = LegalActions(seat=1, decision=Decision.BET, can_fold=True, can_call=True,
    ...     call_amount=10, bet_kind=ActionKind.RAISE, min_to=20, max_to=990, can_all_in=True,
    ...     all_in_to=990)
    >>> str(parse_action("r 60", legal)), str(parse_action(" C ", legal))
    ('raise to 60', 'call')
    >>> try:
    ...     parse_action("r 5", legal)
    ... except BadInput as err:
    ...     print(err)
    Sorry, a raise must go to between 20 and 990 (you typed 5).
    >>> try:
    ...     parse_action("?", legal)
    ... except BadInput as err:
    ...     print(str(err).splitlines()[0][:24])
    f fold · x check · c cal
    """
    words = text.strip().lower().split()
    if not words:
        raise BadInput("Please type an action (? for help).")
    if words[0] in {"q", "quit", "exit"}:
        raise Quit
    if words[0] in {"?", "h", "help"}:
        raise BadInput(f"{HELP}\n {_hint(legal)}")
    if legal.decision is Decision.RUN_IT:  # R38
        times = _TIMES.get(words[0])
        if times is None:
            raise BadInput(f"Sorry, run the board once (1) or twice (2)? {_hint(legal)}")
        return Action.run_it(times)
    kind = _WORDS.get(words[0])
    if kind is None:
        raise BadInput(f"Sorry, I did not understand {text.strip()!r}. {_hint(legal)}")
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return _sized(kind, words, legal)
    if kind is ActionKind.CALL and not legal.can_call and legal.can_check:
        kind = ActionKind.CHECK  # "c" with nothing to call: checking is what was meant
    action = Action(kind)
    if not legal.allows(action):
        raise BadInput(f"Sorry, you cannot {_verb(kind)} now{_why(kind, legal)}. "
                       f"{_hint(legal)}")
    return action


def _sized(kind: ActionKind, words: list[str], legal: LegalActions) -> Action:
    if legal.bet_kind is None:
        raise BadInput(f"Sorry, you cannot bet or raise now. {_hint(legal)}")
    if len(words) < 2:
        raise BadInput(f"Please add the amount, e.g. '{words[0]} {legal.min_to}'.")
    try:
        amount = int(words[1].replace(",", ""))
    except ValueError:
        raise BadInput(f"Sorry, {words[1]!r} is not a number of chips.") from None
    name = "a bet" if legal.bet_kind is ActionKind.BET else "a raise"
    if not legal.min_to <= amount <= legal.max_to:
        raise BadInput(f"Sorry, {name} must go to between {legal.min_to} and {legal.max_to} "
                       f"(you typed {amount}).")
    return Action(legal.bet_kind, amount)  # "r" when only a bet is possible means that bet


def _verb(kind: ActionKind) -> str:
    return "go all-in" if kind is ActionKind.ALL_IN else kind.value


def _why(kind: ActionKind, legal: LegalActions) -> str:
    if legal.decision is Decision.SHOW_OR_MUCK:
        return ": it is time to show or muck"
    if kind is ActionKind.CHECK and legal.can_call:
        return f": there is {legal.call_amount} to call"
    if kind is ActionKind.CALL:
        return ": there is nothing to call"
    return ""


def _hint(legal: LegalActions) -> str:
    keys = {ActionKind.FOLD: "f", ActionKind.CHECK: "x", ActionKind.CALL: "c",
            ActionKind.BET: "b AMOUNT", ActionKind.RAISE: "r AMOUNT", ActionKind.ALL_IN: "a",
            ActionKind.SHOW: "s", ActionKind.MUCK: "m", ActionKind.RUN_IT: "1 or 2"}
    return "You may: " + " · ".join(f"{o} ({keys[o.kind]})" for o in legal.options())


def clock_text(view: TableView, now_ms: int) -> str:
    """R32, R35: the awaited decision's clock: its own time left, then the time bank.

    >>> from clients.models import HandView, Street
    >>> hand = HandView(hand_id="t-1", hand_number=1, street=Street.FLOP, actor=0,
    ...                 deadline_unix_ms=20_000, time_bank_ms=30_000,
    ...                 bank_deadline_unix_ms=50_000)
    >>> view = TableView(table_id="t", hand=hand)
    >>> clock_text(view, 8_000), clock_text(view, 35_000)
    ('Clock: 12 s, then your time bank of 30 s', 'Clock: time bank, 15 s left')
    """
    hand = view.hand
    if hand is None or not hand.deadline_unix_ms:
        return ""
    left = max(0, hand.deadline_unix_ms - now_ms) // 1000
    if not hand.time_bank_ms:
        return f"Clock: {left} s"
    if now_ms < hand.deadline_unix_ms:
        return f"Clock: {left} s, then your time bank of {hand.time_bank_ms // 1000} s"
    bank = max(0, hand.bank_deadline_unix_ms - now_ms) // 1000
    return f"Clock: time bank, {bank} s left"


def draw_table(view: TableView, names: dict[int, str]) -> str:
    """The table as text, from the caller's seat."""
    hand = view.hand
    lines = []
    if hand is not None:
        lines.append(f" Hand #{hand.hand_number} · blinds {hand.level} · pot {view.pot_total}")
        lines.append(f" Board: [{show_cards(hand.board)}]" if hand.board else " Board: —")
    for s in view.seats:
        mark = ">" if hand is not None and hand.actor == s.seat else " "
        name = names.get(s.seat, s.player_id)
        state = ("folded" if s.folded else "all-in" if s.all_in else
                 "sitting out" if s.sitting_out else "")
        cards = f"[{show_cards(s.hole_cards)}]" if s.hole_cards else ""
        button = "(button)" if hand is not None and hand.button == s.seat else ""
        bet = f"bet {s.bet}" if s.bet else ""
        lines.append(f" {mark} seat {s.seat}  {name:<10} {s.stack:>6}  {bet:<9} {cards:<9} "
                     f"{state} {button}".rstrip())
    return "\n".join(lines)


@dataclass
class Human:
    """A bot whose decisions come from a person at a terminal (or any line reader)."""

    names: dict[int, str]
    read: Callable[[str], str]
    out: TextIO
    quit: bool = False
    now_ms: Callable[[], int] = lambda: int(time.time() * 1000)

    def act(self, view: TableView) -> Action:
        legal = view.legal
        assert legal is not None
        print("\n" + draw_table(view, self.names), file=self.out)
        print(f" Your cards: [{show_cards(view.my_cards)}]"
              + (f" · to call: {legal.call_amount}" if legal.can_call else ""), file=self.out)
        print(" " + _hint(legal), file=self.out, flush=True)
        answered = threading.Event()
        if view.hand is not None and view.hand.time_bank_ms:
            threading.Thread(target=self._tick, args=(view, answered), daemon=True).start()
        try:
            while True:
                clock = clock_text(view, self.now_ms())
                if clock:
                    print(f" {clock}", file=self.out, flush=True)
                try:
                    return parse_action(self.read("your move> "), legal)
                except BadInput as err:
                    print(f" {err}", file=self.out, flush=True)
                except (Quit, EOFError):
                    self.quit = True
                    return safest(legal)
        finally:
            answered.set()

    def _tick(self, view: TableView, answered: threading.Event) -> None:
        """R35: once the decision's own time is up, the time bank counts down."""
        hand = view.hand
        assert hand is not None
        wait = max(0.0, (hand.deadline_unix_ms - self.now_ms()) / 1000)
        while not answered.wait(wait) and self.now_ms() < hand.bank_deadline_unix_ms:
            print(f"\n {clock_text(view, self.now_ms())}", file=self.out, flush=True)
            wait = TICK_S


def safest(legal: LegalActions) -> Action:
    """Check if free, else muck at showdown, else fold; run the board once (R38)."""
    if legal.decision is Decision.RUN_IT:
        return Action.run_it(1)
    if legal.can_check:
        return Action.check()
    return Action.muck() if legal.can_muck else Action.fold()


class Slow:
    """A bot that thinks for `delay` seconds, so a person can follow the table."""

    def __init__(self, bot: Bot, delay: float) -> None:
        self.bot, self.delay = bot, delay

    def act(self, view: TableView) -> Action:
        time.sleep(self.delay)
        return self.bot.act(view)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=int, default=3, choices=range(1, 10), metavar="1..9",
                        help="bots at the table (default 3)")
    parser.add_argument("--hands", type=int, default=10, help="hands to play (default 10)")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--stack", type=int, default=1000, help="your buy-in and theirs")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds each bot thinks (default 0.6)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random bots")
    add_log_format_argument(parser)


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    print("poker play: starting the suite (evaluator, dealer, lobby)...", file=out, flush=True)
    try:
        with LocalSuite() as suite:
            return _play(suite, args, out)
    except KeyboardInterrupt:
        print("\nbye: every process started was stopped", file=out)
        return 130
    except SystemExit as stopped:  # SIGTERM (see LocalSuite)
        print("\nterminated: every process started was stopped", file=out)
        return int(stopped.code or 143)


def _play(suite: LocalSuite, args: argparse.Namespace, out: TextIO) -> int:
    operator = LobbyClient(suite.lobby, suite.operator_token)
    # The first hand waits for everyone, you included: no hand is dealt before you watch.
    table = operator.open_table(
        TableConfig(seats=args.bots + 1, levels=(Level(5, 10),), action_time_ms=120_000,
                    time_bank_ms=60_000, run_it_twice=True, pause_between_hands_ms=0,
                    min_players_to_start=args.bots + 1),
        TableRules(initial_stack=args.stack, max_rebuys=-1), name="You against bots")
    _, token = operator.create_player("you", args.name)
    operator.deposit("you", args.stack * 100)
    lobby = LobbyClient(suite.lobby, token)
    me = lobby.sit(table.table_id, buy_in=args.stack)
    opening = me.follow()  # your screen starts here: every later event is told, in order
    kinds: list[tuple[str, Callable[[int], Bot]]] = [
        ("Ann", lambda i: RandomBot(seed=args.seed)), ("Bob", lambda i: CallingStation()),
        ("Cid", lambda i: EquityBot(suite.evaluator_addresses[0], trials=300))]
    seats: list[tuple[str, Bot, TableClient, LobbyClient]] = []
    for i in range(args.bots):
        name, make = kinds[i % 3]
        name = name if i < 3 else f"{name}{i // 3 + 1}"
        _, bot_token = operator.create_player(name.lower(), name)
        operator.deposit(name.lower(), args.stack * 100)
        bot_lobby = LobbyClient(suite.lobby, bot_token)
        seat = bot_lobby.sit(table.table_id, buy_in=args.stack)
        seats.append((name, Slow(make(i), args.bot_delay), seat, bot_lobby))
    names = {t.seat: n for n, _, t, _ in seats if t.seat is not None}
    names[me.seat or 0] = args.name
    human = Human(names, input, out)
    stop = threading.Event()
    threads = [threading.Thread(target=_bot, args=(bot, seat, bot_lobby, table.table_id, stop),
                                daemon=True) for _, bot, seat, bot_lobby in seats]
    for thread in threads:
        thread.start()
    hands = EvaluatorClient(suite.evaluator_addresses[0])  # names the winners' hands
    screen = Screen(Narrator(names, you=me.seat, describe=hands.evaluate), out)

    def rebuy() -> bool:  # the narrator tells it: "You rebuy 1000 (stack 1000)"
        lobby.rebuy(table.table_id)
        return True

    print(f"You sit at seat {me.seat} with {args.stack} chips. {HELP}\n", file=out, flush=True)
    screen.open(opening)
    result = me.play(human, hands=args.hands, until=lambda v: human.quit, rebuy=rebuy,
                     on_events=screen.tell)
    stop.set()
    hands.close()
    view = result.view
    stack = view.me.stack if view and view.me else 0
    # The bots stop before the table closes: a bot's rebuy still under way makes the lobby
    # refuse the close (FAILED_PRECONDITION). Closing a bot's client ends its stream, and
    # its thread ends once the rebuy it may be in has returned.
    for _, _, seat, _ in seats:
        seat.close()
    for thread in threads:
        thread.join(10)
    operator.close_table(table.table_id, void_hand_in_progress=True)
    print(f"\nYou played {result.hands} hands; your stack: {stack} "
          f"({stack - args.stack:+} against your buy-in). Thanks for playing!", file=out)
    return 0


class Screen:
    """What `poker play` prints of the table's events: each hand a complete block, from
    its header to its result. A hand under way when you sat down is announced as such;
    once you sit out, the hands dealt without you are not told (you are leaving)."""

    def __init__(self, narrator: Narrator, out: TextIO) -> None:
        self.narrator, self.out = narrator, out
        self.away = False  # you sat out: the table deals on without you
        self.quiet = ""  # the hand (its id) not told
        # R4's draw comes as the second player sits, before that player's PlayerSeated:
        # told just before the first hand, after everyone is seen sitting down
        self.button: str | None = None

    def open(self, view: TableView) -> None:
        """The table as your screen starts: says so when a hand is under way."""
        hand = view.hand
        if hand is None:
            return
        dealt = view.me is not None and view.me.in_hand
        self._print(f"--- Hand #{hand.hand_number} in progress · "
                    + ("you are dealt in ---" if dealt else
                       "you are dealt in from the next hand ---"))

    def tell(self, events: list[Event]) -> None:
        you = self.narrator.you
        for e in events:
            if isinstance(e, HandStarted):
                dealt = any(p.seat == you for p in e.players)
                self.quiet = e.hand_id if self.away and not dealt else ""
            elif isinstance(e, PlayerSatOut | PlayerSatIn) and e.seat == you:
                # R32's sit-out after a slow answer is undone at once: still at the table
                self.away = (isinstance(e, PlayerSatOut)
                             and e.reason is not SitOutReason.TIMED_OUT)
            if self.quiet and e.hand_id == self.quiet:
                continue
            line = self.narrator.line(e)
            if isinstance(e, ButtonSet):
                self.button = line
                continue
            if isinstance(e, HandStarted) and self.button:
                self._print(self.button)
                self.button = None
            if line:
                self._print(line)

    def _print(self, line: str) -> None:
        print(" " + line, file=self.out, flush=True)


def _bot(bot: Bot, seat: TableClient, lobby: LobbyClient, table_id: str,
         stop: threading.Event) -> None:
    def rebuy() -> bool:
        try:
            lobby.rebuy(table_id)
        except ServiceError:
            return False
        return True

    try:
        seat.play(bot, until=lambda v: stop.is_set(), rebuy=rebuy)
    except Exception:  # noqa: BLE001 - the table closing at the end ends the bots too
        return
