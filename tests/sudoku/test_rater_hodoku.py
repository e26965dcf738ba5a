"""The rater against an independent one: hodoku-py, a port of HoDoKu's solver.

HoDoKu has five levels too, cut differently: all singles are its "easy",
locked candidates and small subsets its "medium", fish, wings, colouring
and uniqueness its "hard", and longer chains and almost locked sets its
"unfair" (forcing chains and nets "extreme"). Mapped that way the two
should agree on nearly every random puzzle; where they do not, the reason
is a rung the two ladders place differently (see ``benchmarks/rater_bench.py``).
"""

from __future__ import annotations

import hodoku  # hodoku-py, a test dependency
import pytest

from sansu.sudoku import format_grid, generate
from sansu.sudoku.rater import rate

THEIRS = {
    "easy": ("easy",),
    "medium": ("easy",),
    "hard": ("medium",),
    "expert": ("hard",),
    "extreme": ("unfair", "extreme"),
}


@pytest.mark.slow
def test_levels_agree_with_hodoku_on_random_puzzles():
    solver = hodoku.Solver()
    agree, total = 0, 150
    for seed in range(total):
        puzzle = format_grid(generate(seed, symmetric=seed % 2 == 0).puzzle)
        ours = rate(puzzle)
        theirs = solver.solve(puzzle)
        level = theirs.level.name.lower()
        assert ours.solved and theirs.solved, puzzle
        # singles are singles on both ladders: "easy" for HoDoKu exactly when ours is
        # easy or medium
        assert (level == "easy") == (ours.level in ("easy", "medium")), puzzle
        agree += level in THEIRS[ours.level]
    assert agree >= 0.95 * total
