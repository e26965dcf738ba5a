"""A plain backtracking solution counter, written from the rules alone.

It shares no code with :mod:`sansu.sudoku` (not even the rule checks), so
tests can use it to confirm what the compiled solver says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def _box(cell: int) -> int:
    return (cell // 27) * 3 + (cell % 9) // 3


def _neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, 9)
    out = []
    if row > 0:
        out.append(cell - 9)
    if row < 8:
        out.append(cell + 9)
    if col > 0:
        out.append(cell - 1)
    if col < 8:
        out.append(cell + 1)
    return out


class Rules:
    """The rules to count under: classic, plus the variants given."""

    def __init__(
        self,
        diagonals: bool = False,
        parity: str | None = None,
        consecutive: Iterable[tuple[int, int]] = (),
        strict: bool = False,
    ) -> None:
        self.diagonals = diagonals
        self.parity = parity
        self.marked = {frozenset(p) for p in consecutive}
        self.strict = strict

    def allows(self, grid: Sequence[int], cell: int, digit: int) -> bool:
        row, col = divmod(cell, 9)
        for other in range(81):
            if other == cell or grid[other] != digit:
                continue
            r, c = divmod(other, 9)
            if r == row or c == col or _box(other) == _box(cell):
                return False
            if self.diagonals and (
                (r == c and row == col) or (r + c == 8 and row + col == 8)
            ):
                return False
        if not self._parity_ok(cell, digit):
            return False
        for other in _neighbours(cell):
            theirs = grid[other]
            if not theirs:
                continue
            if frozenset((cell, other)) in self.marked:
                if abs(theirs - digit) != 1:
                    return False
            elif self.strict and abs(theirs - digit) == 1:
                return False
        return True

    def valid(self, grid: Sequence[int]) -> bool:
        """True when every filled cell is allowed by the others."""
        work = list(grid)
        for cell, digit in enumerate(grid):
            if digit:
                work[cell] = 0
                if not self.allows(work, cell, digit):
                    return False
                work[cell] = digit
        return True

    def count(self, grid: Sequence[int], limit: int = 2) -> int:
        """Solutions of ``grid`` up to ``limit`` (0 if its filled cells already clash)."""
        work = list(grid)
        if not self.valid(work):
            return 0
        rows, cols, boxes, diags = [0] * 9, [0] * 9, [0] * 9, [0, 0]

        def mark(cell: int, digit: int, on: bool) -> None:
            bit = 1 << digit
            row, col = divmod(cell, 9)
            slots = [(rows, row), (cols, col), (boxes, _box(cell))]
            if self.diagonals and row == col:
                slots.append((diags, 0))
            if self.diagonals and row + col == 8:
                slots.append((diags, 1))
            for masks, i in slots:
                masks[i] = masks[i] | bit if on else masks[i] & ~bit

        def options(cell: int) -> list[int]:
            row, col = divmod(cell, 9)
            used = rows[row] | cols[col] | boxes[_box(cell)]
            if self.diagonals:
                used |= (diags[0] if row == col else 0) | (diags[1] if row + col == 8 else 0)
            out = []
            for digit in range(1, 10):
                if used >> digit & 1:
                    continue
                if not self._parity_ok(cell, digit):
                    continue
                if all(self._pair_ok(cell, digit, other, work[other]) for other in NEAR[cell]):
                    out.append(digit)
            return out

        for cell, digit in enumerate(work):
            if digit:
                mark(cell, digit, True)
        found = 0

        def search() -> bool:
            nonlocal found
            best: list[int] | None = None
            best_cell = -1
            for cell in range(81):
                if work[cell] == 0:
                    choice = options(cell)
                    if best is None or len(choice) < len(best):
                        best, best_cell = choice, cell
                        if len(choice) <= 1:
                            break
            if best is None:
                found += 1
                return found >= limit
            for digit in best:
                work[best_cell] = digit
                mark(best_cell, digit, True)
                stop = search()
                mark(best_cell, digit, False)
                work[best_cell] = 0
                if stop:
                    return True
            return False

        search()
        return found

    def _parity_ok(self, cell: int, digit: int) -> bool:
        mark = "." if self.parity is None else self.parity[cell]
        return mark == "." or (digit % 2 == 1) == (mark == "o")

    def _pair_ok(self, cell: int, digit: int, other: int, theirs: int) -> bool:
        if not theirs:
            return True
        if frozenset((cell, other)) in self.marked:
            return abs(theirs - digit) == 1
        return not (self.strict and abs(theirs - digit) == 1)


NEAR = [_neighbours(c) for c in range(81)]
CLASSIC_RULES = Rules()
