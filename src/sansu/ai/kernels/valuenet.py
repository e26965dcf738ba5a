"""A small learned value network for the sectioned games, evaluated inside the compiled search.

The network sees a position of Ultimate Tic-Tac-Toe or Sansumoku from the
side of the player to move, as :data:`N_FEATURES` binary features (layout
below), and answers how good it is for that player, in [-1, 1]. It is one
hidden layer of ReLU units over the features and a tanh output: small enough
that an evaluation costs about one random playout, which is what it replaces
(or is mixed with) at a leaf of the search.

Most features are zero, so the first layer adds up the rows of the active
ones only (the idea of NNUE's accumulator), and in the search those rows are
int16 (NNUE's quantised first layer), half the bytes to read. The best-first
search updates it as NNUE does: a node's marks and its sections other than
its children's are summed once for all of them (:func:`encode_marks`,
:func:`encode_part`).

Feature layout (cells in the kernels' bit order ``9 * section + position``):

====================  =====================================================
``0 … 80``            the mover's marks
``81 … 161``          the opponent's marks
``162 … 170``         sections won by the mover
``171 … 179``         sections won by the opponent
``180 … 188``         closed sections
``189 … 197``         the one section the mover may use (when only one)
``198``               a free choice among several sections
``199 … 279``         the legal cells
``280 … 288``         open sections the mover could win with one mark
``289 … 297``         open sections the opponent could win with one mark
``298 … 306``         open sections whose winning would win the mover the game
``307 … 315``         open sections whose winning would win the opponent the game
``316 … 324``         open sections with a line free of the opponent's marks
``325 … 333``         open sections with a line free of the mover's marks
``334``               the mover can win the game with this move
====================  =====================================================

The last block (the *threats*) is a function of the others, but one that a
single hidden layer learns only roughly, and it is what decides most games:
given outright, it took the share of a 1,500-simulation search's value that
a small network explains on held-out games from about a third to about
three fifths.
Threats are read off the marks alone (in Sansumoku a digit may still forbid
the winning cell).

:func:`features_of_state` computes the same features from an engine state
through its public methods; a test requires both to agree on many positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.core.sections import FULL, HAS_LINE, LINE_MASKS, PLACES

MINE, THEIRS, WON_MINE, WON_THEIRS, CLOSED_AT, ONLY, FREE_AT, LEGAL_AT = (
    0, 81, 162, 171, 180, 189, 198, 199,
)  # fmt: skip
MY_THREAT, THEIR_THREAT, MY_DECISIVE, THEIR_DECISIVE, MY_WINNABLE, THEIR_WINNABLE, WIN_NOW = (
    280, 289, 298, 307, 316, 325, 334,
)  # fmt: skip
N_FEATURES = 335
MAX_ACTIVE = N_FEATURES
SECTION_BLOCKS = (WON_MINE, WON_THEIRS, CLOSED_AT, ONLY, MY_THREAT, THEIR_THREAT, MY_DECISIVE,
                  THEIR_DECISIVE, MY_WINNABLE, THEIR_WINNABLE)  # fmt: skip
"""The blocks of nine features, one per section (the board's symmetries permute them)."""
CELL_BLOCKS = (MINE, THEIRS, LEGAL_AT)
"""The blocks of 81 features, one per cell."""

COMPLETING = np.array(
    [sum(1 << p for p in range(9) if not m >> p & 1 and HAS_LINE[m | 1 << p]) for m in range(512)],
    dtype=np.int64,
)
"""``COMPLETING[marks]``: the positions that would complete a line of ``marks`` (9 bits)."""
LOW = np.array([(m & -m).bit_length() - 1 for m in range(512)], dtype=np.int64)
"""``LOW[marks]``: the lowest position set in the 9-bit ``marks`` (−1 for none); the kernels'
table too."""
OPEN_LINE = np.array([any(lm & m == 0 for lm in LINE_MASKS) for m in range(512)], dtype=np.bool_)
"""``OPEN_LINE[theirs]``: whether some line holds none of the 9-bit ``theirs``."""


@njit(cache=True)
def encode(st, won, closed_slot, target_slot, to_move_slot, moves, n, active):
    """Write the indices of the active features of kernel position ``st`` into ``active``.

    ``won``, ``closed_slot``, … are the kernel's slot numbers; ``moves[:n]`` are
    its legal moves. Both sectioned kernels keep each player's marks as one 9-bit
    field per section in slots 0–17. Returns how many features are active: the
    marks' (:func:`encode_marks`) first, then the rest's (:func:`encode_rest`).
    """
    k = encode_marks(st, st[to_move_slot], active, 0)
    return encode_rest(st, won, closed_slot, target_slot, to_move_slot, moves, n, active, k)


@njit(cache=True)
def encode_marks(st, me, active, k):
    """The marks' features of ``st`` seen by player ``me``, written from ``active[k]`` on;
    the new count."""
    for s in range(9):
        mine = st[9 * me + s]
        marked = mine | st[9 * (1 - me) + s]
        while marked:  # the marked cells only, lowest first (a fifth of the time of all 81)
            p = LOW[marked]
            active[k] = (MINE if mine >> p & 1 else THEIRS) + 9 * s + p
            k += 1
            marked &= marked - 1
    return k


@njit(cache=True)
def encode_rest(st, won, closed_slot, target_slot, to_move_slot, moves, n, active, k):
    """:func:`encode`'s features but the marks', written from ``active[k]`` on; the new
    count."""
    return encode_part(st, won, closed_slot, target_slot, to_move_slot, moves, n, active, k,
                       511, True, 0)[0]  # fmt: skip


@njit(cache=True)
def encode_part(st, won, closed_slot, target_slot, to_move_slot, moves, n, active, k, sections,
                target, wins):  # fmt: skip
    """:func:`encode_rest`'s features of the sections ``sections`` (9 bits) and, with
    ``target``, where the player to move may play, the legal cells ``moves[:n]`` and
    whether they can win now (``wins``: other sections where they could, with one
    mark, win the game). The new count, and the sections of ``sections`` where they
    could.

    The best-first search writes a node's other sections once for all its children,
    and each child's own section and target."""
    me = st[to_move_slot]
    closed = st[closed_slot]
    for s in range(9):
        if not sections >> s & 1:
            continue
        if st[won + me] >> s & 1:
            active[k] = WON_MINE + s
            k += 1
        elif st[won + 1 - me] >> s & 1:
            active[k] = WON_THEIRS + s
            k += 1
        if closed >> s & 1:
            active[k] = CLOSED_AT + s
            k += 1
    allowed = 0
    if target:
        t = st[target_slot]
        allowed = 1 << t if t >= 0 and not closed >> t & 1 else 511 & ~closed
        count = 0
        only = -1
        for s in range(9):
            if allowed >> s & 1:
                count += 1
                only = s
        if count == 1:
            active[k] = ONLY + only
        else:
            active[k] = FREE_AT
        k += 1
        for i in range(n):
            active[k] = LEGAL_AT + moves[i]
            k += 1
    mine_won = COMPLETING[st[won + me]]
    theirs_won = COMPLETING[st[won + 1 - me]]
    found = 0
    for s in range(9):
        if closed >> s & 1 or not sections >> s & 1:
            continue
        mine = st[9 * me + s]
        theirs = st[9 * (1 - me) + s]
        empty = FULL & ~(mine | theirs)
        threat = COMPLETING[mine] & empty != 0
        if threat:
            active[k] = MY_THREAT + s
            k += 1
        if COMPLETING[theirs] & empty:
            active[k] = THEIR_THREAT + s
            k += 1
        if mine_won >> s & 1:
            active[k] = MY_DECISIVE + s
            k += 1
            if threat:
                found |= 1 << s
        if theirs_won >> s & 1:
            active[k] = THEIR_DECISIVE + s
            k += 1
        if OPEN_LINE[theirs]:
            active[k] = MY_WINNABLE + s
            k += 1
        if OPEN_LINE[mine]:
            active[k] = THEIR_WINNABLE + s
            k += 1
    if (found | wins) & allowed:
        active[k] = WIN_NOW
        k += 1
    return k, found


@njit(cache=True)
def accumulator(like):
    """A scratch first layer of ``like``'s size and type, its start on a 64-byte line.

    Its sums are read and written once per active feature: where they straddle
    cache lines, an evaluation takes 40% longer (and a process that happens to get
    such an array from the allocator searches that much slower throughout)."""
    hidden = like.shape[0]
    spare = 64 // like.itemsize
    room = np.empty(hidden + spare, dtype=like.dtype)
    skip = ((-room.ctypes.data) & 63) // like.itemsize
    return room[skip:skip + hidden]


@njit(cache=True, fastmath=True, inline="always")
def accumulate(h, w1, active, start, stop):
    """Add the first-layer rows of the features ``active[start:stop]`` into ``h``: four
    rows a pass, so that the sums are loaded and stored a quarter as often."""
    hidden = h.shape[0]
    i = start
    if w1.itemsize == 2:  # int16 rows, summed in int32 (as they are stored), not int64
        while i + 4 <= stop:
            r0, r1, r2, r3 = active[i], active[i + 1], active[i + 2], active[i + 3]
            for j in range(hidden):
                h[j] += (np.int32(w1[r0, j]) + np.int32(w1[r1, j])
                         + np.int32(w1[r2, j]) + np.int32(w1[r3, j]))
            i += 4
    while i + 4 <= stop:
        r0, r1, r2, r3 = active[i], active[i + 1], active[i + 2], active[i + 3]
        for j in range(hidden):
            h[j] += w1[r0, j] + w1[r1, j] + w1[r2, j] + w1[r3, j]
        i += 4
    while i < stop:
        r0 = active[i]
        for j in range(hidden):
            h[j] += w1[r0, j]
        i += 1


@njit(cache=True, fastmath=True, inline="always")
def output(h, w2, b2):
    """The network's value in [-1, 1] from its first layer's sums ``h``.

    Inlined, it is compiled with its caller's flags, not these: a caller that wants
    the sum vectorised allows reassociation itself (``bestfirst.VECTOR``)."""
    out = b2[0]
    for j in range(h.shape[0]):
        out += max(np.float32(h[j]), np.float32(0.0)) * w2[j]
    return np.tanh(out)


@njit(cache=True, fastmath=True)
def forward(active, k, w1, b1, w2, b2):
    """The network's value in [-1, 1] of the features ``active[:k]`` (for the player to move).

    ``fastmath`` lets the compiler vectorise the sums (in any order; the result
    differs from NumPy's by rounding only). The first layer may be float32 or, as
    the search passes it, int16 weights and int32 biases at a scale that ``w2``
    undoes (:func:`sansu.ai.network.kernel_weights`).
    """
    h = accumulator(b1)
    h[:] = b1
    accumulate(h, w1, active, 0, k)
    return output(h, w2, b2)


@njit(cache=True, fastmath=True)
def priors(active, k, pw1, pb1, pw2, pb2, codes, n, out):
    """A policy network's odds of the moves ``codes[:n]`` at the features ``active[:k]``,
    into ``out[:n]`` (they sum to 1).

    ``pw2`` holds one row of weights per move code (``81 × hidden``), so a
    move's logit reads one contiguous row; only the legal moves' are computed.
    """
    hidden = pb1.shape[0]
    h = accumulator(pb1)
    h[:] = pb1
    accumulate(h, pw1, active, 0, k)
    top = -1.0e30
    for m in range(n):
        c = codes[m]
        z = pb2[c]
        for j in range(hidden):
            z += max(np.float32(h[j]), np.float32(0.0)) * pw2[c, j]
        out[m] = z
        top = max(top, z)
    total = 0.0
    for m in range(n):
        out[m] = np.exp(out[m] - top)
        total += out[m]
    for m in range(n):
        out[m] /= total


@njit(cache=True)
def set_shares(
    st, won, closed, target, to_move, cells, n, start, m, move, share, pw1, pb1, pw2, pb2,
    active, odds, by_code,
):  # fmt: skip
    """Give the children ``start … start + m - 1`` of the position ``st`` (whose legal
    cells are ``cells[:n]``) their shares of a policy network's odds; a section choice
    (code 81 + section) gets the odds of its cells together."""
    k = encode(st, won, closed, target, to_move, cells, n, active)
    priors(active, k, pw1, pb1, pw2, pb2, cells, n, odds)
    if move[start] >= 81:
        for s in range(9):
            by_code[s] = 0.0
        for i in range(n):
            by_code[cells[i] // 9] += odds[i]
        for c in range(start, start + m):
            share[c] = by_code[move[c] - 81]
        return
    for i in range(n):
        by_code[cells[i]] = odds[i]
    for c in range(start, start + m):
        share[c] = by_code[move[c]]


@njit(cache=True)
def reward_for(player, value):
    """Player 0's expected reward in [0, 1] from ``value`` in [-1, 1] for ``player``."""
    r = 0.5 * (value + 1.0)
    return r if player == 0 else 1.0 - r


def features_of_state(state) -> np.ndarray:
    """The features of an engine state (UTTT or Sansumoku), read through its public methods.

    A dense 0/1 vector of length :data:`N_FEATURES`, the reference that the
    compiled :func:`encode` is checked against.
    """
    x = np.zeros(N_FEATURES, dtype=np.uint8)
    me = state.to_move
    owner_of = getattr(state, "mark_at", None) or state.player_at
    for place in PLACES:
        owner = owner_of(place.cell)
        if owner is not None:
            x[(MINE if owner == me else THEIRS) + place.bit] = 1
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            x[(WON_MINE if owner == me else WON_THEIRS) + s] = 1
        if state.is_closed(s):
            x[CLOSED_AT + s] = 1
    allowed = state.allowed_sections()
    if len(allowed) == 1:
        x[ONLY + allowed[0]] = 1
    else:
        x[FREE_AT] = 1
    for move in state.legal_moves():
        x[LEGAL_AT + move.bit] = 1
    _threats_of_state(state, me, owner_of, x)
    return x


def _threats_of_state(state, me: int, owner_of, x: np.ndarray) -> None:
    """The threat features of ``state`` into ``x``, with plain loops over the lines."""
    from sansu.core.sections import LINES, cells_of_section

    def completes(marks: set[int], empty: set[int]) -> bool:
        return any(len(set(line) & marks) == 2 and set(line) & empty for line in LINES)

    won = {p: {s for s in range(9) if state.section_owner(s) == p} for p in (0, 1)}
    allowed = set(state.allowed_sections())
    for s in range(9):
        if state.is_closed(s):
            continue
        owners = [owner_of(cell) for cell in cells_of_section(s)]
        mine = {p for p, o in enumerate(owners) if o == me}
        theirs = {p for p, o in enumerate(owners) if o == 1 - me}
        empty = set(range(9)) - mine - theirs
        threat = completes(mine, empty)
        x[MY_THREAT + s] = threat
        x[THEIR_THREAT + s] = completes(theirs, empty)
        x[MY_DECISIVE + s] = completes(won[me], {s})
        x[THEIR_DECISIVE + s] = completes(won[1 - me], {s})
        x[MY_WINNABLE + s] = any(not set(line) & theirs for line in LINES)
        x[THEIR_WINNABLE + s] = any(not set(line) & mine for line in LINES)
        if threat and x[MY_DECISIVE + s] and s in allowed:
            x[WIN_NOW] = 1


def dense(active: np.ndarray, k: int) -> np.ndarray:
    """The 0/1 feature vector of the active indices ``active[:k]``."""
    x = np.zeros(N_FEATURES, dtype=np.uint8)
    x[active[:k]] = 1
    return x
