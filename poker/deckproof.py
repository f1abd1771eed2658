"""The fair-deck proof's arithmetic (R3, R39), written once for the dealer and the SDK.

Standard library only: the dealer (services/dealer/deck.py) commits and deals with it,
and every client (clients/fairdeck.py, clients/seeds.py) checks with the same code.

R3, position by position: for each deck position i (0..51) a fresh 16-byte salt s_i and
h_i = SHA-256(s_i || i || card_i), i and card_i one byte each (the card's index, R1); the
commitment is the lowercase hex of C = SHA-256(h_0 || ... || h_51). Opening position i
gives (card_i, s_i); a position not opened is proven by h_i alone.

>>> hashes = [position_hash(i, i, bytes(16)) for i in range(52)]
>>> len(commitment_of(hashes)), hashes[0] != hashes[1]
(64, True)

R39: the seeds, in seat order, key a SHA-256 counter-mode stream that draws a
permutation p by Fisher-Yates; the card dealt at position j is committed card p(j).

>>> permutation([b"", b""]) == permutation([b"", b""]) != permutation([b"a", b""])
True
>>> permutation([b"a", b""]) != permutation([b"", b"a"])
True
>>> sorted(permutation([b"x"])) == list(range(52))
True
>>> links = chain(bytes(32), 3); hashlib.sha256(links[2]).digest() == links[3]
True
>>> steps_to(links[2], links[3]), steps_to(links[1], links[3]), steps_to(links[3], links[3])
(1, 2, None)

A seed sent for a commitment that never dealt (the dealer restarted while it awaited
the seeds, or the seed came after the seed time) was seen by the dealer before its next
commitment: the player burns it and sends the link below. The dealer accepts one link
skipped for each of the seat's commitments since its last published seed that never
dealt it, SEED_SKIP links down at most.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

SALT_BYTES = 16
#: The one salt of a hand dealt before per-position commitments (SHA-256(salt || deck)).
LEGACY_SALT_BYTES = 32
#: A seed of R39: one link of a player's SHA-256 hash chain.
SEED_BYTES = 32
#: R39: how far below the last published link a seed may ever lie (1: the next link):
#: each seed a player sent for a commitment that never dealt is burned, never sent again.
SEED_SKIP = 16


def position_hash(position: int, card: int, salt: bytes) -> bytes:
    """R3: h_i = SHA-256(s_i || i || card_i), position and card index one byte each."""
    return hashlib.sha256(salt + bytes((position, card))).digest()


def commitment_of(hashes: Sequence[bytes]) -> str:
    """R3: C = SHA-256(h_0 || ... || h_51), lowercase hex."""
    return hashlib.sha256(b"".join(hashes)).hexdigest()


def legacy_commitment(salt: bytes, deck: Sequence[int]) -> str:
    """The commitment of hands dealt before per-position salts: SHA-256(salt || deck)."""
    return hashlib.sha256(salt + bytes(deck)).hexdigest()


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


def steps_to(seed: bytes, last: bytes, most: int = SEED_SKIP) -> int | None:
    """R39: how many SHA-256 steps lead from `seed` to `last`, the seat's last published
    link (1: the next link of the chain), at most `most`; None when none does."""
    value = seed
    for step in range(1, most + 1):
        value = hashlib.sha256(value).digest()
        if value == last:
            return step
    return None


def chain(secret: bytes, length: int) -> list[bytes]:
    """A hash chain: [x, SHA-256(x), SHA-256^2(x), ..., SHA-256^length(x)]; the last is
    published (R39) and the others revealed from the end, one a hand."""
    links = [secret]
    for _ in range(length):
        links.append(hashlib.sha256(links[-1]).digest())
    return links
