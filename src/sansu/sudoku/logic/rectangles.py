"""Unique rectangles: deductions that assume the puzzle has one solution.

Four empty cells at the corners of a rectangle spanning two rows, two
columns and two boxes must not all be limited to the same two digits: their
two digits could then be swapped, giving a second solution. Type 1: when
three corners hold only ``{x, y}``, the fourth is neither ``x`` nor ``y``.
With two corners (the floor, in one row or column) holding only ``{x, y}``,
the other two (the roof) must not be ``x`` or ``y`` both. Type 2: the roof
adds the same one digit ``z``, so one roof corner is ``z`` and cells seeing
both lose it. Type 4: ``x`` can only go in the roof within a unit the roof
shares, so one roof corner is ``x`` and neither may be ``y``. Hidden: one
corner holds only ``{x, y}``, all four hold both, and the opposite corner's
row and column have ``x`` only in the rectangle; that corner is not ``y``.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import (
    BIT,
    COUNT,
    DIGIT_OF,
    DIGITS,
    NAMES,
    PEER_BITS,
    UNIT_NAMES,
    UNITS,
    Board,
    box_of,
    cells_of,
    shared_units,
)
from sansu.sudoku.logic.step import Step, cells_text, either, join, removals, step


def unique_rectangle(board: Board) -> Step | None:
    cands = board.cands
    for fourth in range(81):
        extra = cands[fourth]
        if COUNT[extra] < 3:
            continue
        row, col = divmod(fourth, 9)
        for a in range(9 * row, 9 * row + 9):
            mask = cands[a]
            if a == fourth or COUNT[mask] != 2 or extra & mask != mask:
                continue
            for r in range(9):
                b, opposite = 9 * r + col, 9 * r + a % 9
                if r == row or cands[b] != mask or cands[opposite] != mask:
                    continue
                if len({box_of(c) for c in (fourth, a, b, opposite)}) == 2:
                    return _step(opposite, a, b, fourth, mask)
    return _roof(board)


def _roof(board: Board) -> Step | None:
    """Types 2 and 4: a floor of two ``{x, y}`` cells, a roof with more."""
    cands = board.cands
    for a in range(81):
        mask = cands[a]
        if COUNT[mask] != 2:
            continue
        for b in range(a + 1, 81):
            if cands[b] != mask:
                continue
            if a // 9 == b // 9:
                roofs = [(9 * r + a % 9, 9 * r + b % 9) for r in range(9) if r != a // 9]
            elif a % 9 == b % 9:
                roofs = [(9 * (a // 9) + k, 9 * (b // 9) + k) for k in range(9) if k != a % 9]
            else:
                continue
            for c, d in roofs:
                if len({box_of(x) for x in (a, b, c, d)}) != 2:
                    continue
                if cands[c] & mask != mask or cands[d] & mask != mask:
                    continue
                if COUNT[cands[c]] < 3 or COUNT[cands[d]] < 3:
                    continue
                found = _type_2(board, a, b, c, d) or _type_4(board, a, b, c, d)
                if found is not None:
                    return found
    return _hidden(board)


def _hidden(board: Board) -> Step | None:
    """Hidden rectangle: corner ``a`` is ``{x, y}``, every corner holds both, and in the row
    and the column of the opposite corner ``x`` goes only in the rectangle."""
    cands = board.cands
    for a in range(81):
        mask = cands[a]
        if COUNT[mask] != 2:
            continue
        r1, c1 = divmod(a, 9)
        for d in range(81):
            r2, c2 = divmod(d, 9)
            if r2 == r1 or c2 == c1:
                continue
            side, top = 9 * r2 + c1, 9 * r1 + c2  # side shares d's row, top its column
            if any(cands[v] & mask != mask for v in (d, side, top)):
                continue
            if len({box_of(v) for v in (a, d, side, top)}) != 2:
                continue
            for x in DIGITS[mask]:
                row = [v for v in UNITS[r2] if cands[v] & BIT[x]]
                col = [v for v in UNITS[9 + c2] if cands[v] & BIT[x]]
                if row != sorted((side, d)) or col != sorted((top, d)):
                    continue
                y = DIGIT_OF[mask & ~BIT[x]]
                elims = [(d, y)]
                digits = join(DIGITS[mask])
                return step(
                    "unique rectangle",
                    f"Unique rectangle (hidden): {NAMES[a]} can only be {digits}, and the "
                    f"{x} of row {r2 + 1} and of column {c2 + 1} can only go in the rectangle "
                    f"{cells_text(sorted((a, side, top, d)))}. If {NAMES[d]} were {y}, "
                    f"{NAMES[side]} and {NAMES[top]} would both be {x} and {NAMES[a]} {y}, and "
                    f"the four corners could swap {digits}: {removals(elims)}.",
                    eliminations=elims,
                    pattern=(a, side, top, d),
                    nudge=f"Look for a rectangle over two boxes around {NAMES[a]}, which holds "
                    f"only {digits}.",
                )
    return None


def _type_2(board: Board, a: int, b: int, c: int, d: int) -> Step | None:
    cands = board.cands
    extra = cands[c] & ~cands[a]
    if cands[d] & ~cands[a] != extra or COUNT[extra] != 1:
        return None
    z = DIGIT_OF[extra]
    seen = PEER_BITS[c] & PEER_BITS[d]
    elims = [(v, z) for v in cells_of(seen) if cands[v] & extra]
    if not elims:
        return None
    digits = join(DIGITS[cands[a]])
    return step(
        "unique rectangle",
        f"Unique rectangle (type 2): {cells_text((a, b))} can only be {digits}, and "
        f"{cells_text((c, d))} only those or {z}; if neither were {z}, the four corners could "
        f"swap {digits} and the puzzle would have two solutions. So {either((c, d))} is {z}: "
        f"{removals(elims)}.",
        eliminations=elims,
        pattern=(a, b, c, d),
        nudge=f"Look for a rectangle over two boxes with two corners holding only {digits}.",
    )


def _type_4(board: Board, a: int, b: int, c: int, d: int) -> Step | None:
    cands = board.cands
    mask = cands[a]
    for u in shared_units((c, d)):
        for x in DIGITS[mask]:
            places = [v for v in UNITS[u] if cands[v] & BIT[x]]
            if places != sorted((c, d)):
                continue
            y = DIGIT_OF[mask & ~BIT[x]]
            elims = [(c, y), (d, y)]
            digits = join(DIGITS[mask])
            return step(
                "unique rectangle",
                f"Unique rectangle (type 4): {cells_text((a, b))} can only be {digits}, and in "
                f"{UNIT_NAMES[u]} the {x} can only go in {either((c, d))}, so one of them is "
                f"{x}; if the other were {y}, the four corners could swap {digits} and the "
                f"puzzle would have two solutions: {removals(elims)}.",
                eliminations=elims,
                pattern=(a, b, c, d),
                nudge=f"Look for a rectangle over two boxes with two corners holding only "
                f"{digits}.",
            )
    return None


def _step(corner: int, a: int, b: int, fourth: int, mask: int) -> Step:
    digits = join(DIGITS[mask])
    elims = [(fourth, d) for d in DIGITS[mask]]
    return step(
        "unique rectangle",
        f"Unique rectangle: {cells_text(sorted((corner, a, b)))} can only be {digits}; if "
        f"{NAMES[fourth]} were {DIGITS[mask][0]} or {DIGITS[mask][1]} too, the two digits could "
        f"swap places and the puzzle would have two solutions, so {removals(elims)}.",
        eliminations=elims,
        pattern=(corner, a, b, fourth),
        nudge=f"Look for a rectangle over two boxes with three corners holding only {digits}.",
    )


def bug_plus_one(board: Board) -> Step | None:
    """BUG+1: every empty cell has two candidates but one, which has three.

    Without that one extra candidate every digit would have exactly two
    places in each unit, and such a grid (a bivalue universal grave) has two
    solutions or none. So the cell's extra digit (the one with three places
    in its row, column and box) goes there.
    """
    values, cands = board.values, board.cands
    three = -1
    for c in range(81):
        if values[c] or COUNT[cands[c]] == 2:
            continue
        if COUNT[cands[c]] != 3 or three >= 0:
            return None
        three = c
    if three < 0:
        return None
    for d in DIGITS[cands[three]]:
        units = [UNITS[u] for u in (three // 9, 9 + three % 9, 18 + box_of(three))]
        if all(sum(1 for v in unit if cands[v] & BIT[d]) == 3 for unit in units):
            name = NAMES[three]
            return step(
                "bug+1",
                f"BUG+1: every empty cell but {name} has two candidates. If {name} were not {d}, "
                f"every digit would have two places in each row, column and box, and the puzzle "
                f"two solutions; so {name} is {d}.",
                placements=[(three, d)],
                pattern=[c for c in range(81) if cands[c]],
                nudge="Look at the one cell with three candidates: all the others have two.",
            )
    return None
