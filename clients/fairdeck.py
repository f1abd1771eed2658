"""Checks the fair-deck proof of every hand a client follows (R3, with R12's dealing order).

At HandStarted the dealer publishes `SHA-256(salt || deck)`; at the end it reveals salt
and deck. The checker confirms that the revealed deck hashes to the commitment it saw
first, that it is a permutation of the 52 cards, and that every card the client saw
dealt (its hole cards, shown hands, the board) sits where R12 puts it in that deck:
for n players in dealing order (left of the button first), player i holds d[i] and
d[n+i]; flop d[2n+1..2n+3], turn d[2n+5], river d[2n+7].

>>> import hashlib
>>> from clients.cards import Card
>>> from clients.events import DeckRevealed, HandPlayer, HandStarted
>>> from clients.models import Level
>>> deck = tuple(Card.from_index(i) for i in range(52)); salt = bytes(32)
>>> digest = hashlib.sha256(salt + bytes(c.index for c in deck)).hexdigest()
>>> checker = FairDeckChecker()
>>> checker.feed(HandStarted(sequence=1, hand_id="h", hand_number=1, button=0,
...     level=Level(5, 10), players=(HandPlayer(0, "a", 100), HandPlayer(1, "b", 100)),
...     commitment=digest))
>>> checker.feed(DeckRevealed(sequence=9, hand_id="h", salt=salt, deck=deck, commitment=digest))
>>> checker.verified
1
>>> swapped = (deck[1], deck[0], *deck[2:])
>>> verify_reveal("h", digest, DeckRevealed(sequence=10, hand_id="h", salt=salt, deck=swapped,
...     commitment=digest))  # doctest: +ELLIPSIS
Traceback (most recent call last):
clients.errors.FairDeckViolation: hand h: the revealed deck does not hash to the commitment ...
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from clients.cards import Card
from clients.errors import FairDeckViolation
from clients.events import (
    BoardDealt,
    CardsMucked,
    CardsShown,
    DeckRevealed,
    Event,
    HandEnded,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
)
from clients.models import Street

__all__ = ["FairDeckChecker", "dealing_order", "verify_reveal"]

#: "raise": raise FairDeckViolation at once; "flag": record it in `violations` and go on.
Policy = Literal["raise", "flag"]


def dealing_order(seats: list[int], button: int) -> list[int]:
    """Seats in the order cards are dealt: left of the button first, the button last (R12).

    >>> dealing_order([0, 2, 3, 5], button=3)
    [5, 0, 2, 3]
    """
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


_ALL_CARDS = frozenset(range(52))


@dataclass
class _Hand:
    commitment: str
    order: list[int] = field(default_factory=list)  # empty: started before the client came
    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    board: dict[Street, tuple[Card, ...]] = field(default_factory=dict)
    ended: bool = False


def verify_reveal(hand_id: str, commitment: str, reveal: DeckRevealed,
                  order: list[int] | None = None,
                  hole: dict[int, tuple[Card, ...]] | None = None,
                  board: dict[Street, tuple[Card, ...]] | None = None) -> None:
    """Raises FairDeckViolation unless `reveal` proves `commitment` and the cards seen."""
    if reveal.commitment != commitment:
        raise FairDeckViolation(hand_id, f"the reveal names commitment {reveal.commitment!r}, "
                                         f"but the hand started with {commitment!r}")
    indexes = [c.index for c in reveal.deck]
    if len(indexes) != 52 or set(indexes) != _ALL_CARDS:
        raise FairDeckViolation(hand_id, "the revealed deck is not the 52 cards, each once")
    digest = hashlib.sha256(reveal.salt + bytes(indexes)).hexdigest()
    if digest != commitment:
        raise FairDeckViolation(hand_id, f"the revealed deck does not hash to the commitment "
                                         f"(sha256(salt || deck) = {digest}, "
                                         f"committed {commitment})")
    if not order:
        return
    n, deck = len(order), reveal.deck
    for seat, cards in (hole or {}).items():
        if seat not in order:
            raise FairDeckViolation(hand_id, f"seat {seat} got cards but was not dealt in")
        i = order.index(seat)
        expected = (deck[i], deck[n + i])
        if set(cards) != set(expected):
            raise FairDeckViolation(
                hand_id, f"seat {seat} was dealt {' '.join(map(str, cards))}, but the revealed "
                         f"deck puts {' '.join(map(str, expected))} there (R12)")
    slots = {Street.FLOP: deck[2 * n + 1: 2 * n + 4], Street.TURN: deck[2 * n + 5: 2 * n + 6],
             Street.RIVER: deck[2 * n + 7: 2 * n + 8]}
    for street, cards in (board or {}).items():
        if tuple(cards) != tuple(slots[street]):
            raise FairDeckViolation(
                hand_id, f"the {street} was {' '.join(map(str, cards))}, but the revealed deck "
                         f"puts {' '.join(map(str, slots[street]))} there (R12)")


class FairDeckChecker:
    """Fed every event of a stream; verifies each hand at its DeckRevealed.

    A hand that ended (not voided) with no reveal before the next hand is a violation too.
    `on_violation` is called with each violation before the policy applies.
    """

    #: The event types `feed` reads (it ignores any other).
    reads: frozenset[type[Event]] = frozenset({
        HandStarted, HoleCardsDealt, CardsShown, CardsMucked, BoardDealt, HandEnded,
        HandVoided, DeckRevealed})

    def __init__(self, policy: Policy = "raise",
                 on_violation: Callable[[FairDeckViolation], None] | None = None) -> None:
        self.policy = policy
        self.on_violation = on_violation
        self.verified = 0
        self.violations: list[FairDeckViolation] = []
        self._hands: dict[str, _Hand] = {}

    def expect(self, hand_id: str, commitment: str) -> None:
        """A hand in progress the client joined mid-way: its commitment (from GetTable)."""
        if hand_id and commitment and hand_id not in self._hands:
            self._hands[hand_id] = _Hand(commitment)

    def feed(self, event: Event) -> None:
        """Takes one event; raises (or flags) FairDeckViolation when a proof fails."""
        if type(event) is HandStarted:
            self._started(event)
            return
        handler = _FEEDS.get(type(event))  # most events (turns, actions) prove nothing
        if handler is None:
            return
        hand = self._hands.get(event.hand_id)
        if hand is not None:
            handler(self, hand, event)

    def _started(self, event: HandStarted) -> None:
        for other_id, other in list(self._hands.items()):
            if other.ended:
                del self._hands[other_id]
                self._violate(FairDeckViolation(other_id, "the hand ended and its deck "
                                                          "was never revealed (R3)"))
        self._hands[event.hand_id] = _Hand(
            event.commitment, dealing_order([p.seat for p in event.players], event.button))

    def _cards(self, hand: _Hand, event: HoleCardsDealt | CardsShown | CardsMucked) -> None:
        if event.cards:
            hand.hole[event.seat] = event.cards

    def _board(self, hand: _Hand, event: BoardDealt) -> None:
        hand.board[event.street] = event.cards

    def _ended(self, hand: _Hand, event: HandEnded) -> None:
        hand.ended = True

    def _voided(self, hand: _Hand, event: HandVoided) -> None:
        del self._hands[event.hand_id]  # a voided hand deals no more; nothing to prove

    def _revealed(self, hand: _Hand, event: DeckRevealed) -> None:
        del self._hands[event.hand_id]
        try:
            verify_reveal(event.hand_id, hand.commitment, event, hand.order, hand.hole,
                          hand.board)
        except FairDeckViolation as violation:
            self._violate(violation)
        else:
            self.verified += 1

    def _violate(self, violation: FairDeckViolation) -> None:
        self.violations.append(violation)
        if self.on_violation is not None:
            self.on_violation(violation)
        if self.policy == "raise":
            raise violation


#: What each event of a started hand that concerns its proof does to it.
_FEEDS: dict[type[Event], Any] = {  # with HandStarted, FairDeckChecker.reads
    HoleCardsDealt: FairDeckChecker._cards,
    CardsShown: FairDeckChecker._cards,
    CardsMucked: FairDeckChecker._cards,
    BoardDealt: FairDeckChecker._board,
    HandEnded: FairDeckChecker._ended,
    HandVoided: FairDeckChecker._voided,
    DeckRevealed: FairDeckChecker._revealed,
}
assert FairDeckChecker.reads == {HandStarted, *_FEEDS}, "feed would skip an event it reads"
