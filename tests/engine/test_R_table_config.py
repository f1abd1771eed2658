"""Table options as data (STYLE §3): presets, levels, limits, and refused configurations."""

from __future__ import annotations

import pytest

from services.dealer.engine import (
    AnteForm,
    ConfigError,
    Hand,
    Level,
    MinRaiseRule,
    PlayerIn,
    Preset,
    Structure,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER
from tests.engine.test_engine_helpers import start

LEVELS = (Level(50, 100), Level(100, 200, 25), Level(200, 400, 50))


def test_R9_level_rises_after_a_number_of_hands() -> None:
    config = TableConfig(levels=LEVELS, hands_per_level=10)
    assert [config.level_at(h) for h in (0, 9, 10, 25, 500)] == [
        LEVELS[0],
        LEVELS[0],
        LEVELS[1],
        LEVELS[2],
        LEVELS[2],
    ]


def test_R9_level_rises_after_minutes_or_hands_whichever_first() -> None:
    config = TableConfig(levels=LEVELS, hands_per_level=10, minutes_per_level=15)
    assert config.level_at(3, 14.9) == LEVELS[0]
    assert config.level_at(3, 15.0) == LEVELS[1]
    assert config.level_at(20, 1.0) == LEVELS[2]
    assert TableConfig(levels=LEVELS).level_at(1000, 1000.0) == LEVELS[0]  # 0: never


def test_R9_a_hand_plays_the_level_it_is_given() -> None:
    config = TableConfig(levels=LEVELS, hands_per_level=10)
    players = [PlayerIn(0, "a", 5000), PlayerIn(1, "b", 5000), PlayerIn(2, "c", 5000)]
    hand = Hand.start(config, players, 2, range(52), level=config.level_at(12),
                      ranker=DEFAULT_RANKER)
    assert hand.level == LEVELS[1]
    assert hand.bets == {0: 100, 1: 200, 2: 0}
    assert hand.stacks == {0: 5000 - 125, 1: 5000 - 225, 2: 5000 - 25}


def test_presets_decide_R17_and_R18_when_not_set() -> None:
    seed, standard = TableConfig(), TableConfig(preset=Preset.STANDARD)
    assert seed.preset is Preset.SEED  # the default preset
    assert (seed.effective_min_raise_rule, seed.effective_turn_river_min_bet) == (
        MinRaiseRule.DOUBLE,
        2,
    )
    assert (standard.effective_min_raise_rule, standard.effective_turn_river_min_bet) == (
        MinRaiseRule.STANDARD,
        1,
    )
    assert seed.structure is standard.structure is Structure.NO_LIMIT
    assert seed.all_in_exposure and standard.all_in_exposure  # R28 on in both


def test_R17_R18_explicit_options_win_over_the_preset() -> None:
    config = TableConfig(
        preset=Preset.SEED, min_raise_rule=MinRaiseRule.STANDARD, turn_river_min_bet=3
    )
    assert config.effective_min_raise_rule is MinRaiseRule.STANDARD
    assert config.effective_turn_river_min_bet == 3


def test_R32_R27_decision_time_limits_default_30_and_5_seconds() -> None:
    config = TableConfig()
    assert (config.action_time_ms, config.show_time_ms) == (30_000, 5_000)
    hand = start([1000, 1000])
    assert hand.decision_time_ms == 30_000


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"seats": 1}, "seats"),
        ({"seats": 11}, "seats"),
        ({"structure": "no limit"}, "structure"),
        ({"preset": "tda"}, "preset"),
        ({"levels": ()}, "levels"),
        ({"levels": (Level(50, 100), Level(50, 150))}, "levels[1]: big blind 150 must be twice"),
        ({"levels": (Level(0, 0),)}, "levels[0]: small blind 0"),
        ({"levels": (Level(50, 100, -1),)}, "levels[0]: ante -1"),
        ({"hands_per_level": -1}, "hands_per_level"),
        ({"minutes_per_level": -5.0}, "minutes_per_level"),
        ({"ante_form": "everyone"}, "ante_form"),
        ({"turn_river_min_bet": 0}, "turn_river_min_bet"),
        ({"min_raise_rule": "triple"}, "min_raise_rule"),
        ({"structure": Structure.FIXED_LIMIT, "turn_river_min_bet": 2}, "turn_river_min_bet"),
        ({"structure": Structure.FIXED_LIMIT, "min_raise_rule": MinRaiseRule.DOUBLE}, "min_raise"),
        ({"fixed_limit_cap": 0}, "fixed_limit_cap"),
        ({"all_in_exposure": "yes"}, "all_in_exposure"),
        ({"action_time_ms": 0}, "action_time_ms"),
        ({"show_time_ms": -1}, "show_time_ms"),
        ({"test_mode": 1}, "test_mode"),
    ],
)
def test_a_bad_configuration_is_refused_naming_the_option(
    options: dict[str, object], words: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        TableConfig(**options)  # type: ignore[arg-type]
    assert str(refused.value).startswith(words.split(":")[0])
    assert words in str(refused.value)


def test_R6_the_big_blind_is_twice_the_small_blind() -> None:
    with pytest.raises(ConfigError, match=r"\(R6\)"):
        TableConfig(levels=(Level(50, 120),))
    assert isinstance(ConfigError("x"), ValueError)


@pytest.mark.parametrize(
    ("players", "button", "deck", "words"),
    [
        ([PlayerIn(0, "a", 100)], 0, range(52), "players: 1 dealt in"),
        ([PlayerIn(0, "a", 100), PlayerIn(0, "b", 100)], 0, range(52), "given twice"),
        ([PlayerIn(0, "a", 100), PlayerIn(6, "b", 100)], 0, range(52), "seat 6"),
        ([PlayerIn(0, "a", 100), PlayerIn(1, "b", 0)], 0, range(52), "stack 0"),
        ([PlayerIn(0, "a", 100), PlayerIn(1, "b", 100)], 3, range(52), "button: seat 3"),
        ([PlayerIn(0, "a", 100), PlayerIn(1, "b", 100)], 0, [0] * 52, "deck"),
        ([PlayerIn(0, "a", 100), PlayerIn(1, "b", 100)], 0, range(51), "deck"),
    ],
)
def test_a_hand_that_cannot_start_is_refused(
    players: list[PlayerIn], button: int, deck: range | list[int], words: str
) -> None:
    with pytest.raises(ConfigError, match=words):
        Hand.start(TableConfig(), players, button, deck, ranker=DEFAULT_RANKER)


def test_R29_only_the_chips_dealt_in_play() -> None:
    hand = start([300, 5000, 5000])
    assert hand.legal_actions().max_to == 5000  # the button's stack, nothing more
    assert sum(hand.stacks.values()) + sum(hand.bets.values()) == 10_300


def test_config_is_frozen_data() -> None:
    config = TableConfig(ante_form=AnteForm.BIG_BLIND)
    with pytest.raises(AttributeError):
        config.seats = 9  # type: ignore[misc]
    assert config == TableConfig(ante_form=AnteForm.BIG_BLIND)
