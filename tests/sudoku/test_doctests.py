"""The examples in the toolkit's docstrings run, so the documentation cannot rot."""

import doctest
import importlib

import pytest

MODULES = [
    "sansu.sudoku",
    "sansu.sudoku.grid",
    "sansu.sudoku.constraints",
    "sansu.sudoku.solver",
    "sansu.sudoku.generator",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
