"""The lobby against an in-memory dealer: players and money, tables, seating, R4, R30, R31,
closing, and every chip accounted for after each story, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_fakes import FakeDealer

from poker.cards import parse_cards
from services.lobby.errors import (
    AlreadyExists,
    FailedPrecondition,
    InsufficientFunds,
    InvalidArgument,
    NotFound,
    SeatUnavailable,
)
from services.lobby.lobby import Lobby
from services.lobby.operations import OpState
from services.lobby.rules import LateJoin, TableRules
from services.lobby.storage import Storage

D1, D2 = "dealer-1:50051", "dealer-2:50051"
RULES = TableRules(seats=3, min_buy_in=100, max_buy_in=1000, max_rebuys=2)


@pytest.fixture
def lobby(storage: Storage, dealer: FakeDealer) -> Iterator[Lobby]:
    room = Lobby(storage, dealer, [D1, D2], draw_deck=lambda: parse_cards("Kd Ks Kh Kc Ad"))
    yield room
    room.stop()


def funded(lobby: Lobby, *names: str, amount: int = 1000) -> None:
    for name in names:
        lobby.create_player(name, name.title())
        lobby.deposit(name, amount, f"fund-{name}")


def accounted(lobby: Lobby, deposited: int, withdrawn: int = 0) -> None:
    """Balances plus chips on tables equal deposits minus withdrawals; every invariant holds."""
    audit = lobby.audit()
    assert audit.ok, audit.problems
    assert audit.by_kind.get("player", 0) + audit.by_kind.get("table", 0) == deposited - withdrawn
    assert audit.by_kind["operator"] == withdrawn - deposited


def test_players_money_and_tokens(lobby: Lobby) -> None:
    player, token = lobby.create_player("ann", "Ann")
    assert player.balance == 0 and lobby.player_for_token(token) == "ann"
    with pytest.raises(AlreadyExists):
        lobby.create_player("ann", "Ann again")
    assert lobby.deposit("ann", 500, "r1").balance == 500
    assert lobby.deposit("ann", 500, "r1").balance == 500  # a retry moves money once
    assert lobby.withdraw("ann", 200, "r2").balance == 300
    with pytest.raises(InsufficientFunds, match="needs 100 more"):
        lobby.withdraw("ann", 400, "r3")
    with pytest.raises(NotFound, match="no player 'zed'"):
        lobby.deposit("zed", 5, "r4")
    new = lobby.issue_token("ann")
    assert lobby.player_for_token(token) is None and lobby.player_for_token(new) == "ann"
    assert [t.kind.value for t in lobby.transfers("ann")] == ["withdrawal", "deposit"]
    accounted(lobby, 500, 200)


def test_tables_spread_across_dealers_and_are_remembered(lobby: Lobby) -> None:
    placed = [lobby.open_table(f"T{i}", RULES, {}, f"open-{i}").dealer for i in range(4)]
    assert sorted(placed) == [D1, D1, D2, D2]
    again = lobby.open_table("T0", RULES, {}, "open-0")  # a retry opens nothing new
    assert len(lobby.tables()) == 4 and again.dealer == placed[0]


def test_a_table_the_dealer_refuses_is_not_booked(lobby: Lobby) -> None:
    with pytest.raises(InvalidArgument, match="the dealer: structure: unknown"):
        lobby.open_table("odd", RULES, {"structure": "bogus"}, "o1")
    assert lobby.tables() == []


def test_join_debits_seats_and_returns_the_seat_token(lobby: Lobby, dealer: FakeDealer) -> None:
    funded(lobby, "ann")
    table = lobby.open_table("T", RULES, {}, "o1", table_id="t1")
    op = lobby.join("ann", "t1", None, 400, False, "j1")
    assert op.state is OpState.DONE and op.seat == 0 and op.seat_token
    assert dealer.tables[(table.dealer, "t1")].seats[0][2] == op.seat_token
    assert lobby.player("ann").balance == 600 and lobby.table("t1").chips == 400
    assert lobby.join("ann", "t1", None, 400, False, "j1").seat_token == op.seat_token
    accounted(lobby, 1000)


def test_join_refusals_say_why(lobby: Lobby) -> None:
    funded(lobby, "ann", "bob", "cy", "dee")
    lobby.open_table("T", RULES, {}, "o1", table_id="t1")
    with pytest.raises(InvalidArgument, match="outside this table's range 100..1000"):
        lobby.join("ann", "t1", None, 50, False, "j0")
    lobby.withdraw("ann", 950, "w1")
    with pytest.raises(InsufficientFunds, match="ann has 50 chips; the buy-in of 100 needs 50"):
        lobby.join("ann", "t1", None, 100, False, "j0b")
    assert lobby.table("t1").seats == ()
    lobby.deposit("ann", 950, "d2")
    lobby.join("ann", "t1", 1, 100, False, "j1")
    with pytest.raises(SeatUnavailable, match="seat 1 is taken; free seats: 0, 2"):
        lobby.join("bob", "t1", 1, 100, False, "j2")
    with pytest.raises(AlreadyExists, match="already sit at seat 1"):
        lobby.join("ann", "t1", None, 100, False, "j3")
    with pytest.raises(InvalidArgument, match="seat 7 does not exist"):
        lobby.join("bob", "t1", 7, 100, False, "j4")
    lobby.join("bob", "t1", None, 100, False, "j5")
    lobby.join("cy", "t1", None, 100, False, "j6")
    with pytest.raises(SeatUnavailable, match="full"):
        lobby.join("dee", "t1", None, 100, False, "j7")
    with pytest.raises(NotFound, match="no table 'nope'"):
        lobby.join("dee", "nope", None, 100, False, "j8")
    with pytest.raises(NotFound, match="no player 'zed'"):
        lobby.join("zed", "t1", None, 100, False, "j9")
    accounted(lobby, 4950, 950)


def test_R4_the_button_is_drawn_when_a_table_first_has_two_players(
    lobby: Lobby, dealer: FakeDealer
) -> None:
    funded(lobby, "ann", "bob", "cy")
    table = lobby.open_table("T", RULES, {}, "o1", table_id="t1")
    lobby.join("ann", "t1", 2, 100, False, "j1")
    assert lobby.button_draw("t1") is None
    lobby.join("bob", "t1", 0, 100, False, "j2")
    draw = lobby.button_draw("t1")
    assert draw is not None
    # The deck deals Kd to seat 0 and Ks to seat 2: equal kings, spades beat diamonds.
    assert [(c.seat, c.card) for c in draw.cards] == [(0, parse_cards("Kd")[0]),
                                                      (2, parse_cards("Ks")[0])]
    assert draw.button == 2 and lobby.table("t1").button_seat == 2
    assert dealer.tables[(table.dealer, "t1")].button == 2
    # The dealer deals once two are in: it learns the button before the second is seated.
    last_seat = len(dealer.calls) - 1 - dealer.calls[::-1].index("seat_player")
    assert dealer.calls.index("set_button") < last_seat
    lobby.join("cy", "t1", 1, 100, False, "j3")
    assert lobby.button_draw("t1") == draw  # drawn once, when the table first had two


def test_R10_late_join_rule_decides_waiting_for_the_big_blind(lobby: Lobby) -> None:
    funded(lobby, "ann", "bob")
    rules = TableRules(seats=2, initial_stack=200, late_join=LateJoin.WAIT_FOR_BIG_BLIND)
    lobby.open_table("T", rules, {}, "o1", table_id="t1")
    assert lobby.join("ann", "t1", None, 0, False, "j1").wait_for_big_blind
    with pytest.raises(InvalidArgument, match="starts every player with 200"):
        lobby.join("bob", "t1", None, 300, False, "j2")


def seated_pair(lobby: Lobby) -> str:
    funded(lobby, "ann", "bob")
    table = lobby.open_table("T", RULES, {}, "o1", table_id="t1")
    lobby.join("ann", "t1", 0, 300, False, "j1")
    lobby.join("bob", "t1", 1, 300, False, "j2")
    return table.dealer


def test_R30_rebuy_only_with_an_empty_stack_and_within_limits(
    lobby: Lobby, dealer: FakeDealer
) -> None:
    address = seated_pair(lobby)
    with pytest.raises(FailedPrecondition, match="only when your stack is empty.*300"):
        lobby.rebuy("ann", "t1", 300, "r1")
    dealer.play(address, "t1", {0: -300, 1: 300})
    op = lobby.rebuy("ann", "t1", 200, "r2")
    assert op.state is OpState.DONE and op.result == 200
    assert lobby.rebuy("ann", "t1", 200, "r2").result == 200  # retried: chips added once
    assert dealer.stacks(address, "t1") == {0: 200, 1: 600}
    dealer.play(address, "t1", {0: -200, 1: 200})
    lobby.rebuy("ann", "t1", 100, "r3")
    dealer.play(address, "t1", {0: -100, 1: 100})
    with pytest.raises(FailedPrecondition, match="all 2 rebuys"):
        lobby.rebuy("ann", "t1", 100, "r4")
    with pytest.raises(FailedPrecondition, match="not seated"):
        lobby.rebuy("cy", "t1", 100, "r5")
    accounted(lobby, 2000)


def test_R30_rebuys_end_at_the_configured_hand(lobby: Lobby, dealer: FakeDealer) -> None:
    funded(lobby, "ann", "bob")
    rules = TableRules(seats=2, initial_stack=100, rebuy_amount=50, max_rebuys=-1,
                       rebuy_until_hand=1)
    table = lobby.open_table("T", rules, {}, "o1", table_id="t1")
    lobby.join("ann", "t1", 0, 0, False, "j1")
    lobby.join("bob", "t1", 1, 0, False, "j2")
    dealer.play(table.dealer, "t1", {0: -100, 1: 100})
    with pytest.raises(FailedPrecondition, match="ended after hand 1"):
        lobby.rebuy("ann", "t1", 0, "r1")


def test_R30_a_rebuy_the_dealer_refuses_is_refunded(lobby: Lobby, dealer: FakeDealer) -> None:
    address = seated_pair(lobby)
    dealer.play(address, "t1", {0: -300, 1: 300})
    dealer.hand_running = True  # the busted player is not in the hand, but the dealer says no
    with pytest.raises(FailedPrecondition, match="rebuy refused by the dealer"):
        lobby.rebuy("ann", "t1", 300, "r1")
    assert lobby.player("ann").balance == 700
    assert lobby.table("t1").seat_of("ann").rebuys == 0  # type: ignore[union-attr]
    accounted(lobby, 2000)


def test_R31_leaving_credits_the_stack(lobby: Lobby, dealer: FakeDealer) -> None:
    address = seated_pair(lobby)
    dealer.play(address, "t1", {0: 120, 1: -120})
    op = lobby.leave("ann", "t1", "l1")
    assert op.state is OpState.DONE and op.result == 420
    assert lobby.player("ann").balance == 1120 and lobby.table("t1").seat_of("ann") is None
    assert lobby.table("t1").chips == 180
    accounted(lobby, 2000)


def test_R31_leaving_during_a_hand_takes_effect_after_it(lobby: Lobby, dealer: FakeDealer) -> None:
    address = seated_pair(lobby)
    dealer.hand_running = True
    op = lobby.leave("ann", "t1", "l1")
    assert op.state is OpState.REQUESTED and lobby.player("ann").balance == 700
    assert 0 in dealer.tables[(address, "t1")].sat_out  # dealt no further hand
    assert lobby.leave("ann", "t1", "l1").id == op.id
    dealer.hand_running = False
    assert lobby.recover() == 0
    assert lobby.player("ann").balance == 1000
    accounted(lobby, 2000)


def test_closing_returns_every_stack(lobby: Lobby, dealer: FakeDealer) -> None:
    address = seated_pair(lobby)
    dealer.play(address, "t1", {0: -50, 1: 50})
    op = lobby.close_table("t1", False, "c1")
    assert op.state is OpState.DONE and op.result == 600
    assert lobby.player("ann").balance == 950 and lobby.player("bob").balance == 1050
    assert lobby.table("t1").chips == 0 and lobby.tables() == []
    with pytest.raises(FailedPrecondition, match="closed"):
        lobby.join("ann", "t1", None, 100, False, "j9")
    accounted(lobby, 2000)


def test_closing_during_a_hand_needs_the_void_flag(lobby: Lobby, dealer: FakeDealer) -> None:
    seated_pair(lobby)
    dealer.hand_running = True
    with pytest.raises(FailedPrecondition, match="hand is in progress"):
        lobby.close_table("t1", False, "c1")
    assert lobby.close_table("t1", True, "c2").state is OpState.DONE
    accounted(lobby, 2000)
