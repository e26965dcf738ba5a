"""Scenario positions for the rater's upper rungs: finned fish, empty rectangle, xy-chains,
almost locked sets, uniqueness patterns and forcing chains.

Each position is built by hand (pencil marks on an empty grid) or taken from
a puzzle whose path reaches the technique; the expected eliminations were
checked by hand and, for the forcing chains, against the singles they follow.
"""

from __future__ import annotations

import pytest

from sansu.sudoku import generate
from sansu.sudoku.logic import fish, rectangles
from sansu.sudoku.logic.board import BIT, NAMES, Board
from sansu.sudoku.logic.forcing import follow, propagate
from sansu.sudoku.rater import logical_steps, next_step
from tests.sudoku.pencil_marks import (
    EMPTY,
    cell,
    cells,
    hint,
    marks,
    names_all,
    only,
    pairs,
    picture,
)

# --- finned fish, xy-chains, almost locked sets, forcing chains -------------------------------


def test_finned_x_wing():
    places = picture("""
        x x x x x x x x x
        . . x . . . . x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . . x . . . . x .
        x x x x x x x x x
        x x x x x x x x x
    """)
    found = hint(only(marks(), 4, places))
    assert found.technique == "finned x-wing"
    # the fin r2c9 and the fish both rule out the cells of column 8 in box 3
    assert set(found.eliminations) == pairs(4, "r1c8 r3c8")
    assert found.description.startswith(
        "Finned x-wing on 4: in rows 2 and 7 the 4 can only go in columns 3 and 8 or on the fin"
        " r2c9."
    )
    assert set(found.pattern) == cells("r2c3 r2c8 r2c9 r7c3 r7c8")


def test_sashimi_x_wing_is_named_in_the_description():
    places = picture("""
        x x x x x x x x x
        . . x . . . . . x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . . x . . . . x .
        x x x x x x x x x
        x x x x x x x x x
    """)
    board = Board.from_grid(EMPTY, only(marks(), 4, places))
    found = fish.finned_x_wing(board)  # the same cells make a turbot fish, found first
    assert found is not None and found.technique == "finned x-wing"
    assert set(found.eliminations) == pairs(4, "r1c8 r3c8")
    assert found.description.startswith("Finned x-wing (sashimi) on 4:")


def test_finned_swordfish():
    places = picture("""
        . x . . x . . . .
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . . . . x . . x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . x . . . . . x .
    """)
    board = Board.from_grid(EMPTY, only(marks(), 8, places))
    found = fish.finned_swordfish(board)
    assert found is not None and found.technique == "finned swordfish"
    # fin r5c9 in box 6: column 8 of box 6, outside rows 1, 5 and 9, loses the 8
    assert set(found.eliminations) == pairs(8, "r4c8 r6c8")
    assert "rows 1, 5 and 9" in found.description and "r5c9" in found.description


def test_xy_chain():
    found = hint(marks(r1c1="12", r1c5="23", r5c5="34", r5c9="14"))
    assert found.technique == "xy-chain"
    assert set(found.eliminations) == pairs(1, "r1c9 r5c1")
    assert set(found.pattern) == cells("r1c1 r1c5 r5c5 r5c9")
    assert names_all(found.description, "r1c1 r1c5 r5c5 r5c9 r1c9 r5c1")


def test_als_xz():
    found = hint(marks(r1c1="124", r2c2="24", r1c4="13", r2c5="23"))
    assert found.technique == "als-xz"
    # box 1 {r1c1, r2c2} and box 2 {r1c4, r2c5}: the 1s see each other, so one set holds 2
    assert set(found.eliminations) == pairs(2, "r2c1 r2c3")
    assert found.description.startswith(
        "ALS-XZ: r1c1 and r2c2 in box 1 (1, 2 and 4) and r1c4 and r2c5 in box 2 (1, 2 and 3)"
    )


CONTRADICTION = ".....7...1...985......352.1..65.....5.....97.89.......7..6.1.5..2.....39..5......"
VERITY = "1..7..9...495........6...37..721.5......8.2...5...6..........268....4.....1....9."


def _first_forcing_chain(puzzle: str):
    """The first forcing-chain step of the path, and the board it starts from."""
    board = Board.from_grid(puzzle)
    for found in logical_steps(puzzle):
        if found.technique == "forcing chain":
            return found, board
        for place, digit in found.placements:
            board.place(place, digit)
        for place, digit in found.eliminations:
            board.eliminate(place, digit)
    raise AssertionError("no forcing chain on the path")


def test_forcing_chain_by_contradiction():
    found, board = _first_forcing_chain(CONTRADICTION)
    assert found.weight == 8.0
    assert found.description == (
        "Forcing chain: if r1c3 were 4, the singles that follow would leave r9c5 with no digit,"
        " so remove 4 from r1c3."
    )
    ((where, digit),) = found.eliminations
    assert where == cell("r1c3")
    assert follow(board.values, board.cands, where, digit) == (None, "r9c5 with no digit")
    assert any(
        propagate(board.values, board.cands, where, d) is not None
        for d in range(1, 10)
        if board.cands[where] & BIT[d] and d != digit
    )


def test_forcing_chain_by_verity():
    found, board = _first_forcing_chain(VERITY)
    assert found.description.startswith("Forcing chain: r1c5 is 2 or 4; following each with")
    assert set(found.eliminations) == {(cell("r4c1"), 3), (cell("r5c4"), 3), (cell("r6c8"), 8)}
    (pivot,) = found.pattern
    outcomes = [
        propagate(board.values, board.cands, pivot, d)
        for d in range(1, 10)
        if board.cands[pivot] & BIT[d]
    ]
    assert len(outcomes) == 2 and None not in outcomes
    for target, digit in found.eliminations:
        assert board.cands[target] & BIT[digit]
        for values, cands in outcomes:
            assert values[target] != digit and not cands[target] & BIT[digit]


def _floor(**roof: str) -> list[int]:
    """r1c1 and r1c4 hold only 2 and 7 (no other 2 or 7 in row 1); the roof in row 2."""
    cands = marks(r1c1="27", r1c4="27", **roof)
    for c in cells("r1c2 r1c3 r1c5 r1c6 r1c7 r1c8 r1c9"):
        cands[c] &= ~(BIT[2] | BIT[7])
    return cands


def test_unique_rectangle_type_2():
    found = hint(_floor(r2c1="279", r2c4="279"))
    assert found.technique == "unique rectangle"
    assert set(found.eliminations) == pairs(9, "r2c2 r2c3 r2c5 r2c6 r2c7 r2c8 r2c9")
    assert found.description.startswith(
        "Unique rectangle (type 2): r1c1 and r1c4 can only be 2 and 7, and r2c1 and r2c4 only"
        " those or 9"
    )


def test_unique_rectangle_type_4():
    cands = only(
        _floor(r2c1="257", r2c4="278"), 7, set(range(81)) - set(range(9, 18)) | cells("r2c1 r2c4")
    )
    board = Board.from_grid(EMPTY, cands)
    found = rectangles.unique_rectangle(board)  # the 7s also make an x-wing; ask the rectangle
    assert found is not None and found.technique == "unique rectangle"
    assert set(found.eliminations) == pairs(2, "r2c1 r2c4")
    assert "in row 2 the 7 can only go in r2c1 or r2c4" in found.description
    assert next_step(EMPTY, cands, uniqueness=False).technique != "unique rectangle"


def test_finned_jellyfish():
    places = picture("""
        x x . x . . . . .
        x x x x x x x x x
        . . . x . x . . .
        x x x x x x x x x
        x x x x x x x x x
        . . . . . x . . x
        x x x x x x x x x
        x . . . . . . . x
        x x x x x x x x x
    """)
    board = Board.from_grid(EMPTY, only(marks(), 9, places))
    found = fish.finned_jellyfish(board)
    assert found is not None and found.technique == "finned jellyfish"
    # the jellyfish of test_jellyfish with a fin on r1c2: only r2c1 sees the fin and the fish
    assert found.eliminations == ((cell("r2c1"), 9),)
    assert found.description.startswith(
        "Finned jellyfish on 9: in rows 1, 3, 6 and 8 the 9 can only go in columns 1, 4, 6 and 9"
        " or on the fin r1c2."
    )


def test_empty_rectangle():
    box1 = cells("r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3")
    column7 = {9 * r + 6 for r in range(9)}
    keep = set(range(81)) - box1 - column7 | cells("r1c2 r2c1 r2c3 r3c2 r2c7 r8c7")
    found = hint(only(marks(), 5, keep))
    assert found.technique == "empty rectangle"
    # if r8c7 is 5, r8c2 shares its row; if r2c7 is, box 1's 5 is off row 2, so in column 2
    assert found.eliminations == ((cell("r8c2"), 5),)
    assert found.description.startswith(
        "Empty rectangle on 5: in box 1 the 5 lies in row 2 or column 2, and column 7 has its 5"
        " in r2c7 or r8c7."
    )


def test_bug_plus_one():
    puzzle = "..43.1...5.7....2.......4.5.5..73....78...36....98..1.7.6.......2....6.9...2.81.."
    board = Board.from_grid(puzzle)
    for found in logical_steps(puzzle):
        if found.technique == "bug+1":
            break
        for c, d in found.placements:
            board.place(c, d)
        for c, d in found.eliminations:
            board.eliminate(c, d)
    else:
        raise AssertionError("no bug+1 on the path")
    ((three, digit),) = found.placements
    counts = sorted(bin(m).count("1") for c, m in enumerate(board.cands) if not board.values[c])
    assert counts[-1] == 3 and set(counts[:-1]) == {2}
    assert bin(board.cands[three]).count("1") == 3
    # the placed digit is the one with three places in the cell's row, column and box
    for unit in (three // 9, three % 9):
        line = range(9 * unit, 9 * unit + 9) if unit == three // 9 else range(unit, 81, 9)
        assert sum(1 for c in line if board.cands[c] & BIT[digit]) == 3
    assert found.description.startswith(f"BUG+1: every empty cell but {NAMES[three]}")
    assert all(s.technique != "bug+1" for s in logical_steps(puzzle, uniqueness=False))


def test_hidden_rectangle():
    # r1c1 holds only 2 and 7; the 7s of row 2 and of column 4 lie only in the rectangle
    box2 = cells("r1c4 r1c5 r1c6 r2c4 r2c5 r2c6 r3c4 r3c5 r3c6")
    row2, column4 = set(range(9, 18)), {9 * r + 3 for r in range(9)}
    keep = set(range(81)) - row2 - column4 - box2 | cells("r2c1 r2c4 r1c4")
    found = hint(only(marks(r1c1="27"), 7, keep))
    assert found.technique == "unique rectangle"
    assert found.eliminations == ((cell("r2c4"), 2),)
    assert found.description.startswith(
        "Unique rectangle (hidden): r1c1 can only be 2 and 7, and the 7 of row 2 and of column 4"
        " can only go in the rectangle r1c1, r1c4, r2c1 and r2c4."
    )


@pytest.mark.slow
def test_every_step_on_random_puzzles_agrees_with_the_solution():
    for seed in range(500):
        puzzle = generate(seed, symmetric=seed % 2 == 1)
        steps = list(logical_steps(puzzle.puzzle))
        assert steps, seed
        for found in steps:
            for place, digit in found.placements:
                assert puzzle.solution[place] == digit, (seed, found.description)
            for place, digit in found.eliminations:
                assert puzzle.solution[place] != digit, (seed, found.description)
