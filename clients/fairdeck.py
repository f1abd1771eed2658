"""Checks the fair-deck proof of every hand a client follows (R3, R12's dealing order, R39).

At HandStarted the dealer publishes C = SHA-256(h_0 || ... || h_51), where
h_i = SHA-256(s_i || i || card_i) with a 16-byte salt s_i, and i and card_i (R1's index)
one byte each. Each card opened to the client comes with its salt; its deck position
follows from R12: for n players in dealing order (left of the button first), player
p holds positions p and n+p; flop 2n+1..2n+3, turn 2n+5, river 2n+7. With R39 the card
dealt at position j was committed at position perm[j], perm drawn from the seeds
(`permutation`). At the end the client's DeckRevealed gives h_i for every position not
opened to it; the checker computes h_i of every opened card itself, recomputes C and
so checks each card it saw where R12 (and R39) put it. The auditor's reveal has the
whole deck and every salt, and is checked position by position.

>>> import hashlib
>>> from clients.cards import Card
>>> from clients.events import BoardDealt, DeckRevealed, HandPlayer, HandStarted, HoleCardsDealt
>>> from clients.models import Level, Street
>>> salts = [bytes([i]) * 16 for i in range(52)]
>>> h = [hashlib.sha256(salts[i] + bytes((i, i))).digest() for i in range(52)]
>>> digest = hashlib.sha256(b"".join(h)).hexdigest()  # the deck 0..51 in order
>>> def feed(checker, reveal):
...     checker.feed(HandStarted(sequence=1, hand_id="h", hand_number=1, button=1,
...         level=Level(5, 10), players=(HandPlayer(0, "a", 100), HandPlayer(1, "b", 100)),
...         commitment=digest))
...     checker.feed(HoleCardsDealt(sequence=2, hand_id="h", seat=0,
...         cards=(Card.from_index(0), Card.from_index(2)), salts=(salts[0], salts[2])))
...     checker.feed(BoardDealt(sequence=3, hand_id="h", street=Street.FLOP,
...         cards=tuple(map(Card.from_index, (5, 6, 7))), salts=tuple(salts[5:8])))
...     checker.feed(reveal)
>>> mine = {0, 2, 5, 6, 7}
>>> checker = FairDeckChecker()
>>> feed(checker, DeckRevealed(sequence=9, hand_id="h", commitment=digest,
...     hashes=tuple(b"" if i in mine else h[i] for i in range(52))))
>>> checker.verified
1
>>> lying = [b"" if i in mine else h[i] for i in range(52)]; lying[4] = h[3]
>>> feed(FairDeckChecker(), DeckRevealed(sequence=9, hand_id="h", commitment=digest,
...     hashes=tuple(lying)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
clients.errors.FairDeckViolation: hand h: the hashes do not make the commitment ...
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clients.cards import Card
from clients.errors import FairDeckViolation
from clients.events import (
    BoardDealt,
    CardsMucked,
    CardsShown,
    DeckRevealed,
    DeckSeeded,
    Event,
    HandEnded,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    SecondBoardDealt,
)
from clients.models import Street, TableView
from poker.deckproof import permutation, position_hash

__all__ = ["FairDeckChecker", "dealing_order", "permutation", "position_hash",
           "verify_reveal"]

#: "raise": raise FairDeckViolation at once; "flag": record it in `violations` and go on.
Policy = Literal["raise", "flag"]

_ALL_CARDS = frozenset(range(52))
_IDENTITY = tuple(range(52))


def dealing_order(seats: list[int], button: int) -> list[int]:
    """Seats in the order cards are dealt: left of the button first, the button last (R12).

    >>> dealing_order([0, 2, 3, 5], button=3)
    [5, 0, 2, 3]
    """
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]





def board_positions(n: int, street: Street) -> tuple[int, ...]:
    """Where R12 deals a street's board cards for n players."""
    start = 2 * n
    return {Street.FLOP: (start + 1, start + 2, start + 3), Street.TURN: (start + 5,),
            Street.RIVER: (start + 7,)}.get(street, ())


@dataclass
class _Hand:
    commitment: str
    order: list[int] = field(default_factory=list)  # empty: started before the client came
    #: deal position -> (card, salt or None when none came with it)
    opened: dict[int, tuple[Card, bytes | None]] = field(default_factory=dict)
    mucked: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # the auditor's
    perm: tuple[int, ...] = _IDENTITY
    problems: list[str] = field(default_factory=list)
    ended: bool = False
    second_at: int = 0  # R38: the next burn of the board's second run (0: none yet)


def _open(hand: _Hand, positions: Sequence[int], cards: Sequence[Card],
          salts: Sequence[bytes], what: str) -> None:
    if len(positions) != len(cards):
        hand.problems.append(f"{what}: {len(cards)} cards where R12 deals {len(positions)}")
        return
    if salts and len(salts) != len(cards):
        hand.problems.append(f"{what}: {len(salts)} salts for {len(cards)} cards")
        return
    for k, (j, card) in enumerate(zip(positions, cards, strict=True)):
        salt = salts[k] if salts else None
        before = hand.opened.get(j)
        if before is not None and (before[0] != card or (before[1] and salt
                                                          and before[1] != salt)):
            hand.problems.append(f"{what}: position {j} was opened before as {before[0]}, "
                                 f"now as {card}")
        hand.opened[j] = (card, salt or (before[1] if before else None))


def verify_reveal(hand_id: str, commitment: str, reveal: DeckRevealed,
                  order: list[int] | None = None,
                  opened: dict[int, tuple[Card, bytes | None]] | None = None,
                  perm: Sequence[int] = _IDENTITY,
                  mucked: dict[int, tuple[Card, ...]] | None = None) -> None:
    """Raises FairDeckViolation unless `reveal` proves `commitment` and every opened card
    (deal position -> card and salt) sits where R12 (and R39's `perm`) put it."""
    if reveal.commitment != commitment:
        raise FairDeckViolation(hand_id, f"the reveal names commitment {reveal.commitment!r}, "
                                         f"but the hand started with {commitment!r}")
    opened = opened or {}
    seen = [card.index for card, _ in opened.values()]
    if len(set(seen)) != len(seen):
        raise FairDeckViolation(hand_id, "the same card was opened at two positions")
    if reveal.deck and reveal.salt and not reveal.salts:
        _verify_legacy(hand_id, commitment, reveal, order or [], opened)
        return
    if reveal.deck:
        hashes = _audited(hand_id, reveal)
        committed: dict[int, Card] = dict(enumerate(reveal.deck))
    else:
        if len(reveal.hashes) != 52:
            raise FairDeckViolation(hand_id, f"the reveal has {len(reveal.hashes)} hashes, "
                                             "not 52")
        hashes, committed = list(reveal.hashes), {}
    for j, (card, salt) in sorted(opened.items()):
        q = perm[j]
        if q in committed and committed[q] != card:
            raise FairDeckViolation(hand_id, f"{card} was dealt at position {j}, but the deck "
                                             f"commits {committed[q]} there (R12)")
        if salt is None:
            if not committed:
                raise FairDeckViolation(hand_id, f"{card} at position {j} came without its "
                                                 "salt (R3)")
            continue
        mine = position_hash(q, card.index, salt)
        if hashes[q] and hashes[q] != mine:
            raise FairDeckViolation(hand_id, f"{card} with its salt does not hash to h_{q} "
                                             f"(position {j}, R12)")
        hashes[q] = mine
    missing = [i for i in range(52) if not hashes[i]]
    if missing:
        raise FairDeckViolation(hand_id, f"no hash for positions {missing}, which were not "
                                         "opened to this viewer")
    digest = hashlib.sha256(b"".join(hashes)).hexdigest()
    if digest != commitment:
        raise FairDeckViolation(hand_id, f"the hashes do not make the commitment "
                                         f"(SHA-256(h_0 || ... || h_51) = {digest}, "
                                         f"committed {commitment})")
    if committed and order and mucked:
        n = len(order)
        for seat, cards in mucked.items():
            p = order.index(seat)
            expected = {committed[perm[p]], committed[perm[n + p]]}
            if set(cards) != expected:
                raise FairDeckViolation(hand_id, f"seat {seat} mucked {cards}, but the deck "
                                                 f"puts {sorted(expected)} there (R12)")


def _audited(hand_id: str, reveal: DeckRevealed) -> list[bytes]:
    """The auditor's reveal: all 52 cards, each once, and 52 salts; the hashes they make."""
    indexes = [c.index for c in reveal.deck]
    if len(indexes) != 52 or set(indexes) != _ALL_CARDS:
        raise FairDeckViolation(hand_id, "the revealed deck is not the 52 cards, each once")
    if len(reveal.salts) != 52:
        raise FairDeckViolation(hand_id, f"the reveal has {len(reveal.salts)} salts, not 52")
    return [position_hash(i, card, salt)
            for i, (card, salt) in enumerate(zip(indexes, reveal.salts, strict=True))]


def _verify_legacy(hand_id: str, commitment: str, reveal: DeckRevealed, order: list[int],
                   opened: dict[int, tuple[Card, bytes | None]]) -> None:
    """A hand dealt before per-position commitments (the auditor's copy only):
    SHA-256(salt || deck)."""
    indexes = [c.index for c in reveal.deck]
    if len(indexes) != 52 or set(indexes) != _ALL_CARDS:
        raise FairDeckViolation(hand_id, "the revealed deck is not the 52 cards, each once")
    digest = hashlib.sha256(reveal.salt + bytes(indexes)).hexdigest()
    if digest != commitment:
        raise FairDeckViolation(hand_id, f"the revealed deck does not hash to the commitment "
                                         f"(sha256(salt || deck) = {digest}, "
                                         f"committed {commitment})")
    for j, (card, _) in opened.items():
        if reveal.deck[j] != card:
            raise FairDeckViolation(hand_id, f"{card} was dealt at position {j}, but the "
                                             f"revealed deck puts {reveal.deck[j]} there (R12)")


class FairDeckChecker:
    """Fed every event of a stream; verifies each hand at its DeckRevealed.

    A hand that ended (not voided) with no reveal before the next hand is a violation too.
    `on_violation` is called with each violation before the policy applies. Hands it
    cannot check are listed in `unverified`: joined after their HandStarted, or dealt
    before per-position commitments (their proof is the auditor's alone).
    """

    #: The event types `feed` reads (it ignores any other).
    reads: frozenset[type[Event]] = frozenset({
        HandStarted, HoleCardsDealt, CardsShown, CardsMucked, BoardDealt, HandEnded,
        HandVoided, DeckRevealed, DeckSeeded, SecondBoardDealt})

    def __init__(self, policy: Policy = "raise",
                 on_violation: Callable[[FairDeckViolation], None] | None = None) -> None:
        self.policy = policy
        self.on_violation = on_violation
        self.verified = 0
        self.violations: list[FairDeckViolation] = []
        self.unverified: list[str] = []
        self._hands: dict[str, _Hand] = {}
        self._perms: dict[str, tuple[int, ...]] = {}  # R39: DeckSeeded comes first

    def expect(self, hand_id: str, commitment: str, view: TableView | None = None) -> None:
        """A hand in progress the client joined mid-way: its commitment, and from the
        GetTable `view` (when given) who was dealt in and the cards (with their salts)
        opened to the client before it came, so that the hand can still be checked."""
        if not (hand_id and commitment) or hand_id in self._hands:
            return
        hand = self._hands[hand_id] = _Hand(commitment)
        seen = view.hand if view is not None else None
        if view is None or seen is None or seen.hand_id != hand_id:
            return
        hand.order = dealing_order([s.seat for s in view.seats if s.in_hand], seen.button)
        if seen.deck_permutation:
            hand.perm = tuple(seen.deck_permutation)
        n = len(hand.order)
        for s in view.seats:
            if s.hole_cards and s.seat in hand.order:
                p = hand.order.index(s.seat)
                _open(hand, (p, n + p), s.hole_cards, s.hole_card_salts, f"seat {s.seat}'s cards")
        streets = ((Street.FLOP, 0, 3), (Street.TURN, 3, 4), (Street.RIVER, 4, 5))
        for street, start, end in streets:
            cards = seen.board[start:end]
            if cards:
                _open(hand, board_positions(n, street), cards, seen.board_salts[start:end],
                      f"the {street}")

    def feed(self, event: Event) -> None:
        """Takes one event; raises (or flags) FairDeckViolation when a proof fails."""
        if type(event) is HandStarted:
            self._started(event)
            return
        if type(event) is DeckSeeded:
            self._seeded(event)
            return
        handler = _FEEDS.get(type(event))  # most events (turns, actions) prove nothing
        if handler is None:
            return
        hand = self._hands.get(event.hand_id)
        if hand is not None:
            handler(self, hand, event)

    def _seeded(self, event: DeckSeeded) -> None:
        perm = tuple(permutation([s.seed for s in sorted(event.seeds, key=lambda s: s.seat)]))
        if event.permutation and tuple(event.permutation) != perm:
            self._violate(FairDeckViolation(event.hand_id, "DeckSeeded's permutation is not "
                                                           "the one its seeds draw (R39)"))
        self._perms[event.hand_id] = perm

    def _started(self, event: HandStarted) -> None:
        for other_id, other in list(self._hands.items()):
            if other.ended:
                del self._hands[other_id]
                self._violate(FairDeckViolation(other_id, "the hand ended and its deck "
                                                          "was never revealed (R3)"))
        self._hands[event.hand_id] = _Hand(
            event.commitment, dealing_order([p.seat for p in event.players], event.button),
            perm=self._perms.pop(event.hand_id, _IDENTITY))

    def _hole(self, hand: _Hand, event: HoleCardsDealt | CardsShown) -> None:
        if not event.cards or not hand.order:
            return
        if event.seat not in hand.order:
            hand.problems.append(f"seat {event.seat} got cards but was not dealt in")
            return
        n, p = len(hand.order), hand.order.index(event.seat)
        _open(hand, (p, n + p), event.cards, event.salts, f"seat {event.seat}'s cards")

    def _mucked(self, hand: _Hand, event: CardsMucked) -> None:
        if event.cards:
            hand.mucked[event.seat] = event.cards

    def _board(self, hand: _Hand, event: BoardDealt) -> None:
        if hand.order:
            _open(hand, board_positions(len(hand.order), event.street), event.cards,
                  event.salts, f"the {event.street}")

    def _second(self, hand: _Hand, event: SecondBoardDealt) -> None:
        """R38: the second run follows the first in the deck, each street after its burn."""
        if hand.order:
            at = hand.second_at or 2 * len(hand.order) + 8
            positions = tuple(range(at + 1, at + 1 + len(event.cards)))
            hand.second_at = at + 1 + len(event.cards)
            _open(hand, positions, event.cards, event.salts, f"the second {event.street}")

    def _ended(self, hand: _Hand, event: HandEnded) -> None:
        hand.ended = True

    def _voided(self, hand: _Hand, event: HandVoided) -> None:
        del self._hands[event.hand_id]  # a voided hand deals no more; nothing to prove

    def _revealed(self, hand: _Hand, event: DeckRevealed) -> None:
        del self._hands[event.hand_id]
        if event.withheld or (not hand.order and not event.deck):
            self.unverified.append(event.hand_id)
            return
        try:
            if hand.problems:
                raise FairDeckViolation(event.hand_id, hand.problems[0])
            verify_reveal(event.hand_id, hand.commitment, event, hand.order, hand.opened,
                          hand.perm, hand.mucked)
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
_FEEDS: dict[type[Event], Any] = {  # with HandStarted and DeckSeeded, FairDeckChecker.reads
    HoleCardsDealt: FairDeckChecker._hole,
    CardsShown: FairDeckChecker._hole,
    CardsMucked: FairDeckChecker._mucked,
    BoardDealt: FairDeckChecker._board,
    SecondBoardDealt: FairDeckChecker._second,
    HandEnded: FairDeckChecker._ended,
    HandVoided: FairDeckChecker._voided,
    DeckRevealed: FairDeckChecker._revealed,
}
assert FairDeckChecker.reads == {HandStarted, DeckSeeded, *_FEEDS}, \
    "feed would skip an event it reads"
