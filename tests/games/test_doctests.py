"""The examples in the engines' docstrings run, so that they cannot rot."""

import doctest
import importlib

import pytest

MODULES = [
    "sansu.games.challenge.rounds",
    "sansu.games.sumodoku.setup",
    "sansu.envs.symmetry",
    "sansu.envs.vector",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
