"""Grids: parsing, printing, and the reasons given for bad input."""

import pytest

from sansu.sudoku.grid import (
    ADJACENT_PAIRS,
    ANTI_DIAGONAL,
    BOXES,
    MAIN_DIAGONAL,
    PEERS,
    as_grid,
    extends,
    format_grid,
    parse_grid,
    pretty_grid,
)

CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_parse_and_format_round_trip():
    grid = parse_grid(CLASSIC)
    assert len(grid) == 81 and grid[:5] == (5, 3, 0, 0, 7)
    assert format_grid(grid) == CLASSIC
    assert parse_grid(CLASSIC.replace(".", "0")) == grid
    assert parse_grid(f"  {CLASSIC}\n") == grid
    assert format_grid(list(grid)) == CLASSIC


def test_geometry():
    assert all(len(p) == 20 for p in PEERS)
    assert BOXES[4][0] == 30 and BOXES[8][-1] == 80
    assert MAIN_DIAGONAL == (0, 10, 20, 30, 40, 50, 60, 70, 80)
    assert ANTI_DIAGONAL[0] == 8 and ANTI_DIAGONAL[-1] == 72
    assert len(ADJACENT_PAIRS) == 144


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5" * 80, "a grid has 81 cells, this one has 80 characters"),
        (CLASSIC + ".", "this one has 82 characters"),
        ("x" + CLASSIC[1:], "bad character 'x' at position 1 (r1c1)"),
        (CLASSIC[:40] + "-" + CLASSIC[41:], "bad character '-' at position 41 (r5c5)"),
    ],
)
def test_parse_errors_say_what_is_wrong(text, message):
    with pytest.raises(ValueError) as error:
        parse_grid(text)
    assert message in str(error.value)


def test_a_clashing_given_names_both_cells():
    text = list("." * 81)
    text[3] = "5"  # r1c4
    text[57] = "5"  # r7c4
    with pytest.raises(ValueError) as error:
        parse_grid("".join(text))
    assert str(error.value) == "r1c4: a 5 is already in column 4 (r7c4)"

    text = list("." * 81)
    text[0] = text[20] = "9"  # r1c1 and r3c3 share the top-left box
    with pytest.raises(ValueError) as error:
        parse_grid("".join(text))
    assert str(error.value) == "r1c1: a 9 is already in the top-left box (r3c3)"

    text = list("." * 81)
    text[10] = text[16] = "2"
    with pytest.raises(ValueError, match=r"^r2c2: a 2 is already in row 2 \(r2c8\)$"):
        parse_grid("".join(text))


def test_as_grid_accepts_sequences_and_checks_them():
    grid = parse_grid(CLASSIC)
    assert as_grid(list(grid)) == grid
    assert as_grid(CLASSIC) == grid
    with pytest.raises(ValueError, match="81 cells"):
        as_grid([0] * 80)
    with pytest.raises(ValueError, match="r1c2: 10 is not a digit"):
        as_grid([0, 10] + [0] * 79)
    with pytest.raises(ValueError):
        as_grid([0.5] * 81)
    with pytest.raises(ValueError):
        parse_grid(list(grid))  # parse_grid reads text only


def test_pretty_and_extends():
    grid = parse_grid(CLASSIC)
    lines = pretty_grid(grid).splitlines()
    assert len(lines) == 11 and lines[0] == "5 3 . | . 7 . | . . ."
    assert extends(grid, grid) and extends(grid, (0,) * 81)
    assert not extends((0,) * 81, grid)
