"""Decks for the dealer: the secure shuffle (R2), the fair-deck proof (R3), the button draw (R4).

The commitment is `sha256(salt || bytes(deck)).hexdigest()`: 32 random salt bytes,
then the 52 card indexes (R1) in deal order, one byte each.

>>> deck = list(range(52)); salt = bytes(32)
>>> verify(commitment(salt, deck), salt, deck)
True
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

SALT_BYTES = 32


@dataclass(frozen=True, slots=True)
class ShuffledDeck:
    """A hand's deck and the secret that commits to it."""

    cards: tuple[int, ...]
    salt: bytes

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.cards)


def secure_order() -> list[int]:
    """Fisher-Yates over the operating system's secure random bytes (R2), as `secrets`.

    Each index is one random byte, drawn again when it falls in the byte's uneven
    tail (so every index is equally likely); the bytes are read at once, not one
    system call per card.
    """
    cards = list(range(52))
    pool = os.urandom(96)
    at = 0
    for i in range(51, 0, -1):
        n = i + 1
        limit = 256 - 256 % n  # the largest multiple of n a byte can reach
        while True:
            if at == len(pool):
                pool, at = os.urandom(32), 0
            byte = pool[at]
            at += 1
            if byte < limit:
                break
        j = byte % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def seeded_order(seed: int, hand_number: int) -> list[int]:
    """Test mode only (R2): the deck of a hand, reproducible from the table's seed."""
    rng = random.Random(f"{seed}:{hand_number}")
    cards = list(range(52))
    for i in range(51, 0, -1):
        j = rng.randrange(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffle(test_seed: int | None, hand_number: int) -> ShuffledDeck:
    """The deck of the next hand: secure, unless the table is in test mode."""
    order = secure_order() if test_seed is None else seeded_order(test_seed, hand_number)
    return ShuffledDeck(tuple(order), secrets.token_bytes(SALT_BYTES))


def commitment(salt: bytes, deck: Sequence[int]) -> str:
    """R3: lowercase hex SHA-256 of the salt followed by one byte per card."""
    return hashlib.sha256(salt + bytes(deck)).hexdigest()


def verify(published: str, salt: bytes, deck: Sequence[int]) -> bool:
    """What any client can check when the hand ends."""
    return sorted(deck) == list(range(52)) and commitment(salt, deck) == published


def draw_button(seats: Sequence[int]) -> tuple[int, dict[int, int]]:
    """R4: one card face up each; highest rank, then spades > hearts > diamonds > clubs.

    Card indexes order exactly so (4 * rank + suit, suits c < d < h < s).
    """
    order = secure_order()
    cards = {seat: order[i] for i, seat in enumerate(sorted(seats))}
    return max(cards, key=cards.__getitem__), cards
