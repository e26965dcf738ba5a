"""Ultimate Tic-Tac-Toe: nine tic-tac-toe sections make one big board.

Rules as implemented (see ``docs/rules/reference/uttt.md``): X (player 0) moves first,
anywhere. A mark at position ``p`` of its section sends the opponent to
section ``p``. A won or full section is closed; a player sent to a closed
section may play any empty cell of any open section. Three won sections in a
line win; no open section and no line is a draw.

The state is two 81-bit masks in section-major order (:mod:`sansu.core.sections`),
so a move is a handful of shifts and table look-ups.
"""

from __future__ import annotations

from typing import Any

from sansu.core.protocol import Game, IllegalMove, Move, Result, State
from sansu.core.sections import (
    ALL_CELLS,
    FIRST_MOVES,
    FULL,
    HAS_LINE,
    OPEN_CELLS,
    PLACES,
    SECTION_CELLS,
    SECTION_NAMES,
    SECTION_PLACES,
    SHIFTS,
    Place,
    SectionsView,
    free_moves,
)
from sansu.games import native

MARKS = ("X", "O")
_new = object.__new__
WINS = tuple(Result.win(p, reason="three sections in a row") for p in (0, 1))
"""The results of a won game, one per winner: results are immutable, so every game shares them."""
DRAW = Result.drawn("no section is open and nobody has three in a row")


class UltimateTicTacToe(Game):
    id = "uttt"
    title = "Ultimate Tic-Tac-Toe"
    can_draw = True
    aliases = ("ultimate", "ultimate_tic_tac_toe")

    def initial_state(self) -> UTTTState:
        return UTTTState(self)

    def parse_move(self, text: str) -> Place:
        return Place.parse(text)


class UTTTState(SectionsView, State):
    """A position: the masks of :class:`SectionsView` (the mover's and the other player's).

    A move sets only what cannot be derived, so that :meth:`play` stays a
    handful of operations: the masks, the result, the move, and the legal
    moves (``_legal`` the legal cells, so that play() checks a move with one
    AND; ``_moves`` their tuple when sent to an open section, a table
    look-up, or ``None`` on a free move, listed when asked). Whose turn it
    is, the ply, the occupied cells and the section sent to are read off
    those on request.
    """

    __slots__ = (
        "_closed",
        "_free",
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

    def __init__(self, game: UltimateTicTacToe) -> None:
        """The position before the first move (later ones come from :meth:`play`)."""
        self.game = game
        self._start()
        self._free = ALL_CELLS
        self._moves = FIRST_MOVES

    # -- what the position is --------------------------------------------------

    def bitboards(self) -> tuple[int, int, int, int, int]:
        """The position as masks, for programs that read it in bulk (research environments).

        ``(marks0, marks1, won0, won1, closed)``: each player's marks as
        81-bit section-major masks (:mod:`sansu.core.sections`), then the
        sections each player has won and the closed ones, as 9-bit masks.
        """
        if self.ply & 1:
            return self._other_marks, self._marks, self._other_won, self._won, self._closed
        return self._marks, self._other_marks, self._won, self._other_won, self._closed

    def mark_at(self, cell: int) -> int | None:
        return self._player_on(PLACES[cell].bit)

    def legal_moves(self) -> list[Move]:
        moves = self._moves
        if moves is not None:
            return [*moves]
        return free_moves(self._legal, self._closed)  # type: ignore[return-value]

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move | str) -> UTTTState:
        if move.__class__ is not Place:
            move = self._coerce(move)
        mask = move.mask
        legal = self._legal
        if not legal & mask:  # taken, closed, elsewhere than sent to, or the game is over
            raise self._why_illegal(move)
        shift = move.shift
        free = self._free ^ mask
        marks = self._marks | mask
        won = self._won
        closed = self._closed
        result = None
        if (
            HAS_LINE[marks >> shift & FULL]
            or legal == mask  # sent here, and its last empty cell
            # a free move filling it:
            or (self._moves is None and not free >> shift & FULL)
        ):
            won, closed, result = self._closing(move, marks, won, closed)
        # Slots set one by one: much cheaper than a call of __init__.
        new = _new(UTTTState)
        new.game = self.game
        new._marks = self._other_marks  # the next mover's
        new._free = free
        new._other_marks = marks
        new._won = self._other_won
        new._other_won = won
        new._closed = closed
        new.last_move = move
        new.result = result
        if result is not None:
            new._legal = 0
            new._moves = ()
        elif closed & move.position_bit:  # sent to a closed section: a free move
            new._legal = free & OPEN_CELLS[closed]
            new._moves = None
        else:
            position = move.position
            legal = new._legal = free & SECTION_CELLS[position]
            new._moves = SECTION_PLACES[position][legal >> SHIFTS[position]]
        return new

    def _closing(
        self, place: Place, marks: int, won: int, closed: int
    ) -> tuple[int, int, Result | None]:
        """``(won, closed, result)`` when ``place`` closes its section (won, or full)."""
        closed |= place.section_bit
        if HAS_LINE[marks >> place.shift & FULL]:
            won |= place.section_bit
            if HAS_LINE[won]:
                return won, closed, WINS[self.ply & 1]
        return won, closed, DRAW if closed == FULL else None

    def _why_illegal(self, move: Place) -> IllegalMove:
        if self.result is not None:
            return IllegalMove("the game is over", move.text)
        if self._occupied >> move.bit & 1:
            return IllegalMove("that cell is already taken", move.text)
        if self._closed >> move.section & 1:
            how = "won" if (self._won | self._other_won) >> move.section & 1 else "full"
            return IllegalMove(
                f"the {SECTION_NAMES[move.section]} section is {how}, so no more moves go there",
                move.text,
            )
        return IllegalMove(f"you must play in the {SECTION_NAMES[self._target]} section", move.text)

    # -- JSON ------------------------------------------------------------------

    def cells_json(self) -> list[dict[str, Any] | None]:
        out: list[dict[str, Any] | None] = []
        for place in PLACES:
            mark = self.mark_at(place.cell)
            out.append(None if mark is None else {"player": mark, "value": None})
        return out

    def extra_json(self) -> dict[str, Any]:
        line = self.winning_line()
        return {
            "sections": [
                {
                    "owner": self.section_owner(s),
                    "closed": self.is_closed(s),
                    "by_constraint": False,
                }
                for s in range(9)
            ],
            "allowed_sections": self.allowed_sections(),
            "winning_line": None if line is None else list(line),
            "marks": list(MARKS),
        }


COMPILED = native.install("uttt", UTTTState, WINS, DRAW)
"""Whether compiled code plays the moves (:mod:`sansu.games.native`)."""

GAME = UltimateTicTacToe
