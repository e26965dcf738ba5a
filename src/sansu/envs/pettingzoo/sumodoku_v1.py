"""``sumodoku`` as a PettingZoo module, version 1 (:mod:`sansu.envs.pettingzoo`)."""

from sansu.envs.pettingzoo import versioned

env, raw_env = versioned("sumodoku")
__all__ = ["env", "raw_env"]
