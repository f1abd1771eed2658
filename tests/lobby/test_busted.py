"""R30, rebuy or leave: the lobby takes a busted player off the table when they cannot rebuy
(the table's limits, their balance) or did not within the table's rebuy_wait_seconds; never
during a hand, never with a rebuy on its way, and with every chip accounted for. On both
storage backends, with the in-memory dealer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer

from services.lobby.errors import Unavailable
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"


@pytest.fixture
def lobby(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    room = Lobby(storage, dealer, [D1])
    for name in ("ann", "bob"):
        room.create_player(name, name.title())
        room.deposit(name, 1000, f"fund-{name}")
    yield room
    room.stop()


def heads_up(lobby: Lobby, **rules: object) -> None:
    """t1 with ann at seat 0 and bob at seat 1, 300 chips each; `rules` over the defaults."""
    settings: dict[str, object] = {"seats": 2, "min_buy_in": 100, "max_buy_in": 500,
                                   "max_rebuys": -1, "rebuy_wait_seconds": 30.0}
    settings.update(rules)
    lobby.open_table("T", TableRules(**settings), {}, "o1", table_id="t1")  # type: ignore[arg-type]
    lobby.join("ann", "t1", 0, 300, False, "j1")
    lobby.join("bob", "t1", 1, 300, False, "j2")


def seated(lobby: Lobby, dealer: FakeDealer) -> tuple[list[str], dict[int, int]]:
    """Who the lobby has at t1, and the dealer's stacks."""
    return ([s.player_id for s in lobby.table("t1").seats], dealer.stacks(D1, "t1"))


def accounted(lobby: Lobby) -> None:
    audit = lobby.audit()
    assert audit.ok and audit.total == 0, audit.problems
    assert audit.by_kind.get("player", 0) + audit.by_kind.get("table", 0) == 2000


def left(lobby: Lobby, now: float) -> list[tuple[str, str]]:
    """One pass at `now`: (player, why) of each busted player it sent away, each done."""
    gone = lobby.send_busted_away(now=now)
    assert all(op.state is OpState.DONE and op.result == 0 for op, _ in gone)
    return [(op.player_id, why) for op, why in gone]


def test_R30_a_busted_player_who_may_rebuy_has_the_wait_and_then_leaves(
        lobby: Lobby, dealer: FakeDealer) -> None:
    heads_up(lobby)
    dealer.play(D1, "t1", {0: -300, 1: 300})
    assert left(lobby, 100.0) == []  # noted: 30 s to rebuy
    assert left(lobby, 129.0) == []
    assert seated(lobby, dealer) == (["ann", "bob"], {0: 0, 1: 600})
    assert left(lobby, 130.0) == [("ann", "did not rebuy within 30 s")]
    assert seated(lobby, dealer) == (["bob"], {1: 600})
    assert lobby.player("ann").balance == 700  # the 300 went to bob; nothing else moved
    assert lobby.table("t1").free_seats() == [0]
    assert left(lobby, 200.0) == []  # gone is gone
    accounted(lobby)


def test_R30_a_rebuy_within_the_wait_keeps_the_seat(lobby: Lobby, dealer: FakeDealer) -> None:
    heads_up(lobby)
    dealer.play(D1, "t1", {0: -300, 1: 300})
    left(lobby, 100.0)
    lobby.rebuy("ann", "t1", 200, "r1")
    assert left(lobby, 200.0) == []
    assert seated(lobby, dealer) == (["ann", "bob"], {0: 200, 1: 600})
    dealer.play(D1, "t1", {0: -200, 1: 200})  # busted again: a new wait from now
    assert left(lobby, 300.0) == []
    assert [player for player, _ in left(lobby, 330.0)] == ["ann"]
    accounted(lobby)


@pytest.mark.parametrize("rules, withdraw, why", [
    ({"max_rebuys": 0}, 0, "cannot rebuy: this table allows no rebuys"),
    ({"max_rebuys": 1}, 0, "cannot rebuy: you have used all 1 rebuys"),
    ({"rebuy_until_hand": 1}, 0, "cannot rebuy: rebuys ended after hand 1"),
    ({}, 650, "cannot rebuy: a balance of 50 is short of 100"),
])
def test_R30_a_busted_player_who_cannot_rebuy_leaves_at_once(
        lobby: Lobby, dealer: FakeDealer, rules: dict[str, object], withdraw: int,
        why: str) -> None:
    heads_up(lobby, **rules)
    dealer.play(D1, "t1", {0: -300, 1: 300})
    if rules.get("max_rebuys") == 1:  # the one rebuy, used and lost
        lobby.rebuy("ann", "t1", 100, "r1")
        dealer.play(D1, "t1", {0: -100, 1: 100})
    if withdraw:  # ann's balance drops below the smallest rebuy (min_buy_in 100)
        lobby.withdraw("ann", withdraw, "w1")
    ((player, reason),) = left(lobby, 100.0)
    assert player == "ann" and reason.startswith(why), reason
    assert seated(lobby, dealer)[0] == ["bob"]
    audit = lobby.audit()
    assert audit.ok and audit.total == 0, audit.problems


def test_R30_all_in_is_not_busted_and_a_busted_seat_goes_while_others_play(
        storage: Storage, dealer: FakeDealer) -> None:
    room = Lobby(storage, dealer, [D1])
    for name in ("ann", "bob", "cy"):
        room.create_player(name, name.title())
        room.deposit(name, 1000, f"fund-{name}")
    room.open_table("T", TableRules(seats=3, min_buy_in=100, max_buy_in=500, max_rebuys=0),
                    {}, "o1", table_id="t1")
    for seat, name in enumerate(("ann", "bob", "cy")):
        room.join(name, "t1", seat, 300, False, f"j{seat}")
    dealer.play(D1, "t1", {0: -300, 1: 300})
    dealer.tables[(D1, "t1")].all_in.add(0)
    dealer.hand_running = True  # ann is all in in this hand: no chips behind, not busted
    assert left(room, 100.0) == []
    dealer.tables[(D1, "t1")].all_in.clear()  # she lost it; bob and cy play on at once
    assert [player for player, _ in left(room, 101.0)] == ["ann"]
    assert seated(room, dealer)[0] == ["bob", "cy"]
    audit = room.audit()
    assert audit.ok and audit.total == 0, audit.problems
    room.stop()


def test_R30_a_rebuy_on_its_way_keeps_the_seat(lobby: Lobby, dealer: FakeDealer) -> None:
    heads_up(lobby, rebuy_wait_seconds=1.0)
    dealer.play(D1, "t1", {0: -300, 1: 300})
    dealer.lose_requests.add("add_chips")  # the rebuy is debited; its AddChips is delayed
    with pytest.raises(Unavailable, match="held"):
        lobby.rebuy("ann", "t1", 100, "r1")
    assert dealer.stacks(D1, "t1")[0] == 0 and lobby.player("ann").balance == 600
    assert left(lobby, 100.0) == [] and left(lobby, 200.0) == []
    lobby.recover()  # the rebuy lands
    assert dealer.stacks(D1, "t1")[0] == 100 and left(lobby, 300.0) == []
    accounted(lobby)


def test_R30_no_limit_when_the_wait_is_0(lobby: Lobby, dealer: FakeDealer) -> None:
    heads_up(lobby, rebuy_wait_seconds=0.0)
    dealer.play(D1, "t1", {0: -300, 1: 300})
    assert left(lobby, 0.0) == [] and left(lobby, 10.0 ** 6) == []
    assert seated(lobby, dealer)[0] == ["ann", "bob"]
