"""Generated puzzles, solved grids and layouts: unique, reproducible, always completable."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.sudoku import (
    CLASSIC,
    Constraints,
    Puzzle,
    count_solutions,
    generate,
    random_consecutive_layout,
    random_parity_layout,
    random_solution,
    solve,
)
from sansu.sudoku.grid import ADJACENT_PAIRS, extends
from tests.sudoku.reference import CLASSIC_RULES, Rules


def check_puzzle(puzzle: Puzzle, reference: Rules) -> None:
    """Unique by the independent counter, and consistent with its own solution."""
    assert reference.count(puzzle.puzzle, limit=2) == 1
    assert puzzle.constraints.is_satisfied_by(puzzle.solution)
    assert extends(puzzle.solution, puzzle.puzzle)
    assert solve(puzzle.puzzle, puzzle.constraints) == puzzle.solution


@pytest.mark.parametrize("seed", range(6))
def test_classic_puzzles_are_unique_symmetric_and_minimal(seed):
    puzzle = generate(seed)
    check_puzzle(puzzle, CLASSIC_RULES)
    filled = [bool(d) for d in puzzle.puzzle]
    assert filled == filled[::-1]
    assert puzzle.level is None and puzzle.score is None
    assert 17 <= puzzle.givens <= 40
    grid = list(puzzle.puzzle)
    for cell in range(41):
        if grid[cell]:
            kept = grid[cell], grid[80 - cell]
            grid[cell] = grid[80 - cell] = 0
            assert count_solutions(grid) == 2
            grid[cell], grid[80 - cell] = kept


@pytest.mark.parametrize("seed", [11, 12])
def test_asymmetric_puzzles_are_unique_and_minimal(seed):
    puzzle = generate(seed, symmetric=False)
    check_puzzle(puzzle, CLASSIC_RULES)
    grid = list(puzzle.puzzle)
    for cell in range(81):
        if grid[cell]:
            kept, grid[cell] = grid[cell], 0
            assert count_solutions(grid) == 2
            grid[cell] = kept


def test_generation_is_reproducible():
    assert generate(5) == generate(5)
    assert generate(5).puzzle != generate(6).puzzle
    assert random_solution(9) == random_solution(9) != random_solution(10)
    assert random_parity_layout(4) == random_parity_layout(4)
    assert random_consecutive_layout(4) == random_consecutive_layout(4)
    assert generate(3, symmetric=False) == generate(3, symmetric=False)


def test_variant_puzzles_are_unique_under_their_rules():
    solution = random_solution(3)
    layout, _ = random_parity_layout(3, solution)
    check_puzzle(generate(1, constraints=Constraints(parity=layout)), Rules(parity=layout))
    check_puzzle(generate(1, constraints=Constraints(diagonals=True)), Rules(diagonals=True))
    marks, _ = random_consecutive_layout(3, solution)
    check_puzzle(generate(1, constraints=Constraints(consecutive=marks)), Rules(consecutive=marks))
    for seed in (2, 3):
        marks, _ = random_consecutive_layout(seed, strict=True)
        rules = Constraints(consecutive=marks, strict_consecutive=True)
        check_puzzle(generate(seed, constraints=rules), Rules(consecutive=marks, strict=True))


def test_random_solutions_satisfy_their_rules():
    for seed in range(5):
        assert CLASSIC.is_satisfied_by(random_solution(seed))
        diagonal = Constraints(diagonals=True)
        assert diagonal.is_satisfied_by(random_solution(seed, diagonal))
    strict = Constraints(strict_consecutive=True)
    assert strict.is_satisfied_by(random_solution(0, strict))
    with pytest.raises(ValueError, match="no grid satisfies"):
        random_solution(0, Constraints(parity="eeeee" + "." * 76))


def test_parity_layouts_match_their_solution():
    layout, solution = random_parity_layout(8, density=0.3)
    assert layout.count(".") == 81 - round(0.3 * 81)
    for mark, digit in zip(layout, solution, strict=True):
        assert mark == "." or (mark == "o") == (digit % 2 == 1)
    given = random_solution(99)
    assert random_parity_layout(8, given, density=1.0)[1] == given
    assert "." not in random_parity_layout(8, given, density=1.0)[0]
    assert set(random_parity_layout(8, given, density=0.0)[0]) == {"."}


def test_consecutive_layouts_match_their_solution():
    solution = random_solution(21)
    consecutive = {(a, b) for a, b in ADJACENT_PAIRS if abs(solution[a] - solution[b]) == 1}
    strict, same = random_consecutive_layout(21, solution, strict=True)
    assert same == solution and strict == consecutive
    some, _ = random_consecutive_layout(21, solution, density=0.5)
    assert some <= consecutive and len(some) == round(0.5 * len(consecutive))
    assert random_consecutive_layout(21, solution, density=0.0)[0] == frozenset()


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.floats(0.0, 1.0), st.booleans())
def test_layouts_always_admit_a_completion(seed, density, strict):
    layout, solution = random_parity_layout(seed, density=density)
    rules = Constraints(parity=layout)
    assert rules.is_satisfied_by(solution)
    completed = solve([0] * 81, rules)
    assert completed is not None and rules.is_satisfied_by(completed)

    marks, solution = random_consecutive_layout(seed, strict=strict, density=density)
    rules = Constraints(consecutive=marks, strict_consecutive=strict)
    assert rules.is_satisfied_by(solution)
    completed = solve([0] * 81, rules)
    assert completed is not None and rules.is_satisfied_by(completed)

    diagonal_solution = random_solution(seed, Constraints(diagonals=True))
    layout, _ = random_parity_layout(seed, diagonal_solution, density)
    marks, _ = random_consecutive_layout(seed, diagonal_solution, strict, density)
    both = Constraints(True, layout, marks, strict)
    assert both.is_satisfied_by(diagonal_solution)
    assert solve([0] * 81, both) is not None


def test_bad_arguments():
    with pytest.raises(ValueError, match="seed"):
        generate(-1)
    with pytest.raises(ValueError, match="seed"):
        random_solution("7")
    with pytest.raises(ValueError, match="density"):
        random_parity_layout(1, density=1.5)
    with pytest.raises(ValueError, match="solved grid"):
        random_consecutive_layout(1, [0] * 81)
    with pytest.raises(TypeError):
        generate(1, constraints="diagonals")


def test_puzzle_to_dict():
    data = generate(2).to_dict()
    assert set(data) == {"puzzle", "solution", "givens", "level", "score"}
    assert len(data["puzzle"]) == 81 and "." in data["puzzle"]
    rules = Constraints(diagonals=True)
    assert generate(2, constraints=rules).to_dict()["constraints"]["diagonals"] is True




@pytest.mark.parametrize("level", ["easy", "hard"])
def test_difficulty_is_the_raters_level(level):
    from sansu.sudoku.rater import rate

    puzzle = generate(4, level)
    assert puzzle.level == level
    rating = rate(puzzle.puzzle)
    assert rating.level == level and rating.score == puzzle.score
    assert count_solutions(puzzle.puzzle) == 1
    assert generate(4, level) == puzzle


def test_difficulty_errors():
    with pytest.raises(ValueError, match="unknown difficulty"):
        generate(1, "impossible")
    with pytest.raises(ValueError, match="classic"):
        generate(1, "easy", constraints=Constraints(diagonals=True))
    with pytest.raises(ValueError, match="attempts"):
        generate(1, "extreme", max_attempts=0)
