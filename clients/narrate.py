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
"""

from __future__ import annotations

from collections.abc import Mapping

from clients.cards import Card
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
    TableClosed,
    TurnTimedOut,
)
from clients.models import ActionKind, BlindKind, SitOutReason

__all__ = ["Narrator", "show_cards"]


def show_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.text for c in cards)


class Narrator:
    """Turns events into lines, naming seats by `names` (seat -> name)."""

    def __init__(self, names: Mapping[int, str] | None = None, you: int | None = None) -> None:
        self.names: dict[int, str] = dict(names or {})
        self.you = you  # this seat is told in the second person: "You call 10"
        self.board: list[Card] = []

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
            self.board = []
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
            return f"{self.who(e.seat)} {self._action(e)}"
        if isinstance(e, BoardDealt):
            before = f"[{show_cards(self.board)}] " if self.board else ""
            self.board.extend(e.cards)
            return f"*** {e.street.value.upper()} *** {before}[{show_cards(e.cards)}]"
        if isinstance(e, BetReturned):
            return f"Uncalled bet of {e.amount} returned to {self.who(e.seat)}"
        if isinstance(e, CardsShown):
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
        if len(e.winners) == 1:
            return f"{self.who(e.winners[0])} {self._s(e.winners[0], 'wins')} {pot} of {e.amount}"
        names = [self.who(w) for w in e.winners]
        split = f"{', '.join(names[:-1])} and {names[-1]} split {pot} of {e.amount}"
        if len(set(e.shares)) == 1:
            return f"{split} ({e.shares[0]} each)"
        shares = ", ".join(f"{n} {s}" for n, s in zip(names, e.shares, strict=True))
        odd = [n for n, s in zip(names, e.shares, strict=True) if s == max(e.shares)]
        chips = "the odd chips" if len(odd) > 1 else "the odd chip"
        return f"{split} ({shares}: {chips} to {' and '.join(odd)})"
