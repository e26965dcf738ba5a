"""Naked and hidden subsets (pairs, triples, quads) inside one unit.

Naked: ``k`` cells whose candidates together are only ``k`` digits, so those
digits go nowhere else in any unit the cells share. Hidden: ``k`` digits that
fit only in the same ``k`` cells of a unit, so those cells hold nothing else.
"""

from __future__ import annotations

from itertools import combinations

from sansu.sudoku.logic.board import (
    BIT,
    COUNT,
    DIGITS,
    UNIT_NAMES,
    UNITS,
    Board,
    shared_units,
)
from sansu.sudoku.logic.step import Step, cells_text, join, removals, step

SIZES = {2: "pair", 3: "triple", 4: "quad"}
_ORDER = (*range(18, 27), *range(18))  # boxes first, then rows and columns


def naked_subset(board: Board, size: int) -> Step | None:
    values, cands = board.values, board.cands
    name = SIZES[size]
    for u in _ORDER:
        small = [c for c in UNITS[u] if not values[c] and 2 <= COUNT[cands[c]] <= size]
        if len(small) < size:
            continue
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cands[c]
            if COUNT[union] != size:
                continue
            units = shared_units(group)
            elims = [
                (c, d)
                for v in units
                for c in UNITS[v]
                if c not in group and cands[c] & union
                for d in DIGITS[cands[c] & union]
            ]
            if not elims:
                continue
            where = join(UNIT_NAMES[v] for v in units)
            return step(
                f"naked {name}",
                f"Naked {name}: {cells_text(group)} can only hold {join(DIGITS[union])}, so "
                f"these digits go nowhere else in {where}: {removals(elims)}.",
                eliminations=elims,
                pattern=group,
                nudge=f"Look for a naked {name} in {UNIT_NAMES[u]}.",
            )
    return None


def hidden_subset(board: Board, size: int) -> Step | None:
    values, cands = board.values, board.cands
    name = SIZES[size]
    for u in _ORDER:
        unit = UNITS[u]
        places: dict[int, int] = {}  # digit -> mask of positions 0-8 in the unit
        for i, c in enumerate(unit):
            if not values[c]:
                for d in DIGITS[cands[c]]:
                    places[d] = places.get(d, 0) | 1 << i
        few = [d for d, p in places.items() if 2 <= COUNT[p] <= size]
        if len(few) < size or len(places) <= size:
            continue
        for digits in combinations(sorted(few), size):
            spots = 0
            for d in digits:
                spots |= places[d]
            if COUNT[spots] != size:
                continue
            keep = sum(BIT[d] for d in digits)
            cells = [unit[i] for i in range(9) if spots >> i & 1]
            elims = [(c, d) for c in cells for d in DIGITS[cands[c] & ~keep]]
            if not elims:
                continue
            where = UNIT_NAMES[u]
            return step(
                f"hidden {name}",
                f"Hidden {name}: in {where}, {join(digits)} fit only in {cells_text(cells)}, so "
                f"those cells hold nothing else: {removals(elims)}.",
                eliminations=elims,
                pattern=cells,
                nudge=f"Look for a hidden {name} in {where}.",
            )
    return None


def naked_pair(board: Board) -> Step | None:
    return naked_subset(board, 2)


def hidden_pair(board: Board) -> Step | None:
    return hidden_subset(board, 2)


def naked_triple(board: Board) -> Step | None:
    return naked_subset(board, 3)


def hidden_triple(board: Board) -> Step | None:
    return hidden_subset(board, 3)


def naked_quad(board: Board) -> Step | None:
    return naked_subset(board, 4)


def hidden_quad(board: Board) -> Step | None:
    return hidden_subset(board, 4)
