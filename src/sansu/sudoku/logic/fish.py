"""Basic fish: x-wing (2 lines), swordfish (3), jellyfish (4).

If in ``k`` rows a digit can only go in the same ``k`` columns, those rows
take that digit's places in those columns, so the other rows cannot have it
there (and the same with rows and columns swapped). A fish depends only on
where its digit can go, so results are cached on that.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from sansu.sudoku.logic.board import BIT, COUNT, Board
from sansu.sudoku.logic.step import Step, join, removals, step

NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
_Found = tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=8192)
def _search(rows: tuple[int, ...], size: int) -> _Found | None:
    """A fish in ``rows`` (row ``r``'s bit ``c`` set if the digit may go on ``r, c``).

    Returns ``(by_rows, base lines, cover lines, cells to clear)``.
    """
    cols = tuple(sum(1 << r for r in range(9) if rows[r] >> c & 1) for c in range(9))
    for by_rows, lines in ((True, rows), (False, cols)):
        candidates = [i for i in range(9) if 2 <= COUNT[lines[i]] <= size]
        for base in combinations(candidates, size):
            union = 0
            for i in base:
                union |= lines[i]
            if COUNT[union] != size:
                continue
            cover = tuple(j for j in range(9) if union >> j & 1)
            clear = tuple(
                9 * i + j if by_rows else 9 * j + i
                for i in range(9)
                if i not in base and lines[i] & union
                for j in cover
                if lines[i] >> j & 1
            )
            if clear:
                return by_rows, base, cover, clear
    return None


def fish(board: Board, size: int) -> Step | None:
    cands, name = board.cands, NAMES[size]
    for digit in range(1, 10):
        bit = BIT[digit]
        rows = tuple(sum(1 << c for c in range(9) if cands[9 * r + c] & bit) for r in range(9))
        found = _search(rows, size)
        if found is None:
            continue
        by_rows, base, cover, clear = found
        kind, other = ("rows", "columns") if by_rows else ("columns", "rows")
        bases = f"{kind} {join(i + 1 for i in base)}"
        covers = f"{other} {join(j + 1 for j in cover)}"
        pattern = [9 * i + j if by_rows else 9 * j + i for i in base for j in cover]
        elims = [(c, digit) for c in clear]
        return step(
            name,
            f"{name.capitalize()} on {digit}: in {bases} the {digit} can only go in {covers}, "
            f"so no other {digit} fits in those {other}: {removals(elims)}.",
            eliminations=elims,
            pattern=[c for c in pattern if cands[c] & bit],
            nudge=f"Look for {'an' if size == 2 else 'a'} {name} on the {digit}s.",
        )
    return None


def x_wing(board: Board) -> Step | None:
    return fish(board, 2)


def swordfish(board: Board) -> Step | None:
    return fish(board, 3)


def jellyfish(board: Board) -> Step | None:
    return fish(board, 4)
