"""The Gymnasium environment: Gymnasium's own checker, and play against a computer level."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sansu.envs import gym_env
from tests.envs.test_pettingzoo import PUZZLE

CASES = [
    ("uttt", "medium", {}),
    ("sansumoku", "beginner", {}),
    ("thirtyfive", "random", {"rows": 4, "cols": 4}),
    ("sumodoku", "random", {}),
    ("challenge", "random", {"puzzle": PUZZLE, "players": 3}),
    ("challenge", "random", {"errors": "simplified"}),
]


@pytest.mark.filterwarnings("error")  # the checker's complaints are warnings
@pytest.mark.parametrize(
    ("game_id", "opponent", "options"), CASES, ids=[f"{c[0]}-{len(c[2])}" for c in CASES]
)
def test_check_env(game_id, opponent, options):
    env = gym_env(game_id, opponent=opponent, opponent_simulations=30, **options)
    check_env(env, skip_render_check=True)


def play(env, seed):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs) and not truncated
        if terminated:
            return reward, info


def test_the_computer_beats_random_play_and_episodes_repeat_from_their_seed():
    env = gym_env("uttt", opponent="easy", opponent_simulations=200)
    rewards = [play(env, seed)[0] for seed in range(6)]
    assert sum(rewards) <= -4  # a searching opponent wins nearly every game
    assert [play(env, seed)[0] for seed in range(2)] == rewards[:2]


def test_the_agent_may_take_the_second_seat():
    env = gym_env("sansumoku", opponent="random", player=1)
    obs, info = env.reset(seed=1)
    assert obs[0].sum() == 1  # the computer has placed its first digit
    reward, info = play(env, 2)
    assert reward in (-1.0, 0.0, 1.0) and info["reason"]


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = gym_env("uttt", opponent="random")
    env.reset(seed=0)
    info = env.step(40)[4]
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "illegal" in info


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponent": "genius"}, "unknown opponent"),
        ({"player": 2}, "player must be"),
        ({"opponent_simulations": 0}, "opponent_simulations"),
        ({"rows": 2}, "rows"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym_env("thirtyfive", **kwargs)
