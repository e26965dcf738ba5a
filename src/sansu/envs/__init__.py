"""Research environments: every sansu game behind the APIs researchers already use.

* :func:`pettingzoo_env` — a PettingZoo ``AECEnv`` for every game and option;
* :func:`gym_env` — a Gymnasium ``Env``: one agent against a sansu computer level;
* :class:`VectorEnv` — batches of Ultimate Tic-Tac-Toe, Sansumoku or 35 stepped
  in compiled code;
* :class:`Symmetries` — the 8 symmetries of the square board, for observations,
  masks and policies (:mod:`sansu.envs.symmetry`);
* :func:`mover_planes` — one-hot float32 planes from one player's side
  (:mod:`sansu.envs.planes`; the environments' ``observation="planes"``);
* ``import sansu.envs.openspiel`` registers the five games with OpenSpiel,
  ``import sansu.envs.gymnasium`` their Gymnasium ids (``sansu/UTTT-v1``), and
  :mod:`sansu.envs.pettingzoo` has versioned PettingZoo modules (``uttt_v1``).

One encoding of actions serves them all (:mod:`sansu.envs.encoding`). The
PettingZoo, Gymnasium and OpenSpiel parts need the ``envs`` extra
(``pip install sansu[envs]``); importing this package does not.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GAMES",
    "VERSION",
    "Symmetries",
    "VectorEnv",
    "gym_env",
    "mover_planes",
    "pettingzoo_env",
]

VERSION = 1
"""The version of the environments' actions, observations, rewards and rules: in the
Gymnasium ids (``sansu/UTTT-v1``), the PettingZoo modules (``uttt_v1``) and the
OpenSpiel names (``sansu_uttt_v1``). docs/research.md says what bumps it."""

GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
"""Every game the environments play, by engine id."""


def pettingzoo_env(game_id: str, **options: Any) -> Any:
    """A PettingZoo ``AECEnv`` of ``game_id`` with ``options`` (see :mod:`sansu.envs.aec`)."""
    from sansu.envs.aec import env

    return env(game_id, **options)


def gym_env(game_id: str, opponent: str = "medium", **options: Any) -> Any:
    """A Gymnasium ``Env``: player 0 against the computer at level ``opponent``.

    See :class:`sansu.envs.single.SingleAgentEnv` for the other arguments.
    """
    from sansu.envs.single import SingleAgentEnv

    return SingleAgentEnv(game_id, opponent=opponent, **options)


def __getattr__(name: str) -> Any:
    if name == "VectorEnv":
        from sansu.envs.vector import VectorEnv

        return VectorEnv
    if name == "mover_planes":
        from sansu.envs.planes import mover_planes

        return mover_planes
    if name == "Symmetries":
        from sansu.envs.symmetry import Symmetries

        return Symmetries
    raise AttributeError(f"module 'sansu.envs' has no attribute {name!r}")
