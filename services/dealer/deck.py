"""Decks for the dealer: the secure shuffle (R2), the fair-deck proof (R3), player seeds
(R39), the button draw (R4).

R3, position by position: for each deck position i (0..51) a fresh 16-byte salt s_i and
h_i = SHA-256(s_i || i || card_i), i and card_i one byte each (the card's index, R1); the
commitment is the lowercase hex of C = SHA-256(h_0 || ... || h_51). Opening position i
gives (card_i, s_i); a position not opened is proven by h_i alone.

>>> shuffled = ShuffledDeck(tuple(range(52)), tuple(bytes(16) for _ in range(52)))
>>> commitment_of(shuffled.hashes) == shuffled.commitment
True
>>> position_hash(0, 0, bytes(16)) == shuffled.hashes[0] != shuffled.hashes[1]
True

R39: the seeds, in seat order, key a SHA-256 counter-mode stream that draws a
permutation p by Fisher-Yates; the card dealt at position j is committed card p(j).

>>> permutation([b"", b""]) == permutation([b"", b""]) != permutation([b"a", b""])
True
>>> sorted(permutation([b"x"])) == list(range(52))
True
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

SALT_BYTES = 16
#: The one salt of a hand dealt before per-position commitments (SHA-256(salt || deck)).
LEGACY_SALT_BYTES = 32
#: A seed of R39: one link of a player's SHA-256 hash chain.
SEED_BYTES = 32


@dataclass(frozen=True, slots=True)
class ShuffledDeck:
    """A hand's deck in committed order (position i holds cards[i]) and its 52 salts."""

    cards: tuple[int, ...]
    salts: tuple[bytes, ...]

    @property
    def hashes(self) -> tuple[bytes, ...]:
        pairs = zip(self.cards, self.salts, strict=True)
        return tuple(position_hash(i, c, s) for i, (c, s) in enumerate(pairs))

    @property
    def commitment(self) -> str:
        return commitment_of(self.hashes)


def position_hash(position: int, card: int, salt: bytes) -> bytes:
    """R3: h_i = SHA-256(s_i || i || card_i), position and card one byte each."""
    return hashlib.sha256(salt + bytes((position, card))).digest()


def commitment_of(hashes: Sequence[bytes]) -> str:
    """R3: C = SHA-256(h_0 || ... || h_51), lowercase hex."""
    return hashlib.sha256(b"".join(hashes)).hexdigest()


def legacy_commitment(salt: bytes, deck: Sequence[int]) -> str:
    """The commitment of hands dealt before per-position salts: SHA-256(salt || deck)."""
    return hashlib.sha256(salt + bytes(deck)).hexdigest()


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
    return ShuffledDeck(tuple(order), tuple(pool[i:i + SALT_BYTES]
                                            for i in range(0, len(pool), SALT_BYTES)))


def seed_key(seeds: Sequence[bytes]) -> bytes:
    """R39: the generator's key, SHA-256 over each seed (seat order) as its length in one
    byte then its bytes (an empty seed is the single byte 0)."""
    return hashlib.sha256(b"".join(bytes((len(s),)) + s for s in seeds)).digest()


def _stream(key: bytes) -> Iterator[int]:
    """SHA-256 counter mode: SHA-256(key || k), k = 0, 1, ... as 4 bytes big-endian."""
    k = 0
    while True:
        yield from hashlib.sha256(key + k.to_bytes(4, "big")).digest()
        k += 1


def permutation(seeds: Sequence[bytes]) -> list[int]:
    """R39: p, by Fisher-Yates from p = [0..51], i from 51 down to 1: take bytes of the
    stream until one is below 256 - 256 % (i + 1), j = byte % (i + 1), swap p[i], p[j]."""
    p = list(range(52))
    stream = _stream(seed_key(seeds))
    for i in range(51, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        byte = next(stream)
        while byte >= limit:
            byte = next(stream)
        j = byte % n
        p[i], p[j] = p[j], p[i]
    return p


def dealt_order(committed: Sequence[int], p: Sequence[int]) -> tuple[int, ...]:
    """R39: the deck as dealt, position j holding committed card p(j)."""
    return tuple(committed[p[j]] for j in range(52))


def chain(secret: bytes, length: int) -> list[bytes]:
    """A hash chain: [x, SHA-256(x), SHA-256^2(x), ..., SHA-256^length(x)]; the last is
    published (R39) and the others revealed from the end, one a hand."""
    links = [secret]
    for _ in range(length):
        links.append(hashlib.sha256(links[-1]).digest())
    return links


def draw_button(seats: Sequence[int]) -> tuple[int, dict[int, int]]:
    """R4: one card face up each; highest rank, then spades > hearts > diamonds > clubs.

    Card indexes order exactly so (4 * rank + suit, suits c < d < h < s).
    """
    order = secure_order()
    cards = {seat: order[i] for i, seat in enumerate(sorted(seats))}
    return max(cards, key=cards.__getitem__), cards
