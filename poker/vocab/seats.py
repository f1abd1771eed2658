"""Seat order from the button, written once: the order of dealing (R12) and of PHH players.

The first seat left of the button comes first and the button last (heads-up: the
big blind, then the button). The engine's positions, the PHH writer's p1..pN and the
dealer's hand histories all use it.

>>> from_button([7, 1, 4], button=4)
[7, 1, 4]
>>> from_button([0, 1], button=1), from_button([2, 5, 8], button=9)
([0, 1], [2, 5, 8])
"""

from __future__ import annotations

from collections.abc import Iterable


def from_button(seats: Iterable[int], button: int) -> list[int]:
    """The seats, left of the button first and the button (or the seat before it) last."""
    ordered = sorted(seats)
    first = next((i for i, seat in enumerate(ordered) if seat > button), 0)
    return ordered[first:] + ordered[:first]
