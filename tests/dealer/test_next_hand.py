"""With no pause between hands the next hand starts as the last one ends, in the same
call (and so in the same write when the decision came in a PlayMany group); a hand that
ends as it starts does not recurse."""

from __future__ import annotations

import asyncio
from pathlib import Path

from poker.v1 import dealer_pb2 as pb
from services.dealer import views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.store import Store
from services.dealer.tables import Table


def _table(tmp_path: Path, pause_ms: int, stacks: tuple[int, int]) -> tuple[Store, Table]:
    store = Store(tmp_path / "d.sqlite")
    dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
    config, options = views.config_from_proto(pb.TableConfig(
        seats=2, pause_between_hands_ms=pause_ms, action_time_ms=60_000,
        preset=pb.PRESET_STANDARD))
    table = dealer.create_table("t", config, options)
    for seat, stack in enumerate(stacks):
        dealer.seat_player(table.table_id, seat, f"p{seat}", stack, False)
    return store, table


def _fold(table: Table) -> None:
    turn, hand = table.turn, table.hand
    assert turn is not None and hand is not None
    table.act(turn.seat, hand.hand_id, turn.action_number, "fold", 0)


def test_no_pause_starts_the_next_hand_within_the_deciding_call(tmp_path: Path) -> None:
    async def play() -> None:
        store, table = _table(tmp_path, 0, (10_000, 10_000))
        await asyncio.sleep(0.01)
        assert table.hand is not None and table.hand.hand_id == "t-1"
        with store.group():
            _fold(table)
            # Hand 2 is dealt before the fold's group commits: one commit for both.
            assert table.hand is not None and table.hand.hand_id == "t-2"
        assert table.turn is not None
        store.close()

    asyncio.run(play())


def test_a_pause_waits_before_the_next_hand(tmp_path: Path) -> None:
    async def play() -> None:
        store, table = _table(tmp_path, 20, (10_000, 10_000))
        await asyncio.sleep(0.05)
        _fold(table)
        assert table.hand is None and table.hands_played == 1
        await asyncio.sleep(0.1)
        assert table.hand is not None and table.hand.hand_id == "t-2"
        store.close()

    asyncio.run(play())


def test_a_hand_ended_while_the_next_is_starting_schedules_the_one_after(
        tmp_path: Path) -> None:
    """The recursion guard: a hand that ends as it starts (every player all in on the
    blinds) ends inside the start that came from the hand before; the one after it waits
    for a turn of the event loop instead of starting inside that start."""
    async def play() -> None:
        store, table = _table(tmp_path, 0, (10_000, 10_000))
        await asyncio.sleep(0.01)
        table._starting_next = True  # as inside _hand_over's start of the next hand
        _fold(table)
        assert table.hand is None and table._start_timer is not None
        table._starting_next = False
        await asyncio.sleep(0.01)
        assert table.hand is not None and table.hand.hand_id == "t-2"
        store.close()

    asyncio.run(play())


def test_hands_that_end_as_they_start_run_to_the_end(tmp_path: Path) -> None:
    """Both players all in on the blinds, hand after hand, until one has every chip."""
    async def play() -> None:
        store, table = _table(tmp_path, 0, (50, 50))
        for _ in range(200):
            if table.hands_played and table.hand is None \
                    and min(s.stack for s in table.seats.values()) == 0:
                break
            await asyncio.sleep(0)
        assert table.hands_played >= 1 and table.hand is None
        assert sorted(s.stack for s in table.seats.values()) == [0, 100]
        store.close()

    asyncio.run(play())
