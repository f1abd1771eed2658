"""Closed tables in a dealer's memory are bounded: the `closed_in_memory` used last stay
folded, an older one is dropped and folded again from the store when it is used. A
closed table never changes, so what it answers is the same either way. Their seat
tokens likewise: a bounded cache, the store asked for the others."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from poker.v1 import dealer_pb2 as pb
from services.dealer import views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.errors import FailedPrecondition, TableMoved, TableNotFound, Unauthenticated
from services.dealer.store import Store


def test_a_dealer_keeps_only_the_closed_tables_used_last_and_folds_the_others_again(
        tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.closed_in_memory = 2
        config, options = views.config_from_proto(pb.TableConfig(seats=2))
        closed, last = {}, {}
        for t in range(4):
            table_id = f"t{t}"
            dealer.create_table(table_id, config, options)
            dealer.seat_player(table_id, 0, f"p{t}", 500 + t, False)
            closed[table_id] = dealer.close_table(table_id, void_hand=True)
            last[table_id] = dealer.tables[table_id].last_sequence
        dealer.create_table("open", config, options)
        assert sorted(dealer.tables) == ["open", "t2", "t3"]  # t0 and t1 were dropped
        again = dealer.table("t0")  # folded from the store, closed as it was
        assert again.closed and again.last_sequence == last["t0"] and not again.seats
        assert sorted(dealer.tables) == ["open", "t0", "t3"]  # t2 was used least lately
        dealer.table("t3")  # used: the last to go now
        dealer.table("t1")
        assert sorted(dealer.tables) == ["open", "t1", "t3"]
        with pytest.raises(FailedPrecondition, match="closed"):
            dealer.close_table("t1", void_hand=True)
        assert closed["t1"] == [(0, "p1", 501)]
        dealer.shutdown()
        store.close()

    asyncio.run(run())


def test_an_id_the_store_lacks_is_not_found_after_one_read_and_no_owner_lookup(
        tmp_path: Path) -> None:
    """A shared store holds every table of the room: an id it lacks is no table anywhere,
    so the owner is not looked up (on PostgreSQL that was a second round trip on the loop
    for every made-up id). A table the store holds and this dealer does not is looked up."""
    async def run() -> None:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        looked_up: list[str] = []

        def locate(table_id: str) -> str | None:
            looked_up.append(table_id)
            return "10.0.0.2:50052"

        dealer.locate = locate
        with pytest.raises(TableNotFound):
            dealer.table("made-up")
        assert looked_up == []
        config, options = views.config_from_proto(pb.TableConfig(seats=2))
        dealer.create_table("elsewhere", config, options)
        dealer.tables.pop("elsewhere").shutdown()  # as if another dealer owned it
        with pytest.raises(TableMoved) as moved:
            dealer.table("elsewhere")
        assert looked_up == ["elsewhere"] and "10.0.0.2:50052" in str(moved.value)
        dealer.shutdown()
        store.close()

    asyncio.run(run())


def test_a_closed_tables_seat_tokens_cost_no_memory_at_start_and_are_found_by_hash(
        tmp_path: Path) -> None:
    """A restarted dealer loads no closed table's seats: each token is found in the
    store when it comes (one indexed read), then kept among the closed seats used last
    (a bounded cache). It reads only (FAILED_PRECONDITION to act); a string that is no
    seat token costs no read; an open table's token is not read-only."""
    async def first() -> dict[str, tuple[str, int]]:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        config, options = views.config_from_proto(pb.TableConfig(seats=2))
        tokens = {}
        for t in range(3):
            dealer.create_table(f"t{t}", config, options)
            for seat in range(2):
                given, token = dealer.seat_player(f"t{t}", seat, f"p{t}{seat}", 500, False)
                tokens[token] = (f"t{t}", given)
            if t < 2:
                dealer.close_table(f"t{t}", void_hand=True)
        assert dealer.auth.caller(next(iter(tokens))).read_only  # in memory while up
        dealer.shutdown()
        store.close()
        return tokens

    tokens = asyncio.run(first())

    async def again() -> None:
        store = Store(tmp_path / "d.sqlite")
        auth = Authenticator("svc", "aud")
        dealer = Dealer(store, auth, None, "resume")
        dealer.restore()
        reads: list[str] = []
        lookup = auth.closed_seat
        assert lookup is not None

        def counted(hashed: str) -> tuple[str, int] | None:
            reads.append(hashed)
            return lookup(hashed)

        auth.closed_seat = counted
        auth.closed_in_memory = 2
        assert len(auth._seats) == 2 and not auth._closed  # the open table's two seats only
        closed = [(token, where) for token, where in tokens.items() if where[0] != "t2"]
        for token, (table_id, seat) in closed:
            caller = auth.caller(token)
            assert (caller.role, caller.table_id, caller.seat, caller.read_only) == (
                "seat", table_id, seat, True)
            with pytest.raises(FailedPrecondition, match="closed"):
                auth.require_seat(token, table_id, seat)
            assert auth.require_seat(token, table_id, seat, reading=True) == caller
        assert len(reads) == 4 and len(auth._closed) == 2  # bounded: the last two kept
        auth.caller(closed[-1][0])
        assert len(reads) == 4  # the one used last: from memory
        auth.caller(closed[0][0])
        assert len(reads) == 5  # dropped from memory, asked of the store again
        for bogus in ("x" * 43, "not a seat token", closed[0][0] + "="):
            with pytest.raises(Unauthenticated):
                auth.caller(bogus)
        assert len(reads) == 6  # only the well-formed one was looked up
        for token, (table_id, seat) in tokens.items():
            if table_id == "t2":
                assert not auth.caller(token).read_only
                assert auth.require_seat(token, table_id, seat).seat == seat
        dealer.shutdown()
        store.close()

    asyncio.run(again())
