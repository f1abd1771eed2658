"""A player's hash chain of deck seeds (R39), kept by the SDK and sent by itself.

The chain is x, SHA-256(x), ..., SHA-256^k(x) for a secret 32-byte x from `secrets`; the
last link is committed (CommitSeeds) and each hand's seed is the preimage of the last
value the dealer published for the seat (the head, then the seat's seed in the last
DeckSeeded), so a seed lost in a dealer restart is simply sent again.

>>> import hashlib
>>> from clients.events import SeatSeed
>>> chain = SeedChain(length=3)
>>> chain.feed(SeedsCommitted(sequence=1, seat=0, chain_head=chain.head))
>>> chain.feed(DeckCommitted(sequence=2, hand_id="t-1", hand_number=1, commitment="c",
...                          seats=(0, 1)))
>>> hand_id, seed = chain.due(0)
>>> hand_id, hashlib.sha256(seed).digest() == chain.head
('t-1', True)
>>> chain.feed(DeckSeeded(sequence=3, hand_id="t-1", seeds=(SeatSeed(seat=0, seed=seed),)))
>>> chain.due(0) is None  # nothing awaited until the next DeckCommitted
True
"""

from __future__ import annotations

import secrets

from clients.events import DeckCommitted, DeckSeeded, Event, PlayerUnseated, SeedsCommitted
from poker.deckproof import SEED_BYTES, chain

__all__ = ["SeedChain"]

#: Hands one chain seeds (about 0.7 MB kept per seat); once spent, the seat's seeds
#: are empty (the dealer counts an empty seed) until it sits down again with a new one.
CHAIN_LENGTH = 10_000


class SeedChain:
    """One seat's chain and what the table published of it."""

    reads = frozenset({SeedsCommitted, DeckCommitted, DeckSeeded, PlayerUnseated})

    def __init__(self, length: int = CHAIN_LENGTH) -> None:
        links = chain(secrets.token_bytes(SEED_BYTES), length)
        self._links = links
        self._at = length  # the index of the last published link
        self.head = links[-1]
        self.seat: int | None = None  # the seat that committed this chain
        self.last: bytes | None = None  # the last value the dealer published for it
        self._awaited: dict[int, str] = {}  # seat -> hand id awaiting its seed

    def feed(self, event: Event) -> None:
        if isinstance(event, SeedsCommitted):
            if event.chain_head == self.head:
                self.seat, self.last, self._at = event.seat, self.head, len(self._links) - 1
        elif isinstance(event, DeckCommitted):
            for seat in event.seats:
                self._awaited[seat] = event.hand_id
        elif isinstance(event, DeckSeeded):
            for s in event.seeds:
                self._awaited.pop(s.seat, None)
                if s.seat == self.seat and s.seed:
                    self.last = s.seed
                    if self._at and self._links[self._at - 1] == s.seed:
                        self._at -= 1
        elif isinstance(event, PlayerUnseated) and event.stack.seat == self.seat:
            self.seat = self.last = None

    def due(self, seat: int) -> tuple[str, bytes] | None:
        """(hand id, seed) when a hand awaits this seat's seed and the chain is committed."""
        hand_id = self._awaited.get(seat)
        if hand_id is None or seat != self.seat or self.last is None:
            return None
        if self._at == 0 or self._links[self._at] != self.last:
            return None  # spent, or the dealer published a link we did not send
        return hand_id, self._links[self._at - 1]

