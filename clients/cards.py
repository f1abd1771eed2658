"""Cards as SDK values: `Card('As')`, comparable, hashable, printed as the rule book writes them.

>>> ace = Card("As")
>>> str(ace), repr(ace), ace.rank, ace.suit, ace.index
('As', "Card('As')", 'A', 's', 51)
>>> Card.from_index(0), Card("td") == Card("Td"), sorted(cards("Kd 2c As"))
(Card('2c'), True, [Card('2c'), Card('Kd'), Card('As')])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from poker.cards import RANKS, card_text, parse_card, parse_cards

__all__ = ["Card", "cards"]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 52 cards (R1). Ordered by rank, then suit (clubs < diamonds < hearts < spades)."""

    index: int = field(init=False, repr=False)
    text: str = field(compare=False)

    def __init__(self, text: str) -> None:
        index = parse_card(text)  # raises poker.cards.CardError (a ValueError) naming the text
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "text", card_text(index))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of an index 0..51 (`4 * rank_index + suit_index`)."""
        return cls(card_text(index))

    @property
    def rank(self) -> str:
        """The rank character, `2` .. `A`."""
        return self.text[0]

    @property
    def suit(self) -> str:
        """The suit character, `c`, `d`, `h` or `s`."""
        return self.text[1]

    @property
    def rank_value(self) -> int:
        """2 for a deuce .. 14 for an ace."""
        return RANKS.index(self.text[0]) + 2

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.text,))


def cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from `"AsKd"`, `"As Kd"`, `"As,Kd"` or an iterable of texts."""
    return tuple(Card.from_index(i) for i in parse_cards(text))
