"""One logical deduction, and the few phrases every description is built from.

A step says what a person would say ("Hidden single: in row 3, only r3c7
can hold a 5."), what it changes (placements, eliminations) and which cells
make the case, so a game can show it as text or highlight it on the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sansu.sudoku.logic.board import NAMES

Placement = tuple[int, int]
"""``(cell, digit)``: cell index 0-80 row-major, digit 1-9."""


@dataclass(frozen=True)
class Step:
    """A deduction: ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs.

    ``pattern`` lists the cells whose candidates prove it (for highlighting);
    ``nudge`` is a vaguer first hint that names the technique and where to
    look; ``weight`` is the technique's difficulty on the rating scale.
    """

    technique: str
    description: str
    placements: tuple[Placement, ...] = ()
    eliminations: tuple[Placement, ...] = ()
    pattern: tuple[int, ...] = ()
    nudge: str = ""
    weight: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        def pairs(items: tuple[Placement, ...]) -> list[dict[str, Any]]:
            return [{"cell": NAMES[c], "index": c, "digit": d} for c, d in items]

        return {
            "technique": self.technique,
            "description": self.description,
            "placements": pairs(self.placements),
            "eliminations": pairs(self.eliminations),
            "pattern": [NAMES[c] for c in self.pattern],
            "nudge": self.nudge,
            "weight": self.weight,
        }


def join(words: Iterable[object]) -> str:
    """``["a", "b", "c"]`` → ``"a, b and c"``."""
    items = [str(w) for w in words]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def cells_text(cells: Iterable[int]) -> str:
    return join(NAMES[c] for c in cells)


def either(cells: Sequence[int]) -> str:
    """``"r1c1 or r1c5"``: the places a digit is confined to."""
    names = [NAMES[c] for c in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def removals(eliminations: Iterable[Placement]) -> str:
    """``"remove 3 from r1c7 and r1c9, and 8 from r1c9"``, grouped the shorter way."""
    by_digit: dict[int, list[int]] = {}
    by_cell: dict[int, list[int]] = {}
    for cell, digit in sorted(eliminations):
        by_digit.setdefault(digit, []).append(cell)
        by_cell.setdefault(cell, []).append(digit)
    digits_of_cells: dict[tuple[int, ...], list[int]] = {}  # the same cells lose these digits
    for digit, cells in sorted(by_digit.items()):
        digits_of_cells.setdefault(tuple(cells), []).append(digit)
    cells_of_digits: dict[tuple[int, ...], list[int]] = {}  # these cells lose the same digits
    for cell, digits in sorted(by_cell.items()):
        cells_of_digits.setdefault(tuple(digits), []).append(cell)
    if len(cells_of_digits) < len(digits_of_cells):
        parts = [f"{join(ds)} from {cells_text(cs)}" for ds, cs in cells_of_digits.items()]
    else:
        parts = [f"{join(ds)} from {cells_text(cs)}" for cs, ds in digits_of_cells.items()]
    if len(parts) == 1:
        return f"remove {parts[0]}"
    return f"remove {', '.join(parts[:-1])}, and {parts[-1]}"


def step(
    technique: str,
    description: str,
    *,
    placements: Iterable[Placement] = (),
    eliminations: Iterable[Placement] = (),
    pattern: Iterable[int] = (),
    nudge: str = "",
) -> Step:
    """A :class:`Step` with its pairs sorted and its pattern in cell order."""
    return Step(
        technique,
        description,
        tuple(sorted(placements)),
        tuple(sorted(set(eliminations))),
        tuple(sorted(set(pattern))),
        nudge,
    )
