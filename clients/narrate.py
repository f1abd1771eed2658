"""Events told as a person reads a hand: "Ann raises to 300", "*** FLOP *** [As Kd 7c]".

Used by `poker demo` (the log of a few hands) and `poker play` (the table as it goes).

>>> from clients.events import ActionTaken, BoardDealt, PotAwarded
>>> from clients.models import ActionKind, Street
>>> from clients.cards import cards
>>> n = Narrator({0: "Ann", 1: "Bob"})
>>> n.line(ActionTaken(sequence=5, seat=1, action=ActionKind.RAISE, to=300, added=290))
'Bob raises to 300'
>>> n.line(BoardDealt(sequence=6, street=Street.FLOP, cards=cards("As Kd 7c")))
'*** FLOP *** [As Kd 7c]'
>>> n.line(PotAwarded(sequence=9, index=0, amount=640, winners=(0, 1), shares=(320, 320)))
'Ann and Bob split the pot of 640 (320 each)'
>>> n.line(PotAwarded(sequence=9, index=0, amount=65, winners=(0, 1), shares=(33, 32)))
'Ann and Bob split the pot of 65 (Ann 33, Bob 32: the odd chip to Ann)'
>>> from clients.events import PlayerSatOut
>>> Narrator({0: "Ann"}, you=0).line(PlayerSatOut(sequence=7, seat=0))
'You sit out'
>>> Narrator({0: "Ann"}, you=0).line(ActionTaken(sequence=5, seat=0, action=ActionKind.CALL,
...                                               to=10, added=10, all_in=True))
'You call 10 and are all-in'

A winner is named with the hand that won, as the evaluator describes it (`describe`:
`EvaluatorClient.evaluate`, or any function from cards to a `HandRank`), and a pot won
with everyone else folded says so:

>>> from clients.events import CardsShown, HandPlayer, HandStarted
>>> from clients.evaluator import HandRank
>>> from clients.models import Level
>>> def evaluate(seven):  # what the evaluator answers for Ann's seven cards
...     return HandRank(5000, "Flush, ace high", cards("As Ks 9s 4s 2s"))
>>> n = Narrator({0: "Ann", 1: "Bob"}, describe=evaluate)
>>> players = (HandPlayer(0, "ann", 1000), HandPlayer(1, "bob", 1000))
>>> _ = n.line(HandStarted(sequence=1, hand_number=1, button=0, level=Level(5, 10),
...                        players=players, commitment=""))
>>> for street, dealt in ((Street.FLOP, "Ks 9s 2s"), (Street.TURN, "7d"), (Street.RIVER, "4c")):
...     _ = n.line(BoardDealt(sequence=2, street=street, cards=cards(dealt)))
>>> _ = n.line(CardsShown(sequence=3, seat=0, cards=cards("As 4s")))
>>> n.line(PotAwarded(sequence=4, index=0, amount=340, winners=(0,), shares=(340,)))
'Ann wins the pot of 340 with a flush, ace high (As Ks 9s 4s 2s)'
>>> _ = n.line(HandStarted(sequence=5, hand_number=2, button=1, level=Level(5, 10),
...                        players=players, commitment=""))
>>> _ = n.line(ActionTaken(sequence=6, seat=1, action=ActionKind.FOLD, to=0, added=0))
>>> n.line(PotAwarded(sequence=7, index=0, amount=15, winners=(0,), shares=(15,)))
'Ann wins the pot of 15 without a showdown (everyone else folded)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from clients.cards import Card
from clients.errors import ServiceError
from clients.evaluator import HandRank
from clients.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    ButtonSet,
    CardsMucked,
    CardsShown,
    ChipsAdded,
    Event,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PlayerUnseated,
    PotAwarded,
    RakeTaken,
    RunItChosen,
    SecondBoardDealt,
    TableClosed,
    TurnTimedOut,
)
from clients.models import ActionKind, BlindKind, SitOutReason

__all__ = ["Narrator", "show_cards", "with_hand"]

#: What names a hand: `EvaluatorClient.evaluate` (5 to 7 cards -> rank, words, best five).
Describe = Callable[[Sequence[Card]], HandRank]


def show_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.text for c in cards)


def with_hand(description: str) -> str:
    """The evaluator's description as it reads after "wins with".

    >>> [with_hand(d) for d in ("Flush, ace high", "Two pair, kings and fives", "Seven high",
    ...                         "Royal flush", "Four of a kind, aces")]
    ['a flush, ace high', 'two pair, kings and fives', 'seven high', 'a royal flush', \
'four of a kind, aces']
    """
    text = description[:1].lower() + description[1:]
    bare = text.startswith(("four ", "three ", "two ")) or (
        "," not in text and text.endswith(" high"))  # high card: "seven high"
    return text if bare else f"a {text}"


class Narrator:
    """Turns events into lines, naming seats by `names` (seat -> name)."""

    def __init__(self, names: Mapping[int, str] | None = None, you: int | None = None,
                 describe: Describe | None = None) -> None:
        self.names: dict[int, str] = dict(names or {})
        self.you = you  # this seat is told in the second person: "You call 10"
        self.describe = describe  # names a winner's hand; None: winners without their hand
        self.board: list[Card] = []
        self.second: list[Card] = []  # R38: the second run's cards
        self.shown: dict[int, tuple[Card, ...]] = {}  # seat -> hole cards turned up
        self.live: set[int] | None = None  # seats not folded (None: the deal was not seen)

    def who(self, seat: int) -> str:
        return "You" if seat == self.you else self.names.get(seat, f"seat {seat}")

    def _s(self, seat: int, verb: str) -> str:
        """`verb` agreeing with the seat: "calls", or "call" for you."""
        if seat != self.you:
            return verb
        irregular = {"goes": "go", "is": "are", "has": "have", "rebuys": "rebuy"}
        return irregular.get(verb, verb.removesuffix("es") if verb.endswith("ses") else
                             verb.removesuffix("s"))

    def line(self, e: Event) -> str | None:  # noqa: C901 - one case per event kind
        """The line for one event, or None when there is nothing to tell."""
        if isinstance(e, HandStarted):
            self.board, self.second, self.shown = [], [], {}
            self.live = {p.seat for p in e.players}
            return (f"--- Hand #{e.hand_number} · {len(e.players)} players · blinds {e.level}"
                    f" · button {self.who(e.button)} ---")
        if isinstance(e, AntePosted):
            return f"{self.who(e.seat)} {self._s(e.seat, 'posts')} an ante of {e.amount}"
        if isinstance(e, BlindPosted):
            kind = {BlindKind.SMALL: "the small blind", BlindKind.BIG: "the big blind",
                    BlindKind.LATE: "a live big blind (late joiner)",
                    BlindKind.STRADDLE: "a straddle"}.get(e.blind, "a blind")
            return f"{self.who(e.seat)} {self._s(e.seat, 'posts')} {kind} of {e.amount}"
        if isinstance(e, HoleCardsDealt):
            return f"Dealt to {self.who(e.seat)}: [{show_cards(e.cards)}]" if e.cards else None
        if isinstance(e, ActionTaken):
            if e.action is ActionKind.FOLD and self.live is not None:
                self.live.discard(e.seat)
            return f"{self.who(e.seat)} {self._action(e)}"
        if isinstance(e, BoardDealt):
            before = f"[{show_cards(self.board)}] " if self.board else ""
            self.board.extend(e.cards)
            return f"*** {e.street.value.upper()} *** {before}[{show_cards(e.cards)}]"
        if isinstance(e, SecondBoardDealt):  # R38
            self.second.extend(e.cards)
            return (f"*** {e.street.value.upper()}, SECOND RUN *** [{show_cards(self._board(2))}]")
        if isinstance(e, RunItChosen):
            return (f"{self.who(e.seat)} {self._s(e.seat, 'asks')} to run it "
                    f"{'twice' if e.times == 2 else 'once'}")
        if isinstance(e, BetReturned):
            return f"Uncalled bet of {e.amount} returned to {self.who(e.seat)}"
        if isinstance(e, CardsShown):
            self.shown[e.seat] = e.cards
            return f"{self.who(e.seat)} {self._s(e.seat, 'shows')} [{show_cards(e.cards)}]"
        if isinstance(e, CardsMucked):
            return f"{self.who(e.seat)} {self._s(e.seat, 'mucks')}"
        if isinstance(e, PotAwarded):
            return self._pot(e)
        if isinstance(e, RakeTaken):
            return f"The house takes a rake of {e.amount}"
        if isinstance(e, TurnTimedOut):
            return f"{self.who(e.seat)} ran out of time"
        if isinstance(e, HandVoided):
            return f"Hand voided ({e.reason}): every chip returned"
        return self._table_line(e)

    def _table_line(self, e: Event) -> str | None:
        if isinstance(e, PlayerSeated):
            return f"{self.names.get(e.seat, e.player_id)} sits down with {e.stack}"
        if isinstance(e, PlayerUnseated):
            seat = e.stack.seat
            return f"{self.who(seat)} {self._s(seat, 'leaves')} with {e.stack.stack}"
        if isinstance(e, ChipsAdded):
            return f"{self.who(e.seat)} {self._s(e.seat, 'rebuys')} {e.amount} (stack {e.stack})"
        if isinstance(e, PlayerSatOut):
            why = " (out of time)" if e.reason is SitOutReason.TIMED_OUT else ""
            return f"{self.who(e.seat)} {self._s(e.seat, 'sits')} out{why}"
        if isinstance(e, PlayerSatIn):
            return f"{self.who(e.seat)} {self._s(e.seat, 'is')} back"
        if isinstance(e, ButtonSet):
            return f"The button starts at {self.who(e.seat)}"
        if isinstance(e, TableClosed):
            return "The table is closed"
        return None

    def _action(self, e: ActionTaken) -> str:
        def v(verb: str) -> str:
            return self._s(e.seat, verb)

        if e.action is ActionKind.FOLD:
            return v("folds")
        if e.action is ActionKind.CHECK:
            return v("checks")
        tail = f" and {v('is')} all-in" if e.all_in else ""
        if e.action is ActionKind.CALL:
            return f"{v('calls')} {e.added}{tail}"
        if e.action is ActionKind.BET:
            return f"{v('bets')} {e.to}{tail}"
        if e.action is ActionKind.RAISE:
            return f"{v('raises')} to {e.to}{tail}"
        return f"{v('goes')} all-in ({e.to})"

    def _pot(self, e: PotAwarded) -> str:
        pot = "the pot" if e.index == 0 else f"side pot {e.index}"
        if e.run:  # R38: each run settles half of each pot
            pot = f"{'the first' if e.run == 1 else 'the second'} run's half of {pot}"
        if len(e.winners) == 1:
            winner = e.winners[0]
            return (f"{self.who(winner)} {self._s(winner, 'wins')} {pot} of {e.amount}"
                    f"{self._how(e)}")
        names = [self.who(w) for w in e.winners]
        split = f"{', '.join(names[:-1])} and {names[-1]} split {pot} of {e.amount}"
        if len(set(e.shares)) == 1:
            return f"{split} ({e.shares[0]} each){self._how(e)}"
        shares = ", ".join(f"{n} {s}" for n, s in zip(names, e.shares, strict=True))
        odd = [n for n, s in zip(names, e.shares, strict=True) if s == max(e.shares)]
        chips = "the odd chips" if len(odd) > 1 else "the odd chip"
        return f"{split} ({shares}: {chips} to {' and '.join(odd)}){self._how(e)}"

    def _board(self, run: int) -> list[Card]:
        """The board a pot is settled on: the first run's, or the second's (R38)."""
        if run != 2:
            return self.board
        return self.board[:len(self.board) - len(self.second)] + self.second

    def _how(self, e: PotAwarded) -> str:
        """How the pot was won: with which hand (R25's words), or with no showdown."""
        if self.live is not None and len(self.live) == 1:
            return " without a showdown (everyone else folded)"
        board = self._board(e.run)
        if self.describe is None or len(board) != 5 or any(w not in self.shown
                                                           for w in e.winners):
            return ""  # the hand is not known to this viewer
        try:
            hands = [self.describe([*self.shown[w], *board]) for w in e.winners]
        except ServiceError:  # the evaluator out of reach: the game goes on, told plainer
            return ""
        if len(hands) == 1:
            return f" with {with_hand(hands[0].description)} ({show_cards(hands[0].best_five)})"
        return f", each with {with_hand(hands[0].description)}"  # a tie: the same hand
