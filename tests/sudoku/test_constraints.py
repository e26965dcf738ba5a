"""Each variant rule on hand-made grids: what it forbids and how it says so."""

import pytest

from sansu.sudoku import CLASSIC, Constraints, is_solvable, solve
from sansu.sudoku.constraints import format_consecutive, parse_consecutive


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def grid_with(**placed: int) -> list[int]:
    grid = [0] * 81
    for name, digit in placed.items():
        grid[cell(name)] = digit
    return grid


def test_classic_rules_name_the_clashing_cell():
    grid = grid_with(r3c7=5, r9c1=4, r1c1=8)
    assert CLASSIC.placement_error(grid, cell("r3c2"), 5) == "a 5 is already in row 3 (r3c7)"
    assert CLASSIC.placement_error(grid, cell("r5c1"), 4) == "a 4 is already in column 1 (r9c1)"
    assert (
        CLASSIC.placement_error(grid, cell("r2c2"), 8)
        == "a 8 is already in the top-left box (r1c1)"
    )
    assert CLASSIC.placement_error(grid, cell("r3c7"), 1) == "r3c7 already holds a 5"
    assert CLASSIC.placement_error(grid, cell("r5c5"), 5) is None
    with pytest.raises(ValueError):
        CLASSIC.placement_error(grid, 81, 1)
    with pytest.raises(ValueError):
        CLASSIC.placement_error(grid, 0, 0)


def test_diagonals():
    rules = Constraints(diagonals=True)
    grid = grid_with(r1c1=5, r1c9=7)
    assert rules.placement_error(grid, cell("r9c9"), 5) == (
        "a 5 is already on the r1c1-r9c9 diagonal (r1c1)"
    )
    assert rules.placement_error(grid, cell("r5c5"), 7) == (
        "a 7 is already on the r1c9-r9c1 diagonal (r1c9)"
    )
    assert rules.placement_error(grid, cell("r5c4"), 5) is None
    assert CLASSIC.placement_error(grid, cell("r9c9"), 5) is None
    bad = grid_with(r2c2=3, r8c8=3)
    assert rules.violations(bad) == ["r8c8: a 3 is already on the r1c1-r9c9 diagonal (r2c2)"]
    assert CLASSIC.violations(bad) == []


def test_parity():
    layout = ["."] * 81
    layout[cell("r2c2")] = "e"
    layout[cell("r2c3")] = "o"
    rules = Constraints(parity="".join(layout))
    empty = [0] * 81
    assert rules.placement_error(empty, cell("r2c2"), 3) == "r2c2 is marked even"
    assert rules.placement_error(empty, cell("r2c2"), 4) is None
    assert rules.placement_error(empty, cell("r2c3"), 4) == "r2c3 is marked odd"
    assert rules.placement_error(empty, cell("r2c3"), 9) is None
    assert rules.violations(grid_with(r2c2=7)) == ["r2c2 is marked even but holds a 7"]
    assert rules.parity_of(cell("r2c2")) == "even" and rules.parity_of(0) is None


def test_consecutive_marks():
    pair = (cell("r4c4"), cell("r4c5"))
    rules = Constraints(consecutive=frozenset({pair}))
    grid = grid_with(r4c4=3)
    assert rules.placement_error(grid, cell("r4c5"), 7) == (
        "r4c4 and r4c5 are marked consecutive but 3 and 7 differ by 4"
    )
    assert rules.placement_error(grid, cell("r4c5"), 4) is None
    assert rules.placement_error(grid, cell("r4c5"), 2) is None
    # Unmarked neighbours are free unless the strict rule is on.
    assert rules.placement_error(grid, cell("r5c4"), 4) is None
    other = grid_with(r4c5=9)
    assert rules.placement_error(other, cell("r4c4"), 1) == (
        "r4c4 and r4c5 are marked consecutive but 1 and 9 differ by 8"
    )


def test_strict_consecutive():
    pair = (cell("r4c4"), cell("r4c5"))
    rules = Constraints(consecutive=frozenset({pair}), strict_consecutive=True)
    grid = grid_with(r4c4=3)
    assert rules.placement_error(grid, cell("r5c4"), 4) == (
        "r4c4 and r5c4 are not marked consecutive but 3 and 4 differ by 1"
    )
    assert rules.placement_error(grid, cell("r5c4"), 2) == (
        "r4c4 and r5c4 are not marked consecutive but 3 and 2 differ by 1"
    )
    assert rules.placement_error(grid, cell("r5c4"), 5) is None
    assert rules.placement_error(grid, cell("r4c5"), 4) is None
    assert rules.violations(grid_with(r1c1=1, r1c2=2)) == [
        "r1c1 and r1c2 are not marked consecutive but 1 and 2 differ by 1"
    ]


def test_constraints_are_checked_and_normalised():
    assert Constraints(consecutive=[(1, 0)]).consecutive == frozenset({(0, 1)})
    assert Constraints(consecutive="r1c1-r1c2, r4c4-r3c4").consecutive == frozenset(
        {(0, 1), (21, 30)}
    )
    assert Constraints(parity="." * 81).parity is None
    assert Constraints(parity="O" + "." * 80).parity == "o" + "." * 80
    assert Constraints() == CLASSIC and CLASSIC.is_classic
    assert hash(Constraints(diagonals=True)) == hash(Constraints(diagonals=True))
    with pytest.raises(ValueError, match="not orthogonally adjacent"):
        Constraints(consecutive=[(0, 10)])
    with pytest.raises(ValueError, match="81 marks, this one has 3"):
        Constraints(parity="oe.")
    with pytest.raises(ValueError, match=r"bad parity mark 'x' at position 2 \(r1c2\)"):
        Constraints(parity=".x" + "." * 79)
    with pytest.raises(ValueError, match="r1c1-r1c2-r1c3"):
        parse_consecutive("r1c1-r1c2-r1c3")
    with pytest.raises(ValueError, match="no cell r10c1"):
        parse_consecutive("r10c1-r9c1")
    marks = parse_consecutive("r3c4-r4c4,r1c1-r1c2")
    assert format_consecutive(marks) == "r1c1-r1c2,r3c4-r4c4"


# A solved grid to build variant positions from.
SOLUTION = [
    int(d)
    for d in "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
]


def test_solver_honours_each_variant():
    # r1c1 marked even while row 1 already holds 2, 4, 6 and 8: no completion.
    givens = grid_with(r1c2=2, r1c3=4, r1c4=6, r1c5=8)
    assert not is_solvable(givens, Constraints(parity="e" + "." * 80))
    odd = solve(givens, Constraints(parity="o" + "." * 80))
    assert odd is not None and odd[0] % 2 == 1

    # Diagonals: the classic solution repeats a 7 on the main diagonal.
    rules = Constraints(diagonals=True)
    assert rules.violations(SOLUTION)[0] == (
        "r4c4: a 7 is already on the r1c1-r9c9 diagonal (r2c2)"
    )
    assert not is_solvable(SOLUTION, rules)
    assert is_solvable(SOLUTION)

    # A consecutive mark between r1c1 (5) and r1c2 (3) cannot hold.
    marked = Constraints(consecutive=frozenset({(0, 1)}))
    assert not is_solvable(SOLUTION, marked)
    assert marked.violations(SOLUTION) == [
        "r1c1 and r1c2 are marked consecutive but 5 and 3 differ by 2"
    ]

    # Strict: the classic solution has consecutive neighbours, so with no marks it fails.
    assert not is_solvable(SOLUTION, Constraints(strict_consecutive=True))
    pairs = frozenset(
        (a, b)
        for a in range(81)
        for b in (a + 1, a + 9)
        if b < 81 and (b == a + 9 or a % 9 < 8) and abs(SOLUTION[a] - SOLUTION[b]) == 1
    )
    strict = Constraints(consecutive=pairs, strict_consecutive=True)
    assert strict.violations(SOLUTION) == []
    assert solve([0] * 81, strict) is not None


def test_solutions_respect_hand_made_variant_positions():
    cases = [
        (Constraints(diagonals=True), grid_with(r1c1=1, r2c2=2, r3c3=3)),
        (Constraints(parity="oeoeoeoeo" + "." * 63 + "eeee.oooo"), grid_with(r1c1=1)),
        (Constraints(consecutive="r5c5-r5c6,r1c1-r2c1,r1c1-r1c2"), grid_with(r5c5=9)),
        (Constraints(strict_consecutive=True), grid_with(r5c5=5)),
    ]
    for rules, givens in cases:
        solution = solve(givens, rules)
        assert solution is not None
        assert rules.is_satisfied_by(solution), rules.violations(solution)
        assert all(g in (0, s) for g, s in zip(givens, solution, strict=True))
    # A 9 marked consecutive with two cells of one box forces an 8 twice there.
    rules = Constraints(consecutive="r5c5-r5c6,r5c5-r6c5")
    assert not is_solvable(grid_with(r5c5=9), rules)
    assert is_solvable(grid_with(r5c5=5), rules)
    # Five cells of a row marked even cannot all be even.
    assert not is_solvable([0] * 81, Constraints(parity="eeeee" + "." * 76))
