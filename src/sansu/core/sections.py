"""Geometry of a 9×9 board of nine 3×3 sections, shared by the sectioned games.

Engines keep a board as bit masks in *section-major* order: bit
``9 * section + position`` is the cell at ``position`` (0–8, row-major)
inside ``section`` (0–8, row-major). A section's nine cells are then one
9-bit field, so "is this section won", "which cells are empty here" and
"which moves are legal here" are shifts and table look-ups.
"""

from __future__ import annotations

from typing import Final

from sansu.core.cells import cell_name, parse_placement
from sansu.core.protocol import IllegalMove

SECTION_NAMES: Final = (
    "top-left", "top-centre", "top-right",
    "centre-left", "centre", "centre-right",
    "bottom-left", "bottom-centre", "bottom-right",
)  # fmt: skip

LINES: Final = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
"""The eight lines of a 3×3 grid, as positions 0–8."""

LINE_MASKS: Final = tuple(sum(1 << p for p in line) for line in LINES)

WINNING_LINE: Final[tuple[tuple[int, int, int] | None, ...]] = tuple(
    next((line for line, lm in zip(LINES, LINE_MASKS, strict=True) if m & lm == lm), None)
    for m in range(512)
)
"""``WINNING_LINE[mask]``: the first complete line in a 9-bit mask, or ``None``."""

HAS_LINE: Final = tuple(line is not None for line in WINNING_LINE)
FULL: Final = 0x1FF


def section_of(cell: int) -> int:
    row, col = divmod(cell, 9)
    return (row // 3) * 3 + col // 3


def position_of(cell: int) -> int:
    row, col = divmod(cell, 9)
    return (row % 3) * 3 + col % 3


BIT_OF_CELL: Final = tuple(9 * section_of(c) + position_of(c) for c in range(81))
CELL_OF_BIT: Final = tuple(BIT_OF_CELL.index(b) for b in range(81))


def cells_of_section(section: int) -> tuple[int, ...]:
    """The nine cell indices (row-major) of ``section``, in position order."""
    return tuple(CELL_OF_BIT[9 * section + p] for p in range(9))


class Place:
    """A move that puts the mover's implied mark on one cell, e.g. ``r5c5``.

    There is exactly one instance per cell (:data:`PLACES`), so moves can be
    compared by identity in hot loops; pickling preserves this.
    """

    __slots__ = (
        "bit",
        "cell",
        "mask",
        "position",
        "position_bit",
        "section",
        "section_bit",
        "shift",
        "text",
    )

    def __init__(self, cell: int) -> None:
        self.cell = cell
        self.section = section_of(cell)
        self.position = position_of(cell)
        self.bit = 9 * self.section + self.position
        self.mask = 1 << self.bit
        """The bit of the cell in a section-major board mask."""
        self.shift = 9 * self.section
        """Where the cell's section begins in a section-major board mask."""
        self.section_bit = 1 << self.section
        """The section's bit in a 9-bit mask of sections."""
        self.position_bit = 1 << self.position
        """The bit of the section this move sends to, in a 9-bit mask of sections."""
        self.text = cell_name(cell)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Place({self.text})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_place, (self.cell,))

    @staticmethod
    def parse(text: str) -> Place:
        cell, value = parse_placement(text)
        if value is not None:
            raise IllegalMove(f"{text.strip()!r}: this game places no digits; write the cell only")
        return PLACES[cell]


PLACES: Final = tuple(Place(c) for c in range(81))
"""The 81 placements, by row-major cell index."""


def _place(cell: int) -> Place:
    return PLACES[cell]


SECTION_PLACES: Final = tuple(
    tuple(tuple(PLACES[CELL_OF_BIT[9 * s + p]] for p in range(9) if m >> p & 1) for m in range(512))
    for s in range(9)
)
"""``SECTION_PLACES[section][mask]``: the placements on the cells of a 9-bit mask."""


SECTION_CELLS: Final = tuple(FULL << 9 * s for s in range(9))
"""``SECTION_CELLS[section]``: the section's cells in a section-major board mask."""
OPEN_SECTIONS: Final = tuple(
    tuple(s for s in range(9) if not closed >> s & 1) for closed in range(512)
)
"""``OPEN_SECTIONS[closed]``: the sections not in the 9-bit ``closed`` mask."""
OPEN_CELLS: Final = tuple(sum(SECTION_CELLS[s] for s in OPEN_SECTIONS[c]) for c in range(512))
"""``OPEN_CELLS[closed]``: the cells of the sections not in ``closed``, section-major."""


SHIFTS: Final = tuple(9 * s for s in range(9))
"""``SHIFTS[section]``: where the section begins in a section-major board mask."""
OPEN_PLACES: Final = tuple(
    tuple((SECTION_PLACES[s], 9 * s) for s in OPEN_SECTIONS[c]) for c in range(512)
)
"""``OPEN_PLACES[closed]``: for each open section, its placements by 9-bit mask and its shift."""
ALL_CELLS: Final = (1 << 81) - 1
FIRST_MOVES: Final = tuple(p for s in range(9) for p in SECTION_PLACES[s][FULL])
"""Every placement, section by section: the legal moves of the empty board."""


def free_moves(legal: int, closed: int) -> list[Place]:
    """The placements on the ``legal`` cells of the sections not in ``closed``, section by section.

    A free move's list, built when asked: the states keep their ``legal``
    mask, and a tuple of moves only when sent to one section.
    """
    moves: list[Place] = []
    for places, shift in OPEN_PLACES[closed]:
        moves += places[legal >> shift & FULL]
    return moves


def bits_of(mask: int) -> list[int]:
    """The set bit indices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


FREE: Final = -1
"""``target`` when the player to move may use any open section."""


def _of_player(player: int, mover: str, other: str) -> property:
    """Player ``player``'s mask, read from the mover's (slot ``mover``) or the other's."""

    def get(self: SectionsView) -> int:
        return getattr(self, other if (self.ply + player) & 1 else mover)

    return property(get)


class SectionsView:
    """Questions about the sections and cells, shared by the states of the sectioned games.

    Expects the state's slots ``_marks``/``_other_marks`` (the cells of the
    player to move and of the other player, section-major),
    ``_won``/``_other_won`` (9-bit masks of the sections each has won),
    ``_closed`` (won or full), ``_legal`` (the legal cells), ``last_move``
    and ``result``. The player to move is ``ply % 2`` (once the game is
    over: the one who would be), so a move touches the mover's masks only
    and the two swap roles. Whatever follows from those (the ply, whose
    turn it is, the occupied cells, the section sent to) is derived here on
    request, so that a move need not set it.
    """

    __slots__ = ()
    _marks: int
    _other_marks: int
    _won: int
    _other_won: int
    _closed: int
    _legal: int
    last_move: Place | None
    result: object

    def _start(self) -> None:
        """The masks of the empty board, player 0 to move anywhere."""
        self._marks = self._other_marks = 0
        self._won = self._other_won = self._closed = 0
        self._legal = ALL_CELLS
        self.result = None
        self.last_move = None

    @property
    def ply(self) -> int:
        """How many moves led here: each one marks a cell."""
        return (self._marks | self._other_marks).bit_count()

    @property
    def to_move(self) -> int | None:
        if self.result is not None:
            return None
        return (self._marks | self._other_marks).bit_count() & 1  # the ply's parity

    @property
    def _occupied(self) -> int:
        return self._marks | self._other_marks

    @property
    def _target(self) -> int:
        """The section sent to, or :data:`FREE` (a free move, or the game is over).

        The section the last move points at, unless it is closed (a section
        won by constraint is closed too).
        """
        last = self.last_move
        if last is None or self.result is not None or self._closed >> last.position & 1:
            return FREE
        return last.position

    _marks0 = _of_player(0, "_marks", "_other_marks")
    _marks1 = _of_player(1, "_marks", "_other_marks")
    _won0 = _of_player(0, "_won", "_other_won")
    _won1 = _of_player(1, "_won", "_other_won")

    def _player_on(self, bit: int) -> int | None:
        """Who holds the cell at section-major ``bit`` (``None``: empty)."""
        if not self._occupied >> bit & 1:
            return None
        return (self.ply + (not self._marks >> bit & 1)) % 2

    def allowed_sections(self) -> list[int]:
        """The sections the player to move may use (more than one: a free choice)."""
        if self.result is not None:
            return []
        target = self._target
        if target != FREE and not self._closed >> target & 1:
            return [target]
        return [s for s in range(9) if not self._closed >> s & 1]

    def legal_cells(self) -> bytearray:
        """81 bytes, row-major: 1 on each cell that a legal move takes, else 0.

        The legal moves as flags, for programs that want them in bulk (the
        research environments' action masks); compiled where the moves are.
        """
        out = bytearray(81)
        for move in self.legal_moves():  # type: ignore[attr-defined]
            out[move.cell] = 1
        return out

    def section_owner(self, section: int) -> int | None:
        if self._won0 >> section & 1:
            return 0
        if self._won1 >> section & 1:
            return 1
        return None

    @property
    def closed_sections(self) -> int:
        """The closed sections (won or full) as a 9-bit mask, bit ``s`` for section ``s``."""
        return self._closed

    def is_closed(self, section: int) -> bool:
        return bool(self._closed >> section & 1)

    def winning_line(self) -> tuple[int, int, int] | None:
        """The three sections of the winning line, once there is one."""
        return WINNING_LINE[self._won0] or WINNING_LINE[self._won1]

    @staticmethod
    def _coerce(move: object) -> Place:
        if isinstance(move, str):
            return Place.parse(move)
        raise IllegalMove(f"not a move of this game: {move!r}")
