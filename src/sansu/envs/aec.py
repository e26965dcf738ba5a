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
changes nothing. Illegal actions and the order of calls are judged here
rather than by PettingZoo's wrappers, whose attribute look-ups would cost
more than the game.

Speed: no wrapper between the caller and the environment (the checks before
the first ``reset`` live in a class of their own, :class:`SansuEnvBeforeReset`),
an agent iterator that is a generator, the observation patched in place
from the previous one (:meth:`Encoding.next_observation`; only copies are
handed out), and the mask taken from what the engine keeps: its legal-cell
flags (compiled for Ultimate Tic-Tac-Toe and Sansumoku), its bit masks of
legal placements (Sumodoku), or a mask kept here and patched after each
move (35, Sudoku Challenge: :meth:`Encoding.start_mask`). The scores in
``infos`` get new dictionaries only when they change. What remains per
step is PettingZoo's protocol itself (``last``, the dictionaries, NumPy
arrays): see ``docs/research.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from sansu.core.protocol import State
from sansu.core.registry import load_game
from sansu.envs.encoding import INT8, encoding_for, returns
from sansu.envs.planes import mover_planes, observation_box, planes_option


def env(
    game_id: str, render_mode: str | None = None, observation: str = "int", **options: Any
) -> AECEnv:
    """The environment of ``game_id`` with ``options`` (``ValueError`` for bad ones);
    ``observation="planes"``: one-hot float32 planes seen by the observing agent
    (:mod:`sansu.envs.planes`)."""
    return SansuEnv(game_id, render_mode=render_mode, observation=observation, **options)


AFTER_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)
"""What PettingZoo's ``OrderEnforcingWrapper`` refuses to show before ``reset``."""


class SansuEnv(AECEnv):
    """The engine, its encoding and PettingZoo's bookkeeping, enforcing the order of calls.

    The checks of PettingZoo's ``OrderEnforcingWrapper`` are made here, so
    that the calls of every step reach the environment directly rather than
    through the wrapper's attribute look-ups (which cost more than a move):
    attributes and calls before ``reset`` are refused with the wrapper's
    errors, a step after the end warns, and :meth:`agent_iter` insists on a
    step between two agents.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "sansu_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        observation: str = "int",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load_game(game_id, **options)
        self.encoding = encoding_for(self.game)
        self._planes = planes_option(self.game.id, observation)
        """``None``, or the game whose planes :meth:`observe` hands out instead."""
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"sansu_{self.game.id}_v1"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        enc = self.encoding
        obs_space = spaces.Dict(
            {
                "observation": observation_box(enc, self._planes),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self.state: State = self.game.initial_state()
        self._observation = self.encoding.observation(self.state)
        """The observation of ``state``; handed out as copies."""
        self._kept_mask = self.encoding.start_mask(self.state)
        """The mask patched after each move, if the encoding keeps one (``None``: built afresh)."""
        self._scores: Any = None
        """The scores ``infos`` carry now (then they need no new dictionaries while equal)."""
        self._mover: str | None = None
        """The agent to move, the only one whose mask has legal actions (``None``: over)."""
        self._no_mask = np.zeros(enc.num_actions, INT8)
        probe: Any = self.state
        self._scored = getattr(probe, "scores", None) is not None
        """Whether the game keeps scores (then ``infos`` carry them at every step)."""
        self._scores_called = callable(getattr(probe, "scores", None))
        """Whether the scores are a method (35 counts the squares of each colour)."""
        self._has_updated = False
        self.__class__ = SansuEnvBeforeReset  # until the first reset

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start again; ``seed`` seeds the action spaces (the options set the game)."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self._has_updated = True
        self.state = self.game.initial_state()
        self._observation = self.encoding.observation(self.state)
        self._kept_mask = self.encoding.start_mask(self.state)
        self._scores = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._set_infos()
        self.agent_selection = self._mover = self.possible_agents[self.state.to_move or 0]

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, again and again until every agent is done (or ``max_iter`` times).

        A generator rather than PettingZoo's iterator class: the same checks
        (a step between two agents) at a fraction of the cost.
        """
        return self._agents_in_turn(max_iter)

    def _agents_in_turn(self, left: int) -> Iterator[str]:
        while self.agents and left > 0:
            if not self._has_updated:
                raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
            self._has_updated = False
            left -= 1
            yield self.agent_selection

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._planes is not None:
            seen = mover_planes(self._planes, self._observation, int(agent[7:]))
        else:
            seen = self._observation.copy()
        if agent != self._mover:
            return {"observation": seen, "action_mask": self._no_mask.copy()}
        kept = self._kept_mask
        if kept is None:
            mask = self.encoding.mask(self.state)  # built afresh: cheaper than a kept one's copy
        else:
            mask = self.encoding.handed_mask(kept, self.state)
        return {"observation": seen, "action_mask": mask}

    def step(self, action: int | None) -> None:
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        enc = self.encoding
        if not (
            (action.__class__ is int or isinstance(action, np.integer))
            and 0 <= action < enc.num_actions  # type: ignore[operator]
        ):
            raise ValueError(f"action {action!r} is not in {self.action_spaces[agent]}")
        before = self.state
        try:
            state = before.play(enc.move_of(before, int(action)))  # type: ignore[arg-type]
        except ValueError as error:  # IllegalMove: the game ends against the mover
            EnvLogger.warn_on_illegal_move()
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            self.infos[agent] = {**self.infos[agent], "illegal": str(error)}
            self._mover = None
            return
        self.state = state
        # Patched in place: observe() hands out only copies of it.
        self._observation = enc.next_observation(self._observation, before, state, in_place=True)
        if self._kept_mask is not None:
            enc.patch_mask(self._kept_mask, before, state)
        self._cumulative_rewards[agent] = 0.0
        if state.result is not None:
            final = returns(state)
            for i, name in enumerate(self.agents):
                self.rewards[name] = final[i]
                self.terminations[name] = True
            self._accumulate_rewards()
            self._set_infos()
            self.agent_selection = self.agents[0]
            self._mover = None
        else:
            # Rewards come only at the end, and infos only carry scores before it.
            if self._scored:
                self._set_scores()
            self.agent_selection = self._mover = self.possible_agents[state.to_move]  # type: ignore[index]
        if self.render_mode == "ansi":
            print(self.render())

    def _set_scores(self) -> None:
        """``infos`` while the game goes on: the scores, in new dictionaries when they change."""
        scores = self._read_scores()
        if scores != self._scores:
            self._scores = scores
            self.infos = {a: {"scores": list(scores)} for a in self.agents}

    def _read_scores(self) -> Any:
        """The game's scores now (``None`` for a game without them)."""
        state: Any = self.state
        if not self._scored:
            return None
        return state.scores() if self._scores_called else state.scores

    def _set_infos(self) -> None:
        state: Any = self.state
        info: dict[str, Any] = {}
        scores = self._read_scores()
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


class SansuEnvBeforeReset(SansuEnv):
    """A :class:`SansuEnv` before its first ``reset``, which makes it a plain one.

    It refuses what needs a reset first, with the errors of PettingZoo's
    ``OrderEnforcingWrapper``. A class of its own, so that the plain one
    checks nothing of the kind in a step, and has no ``__getattr__``: that
    would slow down every attribute the environment reads (the interpreter
    then takes a slower path for all of them).
    """

    def __getattr__(self, name: str) -> Any:
        """Reached only for attributes not set."""
        if name in AFTER_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.__class__ = SansuEnv
        self.reset(seed=seed, options=options)

    def step(self, action: int | None) -> None:
        EnvLogger.error_step_before_reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        EnvLogger.error_observe_before_reset()
        raise AssertionError("unreachable")  # pragma: no cover - the line above raises

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        EnvLogger.error_agent_iter_before_reset()
        raise AssertionError("unreachable")  # pragma: no cover - the line above raises

    def render(self) -> str | None:
        EnvLogger.error_render_before_reset()
        return None  # pragma: no cover - the line above raises
