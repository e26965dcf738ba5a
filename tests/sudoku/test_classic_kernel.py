"""The classic bit-board kernel against the general kernel and the brute-force reference.

The classic kernel deduces more than singles (locked candidates, the triad
rule) and branches on configurations, so every count and solution it gives
is checked on many random grids against the general kernel, which shares
none of that code, and on dense grids against the plain backtracking counter.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.sudoku import CLASSIC, count_many, parse_grid, random_solution, solve_many
from sansu.sudoku.grid import extends
from sansu.sudoku.kernels.classic_tables import CONFIGS, FORCED, KEEP, PERMUTATIONS, RIVALS
from sansu.sudoku.solver import run, run_many
from tests.sudoku.reference import CLASSIC_RULES


def random_grid(seed: int, keep: float, strays: int = 0) -> np.ndarray:
    """Givens taken from a random solved grid, plus ``strays`` digits put anywhere."""
    rng = np.random.default_rng(seed)
    grid = np.array(random_solution(seed), dtype=np.int8)
    grid[rng.random(81) >= keep] = 0
    for _ in range(strays):
        grid[rng.integers(81)] = rng.integers(1, 10)
    return grid


def check_against_general(grid: np.ndarray, limit: int) -> None:
    count, solution = run(grid, CLASSIC, limit)
    general, _ = run(grid, CLASSIC, limit, general=True)
    assert count == general
    if count:
        assert CLASSIC.is_satisfied_by(tuple(solution.tolist()))
        assert extends(tuple(solution.tolist()), tuple(grid.tolist()))


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 10**6),
    st.floats(0.0, 0.7),
    st.integers(0, 3),
    st.sampled_from([1, 2, 3, 7, 40]),
)
def test_counts_and_solutions_agree_with_the_general_kernel(seed, keep, strays, limit):
    check_against_general(random_grid(seed, keep, strays), limit)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.floats(0.55, 0.8), st.integers(0, 2))
def test_counts_on_dense_grids_match_the_brute_force_reference(seed, keep, strays):
    grid = random_grid(seed, keep, strays)
    givens = tuple(grid.tolist())
    assert run(grid, CLASSIC, 5)[0] == CLASSIC_RULES.count(givens, limit=5)


def test_many_random_grids_of_every_density():
    """A fixed sweep, so the agreement is checked on the same 600 grids every run."""
    grids = np.array([random_grid(seed, (seed % 12) / 14, seed % 3) for seed in range(600)])
    counts, solutions = run_many(grids, CLASSIC, 3)
    for grid, count, solution in zip(grids, counts, solutions, strict=True):
        general, _ = run(grid, CLASSIC, 3, general=True)
        assert count == general
        if count:
            assert CLASSIC.is_satisfied_by(tuple(solution.tolist()))
            assert extends(tuple(solution.tolist()), tuple(grid.tolist()))
    assert {0, 1, 3} <= set(counts.tolist())  # the sweep meets every kind of answer


def test_batches_answer_like_single_calls():
    grids = [random_grid(seed, 0.1 + seed / 40, seed % 2) for seed in range(30)]
    singles = [run(g, CLASSIC, 4) for g in grids]
    assert count_many(grids, limit=4) == [count for count, _ in singles]
    solved = solve_many(grids)
    for (count, solution), answer in zip(singles, solved, strict=True):
        assert answer == (tuple(solution.tolist()) if count else None)


def test_tries_count_the_search_work():
    easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    hard = ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6..."
    grids = np.array([parse_grid(easy), parse_grid(hard), [0] * 81], dtype=np.int8)
    tries = np.full(3, -1, dtype=np.int64)
    counts, _ = run_many(grids, CLASSIC, 2, tries)
    assert counts.tolist() == [1, 1, 2]
    assert tries[0] == 0  # propagation alone solves it
    assert tries[1] > 0 and tries[2] > 0
    again = np.zeros(3, dtype=np.int64)
    run_many(grids[::-1].copy(), CLASSIC, 2, again)
    assert again[::-1].tolist() == tries.tolist()  # per grid, whatever came before


def test_segment_tables_follow_from_the_permutations():
    """Each table entry recomputed straight from the six configurations of a chute."""
    for segments in range(512):
        inside = [p for p in PERMUTATIONS if p & segments == p]
        assert KEEP[segments] == (np.bitwise_or.reduce(inside) if inside else 0)
        assert CONFIGS[segments] == sum(1 << PERMUTATIONS.index(p) for p in inside)
        for t in range(9):
            line = [3 * (t // 3) + k for k in range(3)]
            box = [3 * k + t % 3 for k in range(3)]
            mine = segments >> t & 1
            alone = mine and (
                all(u == t or not segments >> u & 1 for u in line)
                or all(u == t or not segments >> u & 1 for u in box)
            )
            assert bool(FORCED[segments] >> t & 1) == bool(alone)
            rivals = sum(1 << u for u in set(line + box) - {t})
            if mine:
                assert RIVALS[segments] & rivals == rivals
