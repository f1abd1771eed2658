"""Cards as the rule book writes them (R1): text `As`, `Td`, `2c`, or an index 0..51.

`index = 4 * rank_index + suit_index`, rank_index 0 = deuce ... 12 = ace, suits c, d, h, s.

>>> parse_card("As"), card_text(51), parse_cards("2c Td")
(51, 'As', [0, 33])
"""

from __future__ import annotations

from collections.abc import Iterable

from poker.errors import InvalidArgument
from poker.limits import quote

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

#: Text of every card by index.
CARD_TEXT: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_INDEX = {text: i for i, text in enumerate(CARD_TEXT)}
# Accept the common lower/upper case variants of ranks ("ts", "TS") as well.
_INDEX.update({t[0].lower() + t[1]: i for t, i in list(_INDEX.items())})
_INDEX.update({t[0] + t[1].upper(): i for t, i in list(_INDEX.items())})


class CardError(InvalidArgument, ValueError):
    """A card that is not one of the 52."""

    reason = "INVALID_CARD"


def parse_card(text: str) -> int:
    """The index of a card written `As`; raises CardError naming the bad text."""
    try:
        return _INDEX[text.strip()]
    except KeyError:
        raise CardError(
            f"{quote(text)} is not a card: write rank then suit, ranks {RANKS}, suits {SUITS}"
        ) from None


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Indexes of cards given as `AsKd`, `As Kd`, `As,Kd` or a list of texts."""
    if isinstance(text, str):
        compact = text.replace(",", "").replace(" ", "")
        if len(compact) % 2:
            raise CardError(f"{quote(text)} is not a list of cards: each card is two characters")
        return [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]
    return [parse_card(t) for t in text]


def card_text(index: int) -> str:
    """The text of a card index; raises CardError when out of 0..51."""
    if not 0 <= index < DECK_SIZE:
        raise CardError(f"card index {index} is out of range 0..51")
    return CARD_TEXT[index]


def cards_text(indexes: Iterable[int], sep: str = "") -> str:
    """`[51, 34]` -> `AsTd`."""
    return sep.join(card_text(i) for i in indexes)


def rank_of(index: int) -> int:
    """Rank index 0 (deuce) .. 12 (ace)."""
    return index >> 2


def suit_of(index: int) -> int:
    """Suit index 0 (clubs) .. 3 (spades)."""
    return index & 3
