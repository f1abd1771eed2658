"""Work spanning the lobby and a dealer is completed or undone, never left half done: a dealer
that is down, an answer lost on the way back, a lobby that dies between two steps.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer

from services.lobby.errors import SeatUnavailable, Unavailable
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"
RULES = TableRules(seats=4, min_buy_in=100, max_buy_in=1000, max_rebuys=-1)


class Crash(BaseException):
    """The lobby process dying at a step (nothing after it runs)."""


@pytest.fixture
def dealer() -> FakeDealer:
    return FakeDealer()


@pytest.fixture
def room(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    lobby = Lobby(storage, dealer, [D1])
    for name in ("ann", "bob"):
        lobby.create_player(name, name.title())
        lobby.deposit(name, 1000, f"fund-{name}")
    lobby.open_table("T", RULES, {}, "o1", table_id="t1")
    yield lobby
    lobby.stop()


def restarted(storage: Storage, dealer: FakeDealer, crash_at: str = "") -> Lobby:
    def fault(step: str) -> None:
        if step == crash_at:
            raise Crash(step)

    return Lobby(storage, dealer, [D1], fault=fault)


def accounted(lobby: Lobby, dealer: FakeDealer) -> None:
    audit = lobby.audit()
    assert audit.ok, audit.problems
    assert audit.by_kind["player"] + audit.by_kind["table"] == 2000
    on_tables = sum(sum(dealer.stacks(D1, t.table_id).values()) for t in lobby.tables())
    assert audit.by_kind["table"] == on_tables  # the lobby's table accounts match the dealer


def test_buy_in_with_the_dealer_down_completes_when_it_is_back(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.down.add(D1)
    with pytest.raises(Unavailable, match="buy-in of 300 is held"):
        room.join("ann", "t1", None, 300, False, "j1")
    assert room.player("ann").balance == 700  # debited, not lost: on the table's account
    assert room.recover() == 1  # still down: still pending
    dealer.down.clear()
    assert room.recover() == 0
    op = room.join("ann", "t1", None, 300, False, "j1")  # the retry tells how it ended
    assert op.state is OpState.DONE and dealer.stacks(D1, "t1") == {0: 300}
    accounted(room, dealer)


def test_buy_in_whose_answer_was_lost_is_refunded_and_unseated(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.lose_answers.add("seat_player")  # seated at the dealer; the token never arrives
    with pytest.raises(Unavailable):
        room.join("ann", "t1", None, 300, False, "j1")
    assert room.recover() == 0
    assert dealer.stacks(D1, "t1") == {}
    assert room.player("ann").balance == 1000 and room.table("t1").seats == ()
    with pytest.raises(Unavailable, match="could not seat you; your chips were refunded"):
        room.join("ann", "t1", None, 300, False, "j1")
    accounted(room, dealer)


def test_buy_in_the_dealer_refuses_is_refunded_at_once(room: Lobby, dealer: FakeDealer) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    dealer.tables[(D1, "t1")].seats[1] = ["someone", 0, "x"]  # taken behind the lobby's back
    with pytest.raises(SeatUnavailable, match="seat 1 is taken"):
        room.join("bob", "t1", 1, 300, False, "j2")
    assert room.player("bob").balance == 1000
    assert room.button_draw("t1") is None  # R4: bob never sat, so the draw is void
    del dealer.tables[(D1, "t1")].seats[1]
    room.join("bob", "t1", 1, 300, False, "j3")
    draw = room.button_draw("t1")
    assert draw is not None and dealer.tables[(D1, "t1")].button == draw.button
    accounted(room, dealer)


@pytest.mark.parametrize("step", ["after_debit", "before_seat", "after_seat"])
def test_lobby_dying_between_buy_in_steps_is_completed_or_refunded_on_restart(
    storage: Storage, room: Lobby, dealer: FakeDealer, step: str
) -> None:
    dying = restarted(storage, dealer, crash_at=step)
    with pytest.raises(Crash):
        dying.join("ann", "t1", None, 300, False, "j1")
    assert dying.player("ann").balance == 700
    fresh = restarted(storage, dealer)
    assert fresh.recover(force=True) == 0
    seated = dealer.stacks(D1, "t1")
    balance = fresh.player("ann").balance
    # Completed (seated with 300) or refunded (not seated, balance whole): nothing in between.
    assert (seated, balance) in (({0: 300}, 700), ({}, 1000))
    if step == "after_debit":
        assert seated == {0: 300}
    accounted(fresh, dealer)


def test_rebuy_whose_answer_was_lost_adds_the_chips_once(room: Lobby, dealer: FakeDealer) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    dealer.play(D1, "t1", {0: -300, 1: 300})
    dealer.lose_answers.add("add_chips")
    with pytest.raises(Unavailable, match="rebuy of 200 is held"):
        room.rebuy("ann", "t1", 200, "r1")
    assert room.recover() == 0
    assert dealer.stacks(D1, "t1") == {0: 200, 1: 600}
    assert room.rebuy("ann", "t1", 200, "r1").state is OpState.DONE
    accounted(room, dealer)


def test_R31_leave_whose_answer_was_lost_is_credited_from_the_dealers_record(
    room: Lobby, dealer: FakeDealer
) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    dealer.play(D1, "t1", {0: 50, 1: -50})
    dealer.lose_answers.add("unseat_player")
    assert room.leave("ann", "t1", "l1").state is OpState.REQUESTED
    assert room.recover() == 0
    assert room.player("ann").balance == 1050 and dealer.stacks(D1, "t1") == {1: 250}
    accounted(room, dealer)


def test_lobby_dying_after_the_dealer_unseated_is_credited_on_restart(
    storage: Storage, room: Lobby, dealer: FakeDealer
) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    with pytest.raises(Crash):
        restarted(storage, dealer, crash_at="after_unseat").leave("ann", "t1", "l1")
    fresh = restarted(storage, dealer)
    assert fresh.recover(force=True) == 0
    assert fresh.player("ann").balance == 1000
    accounted(fresh, dealer)


def test_close_whose_answer_was_lost_settles_from_the_dealers_record(
    storage: Storage, room: Lobby, dealer: FakeDealer
) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 400, False, "j2")
    with pytest.raises(Crash):
        restarted(storage, dealer, crash_at="after_close").close_table("t1", False, "c1")
    fresh = restarted(storage, dealer)
    assert fresh.recover(force=True) == 0
    assert fresh.player("ann").balance == 1000 and fresh.player("bob").balance == 1000
    assert fresh.table("t1").chips == 0
    accounted(fresh, dealer)


def test_a_table_opened_while_its_dealer_was_down_opens_later(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.down.add(D1)
    with pytest.raises(Unavailable, match="opens as soon as it answers"):
        room.open_table("Later", RULES, {}, "o2", table_id="t2")
    dealer.down.clear()
    dealer.lose_answers.add("create_table")  # created, answer lost: the retry finds it exists
    room.recover()
    assert room.recover() == 0
    assert room.table("t2").status.value == "open"
