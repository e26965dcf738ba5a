"""35's kernel array layout, shared by the rules kernel and the leaf evaluator.

Boards of every size (3–12 rows and columns) use one layout: a 14-wide
grid with a border, square ``(row, col)`` at ``(row + 1) * 14 + col + 1``, so
the eight neighbours of a square are fixed offsets and the border squares
(never filled) need no bounds checks. The slots of the int16 position array
are named here (see :mod:`sansu.ai.kernels.thirtyfive`).
"""

from __future__ import annotations

import numpy as np

WIDE = 14
SQUARES = WIDE * WIDE
SUMS, COLOUR, HIGHLIGHT, EMPTY, PLACE = 0, 196, 392, 588, 732
ROWS, COLS, EMPTIES, TO_MOVE, RESULT = 928, 929, 930, 931, 932
SIZE = 933
BORDER = -2
NONE = -1
TARGET = 35
OFFSETS = np.array([-WIDE - 1, -WIDE, -WIDE + 1, -1, 1, WIDE - 1, WIDE, WIDE + 1], dtype=np.int64)
