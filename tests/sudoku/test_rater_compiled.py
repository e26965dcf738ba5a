"""The compiled rater against the Python reference: the same rating, puzzle after puzzle.

The compiled rungs are twins of the Python finders, so on any grid the two
must take the same path: same level, score, technique counts and step count.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.sudoku import generate
from sansu.sudoku.kernels import rater as kernel
from sansu.sudoku.rater import LADDER, LEVELS, Contradiction, rate, rate_up_to


def outcome(grid, **kw):
    """The rating, or the contradiction's message: on a grid with several solutions the
    uniqueness techniques may rule out every one of them."""
    try:
        return rate(grid, **kw)
    except Contradiction as error:
        return str(error)


def both(grid, **kw):
    return outcome(grid, **kw), outcome(grid, compiled=False, **kw)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**31), st.booleans())
def test_compiled_rating_equals_the_reference_on_random_puzzles(seed, symmetric):
    puzzle = generate(seed, symmetric=symmetric).puzzle
    fast, reference = both(puzzle)
    assert fast == reference


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**31), st.lists(st.booleans(), min_size=81, max_size=81), st.booleans())
def test_compiled_rating_equals_the_reference_on_open_grids(seed, keep, uniqueness):
    # a solved grid with random cells blanked: often several solutions, and any level
    solution = generate(seed).solution
    grid = [d if k else 0 for d, k in zip(solution, keep, strict=True)]
    fast, reference = both(grid, uniqueness=uniqueness)
    assert fast == reference


@pytest.mark.slow
def test_compiled_rating_equals_the_reference_on_two_thousand_puzzles():
    for seed in range(2000):
        puzzle = generate(seed, symmetric=seed % 2 == 0).puzzle
        fast, reference = both(puzzle)
        assert fast == reference, seed


def test_contradictions_are_reported_the_same_way():
    grid = "12345678." + "........9" + "." * 63
    with pytest.raises(Contradiction, match="r1c9"):
        rate(grid)
    with pytest.raises(Contradiction, match="r1c9"):
        rate(grid, compiled=False)
    with pytest.raises(Contradiction, match="r1c9"):
        rate_up_to(grid, "easy")


def test_the_compiled_rungs_are_the_bottom_of_the_ladder():
    names = [rung.name for rung in LADDER[: kernel.RUNGS]]
    assert names[12:14] == ["unique rectangle", "bug+1"]
    assert [rung.uniqueness for rung in LADDER[: kernel.RUNGS]].count(True) == 2
    assert names[-1] == "finned jellyfish"
    assert LADDER[kernel.RUNGS].name == "x-chain"
    assert all(rung.weight < 7.0 for rung in LADDER[: kernel.RUNGS])  # every rung up to expert


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(LEVELS))
def test_rate_up_to_is_the_rating_or_none_above_the_level(seed, level):
    puzzle = generate(seed).puzzle
    full = rate(puzzle)
    capped = rate_up_to(puzzle, level)
    if LEVELS.index(full.level) <= LEVELS.index(level):
        assert capped == full
    else:
        assert capped is None


def test_rate_up_to_rejects_unknown_levels():
    with pytest.raises(ValueError, match="unknown level"):
        rate_up_to("." * 81, "fiendish")
