"""The rater: a graded set, the hard data sets, the public API, and soundness properties.

Every deduction is checked against the true solution, found here by a tiny
independent backtracking solver (no code shared with the rater's logic).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.sudoku.rater import (
    BANDS,
    LADDER,
    LEVELS,
    WORK,
    Contradiction,
    Rating,
    Step,
    level_of,
    logical_steps,
    next_step,
    rate,
)

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "sudoku"

# --- a tiny independent solver -------------------------------------------------------------


def _peers(cell: int) -> set[int]:
    r, c = divmod(cell, 9)
    box = {9 * (r // 3 * 3 + i) + c // 3 * 3 + j for i in range(3) for j in range(3)}
    return ({9 * r + k for k in range(9)} | {9 * k + c for k in range(9)} | box) - {cell}


PEERS = [_peers(c) for c in range(81)]


def solutions(grid: str, limit: int = 2) -> list[str]:
    """Up to ``limit`` solutions, by trying the digits of the most constrained cell."""
    cells = [0 if ch in ".0" else int(ch) for ch in grid]
    found: list[str] = []

    def search() -> bool:
        best, options = -1, None
        for cell in range(81):
            if not cells[cell]:
                free = set(range(1, 10)) - {cells[p] for p in PEERS[cell]}
                if options is None or len(free) < len(options):
                    best, options = cell, free
                    if len(free) <= 1:
                        break
        if best < 0:
            found.append("".join(map(str, cells)))
            return len(found) >= limit
        for digit in sorted(options):
            cells[best] = digit
            if search():
                return True
        cells[best] = 0
        return False

    search()
    return found


@cache
def solution(grid: str) -> str:
    found = solutions(grid)
    assert len(found) == 1, f"{grid} has {len(found)} solutions"
    return found[0]


def check_steps(grid: str, truth: str, **kw: bool) -> list[Step]:
    """Every step of the path agrees with ``truth``; returns the steps."""
    steps = list(logical_steps(grid, **kw))
    for step in steps:
        for cell, digit in step.placements:
            assert int(truth[cell]) == digit, step
        for cell, digit in step.eliminations:
            assert int(truth[cell]) != digit, step
        assert step.placements or step.eliminations
    return steps


# --- a graded set: one puzzle per hardest technique, each with one solution -----------------

GRADED = [
    ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
     "naked single", "easy"),
    ("............1....8..89..37.4..5...69.36..2...1..........3..49.1.24..97.......68.2",
     "hidden single (box)", "easy"),
    ("..9...1.2.......5.32...5..8.45......8...3..266.2.9.5....1..3...7...4..6..8....9..",
     "hidden single (row or column)", "medium"),
    ("....9......2....8...9.58....476..9....3...5..59..3..1......7........415.6.1.....7",
     "locked candidates (pointing)", "hard"),
    ("....1...745.6.7...1..92.8...43....1.......79.6....1..89.......6..1.8.25.....9....",
     "locked candidates (claiming)", "hard"),
    (".....4.3.......4216.7....5...9..8...........28..739.6..2...3....9.8.1...458......",
     "naked pair", "hard"),
    (".1.8....7..9....3.4.....8.1......3.....1.8.5...75.9.6.2....6......971....56..3...",
     "hidden pair", "hard"),
    ("4...1.98.8.1.25..6.5..6...1......7.....2........146..8.4..93.............72...6.9",
     "naked triple", "hard"),
    (".......87.6...5.3...57..6.9..8..3........7.946.49..3...8..1..26...2...4...6...7..",
     "hidden triple", "hard"),
    (".8....9...653.....7.......89..7....1.3.....27.7...8..4.5...78.6...9.4.3........7.",
     "x-wing", "expert"),
    ("9...7.8....4..6..2......35.67..9.1...5..31...8.......5.....87.6......2..1.6....9.",
     "xy-wing", "expert"),
    ("2.58.....4...3....96.7.......3..2.148....5.7......4.5...2.....3.......6535..9...7",
     "unique rectangle", "expert"),
    ("..43.1...5.7....2.......4.5.5..73....78...36....98..1.7.6.......2....6.9...2.81..",
     "bug+1", "expert"),
    ("...1.3............4.7.62.........6...8..9.2...53..4.8.6..3...15........771.8...3.",
     "xyz-wing", "expert"),
    (".59....76..8..7......4...95...25.4.12.63......3.......5......84....23...8.2......",
     "w-wing", "expert"),
    ("8.64.1.3...2....1.1....87.....6..3255....4...6...9..............1.94.86....2.69..",
     "empty rectangle", "expert"),
    ("....5...6..9..14..5....783........82.........2..6..3.7.1....9.4.9..1..5...8.46...",
     "turbot fish", "expert"),
    ("..6...934..9..8......3.4....6.4.....5.......92..7..5...9.6....2431.8..6.......3..",
     "finned x-wing", "expert"),
    (".......6...1.9...2.54.78....9.5...1.6.......4.4...6.5....98.74.4...2.1...3.......",
     "simple colouring", "expert"),
    ("4.7.................5.47..8..8.6.32..9.....7..523.1....3.6..8.....5...6...9.845.3",
     "finned swordfish", "expert"),
    ("2....71....53.........12394....2.7...3.7.4.1...1.3....16825.........98....71....5",
     "x-chain", "extreme"),
    ("2..98.3....1...9.5.9..4..6.....59.....3...4.....63.....3..6..8.6.9...2....5.91..4",
     "xy-chain", "extreme"),
    ("4.....79...1.........684.3.98....5.23...2.........5...269..7......4......7.3.8..1",
     "als-xz", "extreme"),
    (".....7...1...985......352.1..65.....5.....97.89.......7..6.1.5..2.....39..5......",
     "forcing chain", "extreme"),
    (".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
     None, "extreme"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("puzzle", "hardest", "level"), GRADED, ids=[g[1] or "stuck" for g in GRADED]
)
def test_graded_puzzle(puzzle, hardest, level):
    truth = solution(puzzle)  # also proves the puzzle has exactly one solution
    rating = rate(puzzle)
    assert rating.level == level
    assert rating.solved == (hardest is not None)
    if hardest is not None:
        assert rating.hardest == hardest
    steps = check_steps(puzzle, truth)
    assert rating.steps == len(steps)
    assert sum(rating.techniques.values()) == rating.steps


def test_ratings_are_monotone_on_the_graded_set():
    ratings = [rate(puzzle) for puzzle, _, _ in GRADED]
    scores = [r.score for r in ratings]
    levels = [LEVELS.index(r.level) for r in ratings]
    assert scores == sorted(scores)
    assert levels == sorted(levels)
    assert ratings[0].level == "easy" and ratings[-1].level == "extreme"


def test_revealing_givens_makes_a_puzzle_easier():
    puzzle, _, _ = GRADED[9]  # x-wing
    truth = solution(puzzle)
    easier = "".join(
        t if i % 7 == 0 else p for i, (p, t) in enumerate(zip(puzzle, truth, strict=True))
    )
    assert rate(easier).score <= rate(puzzle).score


# --- the hard data sets --------------------------------------------------------------------


def _lines(name: str) -> list[str]:
    path = DATA / name
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def _completed(puzzle: str) -> str:
    """The grid after every logical step, checked to be a valid solution of ``puzzle``."""
    grid = list(puzzle.replace("0", "."))
    for step in logical_steps(puzzle):
        for cell, digit in step.placements:
            grid[cell] = str(digit)
    done = "".join(grid)
    assert "." not in done
    for cell in range(81):
        assert all(done[p] != done[cell] for p in PEERS[cell])
        assert puzzle[cell] in ".0" or puzzle[cell] == done[cell]
    return done


@pytest.mark.parametrize("name", ["hard20.txt", "tdoku_test_unique.txt"])
def test_hard_sets_rate_expert_or_extreme_unless_logic_earns_less(name):
    # These sets are hard for backtracking solvers; a few fall to simple human
    # logic. Such a puzzle may rate lower only if that logic really solves it.
    for puzzle in _lines(name):
        rating = rate(puzzle)
        assert rating.level in LEVELS
        if rating.level not in ("expert", "extreme"):
            assert rating.solved
            _completed(puzzle)
        if not rating.solved:
            assert rating.level == "extreme" and rating.score >= 10.0


def test_most_of_hard20_is_beyond_the_ladder():
    ratings = [rate(puzzle) for puzzle in _lines("hard20.txt")]
    assert sum(r.level == "extreme" for r in ratings) >= 15


# --- API -----------------------------------------------------------------------------------


def test_rating_fields_and_json():
    rating = rate(GRADED[3][0])
    assert isinstance(rating, Rating)
    assert rating.hardest == "locked candidates (pointing)"
    assert rating.techniques["locked candidates (pointing)"] >= 1
    data = json.loads(json.dumps(rating.to_dict()))
    assert data["level"] == "hard" and data["solved"] is True
    assert data["steps"] == rating.steps


def test_step_json():
    step = next_step(GRADED[0][0])
    data = json.loads(json.dumps(step.to_dict()))
    assert data["technique"] == "naked single"
    assert data["placements"] == [{"cell": "r5c5", "index": 40, "digit": 5}]
    assert data["eliminations"] == []


def test_grid_forms_agree():
    puzzle = GRADED[2][0]
    ints = [0 if ch == "." else int(ch) for ch in puzzle]
    assert rate(ints) == rate(puzzle) == rate(puzzle.replace(".", "0"))
    assert next_step(tuple(ints)) == next_step(f"  {puzzle}\n")


@pytest.mark.parametrize(
    ("grid", "reason"),
    [
        ("1" * 80, "81 cells"),
        ("x" + "." * 80, "bad character 'x' at position 1 \\(r1c1\\)"),
        ("5...5" + "." * 76, r"r1c1: a 5 is already in row 1 \(r1c5\)"),
        ([0] * 80 + [10], "r9c9: 10 is not a digit"),
        (None, "81-character string"),
    ],
)
def test_bad_grids(grid, reason):
    with pytest.raises(ValueError, match=reason):
        rate(grid)


def test_bad_candidates():
    with pytest.raises(ValueError, match="81 cells"):
        next_step("." * 81, [511] * 80)
    with pytest.raises(ValueError, match="not a digit"):
        next_step("." * 81, [[0]] * 81)


def test_solved_and_impossible_grids():
    truth = solution(GRADED[0][0])
    assert next_step(truth) is None
    assert rate(truth) == Rating("easy", 0.0, {}, True, 0, None)
    # no clash among the givens, yet r1c9 has no digit left
    with pytest.raises(Contradiction, match="r1c9"):
        rate("12345678." + "........9" + "." * 63)


def test_uniqueness_can_be_left_out():
    puzzle = GRADED[11][0]
    assert rate(puzzle).hardest == "unique rectangle"
    without = rate(puzzle, uniqueness=False)
    assert "unique rectangle" not in without.techniques
    assert without.score > rate(puzzle).score
    check_steps(puzzle, solution(puzzle), uniqueness=False)


def test_next_step_starts_the_path():
    for puzzle, _, _ in GRADED[::4]:
        assert next_step(puzzle) == next(iter(logical_steps(puzzle)))


def test_hints_follow_pencil_marks():
    puzzle = GRADED[0][0]
    truth = solution(puzzle)
    # the player has found every naked single; the hint continues from there
    marks = [1 << (int(d) - 1) for d in truth]
    step = next_step(puzzle, marks)
    assert step.technique in ("naked single", "full house")
    ((cell, digit),) = step.placements
    assert int(truth[cell]) == digit


def test_ladder_and_bands():
    weights = [rung.weight for rung in LADDER]
    assert weights == sorted(weights) and len(set(weights)) == len(weights)
    bounds = [bound for bound, _ in BANDS]
    for rung in LADDER:
        level = level_of(rung.weight)
        assert level_of(rung.weight + WORK * 0.999) == level, rung
        assert rung.weight + WORK < next((b for b in bounds if b > rung.weight), 10.0)
    assert [level_of(x) for x in (1.0, 1.99, 2.0, 3.0, 5.0, 7.0, 10.0)] == [
        "easy", "easy", "medium", "hard", "expert", "extreme", "extreme",
    ]  # fmt: skip
    assert LEVELS == ("easy", "medium", "hard", "expert", "extreme")


# --- properties ----------------------------------------------------------------------------


@st.composite
def symmetries(draw):
    """A random validity-preserving relabelling of a grid: digits, rows, columns, transpose."""
    digits = draw(st.permutations(range(1, 10)))
    bands, stacks = draw(st.permutations(range(3))), draw(st.permutations(range(3)))
    within_rows = [draw(st.permutations(range(3))) for _ in range(3)]
    within_cols = [draw(st.permutations(range(3))) for _ in range(3)]
    rows = [3 * bands[b] + within_rows[b][i] for b in range(3) for i in range(3)]
    cols = [3 * stacks[s] + within_cols[s][i] for s in range(3) for i in range(3)]
    flip = draw(st.booleans())

    def apply(grid: str) -> str:
        out = []
        for r in range(9):
            for c in range(9):
                rr, cc = (cols[c], rows[r]) if flip else (rows[r], cols[c])
                ch = grid[9 * rr + cc]
                out.append("." if ch in ".0" else str(digits[int(ch) - 1]))
        return "".join(out)

    return apply


POOL = [puzzle for puzzle, _, _ in GRADED[3:]]

FAST = settings(max_examples=50)


@FAST
@given(st.sampled_from(POOL), symmetries(), st.sets(st.integers(0, 80), max_size=12))
def test_every_deduction_agrees_with_the_solution(puzzle, symmetry, reveal):
    truth = solution(puzzle)
    grid = symmetry("".join(truth[i] if i in reveal else ch for i, ch in enumerate(puzzle)))
    check_steps(grid, symmetry(truth))


@FAST
@given(st.sampled_from(POOL), st.lists(st.integers(0, 511), min_size=81, max_size=81))
def test_hints_on_correct_pencil_marks_agree_with_the_solution(puzzle, noise):
    truth = solution(puzzle)
    # any pencil marks that keep the true digit: a careful player's notes
    marks = [noise[c] | 1 << (int(truth[c]) - 1) for c in range(81)]
    step = next_step(puzzle, marks)
    if step is not None:
        for cell, digit in step.placements:
            assert int(truth[cell]) == digit
        for cell, digit in step.eliminations:
            assert int(truth[cell]) != digit


@FAST
@given(symmetries(), st.lists(st.booleans(), min_size=81, max_size=81))
def test_sound_on_open_grids_with_many_solutions(symmetry, keep):
    truth = symmetry(solution(GRADED[0][0]))
    grid = "".join(ch if k else "." for ch, k in zip(truth, keep, strict=True))
    # not unique, so the rectangle's premise does not hold; everything else must still agree
    check_steps(grid, truth, uniqueness=False)
