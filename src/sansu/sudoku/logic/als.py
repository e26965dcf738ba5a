"""ALS-XZ: two almost locked sets joined by a digit that cannot be in both.

An *almost locked set* (ALS) is ``n`` cells of one unit holding ``n + 1``
digits between them: take one digit out and the rest are locked. If digit
``x`` is in both sets and every ``x`` of one sees every ``x`` of the other
(the *restricted common*), at most one set holds ``x``, so the other is
locked and holds all its other digits. So for another digit ``z`` in both,
one of the two sets holds it, and no cell seeing every ``z`` of both does.
"""

from __future__ import annotations

from functools import lru_cache

from sansu.sudoku.logic.board import (
    BIT,
    COUNT,
    DIGITS,
    PEER_BITS,
    UNIT_NAMES,
    UNITS,
    Board,
    cells_of,
)
from sansu.sudoku.logic.step import Step, cells_text, join, removals, step

MAX_CELLS = 4
"""The largest ALS looked for: bigger sets are hard to see and rarely needed."""

_Als = tuple[int, int, tuple[int, ...], int]  # (unit, cell mask, cells, digit mask)


def _sets(cands: list[int]) -> list[_Als]:
    """Every ALS of up to :data:`MAX_CELLS` cells, under the first unit that holds it."""
    found: dict[int, _Als] = {}
    for u, unit in enumerate(UNITS):
        empty = [c for c in unit if cands[c]]
        limit = min(MAX_CELLS, len(empty) - 1)
        # grow groups cell by cell; a union past limit + 1 digits only grows, so stop there
        stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]
        while stack:
            start, group, digits = stack.pop()
            for i in range(start, len(empty)):
                c = empty[i]
                union = digits | cands[c]
                if COUNT[union] > limit + 1:
                    continue
                grown = (*group, c)
                if COUNT[union] == len(grown) + 1:
                    bits = sum(1 << v for v in grown)
                    found.setdefault(bits, (u, bits, grown, union))
                if len(grown) < limit:
                    stack.append((i + 1, grown, union))
    return list(found.values())


@lru_cache(maxsize=65536)
def _sees_all(cells: int) -> int:
    """The cells that see every cell of the 81-bit mask ``cells``."""
    seen = (1 << 81) - 1
    for c in cells_of(cells):
        seen &= PEER_BITS[c]
    return seen


def als_xz(board: Board) -> Step | None:
    cands = board.cands
    sets = _sets(cands)
    sets.sort(key=lambda s: (len(s[2]), s[1]))
    places: dict[int, dict[int, int]] = {}  # per set, per digit: its cells holding the digit

    def where(i: int) -> dict[int, int]:
        if i not in places:
            cells = sets[i][2]
            places[i] = {d: sum(1 << c for c in cells if cands[c] & BIT[d]) for d in range(1, 10)}
        return places[i]

    for i, a in enumerate(sets):
        for j in range(i + 1, len(sets)):
            b = sets[j]
            common = a[3] & b[3]
            if COUNT[common] < 2 or a[1] & b[1]:
                continue
            pa, pb = where(i), where(j)
            for x in DIGITS[common]:
                if pb[x] & ~_sees_all(pa[x]):
                    continue  # not every x of one sees every x of the other
                elims = []
                for z in DIGITS[common & ~BIT[x]]:
                    sees = _sees_all(pa[z] | pb[z]) & ~(a[1] | b[1])
                    elims += [(c, z) for c in cells_of(sees) if cands[c] & BIT[z]]
                if elims:
                    return _step(a, b, x, elims)
    return None


def _step(a: _Als, b: _Als, x: int, elims: list[tuple[int, int]]) -> Step:
    def describe(s: _Als) -> str:
        return f"{cells_text(s[2])} in {UNIT_NAMES[s[0]]} ({join(DIGITS[s[3]])})"

    zs = sorted({d for _, d in elims})
    return step(
        "als-xz",
        f"ALS-XZ: {describe(a)} and {describe(b)} each have one digit more than cells; every "
        f"{x} of one sees every {x} of the other, so at most one holds {x} and the other is "
        f"locked. So one of them holds {join(zs)}: {removals(elims)}, which "
        f"{'sees' if len(elims) == 1 else 'see'} every {join(zs)} of both.",
        eliminations=elims,
        pattern=(*a[2], *b[2]),
        nudge=f"Look for two almost locked sets sharing {x} and another digit.",
    )
