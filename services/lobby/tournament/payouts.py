"""T2: the prize pool paid by the structure's shares; places shared (T8) split the
prizes of the places they share equally; odd chips go to the better finisher.

>>> prizes(1001, (5000, 3000, 2000))
[501, 300, 200]
>>> pay(1001, (5000, 3000, 2000), [Place("a", 1), Place("b", 2, 2), Place("c", 2, 2)])
{'a': 501, 'b': 250, 'c': 250}
"""

from __future__ import annotations

from collections.abc import Sequence

from services.lobby.tournament.places import Place
from services.lobby.tournament.structure import WHOLE


def prizes(pool: int, shares: Sequence[int]) -> list[int]:
    """Each paid place's prize: its share of the pool rounded down, the chips left over
    to first place (the better finisher); they add up to the pool."""
    amounts = [pool * share // WHOLE for share in shares]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


def pay(pool: int, shares: Sequence[int], places: Sequence[Place]) -> dict[str, int]:
    """Every player's prize (0 when out of the money). Players sharing places split those
    places' prizes equally; a remainder goes, one chip each, to the tied players in
    player-id order, and what no player takes (fewer finishers than places) to the
    winner, so the whole pool is always paid."""
    table = prizes(pool, shares)
    out: dict[str, int] = {p.player_id: 0 for p in places}
    groups: dict[int, list[Place]] = {}
    for p in places:
        groups.setdefault(p.place, []).append(p)
    for place, group in groups.items():
        span = group[0].shared
        total = sum(table[place - 1 + k] for k in range(span) if place - 1 + k < len(table))
        each, odd = divmod(total, len(group))
        for i, p in enumerate(sorted(group, key=lambda g: g.player_id)):
            out[p.player_id] = each + (1 if i < odd else 0)
    unpaid = pool - sum(out.values())
    if unpaid and places:
        winner = min(places, key=lambda p: (p.place, p.player_id))
        out[winner.player_id] += unpaid
    return out
