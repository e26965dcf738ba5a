"""Sudoku Challenge's moves: an entry ``r5c5=7``, and the host's ``timeout``.

Every entry is one shared instance (:data:`ENTRIES`), so move lists allocate
nothing; :data:`TIMEOUT` is a singleton that pickles as itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.protocol import IllegalMove
from sansu.sudoku.grid import SIZE

CELL_NAMES: Final = tuple(cell_name(c) for c in range(SIZE))
ENTRY_TEXTS: Final = tuple(f"{name}={d}" for name in CELL_NAMES for d in range(1, 10))


@dataclass(frozen=True, slots=True)
class Entry:
    """A digit written in a cell: ``r5c5=7``."""

    cell: int
    digit: int

    def __str__(self) -> str:
        return ENTRY_TEXTS[9 * self.cell + self.digit - 1]


class Timeout:
    """The host's ``timeout``: the turn's time is up, the turn ends."""

    __slots__ = ()

    def __str__(self) -> str:
        return "timeout"

    def __repr__(self) -> str:
        return "TIMEOUT"

    def __reduce__(self) -> str:
        return "TIMEOUT"


TIMEOUT: Final = Timeout()
ENTRIES: Final = tuple(Entry(cell, digit) for cell in range(SIZE) for digit in range(1, 10))
"""Every entry, ``ENTRIES[9 * cell + digit - 1]``, shared by all states."""
CELL_ENTRIES: Final = tuple(ENTRIES[9 * c : 9 * c + 9] for c in range(SIZE))

ChallengeMove = Entry | Timeout


def parse_entry(text: str) -> ChallengeMove:
    """``"r5c5=7"`` → ``Entry(40, 7)``; ``"timeout"`` → :data:`TIMEOUT`."""
    if isinstance(text, str) and text.strip().lower() == "timeout":
        return TIMEOUT
    cell, value = parse_placement(text)
    if value is None:
        name = cell_name(cell)
        raise IllegalMove(f"an entry needs a digit, e.g. {name}=7", name)
    return ENTRIES[9 * cell + parse_digit(value, cell_name(cell)) - 1]
