"""Sansumoku: Ultimate Tic-Tac-Toe played with Sudoku digits.

Rules as implemented (see ``docs/rules/sansumoku.md``): Blue (player 0)
moves first, anywhere. The digit is never chosen: a section's next digit is
1 + the number of digits already in it. A cell is legal when it is empty, in
a section the player may use, and the digit is not already in the cell's
board row or column, ignoring digits inside won sections. Routing is that of
Ultimate Tic-Tac-Toe (a closed section sends to a wildcard: any legal cell
of any open section). When the sections the next player may use hold no
legal cell, the player who just moved wins all of them "by constraint" and
the next player gets a wildcard, repeatedly. Three sections in a line win;
no open section and no line is a draw.

The state is section-major bit masks (:mod:`sansu.core.sections`) plus, per
digit, the board rows and columns that already hold it outside won
sections, so the legal cells of a section are one table look-up.
"""

from __future__ import annotations

from typing import Any

from sansu.core.cells import cell_name
from sansu.core.protocol import Game, IllegalMove, Move, Result, State
from sansu.core.sections import (
    CELL_OF_BIT,
    FREE,
    FULL,
    HAS_LINE,
    PLACES,
    SECTION_NAMES,
    SECTION_PLACES,
    Place,
    SectionsView,
)

COLOURS = ("Blue", "Orange")
_new = object.__new__

ROW_OF_BIT = tuple(CELL_OF_BIT[b] // 9 for b in range(81))
COL_OF_BIT = tuple(CELL_OF_BIT[b] % 9 for b in range(81))
ALLOWED = tuple(
    sum(1 << p for p in range(9) if not (rows >> (p // 3) & 1 or cols >> (p % 3) & 1))
    for rows in range(8)
    for cols in range(8)
)
"""``ALLOWED[rows * 8 + cols]``: positions of a section outside the blocked local rows/columns."""
OPEN_SECTIONS = tuple(tuple(s for s in range(9) if not closed >> s & 1) for closed in range(512))
"""``OPEN_SECTIONS[closed]``: the sections not in the 9-bit ``closed`` mask."""
SECTION_BASE = tuple((3 * (s // 3), 3 * (s % 3)) for s in range(9))
POSITIONS = tuple(tuple(p for p in range(9) if m >> p & 1) for m in range(512))
"""``POSITIONS[mask]``: the positions set in a 9-bit mask."""


def _legal_in(section: int, occupied: int, rowbits: int, colbits: int) -> int:
    """The 9-bit mask of legal positions in ``section``."""
    field = occupied >> (9 * section) & FULL
    shift = 9 * field.bit_count()  # 9 * (next digit - 1)
    row0, col0 = SECTION_BASE[section]
    rows = rowbits >> (shift + row0) & 7
    cols = colbits >> (shift + col0) & 7
    return ALLOWED[rows * 8 + cols] & ~field


def _forget_section(
    section: int, occupied: int, digits: int, rowbits: int, colbits: int
) -> tuple[int, int]:
    """``rowbits``/``colbits`` without the digits of a section that has just been won.

    Outside won sections a digit appears at most once per board row and
    column (that is the placement rule), so clearing the section's own
    bits is exact.
    """
    base = 9 * section
    field = occupied >> base & FULL
    nibbles = digits >> (4 * base)  # the section's digits, four bits each, from bit 0
    row0, col0 = SECTION_BASE[section]
    rows = cols = 0
    for p in POSITIONS[field]:
        offset = 9 * ((nibbles >> (4 * p) & 15) - 1)
        rows |= 1 << (offset + row0 + p // 3)
        cols |= 1 << (offset + col0 + p % 3)
    return rowbits & ~rows, colbits & ~cols


def _route(
    mover: int,
    target: int,
    occupied: int,
    digits: int,
    won0: int,
    won1: int,
    closed: int,
    by_constraint: int,
    rowbits: int,
    colbits: int,
) -> tuple[int, int, Result | None, int, int, int, int, int, int]:
    """Where the next player may play when the section sent to is closed or blocked.

    Applies wildcards and wins by constraint (repeatedly) and returns the new
    ``(target, legal, result, won0, won1, closed, by_constraint, rowbits, colbits)``.
    """
    result = None
    legal = 0
    while True:
        if closed == FULL:
            result = Result.drawn("no section is open and nobody has three in a row")
            break
        if target != FREE and not closed >> target & 1:
            allowed: tuple[int, ...] = (target,)
        else:
            target = FREE
            allowed = OPEN_SECTIONS[closed]
        for s in allowed:  # _legal_in written out: this loop is the engine's hottest
            field = occupied >> (9 * s) & FULL
            doff = 9 * field.bit_count()
            row0, col0 = SECTION_BASE[s]
            rows = rowbits >> (doff + row0) & 7
            legal |= (ALLOWED[rows * 8 + (colbits >> (doff + col0) & 7)] & ~field) << (9 * s)
        if legal:
            break
        # Win by constraint: every section the next player may use is blocked.
        for s in allowed:
            closed |= 1 << s
            by_constraint |= 1 << s
            if mover == 0:
                won0 |= 1 << s
            else:
                won1 |= 1 << s
            rowbits, colbits = _forget_section(s, occupied, digits, rowbits, colbits)
        target = FREE
        if HAS_LINE[won0 if mover == 0 else won1]:
            result = Result.win(mover, reason="three sections in a row")
            break
    if result is not None:
        legal = 0
    return target, legal, result, won0, won1, closed, by_constraint, rowbits, colbits


class Sansumoku(Game):
    id = "sansumoku"
    title = "Sansumoku"

    def initial_state(self) -> SansumokuState:
        return SansumokuState(
            self, 0, 0, 0, 0, 0, 0, 0, 0, 0, FREE, (1 << 81) - 1, 0, None, 0, None
        )

    def parse_move(self, text: str) -> Place:
        return Place.parse(text)


class SansumokuState(SectionsView, State):
    __slots__ = (
        "_by_constraint",
        "_closed",
        "_colbits",
        "_digits",
        "_legal",
        "_marks0",
        "_marks1",
        "_rowbits",
        "_target",
        "_won0",
        "_won1",
        "game",
        "last_move",
        "ply",
        "result",
        "to_move",
    )

    def __init__(
        self,
        game: Sansumoku,
        marks0: int,
        marks1: int,
        digits: int,
        rowbits: int,
        colbits: int,
        won0: int,
        won1: int,
        closed: int,
        by_constraint: int,
        target: int,
        legal: int,
        to_move: int | None,
        last_move: Place | None,
        ply: int,
        result: Result | None,
    ) -> None:
        self.game = game
        self._marks0 = marks0
        self._marks1 = marks1
        self._digits = digits
        self._rowbits = rowbits
        self._colbits = colbits
        self._won0 = won0
        self._won1 = won1
        self._closed = closed
        self._by_constraint = by_constraint
        self._target = target
        self._legal = legal
        self.to_move = to_move
        self.last_move = last_move
        self.ply = ply
        self.result = result

    # -- what the position is --------------------------------------------------

    @property
    def wildcard(self) -> bool:
        """Whether the player to move may use any open section."""
        return self.result is None and (
            self._target == FREE or bool(self._closed >> self._target & 1)
        )

    def next_digit(self, section: int) -> int | None:
        """The digit the next move in ``section`` places, or ``None`` once it is closed."""
        if self._closed >> section & 1:
            return None
        return ((self._marks0 | self._marks1) >> (9 * section) & FULL).bit_count() + 1

    def digit_at(self, cell: int) -> int | None:
        digit = self._digits >> (4 * PLACES[cell].bit) & 15
        return digit or None

    def player_at(self, cell: int) -> int | None:
        bit = PLACES[cell].bit
        if self._marks0 >> bit & 1:
            return 0
        if self._marks1 >> bit & 1:
            return 1
        return None

    def bitboards(self) -> tuple[int, int, int, int, int, int]:
        """The position as masks, for programs that read it in bulk (research environments).

        ``(marks0, marks1, won0, won1, closed, digits)``: each player's
        digits as 81-bit section-major masks (:mod:`sansu.core.sections`),
        the sections each player has won and the closed ones (9-bit masks),
        and the digits, four bits per section-major cell.
        """
        return self._marks0, self._marks1, self._won0, self._won1, self._closed, self._digits

    def won_by_constraint(self, section: int) -> bool:
        return bool(self._by_constraint >> section & 1)

    def is_legal_cell(self, cell: int) -> bool:
        return bool(self._legal >> PLACES[cell].bit & 1)

    def legal_moves(self) -> list[Move]:
        legal = self._legal
        target = self._target
        if target != FREE and legal >> (9 * target):
            return list(SECTION_PLACES[target][legal >> (9 * target) & FULL])
        moves: list[Move] = []
        for s in range(9):
            field = legal >> (9 * s) & FULL
            if field:
                moves += SECTION_PLACES[s][field]
        return moves

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move | str) -> SansumokuState:
        if move.__class__ is not Place:
            move = self._coerce(move)
        mask = move.mask  # type: ignore[union-attr]
        if not self._legal & mask:
            raise self._why_illegal(move)  # type: ignore[arg-type]
        bit = move.bit  # type: ignore[union-attr]
        section = move.section  # type: ignore[union-attr]
        mover: int = self.to_move  # type: ignore[assignment]
        shift = move.shift  # type: ignore[union-attr]
        marks0, marks1 = self._marks0, self._marks1
        before = marks0 | marks1
        occupied = before | mask
        count = (before >> shift & FULL).bit_count()  # digits already in the section
        offset = 9 * count  # 9 * (digit - 1)
        digits = self._digits | (count + 1) << (4 * bit)
        rowbits = self._rowbits | 1 << (offset + ROW_OF_BIT[bit])
        colbits = self._colbits | 1 << (offset + COL_OF_BIT[bit])
        won0, won1, closed = self._won0, self._won1, self._closed
        by_constraint = self._by_constraint
        if mover == 0:
            marks0 |= mask
            mine = marks0 >> shift & FULL
        else:
            marks1 |= mask
            mine = marks1 >> shift & FULL
        result = None
        if HAS_LINE[mine]:
            closed |= 1 << section
            if mover == 0:
                won0 |= 1 << section
            else:
                won1 |= 1 << section
            rowbits, colbits = _forget_section(section, occupied, digits, rowbits, colbits)
            if HAS_LINE[won0 if mover == 0 else won1]:
                result = Result.win(mover, reason="three sections in a row")
        elif count == 8:
            closed |= 1 << section

        target = move.position  # type: ignore[union-attr]
        legal = 0
        if result is None and not closed >> target & 1:
            # The usual case: the section sent to is open and has a legal cell
            # (``_legal_in`` written out, for speed).
            field = occupied >> (9 * target) & FULL
            doff = 9 * field.bit_count()
            row0, col0 = SECTION_BASE[target]
            legal = (
                ALLOWED[(rowbits >> (doff + row0) & 7) * 8 + (colbits >> (doff + col0) & 7)]
                & ~field
            ) << (9 * target)
        if result is None and not legal:
            target, legal, result, won0, won1, closed, by_constraint, rowbits, colbits = _route(
                mover, target, occupied, digits, won0, won1, closed, by_constraint, rowbits, colbits
            )
        # Slots set one by one: much cheaper than a call of __init__ with sixteen arguments.
        new = _new(SansumokuState)
        new.game = self.game
        new._marks0 = marks0
        new._marks1 = marks1
        new._digits = digits
        new._rowbits = rowbits
        new._colbits = colbits
        new._won0 = won0
        new._won1 = won1
        new._closed = closed
        new._by_constraint = by_constraint
        new._target = target
        new._legal = legal
        new.to_move = None if result is not None else 1 - mover
        new.last_move = move
        new.ply = self.ply + 1
        new.result = result
        return new

    def _why_illegal(self, move: Place) -> IllegalMove:
        text = move.text
        if self.result is not None:
            return IllegalMove("the game is over", text)
        if (self._marks0 | self._marks1) >> move.bit & 1:
            return IllegalMove("that cell is already taken", text)
        section = move.section
        if self._closed >> section & 1:
            how = "won" if (self._won0 | self._won1) >> section & 1 else "full"
            return IllegalMove(
                f"the {SECTION_NAMES[section]} section is {how}, so no more digits go there", text
            )
        if section not in self.allowed_sections():
            return IllegalMove(f"you must play in the {SECTION_NAMES[self._target]} section", text)
        digit = self.next_digit(section)
        row, col = divmod(move.cell, 9)
        for other in range(81):
            if (
                self.digit_at(other) != digit
                or self.section_owner(PLACES[other].section) is not None
            ):
                continue
            if other // 9 == row:
                return IllegalMove(
                    f"a {digit} is already in row {row + 1} ({cell_name(other)})", text
                )
            if other % 9 == col:
                return IllegalMove(
                    f"a {digit} is already in column {col + 1} ({cell_name(other)})", text
                )
        return IllegalMove("that cell cannot be played", text)  # pragma: no cover

    # -- JSON ------------------------------------------------------------------

    def cells_json(self) -> list[dict[str, Any] | None]:
        out: list[dict[str, Any] | None] = []
        for cell in range(81):
            player = self.player_at(cell)
            out.append(None if player is None else {"player": player, "value": self.digit_at(cell)})
        return out

    def extra_json(self) -> dict[str, Any]:
        line = self.winning_line()
        return {
            "sections": [
                {
                    "owner": self.section_owner(s),
                    "closed": self.is_closed(s),
                    "by_constraint": self.won_by_constraint(s),
                    "next_digit": self.next_digit(s),
                }
                for s in range(9)
            ],
            "allowed_sections": self.allowed_sections(),
            "wildcard": self.wildcard,
            "winning_line": None if line is None else list(line),
            "colours": list(COLOURS),
        }


GAME = Sansumoku
