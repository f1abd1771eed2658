"""Hole-card ranges in the usual (PokerStove) notation, as lists of two-card combos.

Items are comma separated:

* `QQ` a pair (6 combos); `QQ+` that pair and every higher one; `JJ-88` pairs between;
* `AKs` suited (4), `AKo` offsuit (12), `AK` both (16);
* `K9s+` the kicker rises up to just below the top card: K9s KTs KJs KQs
  (so `T9s+` is T9s alone, as in PokerStove);
* `A5s-A2s` one top card, the kickers between (A5s A4s A3s A2s);
* `AhKh` one exact combo.

A combo is a pair of card indexes (R1), higher index first.

>>> len(parse_range("QQ+")), len(parse_range("A5s-A2s")), len(parse_range("AK, 22+"))
(18, 16, 94)
>>> from poker.cards import cards_text
>>> [cards_text(c) for c in parse_range("AhKh, T9s+")]
['AhKh', 'Ts9s', 'Th9h', 'Td9d', 'Tc9c']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from poker.cards import RANKS, card_text, parse_card
from poker.limits import quote
from services.evaluator.errors import InvalidRange

Combo = tuple[int, int]

_R = "[2-9TJQKAtjqka]"
_PAIR = re.compile(rf"^({_R})\1(\+)?$")
_PAIR_SPAN = re.compile(rf"^({_R})\1-({_R})\2$")
_TWO = re.compile(rf"^({_R})({_R})([so])?(\+)?$")
_TWO_SPAN = re.compile(rf"^({_R})({_R})([so])?-({_R})({_R})([so])?$")
_EXACT = re.compile(rf"^({_R}[cdhsCDHS])({_R}[cdhsCDHS])$")


def _rank(char: str) -> int:
    return RANKS.index(char.upper())


def pair_combos(rank: int) -> list[Combo]:
    """The 6 combos of a pair of rank index `rank` (0 = deuces)."""
    return [(4 * rank + a, 4 * rank + b) for a, b in itertools.combinations(range(3, -1, -1), 2)]


def two_rank_combos(high: int, low: int, suited: bool | None) -> list[Combo]:
    """Combos of two different ranks: suited (4), offsuit (12) or both (None, 16)."""
    return [
        (4 * high + s1, 4 * low + s2)
        for s1 in range(3, -1, -1)
        for s2 in range(3, -1, -1)
        if suited is None or (s1 == s2) == suited
    ]


def _suited(flag: str | None) -> bool | None:
    return None if flag is None else flag == "s"


def _item_combos(item: str) -> list[Combo]:
    if m := _PAIR.match(item):
        low = _rank(m[1])
        return [c for r in range(12, low - 1, -1) if m[2] or r == low for c in pair_combos(r)]
    if m := _PAIR_SPAN.match(item):
        a, b = sorted((_rank(m[1]), _rank(m[2])), reverse=True)
        return [c for r in range(a, b - 1, -1) for c in pair_combos(r)]
    if m := _TWO.match(item):
        high, low = sorted((_rank(m[1]), _rank(m[2])), reverse=True)
        if high == low:
            raise InvalidRange(f"{quote(item)}: a pair takes no suited/offsuit mark")
        kickers = range(high - 1, low - 1, -1) if m[4] else [low]
        return [c for k in kickers for c in two_rank_combos(high, k, _suited(m[3]))]
    if m := _TWO_SPAN.match(item):
        (h1, k1), (h2, k2) = (sorted((_rank(m[i]), _rank(m[i + 1])), reverse=True) for i in (1, 4))
        if h1 != h2 or m[3] != m[6] or h1 in (k1, k2):
            raise InvalidRange(
                f"{quote(item)}: a span keeps its top card and suitedness and moves the kicker "
                "(A5s-A2s)"
            )
        kickers = range(max(k1, k2), min(k1, k2) - 1, -1)
        return [c for k in kickers for c in two_rank_combos(h1, k, _suited(m[3]))]
    if m := _EXACT.match(item):
        a, b = parse_card(m[1][0] + m[1][1].lower()), parse_card(m[2][0] + m[2][1].lower())
        if a == b:
            raise InvalidRange(f"{quote(item)}: the same card twice")
        return [(max(a, b), min(a, b))]
    raise InvalidRange(
        f"{quote(item)} is not range notation: write items like QQ+, AKs, A5s-A2s, KQo, T9s+, AhKh"
    )


def parse_range(text: str) -> list[Combo]:
    """The distinct combos of a range, in the order its items name them.

    Raises InvalidRange naming the first item that does not parse.

    >>> parse_range("KK")
    [(47, 46), (47, 45), (47, 44), (46, 45), (46, 44), (45, 44)]
    """
    items = [item.strip() for item in text.split(",")]
    if not text.strip():
        raise InvalidRange("an empty range: give combos such as QQ+, AKs")
    combos: dict[Combo, None] = {}
    for item in items:
        if not item:
            raise InvalidRange(f"range {quote(text)} has an empty item between commas")
        try:
            for combo in _item_combos(item):
                combos.setdefault(combo, None)
        except InvalidRange as err:
            raise InvalidRange(f"range {quote(text)}: {err}") from None
    return list(combos)


def available(combos: Iterable[Combo], known: Iterable[int]) -> list[Combo]:
    """The combos that use none of the `known` cards (board, dead, other players').

    >>> from poker.cards import parse_cards
    >>> len(available(parse_range("AA"), parse_cards("As")))
    3
    """
    taken = set(known)
    return [c for c in combos if c[0] not in taken and c[1] not in taken]


def combo_text(combo: Combo) -> str:
    """`(51, 47)` -> `AsKs`."""
    return card_text(combo[0]) + card_text(combo[1])
