"""Sumodoku's moves and their text: ``r5c5=7``, ``sudoku``, ``challenge``, ``erase r5c5``,
``report r5c5`` and ``timeout``.

Every move is one shared, immutable instance (``PLACEMENTS[cell][colour]``,
``ERASES[cell]``, ...), so building move lists allocates nothing and moves
compare and hash fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.protocol import IllegalMove, Move


@dataclass(frozen=True, slots=True)
class Placement:
    """``r5c5=7``: a piece of colour 7 on r5c5."""

    cell: int
    colour: int
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{cell_name(self.cell)}={self.colour}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Erase:
    """``erase r5c5``: a claimant takes back a piece placed during the claim."""

    cell: int

    def __str__(self) -> str:
        return f"erase {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Report:
    """``report r5c5``: a spectator points out a rule-breaking piece (honour variant)."""

    cell: int

    def __str__(self) -> str:
        return f"report {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Action:
    """A one-word move: ``sudoku`` (claim), ``challenge`` or ``timeout`` (applied by a host)."""

    word: str

    def __str__(self) -> str:
        return self.word


SUDOKU = Action("sudoku")
CHALLENGE = Action("challenge")
TIMEOUT = Action("timeout")
ACTIONS = {a.word: a for a in (SUDOKU, CHALLENGE, TIMEOUT)}
PLACEMENTS: tuple[tuple[Placement | None, ...], ...] = tuple(
    (None, *(Placement(cell, colour) for colour in range(1, 10))) for cell in range(81)
)
"""``PLACEMENTS[cell][colour]``: one shared instance per placement."""


@cache
def row_moves() -> tuple[tuple[tuple[tuple[Placement, ...], ...], ...], ...]:
    """``row_moves()[colour][row][mask]``: the placements of ``colour`` on the columns
    of ``row`` set in the 9-bit ``mask``, so move lists are built nine cells at a time."""
    columns = [[col for col in range(9) if mask >> col & 1] for mask in range(512)]
    return tuple(
        tuple(
            tuple(
                tuple(PLACEMENTS[9 * row + col][colour] for col in columns[mask])  # type: ignore[misc]
                for mask in range(512)
            )
            for row in range(9)
        )
        for colour in range(10)
    )


ERASES = tuple(Erase(cell) for cell in range(81))
REPORTS = tuple(Report(cell) for cell in range(81))
_SYNTAX = "expected a placement like r5c5=7, or sudoku, challenge, erase r5c5, report r5c5, timeout"


def parse_move(text: str) -> Move:
    """The move ``text`` names; case, spaces and a trailing ``!`` on ``sudoku`` are forgiven."""
    if not isinstance(text, str):
        raise IllegalMove(f"expected a move as text, got {type(text).__name__}")
    words = text.strip().lower().split(None, 1)
    if not words:
        raise IllegalMove(f"an empty move: {_SYNTAX}")
    head = words[0].rstrip("!")
    if head in ACTIONS:
        if len(words) > 1:
            raise IllegalMove(f"{head!r} takes nothing after it", text.strip())
        return ACTIONS[head]
    if head in ("erase", "report"):
        if len(words) < 2:
            raise IllegalMove(f"{head} needs a cell, e.g. {head} r5c5", text.strip())
        cell, value = parse_placement(words[1])
        if value is not None:
            raise IllegalMove(f"{head} names a cell only, e.g. {head} r5c5", text.strip())
        return (ERASES if head == "erase" else REPORTS)[cell]
    try:
        cell, value = parse_placement(text)
    except IllegalMove as error:
        if "is not a move" in str(error):
            raise IllegalMove(f"{text.strip()!r} is not a move: {_SYNTAX}") from None
        raise
    if value is None:
        raise IllegalMove("a placement names its colour, e.g. r5c5=7", text.strip())
    return PLACEMENTS[cell][parse_digit(value, text.strip())]
