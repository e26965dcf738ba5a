"""Ultimate Tic-Tac-Toe: nine tic-tac-toe sections make one big board.

Rules as implemented (see ``docs/rules/uttt.md``): X (player 0) moves first,
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
    FREE,
    FULL,
    HAS_LINE,
    OPEN_CELLS,
    OPEN_SECTIONS,
    PLACES,
    SECTION_CELLS,
    SECTION_NAMES,
    SECTION_PLACES,
    Place,
    SectionsView,
)

MARKS = ("X", "O")
_new = object.__new__


class UltimateTicTacToe(Game):
    id = "uttt"
    title = "Ultimate Tic-Tac-Toe"
    aliases = ("ultimate", "ultimate_tic_tac_toe")

    def initial_state(self) -> UTTTState:
        return UTTTState(self)

    def parse_move(self, text: str) -> Place:
        return Place.parse(text)


class UTTTState(SectionsView, State):
    """A position: the masks of :class:`SectionsView` (the mover's and the other player's)."""

    __slots__ = (
        "_closed",
        "_legal",
        "_marks",
        "_occupied",
        "_other_marks",
        "_other_won",
        "_target",
        "_won",
        "game",
        "last_move",
        "ply",
        "result",
        "to_move",
    )

    # ``_target`` is the section sent to, or FREE when it is closed (so that FREE
    # alone means a free move); ``_legal`` the legal cells, so that play() checks
    # a move with one AND.

    def __init__(self, game: UltimateTicTacToe) -> None:
        """The position before the first move (later ones come from :meth:`play`)."""
        self.game = game
        self._start()
        self.to_move = 0
        self.last_move = None

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
        legal = self._legal
        target = self._target
        if target != FREE:
            return [*SECTION_PLACES[target][legal >> 9 * target & FULL]]
        moves: list[Move] = []
        for s in OPEN_SECTIONS[self._closed]:
            moves += SECTION_PLACES[s][legal >> 9 * s & FULL]
        return moves

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move | str) -> UTTTState:
        if move.__class__ is not Place:
            move = self._coerce(move)
        mask = move.mask  # type: ignore[union-attr]
        if not self._legal & mask:  # taken, closed, elsewhere than sent to, or the game is over
            raise self._why_illegal(move)  # type: ignore[arg-type]
        shift = move.shift  # type: ignore[union-attr]
        occupied = self._occupied | mask
        marks = self._marks | mask
        won = self._won
        closed = self._closed
        result = None
        if HAS_LINE[marks >> shift & FULL]:
            closed |= move.section_bit  # type: ignore[union-attr]
            won |= move.section_bit  # type: ignore[union-attr]
            if HAS_LINE[won]:
                result = Result.win(self.to_move, reason="three sections in a row")  # type: ignore[arg-type]
        elif self._legal == mask or (  # sent here: its last empty cell; or a free move filling it
            self._target == FREE and occupied >> shift & FULL == FULL
        ):
            closed |= move.section_bit  # type: ignore[union-attr]
        if closed == FULL and result is None:
            result = Result.drawn("no section is open and nobody has three in a row")
        # Slots set one by one: much cheaper than a call of __init__.
        new = _new(UTTTState)
        new.game = self.game
        new._marks = self._other_marks  # the next mover's
        new._other_marks = marks
        new._won = self._other_won
        new._other_won = won
        new._occupied = occupied
        new._closed = closed
        new.last_move = move
        new.ply = self.ply + 1
        new.result = result
        position = move.position  # type: ignore[union-attr]
        if result is not None:
            new.to_move = None
            new._target = FREE
            new._legal = 0
        elif closed >> position & 1:  # sent to a closed section: a free move
            new.to_move = 1 - self.to_move  # type: ignore[operator]
            new._target = FREE
            new._legal = ~occupied & OPEN_CELLS[closed]
        else:
            new.to_move = 1 - self.to_move  # type: ignore[operator]
            new._target = position
            new._legal = ~occupied & SECTION_CELLS[position]
        return new

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


GAME = UltimateTicTacToe
