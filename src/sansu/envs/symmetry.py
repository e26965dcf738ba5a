"""The 8 symmetries of the square board, for observations, masks and policies.

Ultimate Tic-Tac-Toe, Sansumoku and 35 on a square board play the same under
every rotation and reflection of the board: a position turned a quarter round
is as good as the original, and its best move is the original's turned with
it. Training on all 8 copies of a position (or averaging a network over them)
is the classic use. :class:`Symmetries` gives, for each symmetry ``k``
(0 is the identity), where every cell and every action goes, and applies
them to arrays whose last axis is cells (observation planes) or actions
(legal masks, policies).

>>> sym = Symmetries("uttt")
>>> sym.cells.shape, sym.actions.shape
((8, 81), (8, 81))
>>> int(sym.cells[1, 0])  # a quarter turn takes r1c1 to r1c9
8
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sansu.core.registry import load_game

GAMES = ("uttt", "sansumoku", "thirtyfive")


def square_maps(n: int) -> np.ndarray:
    """``maps[k][cell]``: where symmetry ``k`` takes each cell of an ``n × n`` board
    (row-major): the identity, three quarter turns, then the four reflections."""
    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    images = [
        (r, c),
        (c, m - r),
        (m - r, m - c),
        (m - c, r),
        (r, m - c),
        (m - r, c),
        (c, r),
        (m - c, m - r),
    ]
    return np.stack([rr * n + cc for rr, cc in images]).astype(np.int64)


class Symmetries:
    """The 8 symmetries of ``game_id``'s board (``uttt``, ``sansumoku``, or
    ``thirtyfive`` on a square board), in the encoding of every sansu environment.

    ``cells[k][c]`` is where symmetry ``k`` takes cell ``c``; ``actions[k][a]``
    where it takes action ``a``; ``inverse[k]`` undoes ``k``.
    """

    def __init__(self, game_id: str, **options: Any) -> None:
        game = load_game(game_id, **options)
        if game.id not in GAMES:
            raise ValueError(f"symmetries are for {', '.join(GAMES)}; not {game_id!r}")
        if game.id == "thirtyfive":
            rows, cols = game.options["rows"], game.options["cols"]
            if rows != cols:
                raise ValueError(f"a {rows} × {cols} board has no quarter turns: use a square one")
            n = rows
        else:
            n = 9
        self.game_id = game.id
        self.cells = square_maps(n)
        if game.id == "thirtyfive":
            number = np.arange(9)
            self.actions = (self.cells[:, :, None] * 9 + number).reshape(8, -1)
        else:
            self.actions = self.cells.copy()
        composed = [
            next(j for j in range(8) if np.array_equal(self.cells[j][self.cells[k]], self.cells[0]))
            for k in range(8)
        ]
        self.inverse = np.array(composed, dtype=np.int64)

    def __len__(self) -> int:
        return 8

    @staticmethod
    def _moved(array: Any, where: np.ndarray) -> np.ndarray:
        values = np.asarray(array)
        if values.shape[-1] != where.shape[0]:
            raise ValueError(
                f"the last axis must have {where.shape[0]} entries, not {values.shape}"
            )
        out = np.empty_like(values)
        out[..., where] = values
        return out

    def observation(self, observation: Any, k: int) -> np.ndarray:
        """``observation`` (planes × cells, any leading axes) seen through symmetry ``k``."""
        return self._moved(observation, self.cells[k])

    def actions_of(self, values: Any, k: int) -> np.ndarray:
        """A mask or a policy over actions (last axis) seen through symmetry ``k``."""
        return self._moved(values, self.actions[k])

    def action(self, action: int, k: int) -> int:
        """Where symmetry ``k`` takes one action."""
        return int(self.actions[k][action])
