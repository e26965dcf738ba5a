"""35: numbers 1–9 on a grid; a square whose neighbours add up to exactly 35 takes them over.

Rules as implemented (see ``docs/rules/thirtyfive.md``): Red (player 0) and
Blue take turns placing a number 1–9 on an empty square of a ``rows`` × ``cols``
board (8×8 by default). The number takes the square's highlight colour if it
has one, else the mover's colour. After a placement, every filled square whose
neighbour sum has just become exactly 35 *triggers*, and so does the placed
square if its neighbours already sum to 35. When the triggers of a move are
all of one colour, every neighbour of every triggering square takes that
colour: filled squares flip, empty squares are highlighted (a later highlight
replaces an earlier one). Triggers of both colours in one move change nothing.
A full board ends the game: more squares wins, equal counts draw.

The position is a few integers, so a move costs a handful of big-integer
operations and no copying of arrays:

* colours, highlights and "has triggered" are bit masks, one bit per square
  (bit ``index``, row-major);
* numbers and neighbour sums are packed one byte per square (byte ``index``);
  placing ``d`` adds ``d`` times a precomputed neighbour pattern to the sums,
  and one byte-wise comparison finds the sums that are now exactly 35.

Everything that depends only on the board size (neighbours, patterns, the
move objects) is built once per size in :class:`Geometry`.
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from typing import Any

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Move, Player, Result, State

RED = 0
BLUE = 1
COLOURS = ("red", "blue")
"""Colour names by player: Red is player 0 and moves first."""

TARGET = 35
"""The neighbour sum that triggers a square."""

MAX_DIGIT = 9
MIN_SIZE = 3
MAX_SIZE = 12


class Placement:
    """A number placed on a square, e.g. ``r4c5=9``.

    There is exactly one instance per square and number for each board size
    (:attr:`Geometry.moves`), so moves compare by identity; pickling keeps this.
    """

    __slots__ = ("cell", "digit", "geometry", "text")

    def __init__(self, geometry: Geometry, cell: int, digit: int) -> None:
        self.geometry = geometry
        self.cell = cell
        self.digit = digit
        self.text = f"{cell_name(cell, geometry.cols)}={digit}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Placement({self.text})"

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int]]:
        geo = self.geometry
        return (_placement, (geo.rows, geo.cols, self.cell, self.digit))


def _placement(rows: int, cols: int, cell: int, digit: int) -> Placement:
    return geometry(rows, cols).move(cell, digit)


class Geometry:
    """The tables of one board size: neighbours, sum patterns and the interned moves."""

    __slots__ = (
        "by_text",
        "cell_moves",
        "cols",
        "full",
        "high",
        "low7",
        "moves",
        "names",
        "neighbour_mask",
        "neighbours",
        "rows",
        "size",
        "step",
        "target",
        "watch",
    )

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        size = self.size = rows * cols
        self.full = (1 << size) - 1
        self.names = tuple(cell_name(i, cols) for i in range(size))
        neighbours = []
        for index in range(size):
            r, c = divmod(index, cols)
            neighbours.append(
                tuple(
                    rr * cols + cc
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
                )
            )
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.neighbour_mask = tuple(sum(1 << n for n in nb) for nb in neighbours)
        # Byte-packed patterns: adding digit * step[i] adds the digit to the
        # sum of every neighbour of i; watch[i] marks the top bit of the bytes
        # of i and its neighbours, the only sums that can become 35 when i is
        # filled.
        self.step = tuple(sum(1 << (8 * n) for n in nb) for nb in neighbours)
        ones = sum(1 << (8 * i) for i in range(size))
        self.target = TARGET * ones
        self.low7 = 0x7F * ones
        self.high = 0x80 * ones
        self.watch = tuple(
            sum(0x80 << (8 * n) for n in (i, *nb)) for i, nb in enumerate(neighbours)
        )
        self.cell_moves = tuple(
            tuple(Placement(self, i, d) for d in range(1, MAX_DIGIT + 1)) for i in range(size)
        )
        self.moves = tuple(chain.from_iterable(self.cell_moves))
        self.by_text = {m.text: m for m in self.moves}

    def move(self, cell: int, digit: int) -> Placement:
        return self.cell_moves[cell][digit - 1]

    def parse(self, text: str) -> Placement:
        """The placement that ``text`` names (``r4c5=9``; case and spaces forgiven)."""
        found = self.by_text.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        cell, value = parse_placement(text, self.rows, self.cols)
        name = self.names[cell]
        if value is None:
            raise IllegalMove(
                f"a move places a number: write it as {name}=D with D from 1 to 9", name
            )
        return self.move(cell, parse_digit(value, name, 1, MAX_DIGIT))


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """The tables of a ``rows`` × ``cols`` board, built once per size."""
    return Geometry(rows, cols)


class ThirtyFive(Game):
    id = "thirtyfive"
    title = "35"
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
        return _cells(self._triggered)

    def converted_cells(self) -> list[int]:
        """The squares whose colour or highlight the last move changed.

        A flipped number, a newly highlighted or re-highlighted empty square,
        and the placed square itself when a trigger gave it the other colour.
        """
        return _cells(self._converted)

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
            "triggered_before": [names[i] for i in _cells(self._done & ~self._triggered)],
            "scores": list(self.scores()),
        }


def _cells(mask: int) -> list[int]:
    """The squares of a bit mask, in row-major order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


GAME = ThirtyFive
