"""R39 on the client: clients/seeds.py's SeedChain sends each seed for one commitment
only. A retry of the same commitment gets the same seed; a commitment that never dealt
the seed (a restarted dealer committing anew, a seed that came too late) burns it, so
the dealer, which saw it before its next commitment, cannot choose that deck knowing it.
The dealer's side (the skip it accepts) is tests/dealer/test_seeded_decks.py."""

from __future__ import annotations

import hashlib

import grpc

from clients.errors import ServiceError
from clients.events import DeckCommitted, DeckSeeded, PlayerUnseated, SeatSeed, SeedsCommitted
from clients.models import SeatStack
from clients.seeds import SeedChain, seed_refused
from poker import deckproof

_sequence = iter(range(1, 10_000))


def _committed(chain: SeedChain, hand: int, commitment: str, seats: tuple[int, ...] = (0, 1)
               ) -> None:
    chain.feed(DeckCommitted(sequence=next(_sequence), hand_id=f"t-{hand}", hand_number=hand,
                             commitment=commitment, seats=seats))


def _seeded(chain: SeedChain, hand: int, seed: bytes) -> None:
    chain.feed(DeckSeeded(sequence=next(_sequence), hand_id=f"t-{hand}",
                          seeds=(SeatSeed(seat=0, seed=seed), SeatSeed(seat=1, seed=b""))))


def _chain() -> SeedChain:
    chain = SeedChain(length=40)
    chain.feed(SeedsCommitted(sequence=next(_sequence), seat=0, chain_head=chain.head))
    return chain


def _steps(seed: bytes, last: bytes) -> int | None:
    return deckproof.steps_to(seed, last, 40)


def test_R39_a_retry_of_one_commitment_sends_the_same_seed() -> None:
    chain = _chain()
    _committed(chain, 1, "c1")
    due = chain.due(0)
    assert due is not None and due[0] == "t-1" and _steps(due[1], chain.head) == 1
    assert chain.due(0) == due  # the stream dropped before the answer: sent again, alike
    _seeded(chain, 1, due[1])
    assert chain.due(0) is None  # nothing awaited until the next commitment
    _committed(chain, 2, "c2")
    later = chain.due(0)
    assert later is not None and _steps(later[1], due[1]) == 1  # the next link


def test_R39_a_commitment_made_again_after_a_restart_gets_the_link_below_the_one_sent() -> None:
    chain = _chain()
    _committed(chain, 1, "c1")
    sent = chain.due(0)
    assert sent is not None
    _committed(chain, 1, "c1-again")  # the dealer restarted and committed a fresh deck
    again = chain.due(0)
    assert again is not None and again[0] == "t-1"
    assert hashlib.sha256(again[1]).digest() == sent[1]  # sent[1] is burned, never resent
    assert _steps(again[1], chain.head) == 2
    _seeded(chain, 1, again[1])  # published two links down: the chain follows it
    _committed(chain, 2, "c2")
    nxt = chain.due(0)
    assert nxt is not None and _steps(nxt[1], again[1]) == 1


def test_R39_a_seed_that_came_too_late_is_burned_too() -> None:
    chain = _chain()
    _committed(chain, 1, "c1")
    late = chain.due(0)
    assert late is not None
    _seeded(chain, 1, b"")  # dealt with an empty seed: the dealer may have seen `late`
    _committed(chain, 2, "c2")
    nxt = chain.due(0)
    assert nxt is not None and _steps(nxt[1], late[1]) == 1 and _steps(nxt[1], chain.head) == 2


def test_R39_a_chain_burned_past_what_the_dealer_accepts_sends_nothing() -> None:
    chain = _chain()
    for attempt in range(deckproof.SEED_SKIP):  # a dealer that keeps restarting
        _committed(chain, 1, f"c{attempt}")
        assert chain.due(0) is not None
    _committed(chain, 1, "one too many")
    assert chain.due(0) is None  # an empty seed rather than one the dealer must refuse


def test_R39_a_seat_given_up_sends_no_seed() -> None:
    chain = _chain()
    chain.feed(PlayerUnseated(sequence=next(_sequence), stack=SeatStack(seat=0, stack=0)))
    _committed(chain, 1, "c1")
    assert chain.due(0) is None


def test_R39_only_a_refusal_that_costs_the_seed_lets_play_go_on() -> None:
    """send_seed leaves the hand's seed empty for a seed sent too late and for a link the
    dealer does not take (SEED_NOT_ON_CHAIN, or an older dealer's same refusal, without
    the reason); a malformed request or any other refusal is raised, not swallowed."""
    bad = grpc.StatusCode.INVALID_ARGUMENT
    old_words = ("seed: SHA-256(seed) is not seat 0's last chain value 00aa...: reveal the "
                 "next preimage of the chain (R39)")
    assert seed_refused(ServiceError("too late", grpc.StatusCode.FAILED_PRECONDITION))
    assert seed_refused(ServiceError("off the chain", bad, reason="SEED_NOT_ON_CHAIN"))
    assert seed_refused(ServiceError(old_words, bad))  # reason: the category's
    assert not seed_refused(ServiceError("seed: 31 bytes; a seed is the 32-byte ...", bad))
    assert not seed_refused(ServiceError("hand_id: too long", bad))
    assert not seed_refused(ServiceError(old_words, bad, reason="MALFORMED_REQUEST"))
    assert not seed_refused(ServiceError("no such table", grpc.StatusCode.NOT_FOUND))
    assert not seed_refused(ServiceError("later", grpc.StatusCode.UNAVAILABLE))
