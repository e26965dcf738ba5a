"""35: numbers 1–9 on a grid; a square whose neighbours add up to exactly 35 takes them over.

Rules as implemented (see ``docs/rules/reference/thirtyfive.md``): Red (player 0) and
Blue take turns placing a number 1–9 on an empty square of a ``rows`` × ``cols``
board (8×8 by default). The number takes the square's highlight colour if it
has one, else the mover's colour. After a placement, every filled square whose
neighbour sum has just become exactly 35 *triggers*, and so does the placed
square if its neighbours already sum to 35. When the triggers of a move are
all of one colour, every neighbour of every triggering square takes that
colour: filled squares flip, empty squares are highlighted (a later highlight
replaces an earlier one). Triggers of both colours in one move change nothing.
A full board ends the game: more squares wins, equal counts draw.

The engine: :mod:`.board` (the move objects and the tables of one board
size, built once per size) and :mod:`.game` (the game and its positions, a
position being a few integers, so that a move costs a handful of big-integer
operations and no copying of arrays). Everything is importable from here.
"""

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
from sansu.games.thirtyfive.game import ThirtyFive, ThirtyFiveState

__all__ = [
    "BLUE",
    "COLOURS",
    "GAME",
    "MAX_DIGIT",
    "MAX_SIZE",
    "MIN_SIZE",
    "RED",
    "TARGET",
    "Geometry",
    "Placement",
    "ThirtyFive",
    "ThirtyFiveState",
    "geometry",
]

GAME = ThirtyFive
