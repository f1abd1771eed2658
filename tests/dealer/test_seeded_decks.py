"""R39, player-seeded decks, on an in-process dealer: the commitment comes before the
seeds, a seed must be the next link of its player's chain, the seeds decide where the
committed cards go, and every viewer's check still passes."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
from pathlib import Path
from typing import Any

import pytest

from clients.convert import event_from_proto
from clients.fairdeck import FairDeckChecker
from poker import deckproof
from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from services.dealer import views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.engine import AUDITOR, SPECTATOR, DeckSet, HandStarted
from services.dealer.errors import AlreadyExists, FailedPrecondition, InvalidArgument
from services.dealer.store import Store
from services.dealer.table.state import TableState
from services.dealer.tables import Table
from tests.dealer.helpers import stored_events
from tests.dealer.test_fair_deck import _act, _assert_nothing_unopened, _stream, _truths

SEATS = 3


def _table(tmp_path: Path, **config: Any) -> tuple[Store, Table]:
    store = Store(tmp_path / "d.sqlite")
    dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
    engine, options = views.config_from_proto(pb.TableConfig(
        seats=SEATS, pause_between_hands_ms=0, action_time_ms=600_000, show_time_ms=600_000,
        player_seeded_decks=True, **config))
    table = dealer.create_table("t", engine, options)
    for seat in range(SEATS):
        dealer.seat_player("t", seat, f"p{seat}", 2000, False)
    return store, table


def _chains(table: Table) -> dict[int, list[bytes]]:
    chains = {seat: deckproof.chain(os.urandom(32), 200) for seat in range(SEATS)}
    for seat, links in chains.items():
        table.commit_seeds(seat, links[-1])
    return chains


def _next_seed(table: Table, links: list[bytes], seat: int) -> bytes:
    return links[links.index(table.chains[seat][0]) - 1]


async def _until(check: Any) -> None:
    for _ in range(2000):
        if check():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("timed out")


def test_R39_the_commitment_comes_first_and_the_seeds_place_the_cards(tmp_path: Path) -> None:
    async def run() -> None:
        store, table = _table(tmp_path, seed_time_ms=60_000)
        chains = _chains(table)
        await _until(lambda: table._seeding is not None)
        assert table.hand is None  # nothing dealt before the seeds
        seeding = table._seeding
        assert seeding is not None
        events = [s.event for s in stored_events(table, 0, 1000)]
        committed = next(e for e in events if isinstance(e, ev.DeckCommitted))
        assert committed.commitment == seeding.shuffled.commitment
        assert not any(isinstance(e, HandStarted | DeckSet | ev.DeckSeeded) for e in events)

        seeds = {}
        for seat in range(SEATS):
            seeds[seat] = _next_seed(table, chains[seat], seat)
            # The chain head itself, a random value, or the link after the next: refused.
            for wrong in (chains[seat][-1], os.urandom(32), chains[seat][-3]):
                with pytest.raises(InvalidArgument, match="not seat .* last chain value") as off:
                    table.reveal_seed(seat, seeding.hand_id, wrong)
                assert off.value.reason == "SEED_NOT_ON_CHAIN"  # the SDK plays on after it
            with pytest.raises(InvalidArgument, match="32-byte") as short:
                table.reveal_seed(seat, seeding.hand_id, seeds[seat][:31])
            assert short.value.reason == "INVALID_ARGUMENT"  # a malformed request: a bug
            with pytest.raises(FailedPrecondition, match="not awaiting seeds"):
                table.reveal_seed(seat, "t-9", seeds[seat])
            assert table.hand is None
            table.reveal_seed(seat, seeding.hand_id, seeds[seat])
        assert table.hand is not None  # dealt as soon as the last seed came in
        events = [s.event for s in stored_events(table, 0, 1000)]
        seeded = next(e for e in events if isinstance(e, ev.DeckSeeded))
        assert seeded.seeds == tuple((seat, seeds[seat]) for seat in range(SEATS))
        p = deckproof.permutation([seeds[seat] for seat in range(SEATS)])
        assert list(seeded.permutation) == p != list(range(52))
        dealt = next(e for e in events if isinstance(e, DeckSet)).deck
        assert dealt == tuple(seeding.shuffled.cards[p[j]] for j in range(52))
        started = next(e for e in events if isinstance(e, HandStarted))
        assert started.commitment == committed.commitment
        # The next hand's seed is the next link: the one just used is spent.
        for seat in range(SEATS):
            assert table.chains[seat][0] == seeds[seat]
        with pytest.raises(AlreadyExists, match="once per seating"):
            table.commit_seeds(0, os.urandom(32))
        store.close()

    asyncio.run(run())


def test_R39_any_one_seed_changes_the_permutation() -> None:
    base = [hashlib.sha256(bytes([k])).digest() for k in range(6)]
    p = deckproof.permutation(base)
    for k in range(6):
        for other in (b"", bytes(32), hashlib.sha256(base[k]).digest()):
            changed = [*base[:k], other, *base[k + 1:]]
            assert deckproof.permutation(changed) != p, k
    # Seat order matters, and an empty seed is not the same as none.
    assert deckproof.permutation(base[::-1]) != p
    assert deckproof.permutation([b"", b""]) != deckproof.permutation([b""])
    assert sorted(p) == list(range(52))


def test_R39_a_seed_that_does_not_come_in_time_counts_empty(tmp_path: Path) -> None:
    async def run() -> None:
        store, table = _table(tmp_path, seed_time_ms=30)
        chains = _chains(table)
        await _until(lambda: table._seeding is not None)
        seeding = table._seeding
        assert seeding is not None
        table.reveal_seed(0, seeding.hand_id, _next_seed(table, chains[0], 0))
        assert table.hand is None  # seats 1 and 2 have not sent theirs
        await _until(lambda: table.hand is not None)
        seeded = next(s.event for s in stored_events(table, 0, 1000)
                      if isinstance(s.event, ev.DeckSeeded))
        assert [seed for _, seed in seeded.seeds][1:] == [b"", b""]
        assert seeded.seeds[0][1] == chains[0][-2]
        assert table.chains[1][0] == chains[1][-1]  # seat 1's chain did not move
        with pytest.raises(FailedPrecondition, match="not awaiting seeds"):
            table.reveal_seed(1, seeding.hand_id, chains[1][-2])  # too late
        # The dealer saw that late seed: seat 1 burns it, so its next seed may lie one
        # link further down; the count is kept in the table's snapshot (a restart).
        assert table.state.chain_gaps == {1: 1, 2: 1}
        again = TableState.from_snapshot("t", table.config, None, table.state.snapshot())
        assert again.chain_gaps == {1: 1, 2: 1}
        store.close()

    asyncio.run(run())


def test_R39_a_chain_committed_after_the_deck_does_not_seed_that_hand(tmp_path: Path) -> None:
    async def run() -> None:
        store, table = _table(tmp_path, seed_time_ms=60_000)
        await _until(lambda: table._seeding is not None)
        seeding = table._seeding
        assert seeding is not None
        links = deckproof.chain(os.urandom(32), 5)
        table.commit_seeds(0, links[-1])  # chosen after C was out
        with pytest.raises(FailedPrecondition, match="before hand .* commitment"):
            table.reveal_seed(0, seeding.hand_id, links[-2])
        store.close()

    asyncio.run(run())


def test_R39_a_played_game_every_viewer_checks_every_hand(tmp_path: Path) -> None:
    hands = 60

    async def run() -> tuple[Store, Table]:
        store, table = _table(tmp_path, seed_time_ms=60_000)
        chains = _chains(table)
        rng = random.Random(4)
        keys = iter(range(10**6))
        while table.hands_played <= hands:
            seeding = table._seeding
            if seeding is not None:
                for seat in seeding.plan.seats:
                    if seat not in seeding.seeds and table._seeding is seeding:
                        table.reveal_seed(seat, seeding.hand_id,
                                          _next_seed(table, chains[seat], seat))
                continue
            if table.turn is None:
                for seat, state in table.seats.items():
                    if state.stack == 0 and not table.in_hand(seat):
                        table.add_chips(seat, 2000, f"k{next(keys)}")
                await asyncio.sleep(0.001)
                continue
            _act(table, rng)
        return store, table

    store, table = asyncio.run(run())
    viewers = [views.Viewer(AUDITOR), views.Viewer(SPECTATOR),
               *(views.Viewer(s, table.seated_at[s]) for s in range(SEATS))]
    streams = {v.who: _stream(table, v) for v in viewers}
    truths = _truths(streams[AUDITOR])
    finished = {h for h, t in truths.items() if t.deck}
    assert len(finished) >= hands
    seeded = [e for e in streams[SPECTATOR] if e.HasField("deck_seeded")]
    assert len(seeded) >= hands and all(len(e.deck_seeded.seeds) >= 2 for e in seeded)
    for viewer in viewers:
        checker = FairDeckChecker("flag")
        for e in streams[viewer.who]:
            checker.feed(event_from_proto(e))
        assert not checker.violations, (viewer.who, checker.violations[:2])
        assert checker.verified == len(finished), viewer.who
    # With R39 the positions a viewer was opened are committed positions p[j]: the
    # spectator's unopened hashes hide folded and mucked cards as before.
    for e in streams[SPECTATOR]:
        if e.HasField("deck_revealed") and e.hand_id in finished:
            t = truths[e.hand_id]
            seeded_p = next(s.deck_seeded.permutation for s in seeded if s.hand_id == e.hand_id)
            assert {i for i, h in enumerate(e.deck_revealed.hashes) if not h} == \
                {seeded_p[j] for j in t.public}
    # And no viewer got a card or salt it was not opened (the truth in deal order).
    for e in seeded:
        if e.hand_id in finished:
            t, p = truths[e.hand_id], e.deck_seeded.permutation
            t.deck, t.salts = [t.deck[p[j]] for j in range(52)], [t.salts[p[j]] for j in range(52)]
    for viewer in viewers:
        for e in streams[viewer.who]:
            if e.hand_id in finished:
                _assert_nothing_unopened(f"event {e.sequence}", e, truths[e.hand_id], viewer.who)
    store.close()


def test_R39_a_dealer_restarted_while_awaiting_seeds_commits_afresh_and_takes_the_link_below(
        tmp_path: Path) -> None:
    """The dealer saw seat 0's seed before it restarted: committing anew and taking that
    seed again would let it choose its new deck knowing the seed. Seat 0 burns it and
    reveals the link below (clients/seeds.py does so by itself); the dealer accepts one
    link skipped for each commitment that never dealt the seat's seed, and no more."""
    async def first() -> tuple[dict[int, list[bytes]], str, bytes]:
        store, table = _table(tmp_path, seed_time_ms=60_000)
        chains = _chains(table)
        await _until(lambda: table._seeding is not None)
        seeding = table._seeding
        assert seeding is not None
        seed = _next_seed(table, chains[0], 0)
        table.reveal_seed(0, seeding.hand_id, seed)  # in memory only: lost in the restart
        table.shutdown()
        store.close()
        return chains, seeding.shuffled.commitment, seed

    chains, old_commitment, seed = asyncio.run(first())

    async def second() -> None:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.restore()
        table = dealer.tables["t"]
        await _until(lambda: table._seeding is not None)
        seeding = table._seeding
        assert seeding is not None and seeding.hand_id == "t-1"
        assert seeding.shuffled.commitment != old_commitment  # a fresh deck, committed anew
        assert table.chains[0][0] == chains[0][-1]  # nothing was published: the head
        # Two commitments since the head, one never dealt: one link may be skipped, no more.
        assert table.state.chain_gaps == {0: 2, 1: 2, 2: 2}
        with pytest.raises(InvalidArgument, match="1 sent for a commitment that never dealt"):
            table.reveal_seed(0, "t-1", chains[0][-4])
        burned_below = chains[0][-3]  # seat 0 skips the seed the old dealer saw
        assert hashlib.sha256(burned_below).digest() == seed
        for seat in range(SEATS):
            table.reveal_seed(seat, "t-1", burned_below if seat == 0 else chains[seat][-2])
        assert table.hand is not None and table.hand.hand_id == "t-1"
        seeded = next(s.event for s in stored_events(table, 0, 1000)
                      if isinstance(s.event, ev.DeckSeeded))
        assert dict(seeded.seeds)[0] == burned_below
        assert table.chains[0][0] == burned_below  # the next seed is the link below it
        assert table.state.chain_gaps == {}  # every seed published: no skip allowed now
        committed = [s.event for s in stored_events(table, 0, 1000)
                     if isinstance(s.event, ev.DeckCommitted)]
        assert [c.commitment for c in committed] == [old_commitment,
                                                     seeding.shuffled.commitment]
        store.close()

    asyncio.run(second())
