"""Decks for the dealer: the secure shuffle (R2), the fair-deck proof (R3), player seeds
(R39), the button draw (R4).

The proof's arithmetic (position hashes, the commitment, R39's permutation and hash
chains) is poker/deckproof.py, shared with the SDK's check.

>>> shuffled = ShuffledDeck(tuple(range(52)), tuple(bytes(16) for _ in range(52)))
>>> commitment_of(shuffled.hashes) == shuffled.commitment
True
>>> position_hash(0, 0, bytes(16)) == shuffled.hashes[0] != shuffled.hashes[1]
True
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from poker.deckproof import SALT_BYTES, commitment_of, position_hash


@dataclass(frozen=True, slots=True)
class ShuffledDeck:
    """A hand's deck in committed order (position i holds cards[i]) and its 52 salts;
    `hashes`, its position hashes, computed once."""

    cards: tuple[int, ...]
    salts: tuple[bytes, ...]
    hashes: tuple[bytes, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hashes", position_hashes(self.cards, self.salts))

    @property
    def commitment(self) -> str:
        return commitment_of(self.hashes)


def position_hashes(cards: Sequence[int], salts: Sequence[bytes],
                    commitment: str = "") -> tuple[bytes, ...]:
    """h_i of R3 for each position: those of a deck this process shuffled lately (the
    same cards and salts under `commitment`) are not computed again."""
    kept = _RECENT.get(commitment) if commitment else None
    if kept is not None and kept[0] == tuple(cards) and kept[1] == tuple(salts):
        return kept[2]
    pairs = zip(cards, salts, strict=True)
    return tuple(position_hash(i, c, s) for i, (c, s) in enumerate(pairs))


#: The position hashes of the decks shuffled lately (commitment -> cards, salts, hashes),
#: oldest first: a hand's reveal reads its deck's back instead of 52 SHA-256s.
_RECENT: dict[str, tuple[tuple[int, ...], tuple[bytes, ...], tuple[bytes, ...]]] = {}
_RECENT_DECKS = 1024





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
    """The deck of the next hand: secure, unless the table is in test mode; the salts
    are always fresh secure random bytes (one read for the 52)."""
    order = secure_order() if test_seed is None else seeded_order(test_seed, hand_number)
    pool = secrets.token_bytes(SALT_BYTES * 52)
    shuffled = ShuffledDeck(tuple(order), tuple(pool[i:i + SALT_BYTES]
                                                for i in range(0, len(pool), SALT_BYTES)))
    _RECENT[shuffled.commitment] = (shuffled.cards, shuffled.salts, shuffled.hashes)
    while len(_RECENT) > _RECENT_DECKS:  # the hand's reveal needs them again (below)
        del _RECENT[next(iter(_RECENT))]
    return shuffled







def draw_button(seats: Sequence[int]) -> tuple[int, dict[int, int]]:
    """R4: one card face up each; highest rank, then spades > hearts > diamonds > clubs.

    Card indexes order exactly so (4 * rank + suit, suits c < d < h < s).
    """
    order = secure_order()
    cards = {seat: order[i] for i, seat in enumerate(sorted(seats))}
    return max(cards, key=cards.__getitem__), cards
