"""What a Sudoku Challenge player can deduce from the public grid, by skill.

A player sees the givens, the correct entries and the digits already found
wrong in a cell. From these a beginner spots only the most obvious cells, a
stronger player chains simple deductions, and the strongest solves the
puzzle outright (it has exactly one solution). Candidates are 9-bit masks,
bit ``d - 1`` for digit ``d``.

>>> grid = [0] + [2, 3, 4, 5, 6, 7, 8, 9] + [0] * 72
>>> known_digits(grid, [0] * 81, "glance")
{0: 1}
"""

from __future__ import annotations

from collections.abc import Sequence

from sansu.sudoku.grid import BOXES, PEERS, UNITS

VISIONS = ("glance", "singles", "chain", "solve")
ALL = 0x1FF


def candidate_masks(grid: Sequence[int], wrong: Sequence[int]) -> list[int]:
    """Per cell, the digits its peers and the known wrong entries leave (0 for a filled cell)."""
    masks = []
    for c in range(81):
        if grid[c]:
            masks.append(0)
            continue
        seen = 0
        for p in PEERS[c]:
            d = grid[p]
            if d:
                seen |= 1 << (d - 1)
        masks.append(ALL & ~seen & ~wrong[c])
    return masks


def _singles(
    grid: Sequence[int], masks: list[int], units: Sequence[Sequence[int]]
) -> dict[int, int]:
    """Naked singles anywhere and hidden singles in ``units``, from one look at ``masks``."""
    found: dict[int, int] = {}
    for c in range(81):
        m = masks[c]
        if m and not m & (m - 1):
            found[c] = m.bit_length()
    for unit in units:
        for d in range(9):
            bit = 1 << d
            if any(grid[c] == d + 1 for c in unit):
                continue
            places = [c for c in unit if masks[c] & bit]
            if len(places) == 1:
                found.setdefault(places[0], d + 1)
    return found


def known_digits(grid: Sequence[int], wrong: Sequence[int], vision: str) -> dict[int, int]:
    """The empty cells whose digit ``vision`` reveals, with that digit."""
    if vision not in VISIONS:
        raise ValueError(f"unknown vision {vision!r} (visions: {', '.join(VISIONS)})")
    if vision == "solve":
        from sansu.sudoku.solver import solve

        solution = solve(list(grid))
        if solution is not None:
            return {c: solution[c] for c in range(81) if not grid[c]}
        vision = "chain"  # a grid with no solution: deduce what can be deduced
    masks = candidate_masks(grid, wrong)
    if vision == "glance":
        return _singles(grid, masks, BOXES)
    if vision == "singles":
        return _singles(grid, masks, UNITS)
    work = list(grid)
    known: dict[int, int] = {}
    while True:
        found = {c: d for c, d in _singles(work, masks, UNITS).items() if c not in known}
        if not found:
            return known
        for c, d in found.items():
            if work[c]:
                continue
            work[c] = d
            known[c] = d
            masks[c] = 0
            for p in PEERS[c]:
                masks[p] &= ~(1 << (d - 1))
