"""One-hot float32 planes from one player's point of view, for networks.

The integer observations of :mod:`sansu.envs.encoding` number the players as
the engine does (1 for player 0, 2 for player 1). A network learns faster on
planes seen from the side of the player it moves for, with every category its
own 0/1 plane: then one network plays both seats, and the symmetries of
:mod:`sansu.envs.symmetry` apply to the planes as to any observation (last
axis: cells). The games with a board of cells: Ultimate Tic-Tac-Toe,
Sansumoku and 35.

* **Ultimate Tic-Tac-Toe** (5 planes): my marks, the opponent's; my won
  sections, the opponent's, the full sections won by nobody (each cell
  showing its section).
* **Sansumoku** (14 planes): my digits, the opponent's; the digit 1 … 9 on
  each cell (9 planes); the sections as above (3).
* **35** (13 planes): my numbers, the opponent's; the number 1 … 9 on each
  square (9 planes); the squares highlighted for me, for the opponent.

:func:`mover_planes` works on a batch as well (any leading axes), so it turns
:class:`~sansu.envs.vector.VectorEnv` observations into planes with
``mover_planes(game_id, out.observation, out.current_player)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PLANE_NAMES: dict[str, tuple[str, ...]] = {
    "uttt": ("mine", "theirs", "section mine", "section theirs", "section full"),
    "sansumoku": (
        "mine",
        "theirs",
        *(f"digit {d}" for d in range(1, 10)),
        "section mine",
        "section theirs",
        "section full",
    ),
    "thirtyfive": (
        "mine",
        "theirs",
        *(f"number {d}" for d in range(1, 10)),
        "highlight mine",
        "highlight theirs",
    ),
}
"""What each plane holds, in order, per game."""

OBSERVATIONS = ("int", "planes")
"""The values of the environments' ``observation`` option: the integer arrays
of :mod:`sansu.envs.encoding`, or the planes here."""


def plane_count(game_id: str) -> int:
    """How many planes :func:`mover_planes` gives for ``game_id`` (``ValueError`` if none)."""
    if game_id not in PLANE_NAMES:
        raise ValueError(
            f"planes are made for {', '.join(PLANE_NAMES)}, not {game_id!r}"
            " (use its integer observation)"
        )
    return len(PLANE_NAMES[game_id])


def mover_planes(game_id: str, observation: Any, player: Any) -> np.ndarray:
    """float32 planes of ``observation`` (``[..., planes, cells]`` integers) seen by ``player``.

    ``player`` is 0 or 1, one number or one per leading index of a batch
    (``VectorEnv``'s ``current_player``). Answers ``[..., plane_count, cells]``
    of 0.0 and 1.0.
    """
    count = plane_count(game_id)
    obs = np.asarray(observation)
    if obs.ndim < 2 or obs.shape[-2] != (3 if game_id != "uttt" else 2):
        raise ValueError(f"not an observation of {game_id}: shape {obs.shape}")
    me = np.asarray(player, dtype=np.int8)
    if me.shape != obs.shape[:-2] and me.ndim != 0:
        raise ValueError(f"player must be one number or one per game, not shape {me.shape}")
    if me.size and not np.isin(me, (0, 1)).all():
        raise ValueError("player must be 0 or 1")
    mine = (me + 1)[..., None]  # the integer observations' code of ``player``
    theirs = 3 - mine  # and of the other player
    out = np.empty((*obs.shape[:-2], count, obs.shape[-1]), dtype=np.float32)
    owner = obs[..., 0, :]
    out[..., 0, :] = owner == mine
    out[..., 1, :] = owner == theirs
    if game_id != "uttt":  # the digit or number on each cell, one plane per value
        values = obs[..., 1, :]
        for d in range(1, 10):
            out[..., 1 + d, :] = values == d
    last = obs[..., -1, :]
    base = 2 if game_id == "uttt" else 11
    out[..., base, :] = last == mine
    out[..., base + 1, :] = last == theirs
    if game_id != "thirtyfive":
        out[..., base + 2, :] = last == 3
    return out


def planes_option(game_id: str, observation: str) -> str | None:
    """The environments' ``observation`` option checked: the game to make planes of
    (``"planes"``) or ``None`` (``"int"``, the integer observation)."""
    if observation not in OBSERVATIONS:
        raise ValueError(
            f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}"
        )
    if observation == "int":
        return None
    plane_count(game_id)
    return game_id


def observation_box(encoding: Any, planes: str | None) -> Any:
    """The Gymnasium ``Box`` of an encoding's observations, or of its planes."""
    from gymnasium import spaces

    if planes is None:
        return spaces.Box(
            *encoding.observation_bounds(),
            encoding.observation_shape,
            dtype=encoding.observation_dtype,
        )
    shape = (plane_count(planes), encoding.observation_shape[-1])
    return spaces.Box(0.0, 1.0, shape, dtype=np.float32)
