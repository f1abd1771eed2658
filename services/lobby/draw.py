"""The draw for the button (R4): one card face up to each seated player, the highest takes it.

Ranks decide; equal ranks are separated by suit, spades > hearts > diamonds > clubs.
A card's index (R1: 4 * rank + suit, suits c d h s) orders cards exactly so.
The deck comes from a secure shuffle (R2); tests may pass a deck of their own.

>>> from poker.cards import parse_cards
>>> draw = draw_button([(0, "ann"), (3, "bob"), (5, "cy")], deck=parse_cards("Kh Kd Ks 2c"))
>>> draw.button, draw.winner.player_id, [card_text(c.card) for c in draw.cards]
(5, 'cy', ['Kh', 'Kd', 'Ks'])
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from poker.cards import DECK_SIZE, card_text, rank_of, suit_of


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The card a seated player was dealt for the button."""

    seat: int
    player_id: str
    card: int


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The whole draw, in seat order, and who won it."""

    cards: tuple[DrawCard, ...]
    winner: DrawCard

    @property
    def button(self) -> int:
        return self.winner.seat

    def describe(self) -> str:
        shown = ", ".join(f"seat {c.seat} {card_text(c.card)}" for c in self.cards)
        return f"{shown}: seat {self.button} has the button"


def secure_shuffle() -> list[int]:
    """A uniform permutation of the 52 cards: Fisher-Yates over `secrets` (R2)."""
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def beats(a: int, b: int) -> bool:
    """Whether card `a` wins the draw over card `b`: higher rank, then higher suit."""
    return (rank_of(a), suit_of(a)) > (rank_of(b), suit_of(b))


def draw_button(
    players: Sequence[tuple[int, str]], deck: Sequence[int] | None = None
) -> ButtonDraw:
    """Deals one card to each (seat, player_id), in seat order, and finds the button."""
    if len(players) < 2:
        raise ValueError(f"the draw for the button needs two players, not {len(players)}")
    cards = deck if deck is not None else secure_shuffle()
    ordered = sorted(players)
    dealt = tuple(DrawCard(seat, pid, cards[i]) for i, (seat, pid) in enumerate(ordered))
    winner = dealt[0]
    for candidate in dealt[1:]:
        if beats(candidate.card, winner.card):
            winner = candidate
    return ButtonDraw(dealt, winner)
