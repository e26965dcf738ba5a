"""The bit boards of the classic kernel (:mod:`sansu.sudoku.kernels.classic`) and its tables.

Each digit keeps its candidate cells as three 27-bit words, one per band of
three rows (bit ``9 * row_in_band + column``; word ``3 * digit + band``).
Within a band a digit takes one cell in each of the three rows and each of
the three boxes, so which (row, box) segments can still hold it is one of six
permutation patterns, the digit's *configurations* in that band; a 512-entry
table keeps the segments that lie on some permutation. The same table,
applied to the (band, column) segments of each stack of three boxes, does
the same for columns. Segments are also *triads*: three cells of a row (or
column) inside a box; two more tables serve the kernel's triad rule.

Here too is the layout of a search state and of the kernel's work space. The
tables are plain NumPy arrays, built once at import; the kernel's compiled
code takes them in as constants.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from sansu.sudoku.grid import PEERS, SIZE

FULL = (1 << 27) - 1
ROW = 0x1FF
BOX = 7 | 7 << 9 | 7 << 18
"""The cells of box column 0 in a band word."""
ALL_DIGITS = 0x1FF
SOLVED = 27
"""Where a state's three words of placed cells (one per band) follow the 27 digit-band words."""
WORDS = 30
"""A search state: 27 digit-band words, then the solved cells of each band."""
DEPTH = 6 * 9 + 1
"""Enough levels for any search: each branch decides one more of the 54 (chute, digit) pairs."""
CHOICE = 36
TRIES = 38
SCRATCH = 39
"""Work space: 9 patterns, 27 column sets, the next branch and its options, the tries so far."""
PERMUTATIONS = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in permutations(range(3))]
"""The six configurations of a digit in a chute, as 9-bit sets of segments (bit 3 * line + box)."""


def _segment_tables() -> tuple[np.ndarray, ...]:
    keep = np.zeros(512, dtype=np.int64)
    configs = np.zeros(512, dtype=np.int64)
    forced = np.zeros(512, dtype=np.int64)
    rivals = np.zeros(512, dtype=np.int64)
    for m in range(512):
        for i, p in enumerate(PERMUTATIONS):
            if p & m == p:
                keep[m] |= p
                configs[m] |= 1 << i
        for t in range(9):
            line_mask = 7 << 3 * (t // 3)
            box_mask = 0x49 << (t % 3)
            if m >> t & 1:
                if m & line_mask == 1 << t or m & box_mask == 1 << t:
                    forced[m] |= 1 << t
                rivals[m] |= (line_mask | box_mask) & ~(1 << t)
    return keep, configs, forced, rivals


def _word_tables() -> tuple[np.ndarray, ...]:
    expand = np.zeros(512, dtype=np.int64)
    columns = np.zeros(512, dtype=np.int64)
    boxes = np.zeros(512, dtype=np.int64)
    alone = np.zeros(512, dtype=np.int64)
    for m in range(512):
        expand[m] = sum(7 << (9 * (j // 3) + 3 * (j % 3)) for j in range(9) if m >> j & 1)
        columns[m] = m | m << 9 | m << 18
        boxes[m] = sum(1 << k for k in range(3) if m >> (3 * k) & 7)
        alone[m] = m if m and m & (m - 1) == 0 else 0
    peers = np.zeros((SIZE, 3), dtype=np.int64)
    for cell in range(SIZE):
        for p in PEERS[cell]:
            peers[cell, p // 27] |= 1 << (p % 27)
    de_bruijn = np.zeros(32, dtype=np.int64)
    for i in range(32):
        de_bruijn[(((1 << i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = i
    return expand, columns, boxes, alone, peers, de_bruijn


# KEEP[segments]: the segments that lie on a permutation inside `segments`.
# CONFIGS[segments]: which of the six PERMUTATIONS lie inside `segments` (6 bits).
# FORCED[segments]: the segments alone in their line or their box: the digit must be there.
# RIVALS[segments]: every segment sharing a line or a box with one of `segments`, itself not.
KEEP, CONFIGS, FORCED, RIVALS = _segment_tables()
# EXPAND[segments]: a band word with the three cells of each segment.
# COLUMNS[cols]: a band word with every cell of the 9-bit column set.
# ROW_BOXES[row]: which boxes a 9-bit row of a band word touches.
# ALONE[m]: m when it holds exactly one bit, else 0.
# PEER_WORDS[cell, band]: the cell's peers in each band word.
# DE_BRUIJN: bit positions, indexed by a de Bruijn product (see bit_index).
EXPAND, COLUMNS, ROW_BOXES, ALONE, PEER_WORDS, DE_BRUIJN = _word_tables()
PERMUTATION_SEGMENTS = np.array(PERMUTATIONS, dtype=np.int64)
CONFIG_COUNT = np.array([bin(m).count("1") for m in range(64)], dtype=np.int64)
