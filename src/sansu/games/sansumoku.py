"""Sansumoku: Ultimate Tic-Tac-Toe played with Sudoku digits.

Rules as implemented (see ``docs/rules/reference/sansumoku.md``): Blue (player 0)
moves first, anywhere. The digit is never chosen: a section's next digit is
1 + the number of digits already in it. A cell is legal when it is empty, in
a section the player may use, and the digit is not already in the cell's
board row or column, ignoring digits inside won sections. Routing is that of
Ultimate Tic-Tac-Toe (a closed section sends to a wildcard: any legal cell
of any open section). When the sections the next player may use hold no
legal cell, the player who just moved wins all of them "by constraint" and
the next player gets a wildcard, repeatedly. Three sections in a line win;
no open section and no line is a draw.

The state is section-major bit masks (:mod:`sansu.core.sections`) plus one
integer that tells every section, for every digit, which of its three board
rows and three board columns already hold that digit outside won sections:
a placement updates it with one OR, and the legal cells of a section are one
shift and one table look-up.
"""

from __future__ import annotations

from typing import Any

from sansu.core.cells import cell_name
from sansu.core.protocol import Game, IllegalMove, Move, Result, State
from sansu.core.sections import (
    CELL_OF_BIT,
    FIRST_MOVES,
    FREE,
    FULL,
    HAS_LINE,
    OPEN_SECTIONS,
    PLACES,
    SECTION_NAMES,
    SECTION_PLACES,
    SHIFTS,
    Place,
    SectionsView,
    free_moves,
)
from sansu.games import native

COLOURS = ("Blue", "Orange")
_new = object.__new__


def _blocks(bit: int) -> int:
    """What a digit 1 on section-major ``bit`` blocks, in the layout of ``_blocked``."""
    cell = CELL_OF_BIT[bit]
    row, col = divmod(cell, 9)
    out = 0
    for k in range(3):
        out |= 1 << (54 * (3 * (row // 3) + k) + 3 + row % 3)  # the row, in its band's sections
        out |= 1 << (54 * (3 * k + col // 3) + col % 3)  # the column, in its stack's sections
    return out


BLOCKS = tuple(_blocks(b) for b in range(81))
"""``BLOCKS[bit] << 6 * (digit - 1)``: what placing ``digit`` on ``bit`` sets in ``_blocked``."""
BLOCKS_BY_COUNT = tuple(tuple(BLOCKS[b] << 6 * count for count in range(9)) for b in range(81))
"""``BLOCKS_BY_COUNT[bit][count]``: what the section's digit ``count + 1`` on ``bit`` blocks."""
DIGITS_BY_COUNT = tuple(tuple(count + 1 << 4 * b for count in range(9)) for b in range(81))
"""``DIGITS_BY_COUNT[bit][count]``: the digit ``count + 1`` on ``bit``, laid out as ``_digits``."""
POP = tuple(m.bit_count() for m in range(512))
SECTION_DIGITS = (1 << 36) - 1
"""The digits of one section in ``_digits`` (four bits a position), once shifted down."""
BLOCK_SHIFTS = tuple(tuple(54 * s + 6 * count for count in range(9)) for s in range(9))
"""``BLOCK_SHIFTS[section][count]``: where ``_blocked`` holds the section's digit ``count + 1``."""
WINS = tuple(Result.win(p, reason="three sections in a row") for p in (0, 1))
"""The results of a won game, one per winner: results are immutable, so every game shares them."""
DRAW = Result.drawn("no section is open and nobody has three in a row")
ALLOWED = tuple(
    sum(1 << p for p in range(9) if not (rows >> (p // 3) & 1 or cols >> (p % 3) & 1))
    for rows in range(8)
    for cols in range(8)
)
"""``ALLOWED[rows << 3 | cols]``: positions of a section outside the blocked local rows/columns."""


def _legal_in(sections: tuple[int, ...], occupied: int, blocked: int) -> int:
    """The legal cells of the open ``sections``, section-major: the one place this rule is written
    (:meth:`SansumokuState.play` inlines it for the section sent to).

    A section's next digit is 1 + its digit count; ``blocked`` holds, at
    ``54 * section + 6 * (digit - 1)``, the section's rows (high three bits)
    and columns (low three) where that digit already is outside won sections.
    """
    legal = 0
    for section in sections:
        shift = SHIFTS[section]
        field = occupied >> shift & FULL
        cells = ALLOWED[blocked >> BLOCK_SHIFTS[section][POP[field]] & 63] & ~field
        if cells:
            legal |= cells << shift
    return legal


def _unblock(section: int, occupied: int, digits: int, blocked: int) -> int:
    """``blocked`` without the digits of a section that has just been won.

    Outside won sections a digit appears at most once per board row and
    column (that is the placement rule), so clearing the section's own
    bits is exact.
    """
    base = 9 * section
    field = occupied >> base & FULL
    own = digits >> 4 * base & SECTION_DIGITS  # four bits a position, lowest first
    clear = 0
    for bit in range(base, base + 9):
        if field & 1:
            clear |= BLOCKS_BY_COUNT[bit][(own & 15) - 1]
        field >>= 1
        own >>= 4
    return blocked & ~clear


def _route(
    mover: int,
    target: int,
    occupied: int,
    digits: int,
    won: int,
    closed: int,
    by_constraint: int,
    blocked: int,
) -> tuple[int, int, Result | None, int, int, int, int]:
    """Where the next player may play when the section sent to is closed or blocked.

    Applies wildcards and wins by constraint (repeatedly: each goes to the
    ``mover``, whose won sections are ``won``) and returns the new
    ``(target, legal, result, won, closed, by_constraint, blocked)``.
    """
    result = None
    legal = 0
    while True:
        if closed == FULL:
            result = DRAW
            break
        if target != FREE and not closed >> target & 1:
            allowed: tuple[int, ...] = (target,)
        else:
            target = FREE
            allowed = OPEN_SECTIONS[closed]
        legal = _legal_in(allowed, occupied, blocked)
        if legal:
            break
        # Win by constraint: every section the next player may use is blocked.
        for s in allowed:
            closed |= 1 << s
            by_constraint |= 1 << s
            won |= 1 << s
            blocked = _unblock(s, occupied, digits, blocked)
        target = FREE
        if HAS_LINE[won]:
            result = WINS[mover]
            break
    if result is not None:
        legal = 0
    return target, legal, result, won, closed, by_constraint, blocked


class Sansumoku(Game):
    id = "sansumoku"
    title = "Sansumoku"
    can_draw = True

    def initial_state(self) -> SansumokuState:
        return SansumokuState(self)

    def parse_move(self, text: str) -> Place:
        return Place.parse(text)


class SansumokuState(SectionsView, State):
    """A position: the masks of :class:`SectionsView` (the mover's and the other player's).

    Besides them, ``_digits`` holds four bits a cell, ``_blocked`` where each
    digit already is (see ``_legal_in``), ``_by_constraint`` the sections won
    so. As in Ultimate Tic-Tac-Toe, a move sets only what cannot be derived:
    ``_legal`` the legal cells, ``_moves`` their tuple when sent to an open
    section (``None`` on a wildcard: listed when asked); whose turn it is,
    the ply, the occupied cells and the section sent to are read off those.
    """

    __slots__ = (
        "_blocked",
        "_by_constraint",
        "_closed",
        "_digits",
        "_legal",
        "_marks",
        "_moves",
        "_other_marks",
        "_other_won",
        "_won",
        "game",
        "last_move",
        "result",
    )

    def __init__(self, game: Sansumoku) -> None:
        """The position before the first move (later ones come from :meth:`play`)."""
        self.game = game
        self._start()
        self._digits = self._blocked = self._by_constraint = 0
        self._moves = FIRST_MOVES

    # -- what the position is --------------------------------------------------

    @property
    def wildcard(self) -> bool:
        """Whether the player to move may use any open section."""
        return self.result is None and self._target == FREE

    def next_digit(self, section: int) -> int | None:
        """The digit the next move in ``section`` places, or ``None`` once it is closed."""
        if self._closed >> section & 1:
            return None
        return (self._occupied >> (9 * section) & FULL).bit_count() + 1

    def digit_at(self, cell: int) -> int | None:
        digit = self._digits >> (4 * PLACES[cell].bit) & 15
        return digit or None

    def player_at(self, cell: int) -> int | None:
        return self._player_on(PLACES[cell].bit)

    def bitboards(self) -> tuple[int, int, int, int, int, int]:
        """The position as masks, for programs that read it in bulk (research environments).

        ``(marks0, marks1, won0, won1, closed, digits)``: each player's
        digits as 81-bit section-major masks (:mod:`sansu.core.sections`),
        the sections each player has won and the closed ones (9-bit masks),
        and the digits, four bits per section-major cell.
        """
        mine, theirs, won, other_won = self._marks, self._other_marks, self._won, self._other_won
        if self.ply & 1:
            return theirs, mine, other_won, won, self._closed, self._digits
        return mine, theirs, won, other_won, self._closed, self._digits

    def won_by_constraint(self, section: int) -> bool:
        return bool(self._by_constraint >> section & 1)

    def is_legal_cell(self, cell: int) -> bool:
        return bool(self._legal >> PLACES[cell].bit & 1)

    def legal_moves(self) -> list[Move]:
        moves = self._moves
        if moves is not None:
            return [*moves]
        return free_moves(self._legal, self._closed)  # type: ignore[return-value]

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move | str) -> SansumokuState:
        if move.__class__ is not Place:
            move = self._coerce(move)
        mask = move.mask
        if not self._legal & mask:  # taken, closed, elsewhere, repeated digit, or over
            raise self._why_illegal(move)
        bit = move.bit
        shift = move.shift
        other = self._other_marks
        marks = self._marks | mask
        occupied = marks | other
        count = POP[occupied >> shift & FULL] - 1  # digits already in the section
        digits = self._digits | DIGITS_BY_COUNT[bit][count]
        blocked = self._blocked | BLOCKS_BY_COUNT[bit][count]
        won = self._won
        closed = self._closed
        result = None
        if HAS_LINE[marks >> shift & FULL]:
            closed |= move.section_bit
            won |= move.section_bit
            blocked = _unblock(move.section, occupied, digits, blocked)
            if HAS_LINE[won]:
                result = WINS[self.ply & 1]
        elif count == 8:
            closed |= move.section_bit
        # Slots set one by one: much cheaper than a call of __init__.
        new = _new(SansumokuState)
        new.game = self.game
        new._marks = other  # the next mover's
        new._other_marks = marks
        new._won = self._other_won
        new._digits = digits
        new.last_move = move
        if result is None and not closed & move.position_bit:
            # Sent to an open section: its legal cells (``_legal_in``, inlined).
            target = move.position
            field = occupied >> SHIFTS[target] & FULL
            field = ALLOWED[blocked >> BLOCK_SHIFTS[target][POP[field]] & 63] & ~field
            if field:  # the common case: done
                new._other_won = won
                new._blocked = blocked
                new._closed = closed
                new._by_constraint = self._by_constraint
                new._legal = field << SHIFTS[target]
                new._moves = SECTION_PLACES[target][field]
                new.result = None
                return new
        by_constraint = self._by_constraint
        legal = 0
        if result is None:  # a wildcard, a win by constraint, or the end
            _, legal, result, won, closed, by_constraint, blocked = _route(
                self.ply & 1, move.position, occupied, digits, won, closed, by_constraint, blocked
            )
        new._other_won = won
        new._blocked = blocked
        new._closed = closed
        new._by_constraint = by_constraint
        new._legal = legal
        new._moves = () if result is not None else None
        new.result = result
        return new

    def _why_illegal(self, move: Place) -> IllegalMove:
        text = move.text
        if self.result is not None:
            return IllegalMove("the game is over", text)
        if self._occupied >> move.bit & 1:
            return IllegalMove("that cell is already taken", text)
        section = move.section
        if self._closed >> section & 1:
            how = "won" if (self._won | self._other_won) >> section & 1 else "full"
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


COMPILED = native.install("sansumoku", SansumokuState, WINS, DRAW)
"""Whether compiled code plays the moves (:mod:`sansu.games.native`)."""

GAME = Sansumoku
