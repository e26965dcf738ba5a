"""The state and environment protocol of Pgx, for sansu's games in pure JAX.

A :class:`State` is an immutable pytree with Pgx's common fields, so that
``jax.jit``, ``jax.vmap`` and code written for Pgx (its AlphaZero example,
``mctx`` recurrent functions) take it unchanged. :class:`Env` holds the
semantics Pgx gives every game, so each game writes only ``_init``,
``_step`` and ``_observe``:

* stepping a finished game changes nothing but zeroes its rewards;
* an illegal action ends the game: the mover gets −1, every other player +1;
* a finished game's legal-action mask is all true (a policy normalised over
  it never divides by zero);
* the observation is recomputed for the player to move after each step.

Nothing here imports Pgx: a sansu environment needs only ``jax``.
"""

from __future__ import annotations

import abc
import dataclasses
from typing import Any, TypeVar

import jax
import jax.numpy as jnp

Array = jax.Array
S = TypeVar("S", bound="State")
T = TypeVar("T")


def pytree(cls: type[T]) -> type[T]:
    """A frozen dataclass registered as a JAX pytree (every field is data)."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    return jax.tree_util.register_dataclass(cls)


@pytree
class State:
    """Pgx's common fields; each game's state adds its own (with a leading ``_``).

    ``current_player`` is the player to move (player 0 moves first, as in the
    engines), ``rewards`` has one entry per player for the step just made,
    ``legal_action_mask`` is a bool array over every action.
    """

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array

    def replace(self: S, **changes: Any) -> S:
        """A copy with ``changes`` (states are immutable, as in Pgx)."""
        return dataclasses.replace(self, **changes)

    @property
    def env_id(self) -> str:
        """The id of the environment that made this state."""
        raise NotImplementedError


def start(num_actions: int, observation_shape: tuple[int, ...]) -> dict[str, Array]:
    """The common fields of a game's first position: player 0 to move, every action legal."""
    return {
        "current_player": jnp.int32(0),
        "observation": jnp.zeros(observation_shape, jnp.bool_),
        "rewards": jnp.zeros(2, jnp.float32),
        "terminated": jnp.bool_(False),
        "truncated": jnp.bool_(False),
        "legal_action_mask": jnp.ones(num_actions, jnp.bool_),
        "_step_count": jnp.int32(0),
    }


class Env(abc.ABC):
    """Pgx's ``Env`` API: ``init``, ``step``, ``observe``, and the game's facts."""

    id: str
    version: str = "v0"
    num_players: int = 2
    num_actions: int

    def init(self, key: Array) -> State:
        """The first position (``key`` is accepted for Pgx's signature; the start is fixed)."""
        state = self._init(key)
        return state.replace(observation=self._observe(state, state.current_player))

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """The position after the player to move plays ``action``.

        Pgx's semantics (module docstring): a finished game only has its
        rewards zeroed, an illegal action loses, a finished game's mask is
        all true. Branch-free, so that ``vmap`` does not run both sides of a
        ``cond`` and select.
        """
        over = state.terminated | state.truncated
        illegal = ~over & ~state.legal_action_mask[action]
        mover = state.current_player
        stepped = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        loss = jnp.full(self.num_players, 1.0, jnp.float32).at[mover].set(-1.0)
        stepped = stepped.replace(
            rewards=jnp.where(illegal, loss, stepped.rewards),
            terminated=stepped.terminated | illegal,
        )
        stepped = stepped.replace(
            legal_action_mask=stepped.legal_action_mask | stepped.terminated,
        )
        # The observation is made afresh below: not selected, not kept.
        kept = state.replace(rewards=jnp.zeros_like(state.rewards), observation=None)
        stepped = stepped.replace(observation=None)
        new = jax.tree_util.tree_map(lambda a, b: jnp.where(over, a, b), kept, stepped)
        return new.replace(observation=self._observe(new, new.current_player))

    def observe(self, state: State, player_id: Array | None = None) -> Array:
        """What ``player_id`` (default: the player to move) sees of ``state``."""
        player = state.current_player if player_id is None else player_id
        return jax.lax.stop_gradient(self._observe(state, player))

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of one observation (Pgx's property)."""
        state = self._init(jax.random.PRNGKey(0))
        return tuple(jax.eval_shape(self._observe, state, state.current_player).shape)

    @abc.abstractmethod
    def planes(self, state: State) -> Array:
        """sansu's own integer observation of ``state`` (that of ``VectorEnv`` and
        the other sansu environments), for comparing with them."""

    @abc.abstractmethod
    def _init(self, key: Array) -> State: ...

    @abc.abstractmethod
    def _step(self, state: State, action: Array, key: Array | None) -> State: ...

    @abc.abstractmethod
    def _observe(self, state: State, player_id: Array) -> Array: ...


def random_action(key: Array, legal_action_mask: Array) -> Array:
    """A uniformly random legal action (batched masks give a batch of actions).

    One uniform number a game, then the legal action of that rank: far
    cheaper than a categorical draw, which makes a random number per action.
    """
    mask = legal_action_mask.astype(jnp.int32)
    count = mask.sum(-1)
    rank = (jax.random.uniform(key, count.shape) * count).astype(jnp.int32)
    return jnp.argmax(jnp.cumsum(mask, -1) > rank[..., None], axis=-1).astype(jnp.int32)


def select(flags: Array, where_true: T, where_false: T) -> T:
    """Batched states: ``where_true``'s game wherever ``flags`` (one per game) holds, else
    ``where_false``'s (e.g. a new game wherever one ended)."""

    def pick(a: Array, b: Array) -> Array:
        return jnp.where(flags.reshape(flags.shape + (1,) * (a.ndim - flags.ndim)), a, b)

    return jax.tree_util.tree_map(pick, where_true, where_false)
