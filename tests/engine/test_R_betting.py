"""Betting: order of action, actions and their bounds per structure and preset (R13-R21).

Seats are positions: seat 0 is left of the button (the small blind), the last
seat is the button; blinds 50/100, standard preset unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from services.dealer.engine import (
    Action,
    ActionKind,
    ActionTaken,
    BetReturned,
    BoardDealt,
    Hand,
    IllegalAction,
    Preset,
    Street,
    Structure,
)
from tests.engine.test_engine_helpers import act, config, kinds, play, stacks, start

FIXED = Structure.FIXED_LIMIT
POT = Structure.POT_LIMIT


def limped(n: int = 3, stacks_: list[int] | None = None, **options: object) -> Hand:
    """A hand where everyone called the big blind and the big blind checked: on the flop."""
    hand = start(stacks_ or [1000] * n, table=config(**options))
    while hand.street is Street.PREFLOP:
        legal = hand.legal_actions()
        act(hand, "check" if legal.can_check else "call")
    return hand


def check_round(hand: Hand) -> None:
    street = hand.street
    while hand.street is street:
        act(hand, "check")


# ---------------------------------------------------------------- R13 order of action


def test_R13_preflop_first_to_act_is_left_of_the_big_blind() -> None:
    hand = start([1000] * 6)
    assert hand.actor == 2


def test_R13_after_the_flop_first_is_the_first_still_in_left_of_the_button() -> None:
    hand = play(start([1000] * 6), "2: call", "3: call", "4: call", "5: call", "0: fold")
    act(hand, "1: check")
    assert hand.street is Street.FLOP and hand.actor == 1
    play(hand, "1: check", "2: check", "3: check", "4: check", "5: check")
    assert hand.street.value == "turn" and hand.actor == 1


# ---------------------------------------------------------------- R14 actions


def test_R14_check_only_when_there_is_nothing_to_call() -> None:
    hand = start([1000] * 3)
    with pytest.raises(IllegalAction, match="^you cannot check: 100 to call$"):
        act(hand, "check")


def test_R14_bet_only_when_nobody_has_bet_else_raise() -> None:
    hand = limped()
    with pytest.raises(IllegalAction, match="nobody has bet; bet instead"):
        act(hand, "raise 200")
    play(hand, "0: bet 100")
    assert hand.legal_actions().bet_kind is ActionKind.RAISE
    with pytest.raises(IllegalAction, match="the bet is already 100; raise instead"):
        act(hand, "bet 300")
    with pytest.raises(IllegalAction, match="there is no bet to call"):
        play(limped(), "0: call")


def test_R14_a_call_of_all_that_is_left_is_all_in() -> None:
    hand = limped(stacks_=[1000, 1000, 150])
    play(hand, "0: bet 200", "1: fold")
    legal = hand.legal_actions()
    assert (legal.can_call, legal.call_amount, legal.bet_kind) == (True, 50, None)
    events = act(hand, "2: call")
    assert events[0] == ActionTaken(2, ActionKind.CALL, 50, 50, True)


def test_R14_all_in_is_the_bet_or_raise_of_the_whole_stack() -> None:
    hand = start([1000, 1000, 800])
    events = act(hand, "2: all-in")
    assert events[0] == ActionTaken(2, ActionKind.RAISE, 800, 800, True)


def test_R14_fold_is_always_allowed() -> None:
    hand = limped()
    assert hand.legal_actions().can_fold and hand.legal_actions().can_check
    act(hand, "0: fold")
    assert 0 not in hand.in_hand


# ---------------------------------------------------------------- R15 the big blind's option


def test_R15_small_blind_completes_and_big_blind_has_the_option() -> None:
    hand = play(start([1000] * 3), "2: call")
    assert hand.legal_actions().call_amount == 50  # the small blind completes
    act(hand, "0: call")
    legal = hand.legal_actions()
    assert hand.actor == 1 and legal.can_check and legal.bet_kind is ActionKind.RAISE
    assert legal.min_to == 200
    act(hand, "1: raise 300")
    assert hand.street is Street.PREFLOP and hand.actor == 2


def test_R15_decision_the_full_big_blind_is_owed_when_it_was_posted_short() -> None:
    # R11 puts the big blind all in for 30; a careful room still plays the hand at
    # the table's big blind: calling costs 100 and a raise goes to at least 200.
    hand = start([1000, 30, 1000], ["7c2d", "AsAh", "KcKd"], "3s4h9dTcJc")
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.min_to) == (2, 100, 200)
    events = act(hand, "2: fold")
    # The small blind owes nothing more than the 30 it could be called for (R20).
    assert BetReturned(0, 20) in events and hand.is_over
    assert stacks(hand) == [970, 60, 1000]


# ---------------------------------------------------------------- R16 structures


def test_R16_no_limit_any_raise_up_to_the_whole_stack() -> None:
    legal = start([1000, 1000, 1000]).legal_actions()
    assert (legal.min_to, legal.max_to) == (200, 1000)


def test_R16_pot_limit_raise_at_most_the_bet_plus_pot_bets_and_call() -> None:
    hand = start([5000] * 3, structure=POT)
    # 100 + (pot 0 + bets 150 + the 100 to call) = 350.
    assert hand.legal_actions().max_to == 350
    act(hand, "2: raise 350")
    # The small blind: 350 + (bets 500 + its 300 to call) = 1150.
    assert hand.legal_actions().max_to == 1150
    with pytest.raises(IllegalAction, match="^raise to 1200 is above the pot limit of 1150$"):
        act(hand, "0: raise 1200")
    play(hand, "0: call", "1: call")
    legal = hand.legal_actions()  # the flop: a pot of 1050
    assert (legal.bet_kind, legal.min_to, legal.max_to) == (ActionKind.BET, 100, 1050)


def test_R16_pot_limit_counts_antes_in_the_pot() -> None:
    hand = start([5000] * 3, structure=POT, blinds=(50, 100, 10))
    assert hand.legal_actions().max_to == 380  # 100 + (30 + 150 + 100)


def test_R16_fixed_limit_small_bet_then_big_bet() -> None:
    hand = start([5000] * 3, structure=FIXED)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (200, 200)
    with pytest.raises(IllegalAction, match="in fixed limit it is exactly 200"):
        act(hand, "raise 250")
    hand = limped(structure=FIXED)
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (100, 100)
    check_round(hand)
    assert hand.street.value == "turn"
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (200, 200)
    check_round(hand)
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (200, 200)


def test_R16_fixed_limit_cap_counts_the_big_blind_as_the_bet_preflop() -> None:
    hand = play(start([5000] * 3, structure=FIXED), "2: raise 200", "0: raise 300", "1: raise 400")
    legal = hand.legal_actions()
    assert (legal.bet_kind, legal.call_amount) == (None, 200)
    with pytest.raises(IllegalAction, match="capped at 4 bets"):
        act(hand, "raise 500")


def test_R16_fixed_limit_one_bet_and_three_raises_after_the_flop() -> None:
    hand = play(limped(structure=FIXED), "0: bet 100", "1: raise 200", "2: raise 300")
    act(hand, "0: raise 400")
    assert hand.legal_actions().bet_kind is None


def test_R16_fixed_limit_cap_is_configurable() -> None:
    hand = play(start([5000] * 3, structure=FIXED, fixed_limit_cap=3), "raise 200", "raise 300")
    assert hand.legal_actions().bet_kind is None


# ---------------------------------------------------------------- R17 minimum bet


def test_R17_standard_minimum_bet_is_one_big_blind_on_every_street() -> None:
    hand = limped()
    assert hand.legal_actions().min_to == 100
    check_round(hand)
    with pytest.raises(IllegalAction, match="^bet of 50 is below the minimum bet of 100$"):
        act(hand, "bet 50")
    assert hand.legal_actions().min_to == 100


def test_R17_seed_minimum_bet_is_two_big_blinds_on_turn_and_river() -> None:
    hand = limped(preset=Preset.SEED)
    assert hand.legal_actions().min_to == 100  # the flop
    check_round(hand)
    with pytest.raises(IllegalAction, match="^bet of 150 is below the minimum bet of 200$"):
        act(hand, "bet 150")
    check_round(hand)
    assert hand.street is Street.RIVER and hand.legal_actions().min_to == 200


def test_R17_the_table_option_sets_the_turn_and_river_minimum() -> None:
    hand = limped(turn_river_min_bet=3)
    check_round(hand)
    assert hand.legal_actions().min_to == 300


def test_R17_a_short_stack_may_bet_all_in_for_less() -> None:
    hand = limped(stacks_=[1000, 1000, 150])
    play(hand, "0: check", "1: check")
    legal = hand.legal_actions()
    assert (legal.bet_kind, legal.min_to, legal.max_to) == (ActionKind.BET, 50, 50)


# ---------------------------------------------------------------- R18 minimum raise


def test_R18_standard_raise_by_at_least_the_largest_increment() -> None:
    hand = play(start([5000] * 3), "2: raise 300")
    with pytest.raises(IllegalAction, match="^raise to 400 is below the minimum raise to 500$"):
        act(hand, "raise 400")
    act(hand, "0: raise 500")
    assert hand.legal_actions().min_to == 700


def test_R18_standard_raise_by_at_least_the_big_blind_after_the_flop() -> None:
    hand = play(limped(n=3, stacks_=[5000] * 3), "0: bet 100")
    assert hand.legal_actions().min_to == 200
    hand = play(limped(n=3, stacks_=[5000] * 3), "0: bet 250")
    assert hand.legal_actions().min_to == 500


def test_R18_double_a_raise_takes_the_bet_to_twice_the_current_bet() -> None:
    hand = start([5000] * 3, preset=Preset.SEED)
    assert hand.legal_actions().min_to == 200
    act(hand, "2: raise 300")
    with pytest.raises(IllegalAction, match="^raise to 500 is below the minimum raise to 600$"):
        act(hand, "raise 500")
    act(hand, "0: raise 600")
    assert hand.legal_actions().min_to == 1200


def test_R18_double_over_a_short_turn_bet_still_adds_a_minimum_bet() -> None:
    hand = limped(stacks_=[5000, 5000, 150], preset=Preset.SEED)
    check_round(hand)  # the turn: minimum bet 200 (R17 seed)
    play(hand, "0: check", "1: check", "2: all-in")  # a 50 all-in bet
    assert hand.legal_actions().bet_kind is None  # both already acted (R19)
    hand = limped(n=4, stacks_=[5000, 5000, 150, 5000], preset=Preset.SEED)
    check_round(hand)
    play(hand, "0: check", "1: check", "2: all-in")
    assert hand.legal_actions().min_to == 250  # max(2 x 50, 50 + 200)


# ---------------------------------------------------------------- R19 short all-in


def test_R19_short_all_in_does_not_reopen() -> None:
    hand = limped(stacks_=[1000, 250, 1000])  # seat 1 has 150 left
    play(hand, "0: bet 100", "1: all-in")
    legal = hand.legal_actions()  # seat 2 has not acted: it may raise
    assert (hand.actor, legal.bet_kind, legal.min_to) == (2, ActionKind.RAISE, 250)
    act(hand, "2: call")
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.bet_kind) == (0, 50, None)
    with pytest.raises(IllegalAction, match="did not reopen the betting; you may call 50 or fold"):
        act(hand, "raise 300")


def test_R19_short_all_ins_adding_up_to_a_full_raise_reopen_for_each_player() -> None:
    hand = limped(stacks_=[2000, 250, 2000, 320, 2000])  # seats 1 and 3: 150 and 220 left
    play(hand, "0: bet 100", "1: all-in", "2: call", "3: all-in", "4: call")
    # Since seat 0 bet 100 the bet went up 50 + 70 = 120: a full raise, reopened.
    legal = hand.legal_actions()
    assert (hand.actor, legal.bet_kind, legal.min_to) == (0, ActionKind.RAISE, 320)
    act(hand, "0: call")
    # Seat 2 called 150; since then only 70 more: not reopened for it.
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.bet_kind) == (2, 70, None)


def test_R19_a_short_all_in_bet_does_not_reopen_for_players_who_checked() -> None:
    hand = limped(stacks_=[1000, 1000, 150])
    play(hand, "0: check", "1: check", "2: all-in")
    assert hand.events[-1] == ActionTaken(2, ActionKind.BET, 50, 50, True)
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.bet_kind) == (0, 50, None)


def test_R19_before_the_flop_the_blinds_keep_their_option_limpers_do_not() -> None:
    hand = play(start([1000, 1000, 1000, 150]), "2: call", "3: all-in")  # 150: short of 200
    assert hand.legal_actions().bet_kind is ActionKind.RAISE  # small blind: not acted yet
    assert hand.legal_actions().min_to == 250
    act(hand, "0: call")
    assert hand.legal_actions().bet_kind is ActionKind.RAISE  # big blind: not acted yet
    act(hand, "1: call")
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.bet_kind) == (2, 50, None)


def test_R19_a_full_raise_after_a_short_all_in_reopens() -> None:
    hand = limped(stacks_=[1000, 250, 1000, 1000])
    play(hand, "0: bet 100", "1: all-in", "2: raise 250")  # 250 = 150 + a full 100
    assert hand.legal_actions().bet_kind is ActionKind.RAISE  # seat 3: not acted yet
    act(hand, "3: call")
    legal = hand.legal_actions()
    assert (hand.actor, legal.bet_kind, legal.min_to) == (0, ActionKind.RAISE, 350)


# ---------------------------------------------------------------- R20 end of a round


def test_R20_a_round_ends_when_all_have_matched_or_checked() -> None:
    hand = play(start([1000] * 3), "2: raise 300", "0: call", "1: call")
    assert hand.street is Street.FLOP and hand.bets == {0: 0, 1: 0, 2: 0}
    check_round(hand)
    assert hand.street.value == "turn"


def test_R20_the_board_is_run_out_when_at_most_one_player_has_chips() -> None:
    hand = play(start([1000, 500]), "1: all-in", "0: call")
    assert hand.is_over and len(hand.board) == 5
    assert kinds(hand.events).count("ActionTaken") == 2


def test_R20_no_decision_when_nobody_owes_a_call() -> None:
    hand = start([30, 1000])  # heads-up: the big blind is all in for 30
    assert hand.is_over
    assert BetReturned(1, 20) in hand.events
    assert not [e for e in hand.events if isinstance(e, ActionTaken)]


def test_R20_the_last_player_with_chips_still_calls_or_folds_a_bet() -> None:
    hand = play(start([1000, 1000, 300]), "2: all-in", "0: fold")
    legal = hand.legal_actions()
    assert (hand.actor, legal.call_amount, legal.bet_kind) == (1, 200, None)


# ---------------------------------------------------------------- R21 uncalled bets


def test_R21_an_uncalled_bet_goes_back_before_the_pot_is_won() -> None:
    events = play(start([1000] * 3), "2: raise 300", "0: fold").act(1, Action.fold())
    assert kinds(events) == ["ActionTaken", "BetReturned", "PotAwarded", "HandEnded"]
    assert events[1] == BetReturned(2, 200)


def test_R21_the_part_of_a_bet_nobody_could_call_goes_back() -> None:
    hand = start([300, 1000])
    events = play(hand, "1: all-in").act(0, Action.call())
    returned = events.index(BetReturned(1, 700))
    first_board = next(i for i, e in enumerate(events) if isinstance(e, BoardDealt))
    assert returned < first_board
    assert sum(stacks(hand)) == 1300


def test_R19_seed_preset_short_all_in_against_the_double_rule() -> None:
    hand = limped(stacks_=[1000, 250, 1000], preset=Preset.SEED)
    play(hand, "0: bet 100", "1: all-in")  # 150: short of the double, 200
    legal = hand.legal_actions()
    assert (hand.actor, legal.bet_kind, legal.min_to) == (2, ActionKind.RAISE, 300)
    act(hand, "2: call")
    assert hand.legal_actions().bet_kind is None
    hand = limped(stacks_=[2000, 250, 2000, 320, 2000], preset=Preset.SEED)
    play(hand, "0: bet 100", "1: all-in", "2: call", "3: all-in", "4: call")
    legal = hand.legal_actions()  # 220 reached twice seat 0's bet: reopened for it
    assert (hand.actor, legal.bet_kind, legal.min_to) == (0, ActionKind.RAISE, 440)


@pytest.mark.parametrize("preset", list(Preset))
def test_R16_pot_and_fixed_limit_apply_to_either_preset(preset: Preset) -> None:
    pot = start([5000] * 3, structure=POT, preset=preset)
    assert pot.legal_actions().max_to == 350
    fixed = start([5000] * 3, structure=FIXED, preset=preset)
    assert (fixed.legal_actions().min_to, fixed.legal_actions().max_to) == (200, 200)
