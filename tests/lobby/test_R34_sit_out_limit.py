"""R34 in the lobby: a seat the dealer took off for its sit-out limit (PlayerUnseated,
reason sit_out_limit) is followed from the table's events and its stack credited to the
player's balance as for LeaveTable (R31): once, whatever pass or process dies between the
dealer's event and the credit. On both storage backends, with the in-memory dealer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer

from services.lobby import following
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"


class Died(Exception):
    """The lobby 'dies' at a fault step (the process test kills it for real)."""


@pytest.fixture
def lobby(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    room = Lobby(storage, dealer, [D1])
    for name in ("ann", "bob"):
        room.create_player(name, name.title())
        room.deposit(name, 1000, f"fund-{name}")
    room.open_table("T", TableRules(seats=2, min_buy_in=100, max_buy_in=500), {}, "o1",
                    table_id="t1")
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    yield room
    room.stop()


def _balances(lobby: Lobby) -> tuple[int, int]:
    return lobby.player("ann").balance, lobby.player("bob").balance


def _accounted(lobby: Lobby) -> None:
    audit = lobby.audit()
    assert audit.ok and audit.total == 0, audit.problems


def test_R34_a_seat_taken_off_by_the_dealer_is_credited_once(lobby: Lobby,
                                                              dealer: FakeDealer) -> None:
    dealer.play(D1, "t1", {0: 50, 1: -50})
    assert _balances(lobby) == (700, 700)
    dealer.take_off(D1, "t1", 1)
    [op] = lobby.follow_tables()
    assert op.state is OpState.DONE and op.result == 250 and op.player_id == "bob"
    assert _balances(lobby) == (700, 950)
    assert [s.player_id for s in lobby.table("t1").seats] == ["ann"]
    assert lobby.follow_tables() == [] and _balances(lobby) == (700, 950)
    lobby.recover()
    assert _balances(lobby) == (700, 950)
    _accounted(lobby)


def test_R34_the_lobby_leaving_itself_is_not_a_sit_out_limit(lobby: Lobby,
                                                             dealer: FakeDealer) -> None:
    lobby.leave("ann", "t1", "l1")
    assert lobby.follow_tables() == []
    assert _balances(lobby) == (1000, 700)
    _accounted(lobby)


def test_R34_a_lobby_dying_before_the_credit_credits_once_after(
        storage: Storage, dealer: FakeDealer, lobby: Lobby) -> None:
    dealer.take_off(D1, "t1", 0)

    def die(step: str) -> None:
        if step == "r34_before_credit":
            raise Died(step)

    dying = Lobby(storage, dealer, [D1], fault=die)
    with pytest.raises(Died):
        dying.follow_tables()
    assert _balances(lobby) == (700, 700)  # recorded, not credited yet
    again = Lobby(storage, dealer, [D1])  # the restarted lobby
    assert again.follow_tables() == []  # the event was followed: not taken twice
    assert again.recover(force=True) == 0  # the pending departure completes
    assert _balances(again) == (1000, 700)
    assert [s.player_id for s in again.table("t1").seats] == ["bob"]
    again.recover(force=True)
    again.follow_tables()
    assert _balances(again) == (1000, 700)
    _accounted(again)


def test_R34_a_dealer_down_is_followed_when_it_is_back(lobby: Lobby,
                                                       dealer: FakeDealer) -> None:
    dealer.take_off(D1, "t1", 0)
    dealer.down.add(D1)
    assert lobby.follow_tables() == []
    assert _balances(lobby) == (700, 700)
    dealer.down.discard(D1)
    [op] = lobby.follow_tables()
    assert op.state is OpState.DONE and _balances(lobby) == (1000, 700)
    _accounted(lobby)


def test_R34_a_pending_leave_taken_off_meanwhile_is_credited_once(
        lobby: Lobby, dealer: FakeDealer) -> None:
    dealer.hand_running = True  # ann is in a hand: her leave waits
    pending = lobby.leave("ann", "t1", "l1")
    assert not pending.final
    dealer.hand_running = False
    dealer.take_off(D1, "t1", 0)  # the limit came first
    [op] = lobby.follow_tables()
    assert op.id == pending.id and op.state is OpState.DONE
    assert _balances(lobby) == (1000, 700)
    lobby.recover()
    assert _balances(lobby) == (1000, 700)
    _accounted(lobby)


def test_R34_a_pending_leave_retried_after_the_dealer_took_the_seat_off_is_credited_once(
        lobby: Lobby, dealer: FakeDealer) -> None:
    """The retry comes before the follower's pass: the seat is empty at the dealer (R34
    took it off), so the leave finds the departure in the table's events since its first
    attempt and credits it; the follower then has nothing left to do."""
    dealer.hand_running = True  # ann is in a hand: her leave waits
    pending = lobby.leave("ann", "t1", "l1")
    assert not pending.final
    dealer.hand_running = False
    dealer.take_off(D1, "t1", 0)  # the limit came first
    retried = lobby.leave("ann", "t1", "l1")  # the SDK's retry, before any follower pass
    assert retried.id == pending.id and retried.state is OpState.DONE
    assert retried.result == 300 and _balances(lobby) == (1000, 700)
    assert lobby.follow_tables() == [] or all(
        op.state is OpState.DONE for op in lobby.follow_tables())
    lobby.recover()
    assert _balances(lobby) == (1000, 700)
    _accounted(lobby)


def test_R34_the_follower_reads_after_the_sequence_it_remembers(
        lobby: Lobby, dealer: FakeDealer, storage: Storage) -> None:
    seen: list[int] = []

    class Recording(following.PolledEvents):
        def after(self, table, sequence):  # type: ignore[no-untyped-def]
            seen.append(sequence)
            return super().after(table, sequence)

    lobby.events = Recording(dealer)
    lobby.follow_tables()
    last = len(dealer.tables[(D1, "t1")].events)
    lobby.follow_tables()
    assert seen == [0, last]
    assert storage.transact(lambda tx: following.followed(tx, "t1")) == last


def test_R34_a_database_from_before_the_follower_gets_its_table(storage: Storage,
                                                                 dealer: FakeDealer) -> None:
    Lobby(storage, dealer, [D1]).stop()
    storage.ddl(["DROP TABLE followed"])  # the lobby's database as a version before R34 left it
    room = Lobby(storage, dealer, [D1])  # start-up creates what is missing
    try:
        assert storage.transact(lambda tx: following.followed(tx, "t-none")) == 0
        assert room.follow_tables() == []
    finally:
        room.stop()


def test_R34_a_leave_asked_after_the_dealer_took_the_seat_off_is_credited_once(
        lobby: Lobby, dealer: FakeDealer) -> None:
    """The dealer took the seat off (R34) before the player's LeaveTable, and the lobby had
    not followed it yet: the leave reads the table's events from what the lobby followed,
    finds the departure and credits it, instead of answering that the seat is empty (a
    README bot's play(leave=True) got NOT_FOUND so in a clean-clone CI run)."""
    lobby.follow_tables()  # the lobby has followed the table up to here
    dealer.play(D1, "t1", {0: 50, 1: -50})
    dealer.take_off(D1, "t1", 0)  # the limit came first, unheard
    left = lobby.leave("ann", "t1", "l1")
    assert left.state is OpState.DONE and left.result == 350
    assert _balances(lobby) == (1050, 700)
    assert all(op.state is OpState.DONE for op in lobby.follow_tables())
    lobby.recover()
    assert _balances(lobby) == (1050, 700)
    _accounted(lobby)
