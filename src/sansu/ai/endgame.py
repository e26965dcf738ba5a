"""Ultimate Tic-Tac-Toe's exact endgame in a search: when to solve, and what a solve decides.

When the open sections have few empty cells left, :class:`Endgame` solves the
position outright (:mod:`sansu.ai.kernels.uttt_endgame`) with part of the
move's budget before the tree search: a won position plays its fastest win
and a lost one its slowest loss at once, with no search; in a drawn one the
search goes on among the moves that keep the draw (the others are marked
lost in its tree), so it still looks for the opponent's mistakes. A solve
that runs out of nodes changes nothing, and its finished parts stay in the
transposition table for the next move's solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NODES_PER_SECOND = 2_000_000
"""Nodes a solve searches a second (measured 2.5–3.2 million on one busy core): sizes the
budget of a timed solve."""
TIME_SHARE = 0.5
"""The share of a timed move's budget a solve may take."""
NODES_PER_SIMULATION = 8
"""A solve's budget for a search by simulations: this many nodes each (reproducible)."""


@dataclass(frozen=True)
class Solved:
    """What a solve found at the root: its score and what each move is known to be worth."""

    score: int
    """Exact, for the player to move: above 0 a win (``WIN - plies``), below 0 a loss, 0 a draw."""
    moves: list[int]
    """The legal moves' kernel codes, the best first."""
    values: list[int]
    """Exact for the best; in a drawn position 0 for a move that draws, below 0 for one that
    loses; in a won or lost one, upper bounds."""
    nodes: int

    @property
    def losing(self) -> set[int]:
        """The moves that lose a drawn position (none otherwise: then only the best counts)."""
        if self.score != 0:
            return set()
        return {m for m, v in zip(self.moves, self.values, strict=True) if v < 0}


class Endgame:
    """Exact solves of small Ultimate Tic-Tac-Toe positions, with one table kept for a game.

    ``limit``: the most empty cells in open sections a position may have to be solved.
    """

    def __init__(self, limit: int) -> None:
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise ValueError(f"the endgame limit must be a whole number ≥ 0, not {limit!r}")
        self.limit = limit
        self._table = None

    def warm_up(self) -> None:
        """Load the compiled solver and allocate the table now, not during the first solve
        (some 0.7 s)."""
        if self.limit > 0:
            from sansu.ai.kernels import uttt as UK
            from sansu.core.registry import load_game

            root = UK.from_state(load_game("uttt").initial_state())
            self.solve(root, 1, size=81)

    def budget(self, time_ms: float | None, simulations: int | None) -> int:
        """The nodes a solve may search within a move's budget."""
        nodes = [] if time_ms is None else [int(NODES_PER_SECOND * TIME_SHARE * time_ms / 1000)]
        if simulations is not None:
            nodes.append(NODES_PER_SIMULATION * simulations)
        return max(1, min(nodes))

    def solve(self, root: np.ndarray, nodes: int, *, size: int | None = None) -> Solved | None:
        """The solved root (a kernel position), or ``None`` if it is too big (more than
        ``size`` empty cells in open sections, by default the limit) or the budget ran out."""
        if self.limit <= 0:  # off (every level): no import, nothing on the move's clock
            return None
        from sansu.ai.kernels import uttt_endgame as E

        if E.open_empty(root) > (size or self.limit):
            return None
        if self._table is None:
            self._table = E.Table()
        out = np.empty(81, dtype=np.int16)
        values = np.empty(81, dtype=np.int64)
        n, score, searched = E.solve(root, nodes, *self._table.arrays(), out, values)
        if n < 0:
            return None
        return Solved(int(score), out[:n].tolist(), values[:n].tolist(), int(searched))
