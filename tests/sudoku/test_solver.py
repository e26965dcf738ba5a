"""Solving and counting: known answers, both kernels agreeing, and properties of any answer."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.sudoku import (
    CLASSIC,
    Constraints,
    count_many,
    count_solutions,
    format_grid,
    is_solvable,
    parse_grid,
    random_consecutive_layout,
    random_parity_layout,
    random_solution,
    solve,
    solve_many,
)
from sansu.sudoku.grid import extends
from sansu.sudoku.solver import run
from tests.sudoku.reference import CLASSIC_RULES, Rules

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "sudoku"

KNOWN = [
    (
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    ),
    (
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    ),
]
SOLVED = parse_grid(KNOWN[0][1])
RULE_FIELDS = ("diagonals", "parity", "consecutive", "strict_consecutive")


def data_set(name: str) -> list[str]:
    lines = (DATA / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize(("puzzle", "solution"), KNOWN)
def test_known_puzzles(puzzle, solution):
    assert format_grid(solve(puzzle)) == solution
    assert count_solutions(puzzle) == 1
    assert count_solutions(puzzle, limit=50) == 1
    assert is_solvable(puzzle)
    assert CLASSIC_RULES.count(parse_grid(puzzle)) == 1


def test_inputs_in_every_form():
    puzzle, solution = KNOWN[0]
    grid = parse_grid(puzzle)
    for form in (puzzle, puzzle.replace(".", "0"), grid, list(grid), np.array(grid)):
        assert format_grid(solve(form)) == solution
    with pytest.raises(ValueError, match="81 cells"):
        solve(puzzle[:-1])
    with pytest.raises(ValueError, match="limit"):
        count_solutions(puzzle, limit=0)
    with pytest.raises(TypeError):
        solve(puzzle, "diagonals")


def unique_rectangles(solution):
    """Cells (a, b, c, d): two rows of a band, two columns of two stacks, digits x y / y x."""
    found = []
    for r1 in range(9):
        for r2 in range(r1 + 1, (r1 // 3) * 3 + 3):
            for c1 in range(9):
                for c2 in range((c1 // 3) * 3 + 3, 9):
                    a, b, c, d = 9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2
                    if solution[a] == solution[d] and solution[b] == solution[c]:
                        found.append((a, b, c, d))
    return found


def test_counts_none_one_and_many():
    assert count_solutions(SOLVED) == 1
    assert count_solutions("." * 81, limit=1) == 1
    assert count_solutions("." * 81) == 2
    assert count_solutions("." * 81, limit=500) == 500

    rectangles = unique_rectangles(SOLVED)
    first = rectangles[0]
    grid = list(SOLVED)
    for cell in first:
        grid[cell] = 0
    assert count_solutions(grid, limit=10) == 2
    assert CLASSIC_RULES.count(grid, limit=10) == 2
    rows = {c // 9 for c in first}
    second = next(r for r in rectangles if not rows & {c // 9 for c in r})
    for cell in second:
        grid[cell] = 0
    assert count_solutions(grid, limit=10) == 4
    assert CLASSIC_RULES.count(grid, limit=10) == 4

    # A wrong digit that clashes with no given: the unique puzzle then has none.
    puzzle = list(parse_grid(KNOWN[0][0]))
    for cell in range(81):
        if puzzle[cell] == 0:
            wrong = next(
                d
                for d in range(1, 10)
                if d != SOLVED[cell] and CLASSIC.placement_error(puzzle, cell, d) is None
            )
            puzzle[cell] = wrong
            break
    assert count_solutions(puzzle) == 0
    assert not is_solvable(puzzle)
    assert solve(puzzle) is None
    assert CLASSIC_RULES.count(puzzle) == 0
    # Givens that clash directly have no solution either.
    clash = [0] * 81
    clash[0] = clash[1] = 4
    assert count_solutions(clash) == 0 and solve(clash) is None


@pytest.mark.parametrize("name", ["hard20.txt", "tdoku_test_unique.txt"])
def test_hard_sets_and_both_kernels_agree(name):
    for line in data_set(name):
        givens = parse_grid(line)
        solution = solve(givens)
        assert solution is not None and CLASSIC.is_satisfied_by(solution)
        assert extends(solution, givens)
        assert count_solutions(givens, limit=3) == 1
        array = np.array(givens, dtype=np.int8)
        count, out = run(array, CLASSIC, 3, general=True)
        assert count == 1 and tuple(out.tolist()) == solution


def test_kernels_agree_on_counts_of_open_grids():
    for seed in range(12):
        rng = np.random.default_rng(seed)
        grid = np.array(random_solution(seed), dtype=np.int8)
        grid[rng.random(81) < 0.6] = 0
        fast = count_solutions(grid, limit=40)
        general, _ = run(grid, CLASSIC, 40, general=True)
        assert fast == general


@st.composite
def positions(draw):
    """A rule set, a solution satisfying it, and givens taken from it (plus maybe a stray digit)."""
    seed = draw(st.integers(0, 10**6))
    diagonals = draw(st.booleans())
    solution = random_solution(seed, Constraints(diagonals=diagonals))
    parity = None
    if draw(st.booleans()):
        parity, _ = random_parity_layout(seed, solution, density=draw(st.floats(0, 1)))
    marks = frozenset()
    strict = draw(st.booleans())
    if strict or draw(st.booleans()):
        marks, _ = random_consecutive_layout(seed, solution, strict=strict)
    rules = Constraints(diagonals, parity, marks, strict)
    keep = draw(st.floats(0.0, 1.0))
    rng = np.random.default_rng(seed)
    givens = [d if rng.random() < keep else 0 for d in solution]
    strays = draw(st.integers(0, 2))
    for _ in range(strays):
        cell = int(rng.integers(81))
        givens[cell] = int(rng.integers(1, 10))
    return rules, solution, givens, strays


@settings(max_examples=150)
@given(positions())
def test_any_solution_satisfies_every_rule_and_extends_the_givens(case):
    rules, witness, givens, strays = case
    assert rules.is_satisfied_by(witness)
    solution = solve(givens, rules)
    count = count_solutions(givens, rules, limit=2)
    assert is_solvable(givens, rules) == (solution is not None) == (count > 0)
    if solution is not None:
        assert rules.is_satisfied_by(solution), rules.violations(solution)
        assert extends(solution, givens)
    if not strays:
        assert solution is not None
    if sum(1 for d in givens if d) >= 50:
        reference = Rules(*(getattr(rules, f) for f in RULE_FIELDS))
        assert reference.count(givens, limit=2) == count


def test_variant_counts_match_the_reference():
    for seed in range(6):
        solution = random_solution(seed, Constraints(diagonals=seed % 2 == 0))
        marks, _ = random_consecutive_layout(seed, solution, strict=seed % 3 == 0)
        parity, _ = random_parity_layout(seed, solution)
        rules = Constraints(seed % 2 == 0, parity, marks, seed % 3 == 0)
        rng = np.random.default_rng(seed)
        givens = [d if rng.random() < 0.45 else 0 for d in solution]
        reference = Rules(rules.diagonals, parity, marks, rules.strict_consecutive)
        assert count_solutions(givens, rules, limit=3) == reference.count(givens, limit=3)


def test_the_benchmark_mix_is_unique_and_both_kernels_agree():
    puzzles = data_set("mix1000.txt")
    assert len(puzzles) == 1000
    assert count_many(puzzles, limit=3) == [1] * 1000
    for puzzle, solution in zip(puzzles, solve_many(puzzles), strict=True):
        givens = parse_grid(puzzle)
        assert solution is not None and CLASSIC.is_satisfied_by(solution)
        assert extends(solution, givens)
    for puzzle in puzzles[::25]:
        count, _ = run(np.array(parse_grid(puzzle), dtype=np.int8), CLASSIC, 3, general=True)
        assert count == 1


def test_batches_take_every_form_and_name_a_bad_grid():
    puzzle, solution = KNOWN[0]
    grid = parse_grid(puzzle)
    clash = "11" + "." * 79
    expected = [1, 1, 0, 2]
    forms = [
        [puzzle, puzzle.replace(".", "0") + "  ", clash, "." * 81],
        [grid, list(grid), [1, 1] + [0] * 79, [0] * 81],
        np.array([grid, grid, [1, 1] + [0] * 79, [0] * 81], dtype=np.int64),
        (g for g in [puzzle, grid, clash, "." * 81]),
    ]
    for form in forms:
        assert count_many(form) == expected
    assert [format_grid(s) if s else None for s in solve_many([puzzle, clash])] == [solution, None]
    assert count_many([]) == [] and solve_many(np.zeros((0, 81), dtype=np.int8)) == []
    with pytest.raises(ValueError, match=r"grid 2: .*position 3"):
        count_many([puzzle, "..x" + "." * 78])
    with pytest.raises(ValueError, match="grid 1: a grid has 81 cells"):
        solve_many([[0] * 80])
    with pytest.raises(ValueError, match=r"grid 2: .* not a digit"):
        count_many(np.array([[0] * 81, [10] + [0] * 80]))
    with pytest.raises(ValueError, match="limit"):
        count_many([puzzle], limit=0)
    with pytest.raises(TypeError, match="collection of grids"):
        count_many(puzzle)
    with pytest.raises(TypeError):
        solve_many([puzzle], "diagonals")


@settings(max_examples=40, deadline=None)
@given(st.lists(positions(), min_size=1, max_size=4))
def test_batches_with_variants_answer_like_single_calls(cases):
    for rules, _, givens, _ in cases:
        batch = [givens, [0] * 81, givens]
        assert count_many(batch, rules, limit=3) == [
            count_solutions(g, rules, limit=3) for g in batch
        ]
        assert solve_many(batch, rules) == [solve(g, rules) for g in batch]
