"""T8: places by the order of busting; players busting in the same hand (or the same
round of hand for hand) ranked by their stacks at the start of it, larger higher;
equal stacks share the places.

>>> rank_busts([("ann", 500), ("bob", 900), ("cy", 500)], left_before=10)
[Place(player_id='bob', place=8, shared=1), Place(player_id='ann', place=9, shared=2), \
Place(player_id='cy', place=9, shared=2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Place:
    """A finish: `place` is the best of the `shared` places the player shares."""

    player_id: str
    place: int
    shared: int = 1


def rank_busts(busted: Sequence[tuple[str, int]], left_before: int) -> list[Place]:
    """The places of players who busted together, `left_before` players being left
    before they did (so they take places left_before, left_before-1, ...)."""
    ordered = sorted(busted, key=lambda b: (-b[1], b[0]))
    places: list[Place] = []
    worst = left_before
    best = left_before - len(ordered) + 1
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        for player, _ in ordered[i:j]:
            places.append(Place(player, best + i, j - i))
        i = j
    assert not places or places[-1].place + places[-1].shared - 1 == worst
    return places
