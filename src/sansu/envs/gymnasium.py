"""Registers the Gymnasium ids of the sansu games (importing this module does it).

>>> import gymnasium as gym
>>> import sansu.envs.gymnasium
>>> env = gym.make("sansu/UTTT-v1", opponent="random")

The ids are :data:`IDS` (game id → Gymnasium id); ``gym.make`` passes its
keyword arguments to :class:`sansu.envs.single.SingleAgentEnv` (``opponent``,
``player``, ``observation``, the game's options). ``gym.make`` also imports
this module itself when the id names it: ``gym.make("sansu.envs.gymnasium:sansu/UTTT-v1")``.
The version is :data:`sansu.envs.VERSION`.
"""

from __future__ import annotations

import gymnasium

from sansu.envs import VERSION

NAMES = {
    "uttt": "UTTT",
    "sansumoku": "Sansumoku",
    "sumodoku": "Sumodoku",
    "challenge": "Challenge",
    "thirtyfive": "ThirtyFive",
}
IDS = {game: f"sansu/{name}-v{VERSION}" for game, name in NAMES.items()}
"""Each game's Gymnasium id."""

for _game, _id in IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            _id, entry_point="sansu.envs.single:SingleAgentEnv", kwargs={"game_id": _game}
        )
