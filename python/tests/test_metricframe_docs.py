"""The examples in the docstrings of issue 25's public functions run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "fairkit.metrics",
    "fairkit.metrics._frame",
    "fairkit.metrics._derived",
    "fairkit.metrics._roc",
    "fairkit.metrics._functions",
    "fairkit.datasets",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    pytest.importorskip("matplotlib")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
