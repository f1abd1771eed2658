"""A player's hash chain of deck seeds (R39), kept by the SDK and sent by itself.

The chain is x, SHA-256(x), ..., SHA-256^k(x) for a secret 32-byte x from `secrets`; the
last link is committed (CommitSeeds) and each hand's seed is the preimage of the last
value the dealer published for the seat (the head, then the seat's seed in the last
DeckSeeded). A seed is sent for one commitment only: sent again for the same one (a
retry), never for another. When a commitment never deals (the dealer restarted while
it awaited the seeds, or the seed came too late), the dealer saw that seed before its
next commitment, so the seed is burned and the next commitment gets the link below it
(the dealer accepts up to `deckproof.SEED_SKIP` links down).

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
>>> chain.feed(DeckCommitted(sequence=4, hand_id="t-2", hand_number=2, commitment="d",
...                          seats=(0, 1)))
>>> sent = chain.due(0)[1]
>>> chain.feed(DeckCommitted(sequence=5, hand_id="t-2", hand_number=2, commitment="e",
...                          seats=(0, 1)))  # a restarted dealer committed anew
>>> hashlib.sha256(chain.due(0)[1]).digest() == sent  # the link below: `sent` is burned
True
"""

from __future__ import annotations

import secrets

import grpc

from clients.errors import ServiceError
from clients.events import DeckCommitted, DeckSeeded, Event, PlayerUnseated, SeedsCommitted
from poker.deckproof import SEED_BYTES, SEED_SKIP, chain

__all__ = ["SeedChain", "seed_refused"]

#: How a dealer from before SEED_NOT_ON_CHAIN words that refusal (its reason then the
#: category's, INVALID_ARGUMENT): a link it does not take, as one that takes no skip.
_OLD_NOT_ON_CHAIN = "seed: SHA-256(seed) is not seat "


def seed_refused(err: ServiceError) -> bool:
    """Whether a refused RevealSeed leaves this hand's seed empty and play going on: too
    late or not awaited (FAILED_PRECONDITION), or a link the dealer does not take
    (SEED_NOT_ON_CHAIN; the same refusal from an older dealer, known by its words). Any
    other refusal (a malformed request: a bug) is raised to the caller."""
    if err.code == grpc.StatusCode.FAILED_PRECONDITION:
        return True
    if err.code != grpc.StatusCode.INVALID_ARGUMENT:
        return False
    return err.reason == "SEED_NOT_ON_CHAIN" or (
        err.reason == "INVALID_ARGUMENT" and err.message.startswith(_OLD_NOT_ON_CHAIN))

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
        # seat -> (hand id, commitment) awaiting its seed
        self._awaited: dict[int, tuple[str, str]] = {}
        # The link sent last and not published: (hand id, commitment, its index).
        self._sent: tuple[str, str, int] | None = None

    def feed(self, event: Event) -> None:
        if isinstance(event, SeedsCommitted):
            if event.chain_head == self.head:
                self.seat, self.last, self._at = event.seat, self.head, len(self._links) - 1
        elif isinstance(event, DeckCommitted):
            for seat in event.seats:
                self._awaited[seat] = (event.hand_id, event.commitment)
        elif isinstance(event, DeckSeeded):
            for s in event.seeds:
                self._awaited.pop(s.seat, None)
                if s.seat == self.seat and s.seed:
                    self.last = s.seed
                    below = range(self._at - 1, max(self._at - 1 - SEED_SKIP, -1), -1)
                    at = next((i for i in below if self._links[i] == s.seed), None)
                    if at is not None:
                        self._at = at
                        if self._sent is not None and self._sent[2] >= at:
                            self._sent = None  # published: the next seed is below it
        elif isinstance(event, PlayerUnseated) and event.stack.seat == self.seat:
            self.seat = self.last = None

    def due(self, seat: int) -> tuple[str, bytes] | None:
        """(hand id, seed) when a hand awaits this seat's seed and the chain is committed:
        the link sent for this commitment already (a retry), else the next link below
        both the last published and any sent for a commitment that never dealt."""
        awaited = self._awaited.get(seat)
        if awaited is None or seat != self.seat or self.last is None:
            return None
        if self._links[self._at] != self.last:
            return None  # the dealer published a link we did not send
        sent = self._sent
        if sent is not None and sent[:2] == awaited:
            return awaited[0], self._links[sent[2]]
        index = (self._at if sent is None else sent[2]) - 1
        if index < 0 or self._at - index > SEED_SKIP:
            return None  # spent, or burned past what the dealer accepts: an empty seed
        self._sent = (*awaited, index)
        return awaited[0], self._links[index]

