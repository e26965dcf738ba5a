"""One constructed position per technique: the hint finds the right deduction and names it.

Positions are pencil marks on an empty grid: every cell may hold every digit
except where a scenario says otherwise, so nothing simpler applies first.
"""

from __future__ import annotations

import pytest

from sansu.sudoku.logic import chains, fish
from sansu.sudoku.logic.board import BIT, Board, Contradiction
from sansu.sudoku.rater import next_step
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

# --- singles -------------------------------------------------------------------------------


def test_full_house():
    found = next_step("12345678." + "." * 72)
    assert found.technique == "full house"
    assert found.placements == ((8, 9),) and found.eliminations == ()
    assert found.description == (
        "Full house: r1c9 is the last empty cell in row 1, so it takes the missing 9."
    )


def test_naked_single_by_sight():
    grid = list("1234....." + "." * 72)
    for row, digit in ((1, "5"), (2, "6"), (3, "7"), (4, "8")):
        grid[9 * row + 8] = digit
    found = next_step("".join(grid))
    assert found.technique == "naked single"
    assert found.placements == ((cell("r1c9"), 9),)
    assert found.description == (
        "Naked single: r1c9 already sees 1, 2, 3, 4, 5, 6, 7 and 8 in its row, column and box,"
        " so it must be 9."
    )


def test_naked_single_from_pencil_marks():
    found = hint(marks(r5c5="9"))
    assert found.technique == "naked single"
    assert found.placements == ((cell("r5c5"), 9),)
    assert found.description == "Naked single: 9 is the only candidate left in r5c5."
    assert "box 5" in found.nudge


def test_hidden_single_in_box():
    box1 = cells("r1c1 r1c2 r1c3 r2c1 r2c3 r3c1 r3c2 r3c3")
    cands = [m & ~BIT[7] if c in box1 else m for c, m in enumerate(marks())]
    found = hint(cands)
    assert (found.technique, found.placements) == ("hidden single", ((cell("r2c2"), 7),))
    assert found.description == "Hidden single: in box 1, only r2c2 can hold a 7."
    assert found.weight == 1.5


def test_hidden_single_in_row_after_boxes():
    row4 = {9 * 3 + c for c in range(9)} - {cell("r4c6")}
    cands = [m & ~BIT[3] if c in row4 else m for c, m in enumerate(marks())]
    found = hint(cands)
    assert found.placements == ((cell("r4c6"), 3),)
    assert found.description == "Hidden single: in row 4, only r4c6 can hold a 3."
    assert found.weight == 2.0


# --- intersections and subsets ---------------------------------------------------------------


def test_pointing():
    box5 = cells("r4c4 r4c5 r4c6 r5c4 r5c5 r5c6 r6c4 r6c5 r6c6")
    cands = only(marks(), 6, set(range(81)) - (box5 - cells("r5c4 r5c5")))
    found = hint(cands)
    assert found.technique == "locked candidates (pointing)"
    assert set(found.eliminations) == pairs(6, "r5c1 r5c2 r5c3 r5c7 r5c8 r5c9")
    assert found.description.startswith(
        "Locked candidates (pointing): in box 5 the 6 must go in row 5 (r5c4 or r5c5), so remove 6"
    )
    assert names_all(found.description, "r5c1 r5c2 r5c3 r5c7 r5c8 r5c9")


def test_claiming():
    row1 = {c for c in range(9)} - cells("r1c1 r1c2")
    cands = [m & ~BIT[2] if c in row1 else m for c, m in enumerate(marks())]
    found = hint(cands)
    assert found.technique == "locked candidates (claiming)"
    assert set(found.eliminations) == pairs(2, "r2c1 r2c2 r2c3 r3c1 r3c2 r3c3")
    assert found.description.startswith(
        "Locked candidates (claiming): in row 1 the 2 must go in box 1 (r1c1 or r1c2)"
    )


def test_naked_pair():
    found = hint(marks(r1c1="38", r1c5="38"))
    assert found.technique == "naked pair"
    others = "r1c2 r1c3 r1c4 r1c6 r1c7 r1c8 r1c9"
    assert set(found.eliminations) == pairs(3, others) | pairs(8, others)
    assert found.description.startswith(
        "Naked pair: r1c1 and r1c5 can only hold 3 and 8, so these digits go nowhere else in row 1"
    )
    assert found.pattern == (cell("r1c1"), cell("r1c5"))


def test_naked_pair_sharing_a_row_and_box_clears_both():
    found = hint(marks(r1c1="38", r1c2="38"))
    assert found.technique == "naked pair"
    cleared = {c for c, _ in found.eliminations}
    assert cleared == cells("r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3")
    assert "row 1 and box 1" in found.description


def test_hidden_pair():
    box9 = cells("r7c7 r7c8 r7c9 r8c7 r8c8 r8c9 r9c7 r9c8 r9c9")
    keep = set(range(81)) - box9 | cells("r7c7 r9c9")
    cands = only(only(marks(), 4, keep), 6, keep)
    found = hint(cands)
    assert found.technique == "hidden pair"
    assert {c for c, _ in found.eliminations} == cells("r7c7 r9c9")
    assert {d for _, d in found.eliminations} == {1, 2, 3, 5, 7, 8, 9}
    assert found.description.startswith(
        "Hidden pair: in box 9, 4 and 6 fit only in r7c7 and r9c9, so those cells hold nothing else"
    )


def test_naked_triple():
    found = hint(marks(r4c1="12", r4c4="27", r4c9="17"))
    assert found.technique == "naked triple"
    others = "r4c2 r4c3 r4c5 r4c6 r4c7 r4c8"
    assert set(found.eliminations) == pairs(1, others) | pairs(2, others) | pairs(7, others)
    assert found.description.startswith(
        "Naked triple: r4c1, r4c4 and r4c9 can only hold 1, 2 and 7"
    )


def test_hidden_triple():
    column5 = {9 * r + 4 for r in range(9)}
    cands = marks()
    for digit, places in ((3, "r1c5 r4c5"), (5, "r4c5 r8c5"), (9, "r1c5 r8c5")):
        cands = only(cands, digit, set(range(81)) - column5 | cells(places))
    found = hint(cands)
    assert found.technique == "hidden triple"
    assert {c for c, _ in found.eliminations} == cells("r1c5 r4c5 r8c5")
    assert found.description.startswith(
        "Hidden triple: in column 5, 3, 5 and 9 fit only in r1c5, r4c5 and r8c5"
    )


def test_naked_quad():
    found = hint(marks(r5c1="12", r5c3="23", r5c5="34", r5c8="14"))
    assert found.technique == "naked quad"
    others = "r5c2 r5c4 r5c6 r5c7 r5c9"
    assert set(found.eliminations) == {(c, d) for c in cells(others) for d in (1, 2, 3, 4)}
    assert found.description.startswith(
        "Naked quad: r5c1, r5c3, r5c5 and r5c8 can only hold 1, 2, 3 and 4"
    )


def test_hidden_quad():
    row9 = {72 + c for c in range(9)}
    cands = marks()
    for digit, places in ((1, "r9c1 r9c4"), (2, "r9c4 r9c7"), (3, "r9c7 r9c5"), (4, "r9c5 r9c1")):
        cands = only(cands, digit, set(range(81)) - row9 | cells(places))
    found = hint(cands)
    assert found.technique == "hidden quad"
    assert set(found.eliminations) == {
        (c, d) for c in cells("r9c1 r9c4 r9c5 r9c7") for d in (5, 6, 7, 8, 9)
    }
    assert found.description.startswith(
        "Hidden quad: in row 9, 1, 2, 3 and 4 fit only in r9c1, r9c4, r9c5 and r9c7"
    )


# --- fish ----------------------------------------------------------------------------------


def test_x_wing():
    places = picture("""
        x x x x x x x x x
        . . x . . . . x .
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . . x . . . . x .
        x x x x x x x x x
        x x x x x x x x x
    """)
    found = hint(only(marks(), 4, places))
    assert found.technique == "x-wing"
    rest = "r1c3 r3c3 r4c3 r5c3 r6c3 r8c3 r9c3 r1c8 r3c8 r4c8 r5c8 r6c8 r8c8 r9c8"
    assert set(found.eliminations) == pairs(4, rest)
    assert found.description.startswith(
        "X-wing on 4: in rows 2 and 7 the 4 can only go in columns 3 and 8"
    )
    assert found.pattern == tuple(sorted(cells("r2c3 r2c8 r7c3 r7c8")))


def test_swordfish():
    places = picture("""
        . x . . x . . . .
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . . . . x . . x .
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        . x . . . . . x .
    """)
    found = hint(only(marks(), 8, places))
    assert found.technique == "swordfish"
    rows = (1, 2, 3, 5, 6, 7)  # 0-based rows outside the fish
    assert set(found.eliminations) == {(9 * r + c, 8) for r in rows for c in (1, 4, 7)}
    assert found.description.startswith(
        "Swordfish on 8: in rows 1, 5 and 9 the 8 can only go in columns 2, 5 and 8"
    )


def test_jellyfish():
    places = picture("""
        x . . x . . . . .
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
    found = fish.jellyfish(board)  # simpler patterns hide among these marks; ask the fish itself
    assert found is not None and found.technique == "jellyfish"
    assert set(found.eliminations) == {
        (9 * r + c, 9) for r in (1, 3, 4, 6, 8) for c in (0, 3, 5, 8)
    }
    assert found.description.startswith(
        "Jellyfish on 9: in rows 1, 3, 6 and 8 the 9 can only go in columns 1, 4, 6 and 9"
    )


# --- wings and uniqueness ------------------------------------------------------------------


def test_xy_wing():
    found = hint(marks(r2c2="12", r2c7="13", r5c2="23"))
    assert found.technique == "xy-wing"
    assert found.eliminations == ((cell("r5c7"), 3),)
    assert found.description == (
        "XY-wing: r2c2 is 1 or 2; if 1, r2c7 (1 or 3) is 3, if 2, r5c2 (2 or 3) is 3. "
        "Either way one of them is 3, so remove 3 from r5c7."
    )


def test_xyz_wing():
    found = hint(marks(r5c5="123", r5c2="13", r4c6="23"))
    assert found.technique == "xyz-wing"
    assert set(found.eliminations) == pairs(3, "r5c4 r5c6")
    assert names_all(found.description, "r5c5 r5c2 r4c6 r5c4 r5c6")


def test_w_wing():
    row5 = {36 + c for c in range(9)}
    cands = only(marks(r1c1="47", r9c9="47"), 7, set(range(81)) - row5 | cells("r5c1 r5c9"))
    found = hint(cands)
    assert found.technique == "w-wing"
    assert set(found.eliminations) == pairs(4, "r1c9 r9c1")
    assert found.description == (
        "W-wing: r1c1 and r9c9 both hold 4 or 7, and the 7 of row 5 is in r5c1 (which sees r1c1)"
        " or r5c9 (which sees r9c9); so they cannot both be 7, one of them is 4:"
        " remove 4 from r1c9 and r9c1."
    )


def _rectangle() -> list[int]:
    """r1c1, r1c4, r2c1 hold only 2 and 7; r2c4 holds 2, 7 or 9; no 2 or 7 elsewhere near."""
    cands = marks(r1c1="27", r1c4="27", r2c1="27", r2c4="279")
    row1 = set(range(9))
    box1_col1 = {c for c in range(81) if c % 9 == 0} | cells("r2c2 r2c3 r3c1 r3c2 r3c3")
    for c in (row1 | box1_col1) - cells("r1c1 r1c4 r2c1"):
        cands[c] &= ~(BIT[2] | BIT[7])
    return cands


def test_unique_rectangle():
    found = hint(_rectangle())
    assert found.technique == "unique rectangle"
    assert set(found.eliminations) == {(cell("r2c4"), 2), (cell("r2c4"), 7)}
    assert names_all(found.description, "r1c1 r1c4 r2c1 r2c4")
    assert "two solutions" in found.description


def test_unique_rectangle_is_skipped_without_uniqueness():
    found = next_step(EMPTY, _rectangle(), uniqueness=False)
    assert found is None or found.technique != "unique rectangle"


# --- chains --------------------------------------------------------------------------------


def test_turbot_fish():
    places = picture("""
        x . . . x . . . .
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x x x x x x x x x
        x . . . . x . . .
        x x x x x x x x x
        x x x x x x x x x
    """)
    found = hint(only(marks(), 1, places))
    assert found.technique == "turbot fish"
    assert set(found.eliminations) == pairs(1, "r2c6 r3c6 r8c5 r9c5")
    assert found.description == (
        "Turbot fish on 1: row 1 has its 1 in r1c5 or r1c1, row 7 in r7c1 or r7c6, and r1c1 sees"
        " r7c1, so r1c5 or r7c6 holds 1: remove 1 from r2c6, r3c6, r8c5 and r9c5,"
        " which see both."
    )


def test_simple_colouring():
    places = picture("""
        x . . . . x . . .
        . x . . . . x . x
        . . x x . . . x .
        . . . . x . . x x
        . . x . . . x . x
        . x x x x . x x x
        . . . . x . . x .
        x . . . . x . . .
        . x . . . . x x .
    """)
    board = Board.from_grid(EMPTY, only(marks(), 5, places))
    found = chains.simple_colouring(board)  # a finned x-wing hides here too; ask the colouring
    assert found is not None and found.technique == "simple colouring"
    assert set(found.eliminations) == pairs(5, "r6c2 r6c8")
    assert "r1c1, r3c4, r7c8, r8c6 and r9c2" in found.description
    assert "r1c6, r6c4, r7c5 and r8c1" in found.description
    assert "r6c2 and r6c8 see both colours" in found.description


def test_x_chain():
    places = picture("""
        x . . x . . . . .
        x x x x x x x x x
        x x x x x x x x x
        . . . x . . x . .
        x x x x x x x x x
        x x x x x x x x x
        . x . . . . x . .
        x x x x x x x x x
        x x x x x x x x x
    """)
    board = Board.from_grid(EMPTY, only(marks(), 7, places))
    found = chains.x_chain(board)  # a finned fish hides here too; ask the chain itself
    assert found is not None and found.technique == "x-chain"
    assert set(found.eliminations) == pairs(7, "r2c2 r3c2 r8c1 r9c1")
    assert "r1c1=r1c4-r4c4=r4c7-r7c7=r7c2" in found.description or (
        "r7c2=r7c7-r4c7=r4c4-r1c4=r1c1" in found.description
    )


# --- dead ends -----------------------------------------------------------------------------


def test_a_cell_without_candidates_is_a_contradiction():
    with pytest.raises(Contradiction, match="r3c3 has no candidate left"):
        next_step(EMPTY, marks(r3c3=""))


def test_no_step_when_nothing_applies():
    assert next_step(EMPTY) is None


def test_hints_leave_the_callers_pencil_marks_alone():
    cands = marks(r2c2="12", r2c7="13", r5c2="23")
    before = list(cands)
    assert next_step(EMPTY, cands) is not None
    assert cands == before
