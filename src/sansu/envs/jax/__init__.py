"""sansu's games as pure-JAX environments with Pgx's API (``pip install "sansu[jax]"``).

``make(env_id)`` returns an environment whose ``init(key)`` and
``step(state, action)`` are pure functions of pytrees, so they ``jit`` and
``vmap`` (and run on a GPU) and drop into code written for Pgx and
``mctx``::

    import jax
    from sansu.envs.jax import make, random_action

    env = make("uttt")
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(0), 1024))
    state = step(state, random_action(jax.random.PRNGKey(1), state.legal_action_mask))

See :mod:`sansu.envs.jax.core` for the semantics every game shares.
"""

from __future__ import annotations

from typing import Any

from sansu.envs.jax.core import Env, State, random_action

__all__ = ["ENV_IDS", "Env", "State", "make", "random_action"]

ENV_IDS = ("uttt", "sansumoku", "thirtyfive")


def make(env_id: str, **options: Any) -> Env:
    """The environment ``env_id`` (one of :data:`ENV_IDS`) with the game's ``options``."""
    if env_id not in ENV_IDS:
        raise ValueError(f"no JAX environment {env_id!r}: choose one of {', '.join(ENV_IDS)}")
    if env_id in ("uttt", "sansumoku"):
        if options:
            raise ValueError(f"{env_id} takes no options (got {', '.join(options)})")
        from sansu.envs.jax.sansumoku import Sansumoku
        from sansu.envs.jax.uttt import UltimateTicTacToe

        return UltimateTicTacToe() if env_id == "uttt" else Sansumoku()
    from sansu.envs.jax.thirtyfive import ThirtyFive

    unknown = set(options) - {"rows", "cols"}
    if unknown:
        raise ValueError(f"thirtyfive takes rows and cols (got {', '.join(sorted(unknown))})")
    return ThirtyFive(**options)
