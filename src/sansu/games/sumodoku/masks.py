"""Sumodoku's rule set as bit masks, for fast move generation.

Every colour keeps an 81-bit mask of the cells it may not go to (same unit,
parity mark, consecutive marks), so the legal placements of a colour are
``empty & ~blocked[colour]``; a placement ORs in the masks it forbids.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sansu.sudoku.constraints import Constraints
from sansu.sudoku.grid import ANTI_DIAGONAL, MAIN_DIAGONAL, NEIGHBOURS, PEERS


@dataclass(frozen=True)
class Masks:
    """A rule set as bit masks: what each placement forbids, for fast move generation."""

    start: tuple[int, ...]
    """``start[colour]``: cells the colour may never take (parity marks)."""
    forbids: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """``forbids[cell][colour]``: ``(colour, cells)`` pairs a piece there forbids."""


@lru_cache(maxsize=64)
def masks_of(rules: Constraints) -> Masks:
    """The masks of ``rules``, built once per rule set (games with equal options share them)."""
    peer_masks = []
    for cell in range(81):
        peers = set(PEERS[cell])
        if rules.diagonals:
            for diagonal in (MAIN_DIAGONAL, ANTI_DIAGONAL):
                if cell in diagonal:
                    peers.update(d for d in diagonal if d != cell)
        peer_masks.append(sum(1 << p for p in peers))
    start = [0] * 10
    if rules.parity is not None:
        for cell, mark in enumerate(rules.parity):
            if mark != ".":
                for colour in range(1, 10):
                    if (colour % 2 == 1) != (mark == "o"):
                        start[colour] |= 1 << cell
    marked = {cell: set() for cell in range(81)}
    for a, b in rules.consecutive:
        marked[a].add(b)
        marked[b].add(a)
    related = rules.consecutive or rules.strict_consecutive
    forbids = []
    for cell in range(81):
        per_colour: list[tuple[tuple[int, int], ...]] = [()]
        for colour in range(1, 10):
            blocked = [0] * 10
            blocked[colour] |= peer_masks[cell]
            if related:
                for other in NEIGHBOURS[cell]:
                    for c in range(1, 10):
                        near = abs(c - colour) == 1
                        if (other in marked[cell] and not near) or (
                            other not in marked[cell] and rules.strict_consecutive and near
                        ):
                            blocked[c] |= 1 << other
            per_colour.append(tuple((c, m) for c, m in enumerate(blocked) if m))
        forbids.append(tuple(per_colour))
    return Masks(tuple(start), tuple(forbids))


def replaced(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``values`` with one entry replaced."""
    return (*values[:index], value, *values[index + 1 :])
