"""Gymnasium: one agent against a sansu computer level.

The agent is one seat of the game (``player``, default 0); every other seat
is the computer at level ``opponent`` (a level name of :mod:`sansu.ai`, or
``"random"`` for uniformly random legal moves). ``step`` plays the agent's
action, then the computer's moves until the agent is to move again or the
game is over. The legal actions are ``info["action_mask"]`` (int8), in the
encoding of every sansu environment (:mod:`sansu.envs.encoding`). The
reward is the agent's, at the end (+1 win, −1 loss, 0 draw; Sudoku
Challenge by rank). An illegal action ends the episode with −1 and
``info["illegal"]``, so that an unmasked agent learns to avoid it.

The computer thinks for a fixed number of simulations (its level's, or
``opponent_simulations``; ``max``, which has no limit but its clock, takes
:data:`MAX_SIMULATIONS`), seeded from ``reset(seed=...)``, so an episode is
reproducible.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from sansu.ai import LEVELS, player_for
from sansu.core.protocol import IllegalMove, State
from sansu.core.registry import load_game
from sansu.envs.encoding import encoding_for, returns
from sansu.envs.planes import mover_planes, observation_box, planes_option

MAX_SIMULATIONS = 50_000


class SingleAgentEnv(gym.Env):
    """``game_id`` with ``options``, the agent in seat ``player`` against ``opponent``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        opponent: str = "medium",
        *,
        player: int = 0,
        opponent_simulations: int | None = None,
        render_mode: str | None = None,
        observation: str = "int",
        **options: Any,
    ) -> None:
        self.game = load_game(game_id, **options)
        self.encoding = enc = encoding_for(self.game)
        self._planes = planes_option(self.game.id, observation)
        """``None``, or the game whose planes (seen by the agent) are observed instead."""
        if opponent != "random" and opponent not in LEVELS:
            raise ValueError(f"unknown opponent {opponent!r} (random, {', '.join(LEVELS)})")
        if isinstance(player, bool) or player not in range(self.game.num_players):
            raise ValueError(f"player must be 0 to {self.game.num_players - 1}, not {player!r}")
        if opponent_simulations is not None and (
            not isinstance(opponent_simulations, int) or opponent_simulations < 1
        ):
            raise ValueError("opponent_simulations must be a positive integer or None")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.opponent = opponent
        self.player = player
        self.opponent_simulations = opponent_simulations
        self.render_mode = render_mode
        self.observation_space = observation_box(enc, self._planes)
        self.action_space = spaces.Discrete(enc.num_actions)
        self.state: State = self.game.initial_state()
        self._bot: Any = None
        self._rng = random.Random(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        bot_seed = int(self.np_random.integers(2**31))
        self._rng = random.Random(bot_seed)
        if self.opponent != "random":
            self._bot = player_for(self.game, self.opponent, seed=bot_seed)
        self.state = self._computer_moves(self.game.initial_state())
        return self._observe(self.state), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.result is not None:
            raise RuntimeError("the episode is over: call reset()")
        try:
            state = state.play(self.encoding.move_of(state, int(action)))
        except (IllegalMove, ValueError) as error:
            info = self._info()
            info["illegal"] = str(error)
            return self._observe(state), -1.0, True, False, info
        self.state = state = self._computer_moves(state)
        reward = returns(state)[self.player] if state.result is not None else 0.0
        if self.render_mode == "ansi":
            print(self.render())
        return (
            self._observe(state),
            float(reward),
            state.result is not None,
            False,
            self._info(),
        )

    def _observe(self, state: State) -> np.ndarray:
        obs = self.encoding.observation(state)
        if self._planes is None:
            return obs
        return mover_planes(self._planes, obs, self.player)

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the name masked-policy libraries look for)."""
        if self.state.to_move != self.player:
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.encoding.mask(self.state)

    def _computer_moves(self, state: State) -> State:
        while state.result is None and state.to_move != self.player:
            if self._bot is None:
                move = self._rng.choice(state.legal_moves())
            else:
                sims = (
                    self.opponent_simulations or self._bot.settings.simulations or MAX_SIMULATIONS
                )
                move = self._bot.choose(state, simulations=sims).move
            state = state.play(move)
        return state

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        data = self.state.to_dict()
        if "scores" in data:
            info["scores"] = list(data["scores"])
        if self.state.result is not None:
            info["reason"] = self.state.result.reason
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from sansu.render import render

        return render(self.state)
