"""The rules a grid must obey: the classic three plus Sumodoku's composable variants.

One immutable :class:`Constraints` value describes a rule set (Sudoku X
diagonals, odd/even cell marks, consecutive marks between neighbours, strict
non-consecutive), so the same object is a game option, a solver argument and
a cache key. Its reasons read like a referee's remark and name the clashing
cell, because players see them.

    >>> rules = Constraints(diagonals=True)
    >>> grid = [0] * 81
    >>> grid[0] = 5
    >>> rules.placement_error(grid, 80, 5)
    'a 5 is already on the r1c1-r9c9 diagonal (r1c1)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sansu.core.cells import cell_name, parse_placement
from sansu.sudoku.grid import (
    ADJACENT_PAIRS,
    ANTI_DIAGONAL,
    BOXES,
    COLUMNS,
    MAIN_DIAGONAL,
    NEIGHBOURS,
    ROWS,
    SIZE,
    as_grid,
    box_name,
    classic_clash,
)

DIAGONALS = (
    ("on the r1c1-r9c9 diagonal", MAIN_DIAGONAL),
    ("on the r1c9-r9c1 diagonal", ANTI_DIAGONAL),
)
"""The two long diagonals of Sudoku X, each with the phrase that locates a digit on it."""
PARITY_MARKS = frozenset("oe.")
_PAIR_SEPARATOR = re.compile(r"\s*[-:]\s*")


def _parity_word(mark: str) -> str:
    return "odd" if mark == "o" else "even"


def _check_parity(parity: Any) -> str | None:
    if parity is None:
        return None
    if not isinstance(parity, str):
        raise ValueError(f"a parity layout is text, not {type(parity).__name__}")
    layout = parity.strip().lower()
    if len(layout) != SIZE:
        raise ValueError(f"a parity layout has 81 marks, this one has {len(layout)}")
    for position, mark in enumerate(layout):
        if mark not in PARITY_MARKS:
            raise ValueError(
                f"bad parity mark {mark!r} at position {position + 1} ({cell_name(position)}):"
                " expected 'o' (odd), 'e' (even) or '.'"
            )
    return None if set(layout) == {"."} else layout


def _check_pairs(pairs: Any) -> frozenset[tuple[int, int]]:
    if isinstance(pairs, str):
        return parse_consecutive(pairs)
    out = set()
    for pair in pairs:
        try:
            a, b = (int(x) for x in pair)
        except (TypeError, ValueError):
            raise ValueError(f"a consecutive mark is two cell indices, not {pair!r}") from None
        if not (0 <= a < SIZE and 0 <= b < SIZE):
            raise ValueError(f"a consecutive mark {pair!r} names a cell outside the grid")
        a, b = min(a, b), max(a, b)
        if b not in NEIGHBOURS[a]:
            raise ValueError(
                f"{cell_name(a)} and {cell_name(b)} are not orthogonally adjacent,"
                " so they cannot be marked consecutive"
            )
        out.add((a, b))
    return frozenset(out)


def parse_consecutive(text: str) -> frozenset[tuple[int, int]]:
    """``"r1c1-r1c2,r3c4-r4c4"`` → ``frozenset({(0, 1), (30, 39)})``."""
    pairs = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        halves = _PAIR_SEPARATOR.split(item)
        if len(halves) != 2:
            raise ValueError(f"consecutive mark {item!r}: expected two cells like r1c1-r1c2")
        try:
            cells = [parse_placement(h)[0] for h in halves]
        except ValueError as error:
            raise ValueError(f"consecutive mark {item!r}: {error}") from None
        pairs.add((cells[0], cells[1]))
    return _check_pairs(pairs)


def format_consecutive(pairs: Iterable[tuple[int, int]]) -> str:
    """The text form of consecutive marks, sorted: ``"r1c1-r1c2,r3c4-r4c4"``."""
    return ",".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in sorted(pairs))


@dataclass(frozen=True)
class Constraints:
    """A rule set: the classic rules (always) plus any of the Sumodoku variants.

    ``parity`` is 81 marks, ``o`` odd, ``e`` even, ``.`` unmarked (a layout
    with no mark is stored as ``None``). ``consecutive`` holds the marked
    pairs ``(a, b)``, ``a < b``, of orthogonally adjacent cells whose digits
    differ by exactly 1; it may be given as any iterable of pairs or as text
    (``"r1c1-r1c2,r3c4-r4c4"``). With ``strict_consecutive`` every unmarked
    adjacent pair must *not* differ by 1.
    """

    diagonals: bool = False
    parity: str | None = None
    consecutive: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    strict_consecutive: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "diagonals", bool(self.diagonals))
        object.__setattr__(self, "strict_consecutive", bool(self.strict_consecutive))
        object.__setattr__(self, "parity", _check_parity(self.parity))
        object.__setattr__(self, "consecutive", _check_pairs(self.consecutive))

    @property
    def is_classic(self) -> bool:
        """True when only the classic row, column and box rules apply."""
        return not (self.diagonals or self.parity or self.consecutive or self.strict_consecutive)

    def parity_of(self, cell: int) -> str | None:
        """``"odd"``, ``"even"`` or ``None`` for an unmarked cell."""
        if self.parity is None or self.parity[cell] == ".":
            return None
        return _parity_word(self.parity[cell])

    def _neighbour_error(self, cell: int, digit: int, other: int, their: int) -> str | None:
        a, b = (cell, other) if cell < other else (other, cell)
        da, db = (digit, their) if cell < other else (their, digit)
        gap = abs(da - db)
        if (a, b) in self.consecutive:
            if gap != 1:
                return (
                    f"{cell_name(a)} and {cell_name(b)} are marked consecutive"
                    f" but {da} and {db} differ by {gap}"
                )
        elif self.strict_consecutive and gap == 1:
            return (
                f"{cell_name(a)} and {cell_name(b)} are not marked consecutive"
                f" but {da} and {db} differ by 1"
            )
        return None

    def placement_error(self, grid: str | Sequence[int], cell: int, digit: int) -> str | None:
        """``None`` if ``digit`` may go on the empty ``cell`` given the other filled cells.

        Otherwise a reason naming the rule and the clashing cell, e.g.
        ``"a 5 is already in row 3 (r3c7)"``, ``"r2c2 is marked even"`` or
        ``"r4c4 and r4c5 are marked consecutive but 3 and 7 differ by 4"``.
        """
        grid = as_grid(grid)
        if not (isinstance(cell, int) and 0 <= cell < SIZE):
            raise ValueError(f"there is no cell {cell!r} (cells are 0-80)")
        if not (isinstance(digit, int) and 1 <= digit <= 9):
            raise ValueError(f"{digit!r} is not a digit 1-9")
        if grid[cell]:
            return f"{cell_name(cell)} already holds a {grid[cell]}"
        reason = classic_clash(grid, cell, digit)
        if reason is not None:
            return reason
        if self.diagonals:
            for label, diagonal in DIAGONALS:
                if cell in diagonal:
                    for other in diagonal:
                        if other != cell and grid[other] == digit:
                            return f"a {digit} is already {label} ({cell_name(other)})"
        if self.parity is not None:
            mark = self.parity[cell]
            if mark != "." and (digit % 2 == 1) != (mark == "o"):
                return f"{cell_name(cell)} is marked {_parity_word(mark)}"
        if self.consecutive or self.strict_consecutive:
            for other in NEIGHBOURS[cell]:
                if grid[other]:
                    reason = self._neighbour_error(cell, digit, other, grid[other])
                    if reason is not None:
                        return reason
        return None

    def violations(self, grid: str | Sequence[int]) -> list[str]:
        """Every broken rule among the filled cells of ``grid`` (empty when none).

        A repeated digit is reported once per pair, at the later cell.
        """
        grid = as_grid(grid)
        found: list[str] = []
        lines = [(f"in row {i + 1}", unit) for i, unit in enumerate(ROWS)]
        lines += [(f"in column {i + 1}", unit) for i, unit in enumerate(COLUMNS)]
        lines += [(f"in the {box_name(i)}", unit) for i, unit in enumerate(BOXES)]
        if self.diagonals:
            lines += DIAGONALS
        for where, unit in lines:
            for i, cell in enumerate(unit):
                digit = grid[cell]
                for earlier in unit[:i] if digit else ():
                    if grid[earlier] == digit:
                        found.append(
                            f"{cell_name(cell)}: a {digit} is already {where}"
                            f" ({cell_name(earlier)})"
                        )
        if self.parity is not None:
            for cell, mark in enumerate(self.parity):
                digit = grid[cell]
                if digit and mark != "." and (digit % 2 == 1) != (mark == "o"):
                    found.append(
                        f"{cell_name(cell)} is marked {_parity_word(mark)} but holds a {digit}"
                    )
        if self.consecutive or self.strict_consecutive:
            for a, b in ADJACENT_PAIRS:
                if grid[a] and grid[b]:
                    reason = self._neighbour_error(a, grid[a], b, grid[b])
                    if reason is not None:
                        found.append(reason)
        return found

    def is_satisfied_by(self, grid: str | Sequence[int]) -> bool:
        """True when ``grid`` is full and breaks no rule."""
        grid = as_grid(grid)
        return all(grid) and not self.violations(grid)

    def describe(self) -> str:
        """A short human summary, e.g. ``"classic + diagonals + parity"``."""
        parts = ["classic"]
        if self.diagonals:
            parts.append("diagonals")
        if self.parity is not None:
            parts.append("parity")
        if self.consecutive:
            parts.append(f"{len(self.consecutive)} consecutive marks")
        if self.strict_consecutive:
            parts.append("strict non-consecutive")
        return " + ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The rule set as JSON-ready values (``consecutive`` in its text form)."""
        return {
            "diagonals": self.diagonals,
            "parity": self.parity,
            "consecutive": format_consecutive(self.consecutive),
            "strict_consecutive": self.strict_consecutive,
        }


CLASSIC = Constraints()
"""Rows, columns and boxes only."""
