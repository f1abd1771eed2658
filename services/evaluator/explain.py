"""What a hand is, in words: its category, best five cards in read order and description (R25).

>>> from poker.cards import parse_cards, cards_text
>>> hand = explain(parse_cards("Kh Kd 5s 5c Kc 2d 9h"))
>>> hand.description, cards_text(hand.best_five, " ")
('Full house, kings full of fives', 'Kh Kd Kc 5s 5c')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.evaluator.core import check_cards, evaluate
from services.evaluator.errors import InvalidHand, InvalidRequest
from services.evaluator.tables import CLASSES, HandCategory

RANK_NAMES = (
    "deuce", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
RANK_PLURALS = tuple("sixes" if name == "six" else name + "s" for name in RANK_NAMES)
_FLUSHES = (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH)


@dataclass(frozen=True, slots=True)
class HandValue:
    """A ranked hand: rank 1..7462 (higher better), category, best five (read order), words."""

    rank: int
    category: HandCategory
    best_five: tuple[int, ...]
    description: str


def describe(rank: int) -> str:
    """What a person says about a hand of this rank.

    >>> describe(7462), describe(1)
    ('Royal flush', 'Seven high')
    """
    category, ranks = CLASSES[rank - 1]
    top = ranks[0]
    match category:
        case HandCategory.ROYAL_FLUSH:
            return "Royal flush"
        case HandCategory.STRAIGHT_FLUSH:
            return f"Straight flush, {RANK_NAMES[top]} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {RANK_PLURALS[top]}"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {RANK_PLURALS[top]} full of {RANK_PLURALS[ranks[3]]}"
        case HandCategory.FLUSH:
            return f"Flush, {RANK_NAMES[top]} high"
        case HandCategory.STRAIGHT:
            return f"Straight, {RANK_NAMES[top]} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {RANK_PLURALS[top]}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[ranks[2]]}"
        case HandCategory.PAIR:
            return f"Pair of {RANK_PLURALS[top]}"
        case _:
            return f"{RANK_NAMES[top].capitalize()} high"


def best_five(cards: Sequence[int], rank: int) -> tuple[int, ...]:
    """The five of `cards` that make `rank`, in read order (category cards, then kickers).

    Where cards of equal rank could serve, the higher suit (s, h, d, c) is shown.

    >>> from poker.cards import parse_cards, cards_text
    >>> hand = parse_cards("Ac 2d 3h 4s 5c Kd Kh")
    >>> cards_text(best_five(hand, evaluate(hand)), " ")
    '5c 4s 3h 2d Ac'
    """
    category, ranks = CLASSES[rank - 1]
    pool = sorted(cards, reverse=True)
    if category in _FLUSHES:
        suits = [c & 3 for c in pool]
        flush_suit = max(range(4), key=suits.count)
        pool = [c for c in pool if c & 3 == flush_suit]
    chosen: list[int] = []
    for r in ranks:
        card = next(c for c in pool if c >> 2 == r)
        pool.remove(card)
        chosen.append(card)
    return tuple(chosen)


def explain(cards: Sequence[int]) -> HandValue:
    """Rank, category, best five and description of 5, 6 or 7 distinct cards.

    >>> from poker.cards import parse_cards
    >>> explain(parse_cards("Jh Jd 9c 4s 2h")).description
    'Pair of jacks'
    """
    check_cards(cards)
    rank = evaluate(cards)
    return HandValue(rank, CLASSES[rank - 1][0], best_five(cards, rank), describe(rank))


@dataclass(frozen=True, slots=True)
class ShowdownResult:
    """Every holding's hand and place (1 = best; ties share, the next place skips), winners."""

    hands: tuple[HandValue, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]


def showdown(board: Sequence[int], holdings: Sequence[Sequence[int]]) -> ShowdownResult:
    """Ranks 1 to 10 two-card holdings on a five-card board (R25); ties share a place.

    >>> from poker.cards import parse_cards as p
    >>> result = showdown(p("Ah Kh Qd 7c 2s"), [p("As 3d"), p("Ac 4d"), p("Kd Ks")])
    >>> result.places, result.winners
    ((2, 2, 1), (2,))
    """
    if len(board) != 5:
        raise InvalidRequest(f"a showdown board has 5 cards, not {len(board)}")
    if not 1 <= len(holdings) <= 10:
        raise InvalidRequest(f"a showdown has 1 to 10 holdings, not {len(holdings)}")
    check_cards(board, None, "board")
    seen = set(board)
    for i, holding in enumerate(holdings):
        if len(holding) != 2:
            raise InvalidHand(f"{len(holding)} cards; a holding has 2", i, "holding")
        check_cards([*board, *holding], i, "holding")
        clash = seen.intersection(holding)
        if clash:
            from poker.cards import card_text

            raise InvalidHand(f"card {card_text(min(clash))} is already dealt", i, "holding")
        seen.update(holding)
    hands = tuple(explain([*board, *h]) for h in holdings)
    ranks = [h.rank for h in hands]
    places = tuple(1 + sum(other > mine for other in ranks) for mine in ranks)
    best = max(ranks)
    return ShowdownResult(hands, places, tuple(i for i, r in enumerate(ranks) if r == best))

