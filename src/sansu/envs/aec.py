"""PettingZoo: every sansu game as an ``AECEnv``.

Agents are ``player_0`` … ``player_{n-1}`` in the game's own numbering, and
the agent to act is always the game's player to move (a Sumodoku claimant or
a Sudoku Challenge player with several entries acts several times in a
row). Each observation is ``{"observation": array, "action_mask": int8
array}``; the mask is all zeros for agents not to move. Rewards come at the
end (:func:`sansu.envs.encoding.returns`); ``infos`` carry the scores of
games that keep them and, at the end, the result's reason.

:func:`env` behaves as PettingZoo's classic games do behind their wrappers:
an illegal action ends the game with −1 to the player who chose it (and a
warning), and the calls must come in order. An action that is no action
number at all (out of range, not an integer) raises ``ValueError`` and
changes nothing. Illegal actions are judged here rather than by PettingZoo's
wrapper, whose attribute look-ups would cost more than the game.

Speed: the order checks are PettingZoo's own wrapper, subclassed so that the
calls of every step reach the environment directly instead of through two
``__getattr__`` look-ups per attribute, and the observation is patched from
the previous one (:meth:`Encoding.next_observation`). What remains per step
is PettingZoo's protocol itself (``last``, the dictionaries, NumPy arrays):
see ``docs/research.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from sansu.core.protocol import State
from sansu.core.registry import load_game
from sansu.envs.encoding import INT8, encoding_for, returns


def env(game_id: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The wrapped environment of ``game_id`` with ``options`` (``ValueError`` for bad ones)."""
    return OrderEnforcing(SansuEnv(game_id, render_mode=render_mode, **options))


def _after_reset(name: str) -> property:
    """The wrapped environment's ``name``, refused before ``reset`` as the wrapper does."""

    def get(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the attributes of every step forwarded directly.

    The base class reaches them through two ``__getattr__`` calls each,
    eight times a step: more than the game's own move costs.
    """

    agent_selection = _after_reset("agent_selection")
    agents = _after_reset("agents")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")
    _cumulative_rewards = _after_reset("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # the base class's error or warning


class SansuEnv(AECEnv):
    """The raw environment: the engine, its encoding and PettingZoo's bookkeeping."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sansu_v1",
        "is_parallelizable": False,
    }

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load_game(game_id, **options)
        self.encoding = encoding_for(self.game)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"sansu_{self.game.id}_v1"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        enc = self.encoding
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, enc.observation_high, enc.observation_shape, dtype=enc.observation_dtype
                ),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self.state: State = self.game.initial_state()
        self._observation = self.encoding.observation(self.state)
        """The observation of ``state``; handed out as copies."""
        probe: Any = self.state
        self._scored = getattr(probe, "scores", None) is not None
        """Whether the game keeps scores (then ``infos`` carry them at every step)."""

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start again; ``seed`` seeds the action spaces (the options set the game)."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.state = self.game.initial_state()
        self._observation = self.encoding.observation(self.state)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._set_infos()
        self.agent_selection = self.possible_agents[self.state.to_move or 0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        to_move = self.state.to_move
        if to_move is not None and agent == self.possible_agents[to_move]:
            mask = self.encoding.mask(self.state)  # built afresh: cheaper than a kept one's copy
        else:
            mask = np.zeros(self.encoding.num_actions, INT8)
        return {"observation": self._observation.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not (
            (action.__class__ is int or isinstance(action, np.integer))
            and 0 <= action < self.encoding.num_actions  # type: ignore[operator]
        ):
            raise ValueError(f"action {action!r} is not in {self.action_spaces[agent]}")
        before = self.state
        try:
            state = before.play(self.encoding.move_of(before, int(action)))  # type: ignore[arg-type]
        except ValueError as error:  # IllegalMove: the game ends against the mover
            EnvLogger.warn_on_illegal_move()
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            self.infos[agent] = {**self.infos[agent], "illegal": str(error)}
            return
        self.state = state
        self._observation = self.encoding.next_observation(self._observation, before, state)
        self._cumulative_rewards[agent] = 0.0
        if state.result is not None:
            final = returns(state)
            for i, name in enumerate(self.agents):
                self.rewards[name] = final[i]
                self.terminations[name] = True
            self._accumulate_rewards()
            self._set_infos()
            self.agent_selection = self.agents[0]
        else:
            # Rewards come only at the end, and infos only carry scores before it.
            if self._scored:
                self._set_infos()
            self.agent_selection = self.possible_agents[state.to_move]  # type: ignore[index]
        if self.render_mode == "ansi":
            print(self.render())

    def _set_infos(self) -> None:
        state: Any = self.state
        info: dict[str, Any] = {}
        scores = getattr(state, "scores", None)
        if callable(scores):  # 35 counts the squares of each colour
            scores = scores()
        if scores is not None:
            info["scores"] = list(scores)
        if state.result is not None:
            info["reason"] = state.result.reason
            info["winners"] = list(state.result.winners)
        if not info and not any(self.infos.values()):
            return  # nothing to say, as before: keep the agents' empty dicts
        self.infos = {a: dict(info) for a in self.agents}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from sansu.render import render

        return render(self.state)

    def close(self) -> None:
        pass
