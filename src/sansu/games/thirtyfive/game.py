"""The game 35 (options: the board's size) and its positions: a position is a few
integers, so that a move costs a handful of big-integer operations.

* colours, highlights and "has triggered" are bit masks, one bit per square
  (bit ``index``, row-major);
* numbers and neighbour sums are packed one byte per square (byte ``index``);
  placing ``d`` adds ``d`` times a precomputed neighbour pattern to the sums,
  and one byte-wise comparison finds the sums that are now exactly 35.
"""

from __future__ import annotations

from typing import Any

from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Move, Player, Result, State
from sansu.core.sections import bits_of
from sansu.games.thirtyfive.board import (
    BLUE,
    COLOURS,
    MAX_DIGIT,
    MAX_SIZE,
    MIN_SIZE,
    RED,
    TARGET,
    Geometry,
    Placement,
    geometry,
)


class ThirtyFive(Game):
    """35 on a ``rows`` × ``cols`` board."""

    id = "thirtyfive"
    title = "35"
    can_draw = True
    aliases = ("35",)
    option_specs = (
        Option("rows", int, 8, "rows of the board", low=MIN_SIZE, high=MAX_SIZE),
        Option("cols", int, 8, "columns of the board", low=MIN_SIZE, high=MAX_SIZE),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.geometry = geometry(self.options["rows"], self.options["cols"])

    def initial_state(self) -> ThirtyFiveState:
        geo = self.geometry
        return ThirtyFiveState(
            self, geo, 0, 0, 0, 0, 0, 0, 0, tuple(range(geo.size)), 0, 0, False, 0, None, 0, None
        )

    def parse_move(self, text: str) -> Placement:
        return self.geometry.parse(text)


class ThirtyFiveState(State):
    """A position of 35.

    Besides the protocol it answers what a player looks at: each square's
    number, colour, highlight and neighbour sum, which squares triggered and
    which the last move converted, and which squares can no longer trigger.
    """

    __slots__ = (
        "_cancelled",
        "_converted",
        "_done",
        "_empties",
        "_filled",
        "_geo",
        "_hl0",
        "_hl1",
        "_red",
        "_sums",
        "_triggered",
        "_values",
        "game",
        "last_move",
        "ply",
        "result",
        "to_move",
    )

    def __init__(
        self,
        game: ThirtyFive,
        geo: Geometry,
        values: int,
        sums: int,
        filled: int,
        red: int,
        hl0: int,
        hl1: int,
        done: int,
        empties: tuple[int, ...],
        triggered: int,
        converted: int,
        cancelled: bool,
        to_move: int | None,
        last_move: Placement | None,
        ply: int,
        result: Result | None,
    ) -> None:
        self.game = game
        self._geo = geo
        self._values = values  # byte i: the number on square i, 0 when empty
        self._sums = sums  # byte i: the sum of the numbers around square i
        self._filled = filled  # bit i: square i holds a number
        self._red = red  # bit i: square i holds a red number (filled and not red: blue)
        self._hl0 = hl0  # bit i: empty square i is highlighted red
        self._hl1 = hl1  # bit i: empty square i is highlighted blue
        self._done = done  # bit i: square i has triggered (it never can again)
        self._empties = empties  # the empty squares, in order
        self._triggered = triggered  # squares that triggered on the last move
        self._converted = converted  # squares whose colour/highlight the last move changed
        self._cancelled = cancelled  # the last move's triggers had both colours
        self.to_move = to_move
        self.last_move = last_move
        self.ply = ply
        self.result = result

    # -- the board -------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self._geo.rows

    @property
    def cols(self) -> int:
        return self._geo.cols

    @property
    def size(self) -> int:
        return self._geo.size

    def value_at(self, cell: int) -> int | None:
        """The number on ``cell``, or ``None`` when it is empty."""
        return (self._values >> (8 * cell)) & 0xFF or None

    def colour_at(self, cell: int) -> Player | None:
        """The colour (player) of the number on ``cell``, ``None`` when empty."""
        if not self._filled >> cell & 1:
            return None
        return RED if self._red >> cell & 1 else BLUE

    def highlight_at(self, cell: int) -> Player | None:
        """The highlight colour of an empty ``cell``, or ``None``."""
        if self._hl0 >> cell & 1:
            return RED
        if self._hl1 >> cell & 1:
            return BLUE
        return None

    def sum_at(self, cell: int) -> int:
        """The sum of the numbers on the neighbours of ``cell``."""
        return (self._sums >> (8 * cell)) & 0xFF

    def sums(self) -> list[int]:
        """Every square's neighbour sum, row-major."""
        return list(self._sums.to_bytes(self._geo.size, "little"))

    def values(self) -> list[int | None]:
        """Every square's number (``None`` when empty), row-major."""
        return [v or None for v in self._values.to_bytes(self._geo.size, "little")]

    def bitboards(self) -> tuple[int, int, int, int, int]:
        """The position as masks, for programs that read it in bulk (research environments).

        ``(filled, red, highlight_red, highlight_blue, values)``: one bit per
        square (row-major) for the squares holding a number, holding a red
        one, and the empty squares highlighted red or blue; then the numbers,
        one byte per square.
        """
        return self._filled, self._red, self._hl0, self._hl1, self._values

    def scores(self) -> tuple[int, int]:
        """How many squares hold a red number and how many a blue one."""
        red = self._red.bit_count()
        return red, self._filled.bit_count() - red

    def empty_cells(self) -> tuple[int, ...]:
        return self._empties

    def has_triggered(self, cell: int) -> bool:
        """Whether ``cell`` has triggered in this game (a square triggers at most once)."""
        return bool(self._done >> cell & 1)

    def triggered_cells(self) -> list[int]:
        """The squares that triggered on the last move (also when they cancelled out)."""
        return bits_of(self._triggered)

    def converted_cells(self) -> list[int]:
        """The squares whose colour or highlight the last move changed.

        A flipped number, a newly highlighted or re-highlighted empty square,
        and the placed square itself when a trigger gave it the other colour.
        """
        return bits_of(self._converted)

    @property
    def cancelled(self) -> bool:
        """Whether the last move triggered squares of both colours, so nothing changed."""
        return self._cancelled

    def over_thwarted(self) -> list[int]:
        """Squares that have not triggered and whose neighbour sum is above 35.

        Sums only grow, so these squares can never trigger.
        """
        sums = self._sums.to_bytes(self._geo.size, "little")
        done = self._done
        return [i for i, s in enumerate(sums) if s > TARGET and not done >> i & 1]

    def under_thwarted(self) -> list[int]:
        """Squares whose sum stays below 35 even if every empty neighbour got a 9.

        These squares (filled or empty) can never trigger. Corners, with three
        neighbours (at most 27), are always among them.
        """
        sums = self._sums.to_bytes(self._geo.size, "little")
        empty = self._geo.full & ~self._filled
        masks = self._geo.neighbour_mask
        return [
            i for i, s in enumerate(sums) if s + MAX_DIGIT * (masks[i] & empty).bit_count() < TARGET
        ]

    # -- playing ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        if self.result is not None:
            return []
        cell_moves = self._geo.cell_moves
        moves: list[Move] = []
        for cell in self._empties:
            moves += cell_moves[cell]
        return moves

    def play(self, move: Move | str) -> ThirtyFiveState:
        geo = self._geo
        if move.__class__ is not Placement or move.geometry is not geo:  # type: ignore[union-attr]
            move = self._coerce(move)
        cell: int = move.cell  # type: ignore[union-attr]
        bit = 1 << cell
        filled = self._filled
        player = self.to_move
        if filled & bit or player is None:
            raise self._why_illegal(move)  # type: ignore[arg-type]
        digit: int = move.digit  # type: ignore[union-attr]
        hl0, hl1, red = self._hl0, self._hl1, self._red
        if hl0 & bit:
            hl0 ^= bit
            red |= bit
        elif hl1 & bit:
            hl1 ^= bit
        elif player == RED:
            red |= bit
        filled |= bit
        sums = self._sums + digit * geo.step[cell]
        # Bytes equal to 35 become zero after the xor; adding 0x7F sets the top
        # bit of every non-zero byte (no byte overflows: sums stay below 128).
        high = geo.high
        hits = (high ^ (((sums ^ geo.target) + geo.low7) & high)) & geo.watch[cell]
        done = self._done
        triggered = converted = 0
        cancelled = False
        if hits:
            # Among the placed square and its neighbours (the only sums that
            # changed, or the only square newly filled), the filled ones at 35.
            while hits:
                low = hits & -hits
                hits ^= low
                n = (low.bit_length() >> 3) - 1
                if filled >> n & 1:
                    triggered |= 1 << n
            if triggered:
                done |= triggered
                red_triggers = triggered & red
                if red_triggers and red_triggers != triggered:
                    cancelled = True
                else:
                    masks = geo.neighbour_mask
                    reach = 0
                    t = triggered
                    while t:
                        low = t & -t
                        t ^= low
                        reach |= masks[low.bit_length() - 1]
                    empty_reach = reach & ~filled
                    if red_triggers:
                        converted = (reach & filled & ~red) | (empty_reach & ~hl0)
                        red |= reach & filled
                        hl0 |= empty_reach
                        hl1 &= ~reach
                    else:
                        converted = (reach & red) | (empty_reach & ~hl1)
                        red &= ~reach
                        hl1 |= empty_reach
                        hl0 &= ~reach
        empties = self._empties
        i = empties.index(cell)
        empties = empties[:i] + empties[i + 1 :]
        result = None
        to_move: int | None = 1 - player
        if not empties:
            n_red = red.bit_count()
            n_blue = geo.size - n_red
            result = Result.by_scores((n_red, n_blue), f"board full, {n_red}–{n_blue}")
            to_move = None
        return ThirtyFiveState(
            self.game,  # type: ignore[arg-type]
            geo,
            self._values | digit << (8 * cell),
            sums,
            filled,
            red,
            hl0,
            hl1,
            done,
            empties,
            triggered,
            converted,
            cancelled,
            to_move,
            move,  # type: ignore[arg-type]
            self.ply + 1,
            result,
        )

    def _coerce(self, move: Move | str) -> Placement:
        if isinstance(move, str):
            return self._geo.parse(move)
        if isinstance(move, Placement):
            # A placement made for another board size: take it by its text.
            return self._geo.parse(move.text)
        raise IllegalMove(f"not a move of this game: {move!r}")

    def _why_illegal(self, move: Placement) -> IllegalMove:
        if self.result is not None:
            return IllegalMove("the game is over", move.text)
        return IllegalMove(f"the square already holds a {self.value_at(move.cell)}", move.text)

    # -- JSON ------------------------------------------------------------------

    def cells_json(self) -> list[dict[str, Any] | None]:
        out: list[dict[str, Any] | None] = []
        values = self._values.to_bytes(self._geo.size, "little")
        filled, red, hl0, hl1 = self._filled, self._red, self._hl0, self._hl1
        for i, value in enumerate(values):
            if filled >> i & 1:
                out.append({"player": RED if red >> i & 1 else BLUE, "value": value})
            elif hl0 >> i & 1:
                out.append({"player": RED, "value": None})
            elif hl1 >> i & 1:
                out.append({"player": BLUE, "value": None})
            else:
                out.append(None)
        return out

    def extra_json(self) -> dict[str, Any]:
        names = self._geo.names
        return {
            "rows": self.rows,
            "cols": self.cols,
            "colours": list(COLOURS),
            "sums": self.sums(),
            "highlights": [self.highlight_at(i) for i in range(self._geo.size)],
            "over": [names[i] for i in self.over_thwarted()],
            "under": [names[i] for i in self.under_thwarted()],
            "triggered": [names[i] for i in self.triggered_cells()],
            "converted": [names[i] for i in self.converted_cells()],
            "cancelled": self._cancelled,
            "triggered_before": [names[i] for i in bits_of(self._done & ~self._triggered)],
            "scores": list(self.scores()),
        }
