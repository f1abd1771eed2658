"""Pots and the showdown: side pots, winning without a showdown, ties, order of showing,
show or muck, all-in exposure (R22-R28)."""

from __future__ import annotations

from poker.cards import parse_cards
from services.dealer.engine import (
    AUDITOR,
    AnteForm,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Decision,
    Hand,
    PlayerIn,
    PotAwarded,
    ShowReason,
    Street,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_helpers import act, config, deck_for, finish, play, stacks, start

NOTHING = "KsQd9h5c4s"  # a board that makes no straight or flush with the hands below


def awards(hand: Hand) -> list[PotAwarded]:
    return [e for e in hand.events if isinstance(e, PotAwarded)]


def shows(hand: Hand) -> list[CardsShown]:
    return [e for e in hand.events if isinstance(e, CardsShown)]


# ---------------------------------------------------------------- R22 side pots


def test_R22_side_pots_worked_example() -> None:
    # 300 / 200 / 100 / 50, all in for 200 / 200 / 100 / 50 (the 300's last 100 is
    # uncalled, R21): main 200, side 150, side 200, total 550.
    hand = start([100, 50, 300, 200], blinds=(5, 10, 0))
    play(hand, "2: all-in", "3: call", "0: call", "1: call")
    assert hand.is_over
    pots = sorted(awards(hand), key=lambda a: a.index)
    assert [(a.index, a.amount) for a in pots] == [(0, 200), (1, 150), (2, 200)]
    assert [set(a.eligible) for a in pots] == [{0, 1, 2, 3}, {0, 2, 3}, {2, 3}]
    assert sum(a.amount for a in pots) == 550
    assert hand.contributions == {0: 100, 1: 50, 2: 200, 3: 200}


def test_R22_each_player_ante_counts_in_the_contribution() -> None:
    # Seat 0 is all in on its ante of 10: it can win 10 from each player, no more.
    hand = start([10, 1000, 1000], ["AsAh", "7c2d", "8c3d"], NOTHING, blinds=(50, 100, 10))
    finish(play(hand, "2: raise 300", "1: call"))
    assert [(a.amount, set(a.eligible), a.winners) for a in awards(hand)] == [
        (600, {1, 2}, (2,)),
        (30, {0, 1, 2}, (0,)),
    ]
    assert stacks(hand) == [30, 690, 1290]


def test_R22_a_big_blind_ante_goes_whole_into_the_main_pot() -> None:
    # The big blind posts its ante of 100 first (R8, R11) and is all in for 50 of its
    # blind; the ante is dead money in the main pot, not a layer of its contribution.
    table = config(blinds=(50, 100, 100), ante_form=AnteForm.BIG_BLIND)
    hand = start([1000, 150, 1000], ["7c2d", "AsAh", "8c3d"], NOTHING, table=table)
    finish(play(hand, "2: call", "0: call"))
    assert [(a.index, a.amount, set(a.eligible), a.winners) for a in awards(hand)] == [
        (1, 100, {0, 2}, (2,)),
        (0, 250, {0, 1, 2}, (1,)),
    ]
    assert stacks(hand) == [900, 250, 1000]


def test_R22_folded_chips_stay_in_the_pot_but_the_folder_is_not_eligible() -> None:
    hand = play(start([5000] * 3), "2: raise 300", "0: call", "1: call")
    play(hand, "0: bet 500", "1: fold", "2: call")
    assert [p.amount for p in hand.pots] == [1900] and hand.pots[0].eligible == (0, 2)
    finish(hand)
    assert [(a.amount, set(a.eligible)) for a in awards(hand)] == [(1900, {0, 2})]


# ---------------------------------------------------------------- R23 no showdown


def test_R23_the_last_player_takes_every_pot_and_shows_nothing() -> None:
    hand = play(start([1000] * 3), "2: raise 300", "0: fold", "1: fold")
    assert not shows(hand)
    assert [(a.amount, a.winners) for a in awards(hand)] == [(250, (2,))]
    assert hand.result is not None and hand.result.shown == {}


def test_R23_everyone_folding_after_the_flop() -> None:
    hand = play(start([1000] * 3), "2: call", "0: call", "1: check", "0: bet 200")
    play(hand, "1: fold", "2: fold")
    assert hand.is_over and not shows(hand)
    assert stacks(hand) == [1200, 900, 900]


# ---------------------------------------------------------------- R24 ties


def test_R24_ties_split_and_the_odd_chip_goes_first_left_of_the_button() -> None:
    # Seats 2, 5, 8 with the button on 2: the small blind is 5, the big blind 8.
    # 5 folds; 8 and 2 split a pot of 25 on a royal flush board: seat 8 is the first
    # tied winner to the left of the button, so it gets the odd chip.
    players = [PlayerIn(2, "a", 1000), PlayerIn(5, "b", 1000), PlayerIn(8, "c", 1000)]
    deck = deck_for(["2c3d", "4c5d", "6c7d"], "AsKsQsJsTs")  # positions 5, 8, 2
    hand = Hand.start(config(blinds=(5, 10, 0)), players, 2, deck, ranker=DEFAULT_RANKER)
    finish(play(hand, "2: call", "5: fold", "8: check"))
    assert [(a.amount, a.winners, a.shares) for a in awards(hand)] == [(25, (8, 2), (13, 12))]
    assert hand.stacks == {2: 1002, 5: 995, 8: 1003}


def test_R24_each_pot_is_split_on_its_own() -> None:
    # A main pot of 73 three ways and a side pot of 53 two ways: seat 1, first left of
    # the button among the winners, gets the odd chip of each.
    holes = ["2c3d", "4c5d", "6c7d", "8c9d", "2h3h"]
    hand = start([1000, 1000, 17, 1000, 1000], holes, "AsKsQsJsTs", blinds=(5, 10, 0))
    play(hand, "2: all-in", "3: call", "4: call", "0: fold", "1: call")
    play(hand, "1: bet 11", "3: call", "4: call", "1: bet 10", "3: call", "4: fold")
    finish(hand)
    assert [(a.amount, a.winners, a.shares) for a in awards(hand)] == [
        (53, (1, 3), (27, 26)),
        (73, (1, 2, 3), (25, 24, 24)),
    ]
    assert stacks(hand) == [995, 1014, 24, 1012, 972]


# ---------------------------------------------------------------- R25 ranking


def test_R25_the_wheel_is_five_high_and_suits_never_break_ties() -> None:
    hand = start([1000, 1000, 1000], ["Ah2d", "6c7d", "6h7s"], "3c4s5h9dKc")
    finish(hand)
    assert [(a.winners, a.shares) for a in awards(hand)] == [((1, 2), (150, 150))]


# ---------------------------------------------------------------- R26 order of showing


def test_R26_the_player_whose_river_bet_was_called_shows_first_then_clockwise() -> None:
    hand = start([1000] * 3, ["AsAh", "2c3d", "7c7d"], NOTHING)
    play(hand, "2: call", "0: call", "1: check")
    for _ in range(2):
        play(hand, "0: check", "1: check", "2: check")
    play(hand, "0: check", "1: bet 100", "2: call", "0: call")
    assert [e.seat for e in shows(hand)] == [1, 2, 0]  # each beats the one before


def test_R26_with_no_bet_on_the_river_the_first_left_of_the_button_shows_first() -> None:
    hand = finish(start([1000] * 3, ["2c3d", "7c7d", "AsAh"], NOTHING))
    assert [e.seat for e in shows(hand)] == [0, 1, 2]


def test_R26_pots_are_settled_from_the_last_side_pot_to_the_main_pot() -> None:
    hand = play(start([100, 50, 300, 200], blinds=(5, 10, 0)), "2: all-in", "3: call")
    play(hand, "0: call", "1: call")
    assert [a.index for a in awards(hand)] == [2, 1, 0]


# ---------------------------------------------------------------- R27 show or muck


def river_bet_called(holes: list[str]) -> Hand:
    """Heads-up: seat 0 bets the river and seat 1 calls; the showdown begins."""
    hand = start([1000, 1000], holes, NOTHING)
    play(hand, "1: call", "0: check")
    for _ in range(2):
        play(hand, "0: check", "1: check")
    return play(hand, "0: bet 100", "1: call")


def test_R27_a_beaten_hand_chooses_to_show_or_muck_and_a_muck_stays_secret() -> None:
    hand = river_bet_called(["AsAh", "7c7d"])
    assert shows(hand) == [CardsShown(0, tuple(parse_cards("AsAh")), ShowReason.SHOWDOWN)]
    legal = hand.legal_actions()
    assert (hand.actor, hand.decision, legal.can_show, legal.can_muck) == (
        1,
        Decision.SHOW_OR_MUCK,
        True,
        True,
    )
    assert hand.decision_time_ms == 5_000 and not legal.can_fold
    act(hand, "muck")
    assert hand.is_over and stacks(hand) == [1200, 800]
    seen = [e for e in hand.events_for(0) if isinstance(e, CardsMucked)]
    assert seen == [CardsMucked(1, ())]
    audited = [e for e in hand.events_for(AUDITOR) if isinstance(e, CardsMucked)]
    assert audited == [CardsMucked(1, tuple(parse_cards("7c7d")))]


def test_R27_a_beaten_hand_may_show() -> None:
    hand = act_and_return(river_bet_called(["AsAh", "7c7d"]), "show")
    assert [e.seat for e in shows(hand)] == [0, 1] and hand.is_over


def test_R27_a_hand_that_ties_or_beats_the_best_shown_shows_automatically() -> None:
    tie = river_bet_called(["8c7d", "8d7c"])
    assert [e.seat for e in shows(tie)] == [0, 1] and tie.is_over
    better = river_bet_called(["7c7d", "AsAh"])
    assert [e.seat for e in shows(better)] == [0, 1] and stacks(better) == [800, 1200]


def test_R27_on_time_out_the_hand_is_mucked() -> None:
    hand = river_bet_called(["AsAh", "7c7d"])
    events = hand.time_out(1)
    assert isinstance(events[0], CardsMucked) and hand.is_over


def test_R27_a_hand_beaten_in_a_side_pot_decides_in_the_main_pot() -> None:
    # Seat 2 is all in for 300; seats 0 and 1 play on, seat 0 bets the river and is
    # called. Side pot: seat 0 shows and wins, seat 1 is not asked yet. Main pot:
    # seat 1 (beaten by seat 0's shown hand) chooses; seat 2 beats it: shows.
    hand = start([1000, 1000, 300], ["KcKd", "7c7d", "AsAh"], "Qs9d5h4c2s")
    play(hand, "2: all-in", "0: call", "1: call")
    for _ in range(2):
        play(hand, "0: check", "1: check")
    play(hand, "0: bet 100", "1: call")
    assert [e.seat for e in shows(hand)] == [0]
    assert [(a.index, a.amount, a.winners) for a in awards(hand)] == [(1, 200, (0,))]
    assert (hand.actor, hand.decision) == (1, Decision.SHOW_OR_MUCK)
    act(hand, "muck")
    assert [e.seat for e in shows(hand)] == [0, 2]
    assert [(a.index, a.amount, a.winners) for a in awards(hand)][-1] == (0, 900, (2,))
    assert stacks(hand) == [800, 600, 900]


def act_and_return(hand: Hand, move: str) -> Hand:
    act(hand, move)
    return hand


# ---------------------------------------------------------------- R28 all-in exposure


def test_R28_all_hands_are_turned_up_before_the_rest_of_the_board() -> None:
    hand = play(start([1000, 1000], ["AsAh", "7c7d"], NOTHING), "1: all-in", "0: call")
    first_board = next(i for i, e in enumerate(hand.events) if isinstance(e, BoardDealt))
    exposed = [(i, e.seat) for i, e in enumerate(hand.events) if isinstance(e, CardsShown)]
    assert [seat for _, seat in exposed] == [1, 0]  # the all-in raiser first
    assert all(i < first_board for i, _ in exposed)
    assert {e.reason for e in shows(hand)} == {ShowReason.ALL_IN}


def test_R28_exposure_when_one_player_with_chips_is_left() -> None:
    hand = start([1000, 5000, 500])
    play(hand, "2: all-in", "0: all-in", "1: call")  # seat 1 keeps 4000 behind
    assert {e.seat for e in shows(hand)} == {0, 1, 2}
    assert all(e.reason is ShowReason.ALL_IN for e in shows(hand))


def test_R28_table_option_off_the_hands_wait_for_the_showdown() -> None:
    hand = start([1000, 1000], ["AsAh", "7c7d"], NOTHING, all_in_exposure=False)
    play(hand, "1: all-in", "0: call")
    river = next(
        i
        for i, e in enumerate(hand.events)
        if isinstance(e, BoardDealt) and e.street is Street.RIVER
    )
    assert all(
        i > river and e.reason is ShowReason.SHOWDOWN
        for i, e in enumerate(hand.events)
        if isinstance(e, CardsShown)
    )
    assert hand.is_over and stacks(hand) == [2000, 0]
