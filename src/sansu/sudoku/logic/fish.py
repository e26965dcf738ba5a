"""Fish: x-wing (2 lines), swordfish (3), jellyfish (4), plain and finned.

If in ``k`` rows a digit can only go in the same ``k`` columns, those rows
take that digit's places in those columns, so the other rows cannot have it
there (and the same with rows and columns swapped). A finned fish has a few
extra places (the fins) inside one box: either a fin holds the digit or the
fish does, so the cells of the cover lines in the fin's box lose it (sashimi
when a base line keeps a single place in the cover). A fish depends only on
where its digit can go, so results are cached on that.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from sansu.sudoku.logic.board import BIT, COUNT, Board
from sansu.sudoku.logic.step import Step, either, join, removals, step

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


FINNED_NAMES = {2: "finned x-wing", 3: "finned swordfish", 4: "finned jellyfish"}
_FinnedFound = tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=8192)
def _finned_search(rows: tuple[int, ...], size: int) -> _FinnedFound | None:
    """A finned fish in ``rows``: ``(by_rows, base, cover, fins, cells to clear)``.

    The base lines' places outside the cover lines (the fins) all lie in one
    box; the cells of the cover lines in that box, outside the base, see
    every fin and the fish, so they lose the digit either way. Cover lines
    outside the fins' stack are forced; the rest are chosen in the stack.
    """
    cols = tuple(sum(1 << r for r in range(9) if rows[r] >> c & 1) for c in range(9))
    for by_rows, lines in ((True, rows), (False, cols)):
        usable = [i for i in range(9) if lines[i]]
        for base in combinations(usable, size):
            union = 0
            for i in base:
                union |= lines[i]
            if not size < COUNT[union] <= size + 3:
                continue
            for stack in range(3):
                block = 7 << 3 * stack
                outside = union & ~block
                need = size - COUNT[outside]
                if need < 1:
                    continue
                for low in range(8):
                    extra = low << 3 * stack
                    if extra & ~union or COUNT[extra] != need:
                        continue
                    found = _finned_at(lines, base, outside | extra, union & ~(outside | extra))
                    if found is not None:
                        fins, clear = found
                        return (
                            by_rows,
                            base,
                            tuple(j for j in range(9) if (outside | extra) >> j & 1),
                            tuple(9 * i + j if by_rows else 9 * j + i for i, j in fins),
                            tuple(9 * i + j if by_rows else 9 * j + i for i, j in clear),
                        )
    return None


def _finned_at(
    lines: tuple[int, ...], base: tuple[int, ...], cover: int, fin_lines: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The fins and the cells to clear of one choice of cover, if it makes a finned fish."""
    if any(not lines[i] & cover for i in base):
        return None
    fins = [(i, j) for i in base for j in range(9) if (lines[i] & fin_lines) >> j & 1]
    band = fins[0][0] // 3
    if any(i // 3 != band for i, _ in fins):
        return None
    stack = fins[0][1] // 3
    clear = [
        (i, j)
        for i in range(3 * band, 3 * band + 3)
        if i not in base
        for j in range(3 * stack, 3 * stack + 3)
        if cover >> j & 1 and lines[i] >> j & 1
    ]
    return (fins, clear) if clear else None


def finned_fish(board: Board, size: int) -> Step | None:
    cands, name = board.cands, FINNED_NAMES[size]
    for digit in range(1, 10):
        bit = BIT[digit]
        rows = tuple(sum(1 << c for c in range(9) if cands[9 * r + c] & bit) for r in range(9))
        found = _finned_search(rows, size)
        if found is None:
            continue
        by_rows, base, cover, fins, clear = found
        kind, other = ("rows", "columns") if by_rows else ("columns", "rows")
        body = [9 * i + j if by_rows else 9 * j + i for i in base for j in cover]
        body = [c for c in body if cands[c] & bit]
        line = 9 if by_rows else 1
        sashimi = any(sum(1 for c in body if c // line % 9 == i) < 2 for i in base)
        title = f"{name} (sashimi)" if sashimi else name
        elims = [(c, digit) for c in clear]
        return step(
            name,
            f"{title.capitalize()} on {digit}: in {kind} {join(i + 1 for i in base)} the {digit} "
            f"can only go in {other} {join(j + 1 for j in cover)} or on the "
            f"fin{'s' if len(fins) > 1 else ''} {either(fins)}. Whether a fin holds it or the fish "
            f"does, {removals(elims)}, which {'sees' if len(elims) == 1 else 'see'} every fin and "
            f"{'lies' if len(elims) == 1 else 'lie'} in the fish's {other}.",
            eliminations=elims,
            pattern=[*body, *fins],
            nudge=f"Look for a fish on the {digit}s with a fin.",
        )
    return None


def finned_x_wing(board: Board) -> Step | None:
    return finned_fish(board, 2)


def finned_swordfish(board: Board) -> Step | None:
    return finned_fish(board, 3)


def finned_jellyfish(board: Board) -> Step | None:
    return finned_fish(board, 4)
