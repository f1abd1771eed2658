"""Pots by contribution level (R22) and splitting a pot between tied winners (R24).

The worked example of R22: stacks 300/200/100/50 all in for 200/200/100/50
(the 300 stack's extra 100 was uncalled and went back, R21):

>>> build_pots([200, 200, 100, 50], [False] * 4, 0)
[(200, (0, 1, 2, 3)), (150, (0, 1, 2)), (200, (0, 1))]
>>> build_pots([0, 17, 17], [False] * 3, 10)  # R8, R22: a big blind all in for its ante
[(10, (0, 1, 2)), (34, (1, 2))]
>>> split(101, [2, 5])  # R24: the odd chip to the first winner left of the button
[51, 50]

Decisions where the rule book is silent (R22, R23): pots whose eligible players
are the same are one pot; chips of a level that only folded players reached go
into the pot below it (the folded players forfeit them, and in the extreme case
R23's last player takes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: A pot as the engine keeps it: (amount, eligible positions in position order).
RawPot = tuple[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the seats that can win it (R22)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], folded: Sequence[bool], dead: int) -> list[RawPot]:
    """Main pot first, then side pots, from each position's chips put in (R22).

    `dead` (a big-blind ante, R8) goes whole into the main pot. A player still in whose
    every chip went into `dead` (a big blind all in for the big-blind ante) never folded:
    the main pot is then that dead money alone, and they are eligible for it (R8, R22).
    """
    levels = sorted({c for c in contributions if c > 0})
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    previous = 0
    n = len(contributions)
    if dead and any(c == 0 and not f for c, f in zip(contributions, folded, strict=True)):
        amounts.append(dead)
        eligibles.append(tuple(p for p in range(n) if not folded[p]))
        dead = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        eligible = tuple(p for p in range(n) if not folded[p] and contributions[p] >= level)
        if amounts and (not eligible or eligibles[-1] == eligible):
            amounts[-1] += amount
        elif eligible:
            amounts.append(amount)
            eligibles.append(eligible)
        else:  # nobody still in reached even the lowest level: into the main pot
            dead += amount
        previous = level
    if dead:
        if amounts:
            amounts[0] += dead
        else:
            amounts.append(dead)
            eligibles.append(tuple(p for p in range(n) if not folded[p]))
    return list(zip(amounts, eligibles, strict=True))


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Equal shares of a pot, the indivisible rest to the first winner (R24).

    `winners` must be in position order, the first left of the button first.
    """
    share, rest = divmod(amount, len(winners))
    shares = [share] * len(winners)
    shares[0] += rest
    return shares
