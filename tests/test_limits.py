"""poker/limits.py: the shared limits and the short quote every error message uses."""

from __future__ import annotations

import doctest

import pytest

import poker.limits as limits


def test_the_limits_module_doctests_pass() -> None:
    result = doctest.testmod(limits)
    assert result.attempted >= 3 and result.failed == 0


def test_quote_cuts_a_long_value_to_a_short_prefix_and_says_its_length() -> None:
    text = limits.quote("x" * 1_000_000)
    assert len(text) < 80 and "1000000 long" in text


@pytest.mark.parametrize("amount", [-1, 2**53, 2**64 - 1, 1.5, True, float("nan")])
def test_check_chips_refuses_what_is_not_a_whole_amount_in_range(amount: object) -> None:
    with pytest.raises(ValueError):
        limits.check_chips("amount", amount)  # type: ignore[arg-type]


def test_check_chips_takes_the_maximum_itself() -> None:
    assert limits.check_chips("amount", limits.MAX_CHIPS) == limits.MAX_CHIPS


def test_the_deck_proof_module_doctests_pass() -> None:
    import poker.deckproof as deckproof

    result = doctest.testmod(deckproof)
    assert result.attempted >= 5 and result.failed == 0
