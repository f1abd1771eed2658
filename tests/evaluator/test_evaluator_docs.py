"""The runnable examples in the evaluator's docstrings still run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["tables", "core", "explain", "ranges", "boards", "equity", "errors", "admission"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"services.evaluator.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
