"""PettingZoo modules with versioned names, as PettingZoo's own games have
(``pettingzoo.classic.tictactoe_v3``): ``sansu.envs.pettingzoo.uttt_v1``,
``sansumoku_v1``, ``sumodoku_v1``, ``challenge_v1`` and ``thirtyfive_v1``, each
with ``env(**options)`` and ``raw_env(**options)``.

>>> from sansu.envs.pettingzoo import uttt_v1
>>> env = uttt_v1.env()
>>> env.metadata["name"]
'sansu_uttt_v1'

The version is :data:`sansu.envs.VERSION`, the same in the Gymnasium ids
(:mod:`sansu.envs.gymnasium`) and the OpenSpiel names
(:mod:`sansu.envs.openspiel`); ``docs/research.md`` says what bumps it.
Both functions give the same environment: it makes the checks of PettingZoo's
wrappers itself (:mod:`sansu.envs.aec`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sansu.envs import GAMES, VERSION

__all__ = ["GAMES", "VERSION", "versioned"]


def versioned(game_id: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``env`` and ``raw_env`` of one game's module."""

    def env(render_mode: str | None = None, **options: Any) -> Any:
        """The PettingZoo ``AECEnv`` of this game with ``options``
        (see :func:`sansu.envs.pettingzoo_env`)."""
        from sansu.envs.aec import env as make

        return make(game_id, render_mode=render_mode, **options)

    return env, env
