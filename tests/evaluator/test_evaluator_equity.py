"""Equity: exact enumeration against known figures, Monte Carlo against exact, ranges, refusals."""

from __future__ import annotations

import pytest

from poker.cards import parse_cards as p
from services.evaluator.equity import EquityResult, Limits, Method, equity
from services.evaluator.errors import InvalidHand, InvalidRange, InvalidRequest, LimitExceeded
from services.evaluator.ranges import available, combo_text, parse_range


def shares(result: EquityResult, digits: int = 3) -> list[float]:
    return [round(100 * player.equity, digits) for player in result.players]


def test_exact_heads_up_preflop_AhKh_vs_QsQd_counts_every_board() -> None:
    result = equity([p("AhKh"), p("QsQd")], method=Method.EXACT)
    assert result.method is Method.EXACT and result.deals == 1_712_304
    ak, qq = result.players
    assert (ak.wins, ak.ties) == (787_966, 6_732)
    assert (qq.wins, qq.ties) == (1_712_304 - 787_966 - 6_732, 6_732)
    assert round(100 * ak.equity, 4) == 46.2145
    assert ak.std_error == 0.0
    assert equity([p("AhKh"), p("QsQd")]).method is Method.EXACT  # AUTO picks exact here


def test_exact_three_way_preflop() -> None:
    result = equity([p("AhKh"), p("QsQd"), p("JcTc")])
    assert result.method is Method.EXACT and result.deals == 1_370_754
    assert shares(result) == [40.209, 41.054, 18.736]
    assert sum(player.equity for player in result.players) == pytest.approx(1.0)


def test_monte_carlo_is_within_three_standard_errors_of_exact_and_reproducible() -> None:
    exact = equity([p("AhKh"), p("QsQd"), p("JcTc")], method=Method.EXACT)
    sampled = equity([p("AhKh"), p("QsQd"), p("JcTc")], method=Method.MONTE_CARLO,
                     trials=200_000, seed=11)
    assert sampled.method is Method.MONTE_CARLO and sampled.deals == 200_000
    assert sampled.seed == 11
    for mc, ex in zip(sampled.players, exact.players, strict=True):
        assert 0 < mc.std_error < 0.002
        assert abs(mc.equity - ex.equity) < 3 * mc.std_error
    again = equity([p("AhKh"), p("QsQd"), p("JcTc")], method=Method.MONTE_CARLO,
                   trials=200_000, seed=11)
    assert again == sampled


def test_exact_on_a_board_with_dead_cards_matches_brute_force() -> None:
    from itertools import combinations

    from services.evaluator.core import evaluate

    hero, villain, board, dead = p("AhKh"), p("QsQd"), p("2h 7h Qc"), p("3h 9c")
    deck = [c for c in range(52) if c not in {*hero, *villain, *board, *dead}]
    wins = ties = 0
    for turn_river in combinations(deck, 2):
        mine = evaluate([*hero, *board, *turn_river])
        theirs = evaluate([*villain, *board, *turn_river])
        wins += mine > theirs
        ties += mine == theirs
    result = equity([hero, villain], board=board, dead=dead)
    assert result.deals == len(deck) * (len(deck) - 1) // 2
    assert (result.players[0].wins, result.players[0].ties) == (wins, ties)


def test_range_AA_vs_KK_exact() -> None:
    result = equity(["AA", "KK"], method=Method.EXACT)
    assert result.deals == 36 * 1_712_304
    assert 81.9 < shares(result)[0] < 82.0
    assert shares(result, 2) == [81.95, 18.05]


def test_ranges_enumerate_every_consistent_combo_once() -> None:
    # The range answer is the combo-weighted sum of the known-card answers.
    board = p("2c 7d 9h")
    result = equity(["AA", "KK, 99"], board=board, method=Method.EXACT)
    wins = ties = deals = 0
    for aces in available(parse_range("AA"), board):
        for other in available(parse_range("KK, 99"), board):
            one = equity([list(aces), list(other)], board=board, method=Method.EXACT)
            wins += one.players[0].wins
            ties += one.players[0].ties
            deals += one.deals
    assert (result.players[0].wins, result.players[0].ties, result.deals) == (wins, ties, deals)


def test_range_monte_carlo_agrees_with_exact() -> None:
    players: list[list[int] | str] = ["QQ+", "AKs, T9s", p("7c7d")]
    exact = equity(players, board=p("2c 8h Td"), method=Method.EXACT)
    sampled = equity(players, board=p("2c 8h Td"), method=Method.MONTE_CARLO, trials=150_000,
                     seed=5)
    for mc, ex in zip(sampled.players, exact.players, strict=True):
        assert abs(mc.equity - ex.equity) < 3 * mc.std_error


@pytest.mark.parametrize(
    ("text", "combos"),
    [("QQ+", 18), ("A5s-A2s", 16), ("AK", 16), ("AKs", 4), ("KQo", 12), ("22+", 78),
     ("T9s+", 4), ("K9s+", 16), ("JJ-88", 24), ("AhKh", 1), ("QQ+, AKs, A5s-A2s, KQo", 50),
     ("kqs", 4), ("AK, AKs", 16)],
)
def test_range_notation_counts(text: str, combos: int) -> None:
    assert len(parse_range(text)) == combos


def test_range_notation_names_the_combos() -> None:
    assert sorted(combo_text(c) for c in parse_range("K9s+")) == sorted(
        f"K{s}{k}{s}" for k in "9TJQ" for s in "cdhs"
    )
    assert {combo_text(c)[0::2] for c in parse_range("A5s-A2s")} == {"A5", "A4", "A3", "A2"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [("AKx", "not range notation"), ("QQs", "a pair takes no"), ("A5s-K2s", "a span keeps"),
     ("", "an empty range"), ("AA,,KK", "empty item"), ("AsAs", "the same card twice"),
     ("ZZ", "not range notation")],
)
def test_bad_range_text_is_refused_saying_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidRange, match=reason):
        parse_range(text)
    with pytest.raises(InvalidRange, match="player 1"):
        equity([p("AhKh"), text])


def test_an_impossible_range_is_refused() -> None:
    with pytest.raises(InvalidRange, match="player 1: range 'AA' is impossible"):
        equity([p("KhKd"), "AA"], board=p("As Ah 2c"), dead=p("Ad"))
    with pytest.raises(InvalidRange, match="impossible together"):
        equity(["AA", "AA", "AA"])


@pytest.mark.parametrize(
    ("players", "board", "dead", "error", "reason"),
    [
        ([p("AhKh")], [], [], InvalidRequest, "2 to 10 players"),
        ([p("AhKh")] + ["22+"] * 10, [], [], InvalidRequest, "2 to 10 players"),
        ([p("AhKh"), p("QsQd")], p("2c 3c"), [], InvalidRequest, "0, 3, 4 or 5 cards"),
        ([p("AhKh"), p("AhQd")], [], [], InvalidHand, "player 1: card Ah is already held by"),
        ([p("AhKh"), p("QsQd")], p("2c 3c Qs"), [], InvalidHand, "player 1: card Qs is already on"),
        ([p("AhKh"), p("QsQdJc")], [], [], InvalidHand, "player 1: 3 cards"),
        ([p("AhKh"), [60, 1]], [], [], InvalidHand, "out of range"),
        ([p("AhKh"), p("QsQd")], [], p("Ah"), InvalidHand, "player 0: card Ah is already dead"),
    ],
)
def test_bad_equity_questions_are_refused_saying_why(
    players: list[list[int] | str], board: list[int], dead: list[int],
    error: type[Exception], reason: str,
) -> None:
    with pytest.raises(error, match=reason):
        equity(players, board=board, dead=dead)


def test_equity_limits_are_refused_not_truncated() -> None:
    limits = Limits(max_trials=1000, max_exact_evaluations=1_000_000)
    with pytest.raises(LimitExceeded, match="2,000 trials asked; the limit is 1,000"):
        equity([p("AhKh"), p("QsQd")], method=Method.MONTE_CARLO, trials=2000, limits=limits)
    with pytest.raises(LimitExceeded, match="exact equity would take 3,424,608 hand evaluations"):
        equity([p("AhKh"), p("QsQd")], method=Method.EXACT, limits=limits)
    auto = equity([p("AhKh"), p("QsQd")], trials=500, seed=1, limits=limits)
    assert auto.method is Method.MONTE_CARLO and auto.deals == 500


def test_a_complete_board_is_one_deal() -> None:
    result = equity([p("AhKh"), p("AsKs"), p("2c2d")], board=p("Qh Jh Th 3s 4d"))
    assert result.deals == 1
    assert [(r.wins, r.ties, r.equity) for r in result.players] == [(1, 0, 1.0), (0, 0, 0.0),
                                                                       (0, 0, 0.0)]
    split = equity([p("AhKc"), p("AsKd")], board=p("Qh Jh Td 3s 4d"))
    assert [(r.wins, r.ties, r.equity) for r in split.players] == [(0, 1, 0.5), (0, 1, 0.5)]


def test_ten_players_with_one_range_share_alike_by_monte_carlo() -> None:
    # The same range for everyone: by symmetry each player's equity is exactly 1/10.
    result = equity(["22+, A2s+, K9o+"] * 10, trials=20_000, seed=3)
    assert result.method is Method.MONTE_CARLO and result.deals == 20_000
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)
    for player in result.players:
        assert abs(player.equity - 0.1) < 4 * player.std_error


def test_monte_carlo_on_the_turn_with_dead_cards_agrees_with_exact() -> None:
    players: list[list[int] | str] = [p("AhKh"), "QQ, JJ", p("9c8c")]
    board, dead = p("Qh 7h 2c 3s"), p("Jd 4h")
    exact = equity(players, board=board, dead=dead, method=Method.EXACT)
    sampled = equity(players, board=board, dead=dead, method=Method.MONTE_CARLO,
                     trials=100_000, seed=8)
    for mc, ex in zip(sampled.players, exact.players, strict=True):
        assert abs(mc.equity - ex.equity) <= 3 * mc.std_error  # 0 = 0 for a dead hand
