"""Work spanning the lobby and a dealer is completed or undone, never left half done: a dealer
that is down, an answer lost on the way back, a request delayed on the way past the recovery,
a lobby that dies between two steps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer, ann_and_bob_at_t1

from poker.journal import Key
from services.lobby import operations as ops
from services.lobby.dealers import DealerRefused
from services.lobby.errors import SeatUnavailable, Unavailable
from services.lobby.lobby import Lobby
from services.lobby.operations import Operation, OpState
from services.lobby.rules import TableRules
from services.lobby.storage import Storage

D1 = "dealer-1:50051"
RULES = TableRules(seats=4, min_buy_in=100, max_buy_in=1000, max_rebuys=-1)


class Crash(BaseException):
    """The lobby process dying at a step (nothing after it runs)."""


@pytest.fixture
def room(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    lobby = ann_and_bob_at_t1(Lobby(storage, dealer, [D1]), RULES)
    yield lobby
    lobby.stop()


def restarted(storage: Storage, dealer: FakeDealer, crash_at: str = "") -> Lobby:
    def fault(step: str) -> None:
        if step == crash_at:
            raise Crash(step)

    return Lobby(storage, dealer, [D1], fault=fault)


def join_op(lobby: Lobby, player_id: str, request_id: str) -> Operation:
    """The buy-in operation of a JoinTable request, as recorded."""
    entry = lobby.ctx.journal.find(Key("JoinTable", player_id, request_id))
    assert entry is not None
    return lobby.ctx.op(json.loads(entry.answer)["op"])


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


def test_buy_in_whose_answer_was_lost_is_completed_by_asking_again(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.lose_answers.add("seat_player")  # seated at the dealer; the token never arrives
    with pytest.raises(Unavailable, match="buy-in of 300 is held"):
        room.join("ann", "t1", None, 300, False, "j1")
    assert room.recover() == 0  # sent again with the same request_id: the dealer's answer
    assert dealer.stacks(D1, "t1") == {0: 300}
    assert [e.kind for e in dealer.tables[(D1, "t1")].events] == ["seated"]  # seated once
    assert room.player("ann").balance == 700
    assert [s.state.value for s in room.table("t1").seats] == ["seated"]
    retried = room.join("ann", "t1", None, 300, False, "j1")  # the token, asked for again
    assert retried.state is OpState.DONE
    assert retried.seat_token == dealer.tables[(D1, "t1")].seats[0][2]
    accounted(room, dealer)


def test_a_buy_in_delayed_past_its_refund_cannot_seat_the_player(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.lose_requests.add("seat_player")  # the first copy is on its way, not there yet
    with pytest.raises(Unavailable, match="buy-in of 300 is held"):
        room.join("ann", "t1", 0, 300, False, "j1")
    first = join_op(room, "ann", "j1")
    dealer.tables[(D1, "t1")].seats[0] = ["someone", 0, "x"]  # taken behind the lobby's back
    assert room.recover() == 0  # the repeat is refused: the dealer's answer to the request
    assert room.player("ann").balance == 1000 and room.table("t1").seats == ()
    del dealer.tables[(D1, "t1")].seats[0]  # the seat is free again when the first copy lands
    with pytest.raises(DealerRefused, match="seat 0 is taken") as late:
        dealer.seat_player(D1, "t1", first.seat, "ann", first.amount, first.wait_for_big_blind,
                           first.dealer_request_id)
    assert late.value.status == "ALREADY_EXISTS"
    assert dealer.stacks(D1, "t1") == {}  # no second seat, no chips made
    accounted(room, dealer)


def test_a_repeat_refused_for_the_lobbys_credential_is_no_answer_and_stays_pending(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.lose_answers.add("seat_player")
    with pytest.raises(Unavailable):
        room.join("ann", "t1", None, 300, False, "j1")
    dealer.refuse_calls["seat_player"] = DealerRefused("PERMISSION_DENIED", "service token")
    assert room.recover() == 1  # a refusal of the call says nothing of the first copy
    assert room.player("ann").balance == 700 and dealer.stacks(D1, "t1") == {0: 300}
    assert room.recover() == 0
    assert join_op(room, "ann", "j1").state is OpState.DONE
    accounted(room, dealer)


def test_a_repeat_without_an_answer_stays_pending_across_a_lobby_restart(
    storage: Storage, room: Lobby, dealer: FakeDealer
) -> None:
    dealer.down.add(D1)
    with pytest.raises(Unavailable):
        room.join("ann", "t1", None, 300, False, "j1")
    room.stop()
    fresh = restarted(storage, dealer)
    assert fresh.recover(force=True) == 1  # still no answer: held, not refunded on a guess
    assert fresh.player("ann").balance == 700 and fresh.table("t1").chips == 300
    dealer.down.clear()
    assert fresh.recover() == 0
    assert dealer.stacks(D1, "t1") == {0: 300}
    assert fresh.join("ann", "t1", None, 300, False, "j1").seat_token == (
        dealer.tables[(D1, "t1")].seats[0][2])
    accounted(fresh, dealer)


def test_a_buy_in_an_older_lobby_sent_without_request_id_is_resolved_from_the_events(
    room: Lobby, dealer: FakeDealer
) -> None:
    dealer.lose_answers.add("seat_player")
    with pytest.raises(Unavailable):
        room.join("ann", "t1", None, 300, False, "j1")
    op = join_op(room, "ann", "j1")
    room.ctx.tx(lambda tx: ops.update(tx, op.id, dealer_request_id=""))  # as it was recorded
    assert room.recover() == 0
    assert dealer.stacks(D1, "t1") == {}  # seated, token unknown: unseated and refunded
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
    # Whether the dealer had the request or not, the same request_id completes it, once.
    assert dealer.stacks(D1, "t1") == {0: 300} and fresh.player("ann").balance == 700
    assert [e.kind for e in dealer.tables[(D1, "t1")].events] == ["seated"]
    accounted(fresh, dealer)


def test_rebuy_whose_answer_was_lost_adds_the_chips_once(room: Lobby, dealer: FakeDealer) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    dealer.play(D1, "t1", {0: -300, 1: 300})
    dealer.lose_answers.add("add_chips")
    with pytest.raises(Unavailable, match="rebuy of 200 is held"):
        room.rebuy("ann", "t1", 200, "r1")
    assert room.recover() == 0  # the same key again: the dealer's answer, chips added once
    assert dealer.stacks(D1, "t1") == {0: 200, 1: 600}
    assert len(set(dealer.chips_sent)) == 1 and len(dealer.chips_sent) == 2
    assert room.rebuy("ann", "t1", 200, "r1").state is OpState.DONE
    accounted(room, dealer)


def test_a_rebuy_delayed_past_its_refund_adds_nothing(room: Lobby, dealer: FakeDealer) -> None:
    room.join("ann", "t1", 0, 300, False, "j1")
    room.join("bob", "t1", 1, 300, False, "j2")
    dealer.play(D1, "t1", {0: -300, 1: 300})
    dealer.lose_requests.add("add_chips")  # the first copy is delayed on the way
    with pytest.raises(Unavailable, match="rebuy of 200 is held"):
        room.rebuy("ann", "t1", 200, "r1")
    dealer.hand_running = True  # the repeat arrives in a hand: refused, and remembered
    assert room.recover() == 0
    assert room.player("ann").balance == 700
    dealer.hand_running = False
    with pytest.raises(DealerRefused, match="a hand is in progress"):
        dealer.add_chips(D1, "t1", 0, 200, dealer.chips_sent[0])  # the first copy, late
    assert dealer.stacks(D1, "t1") == {0: 0, 1: 600}
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
