"""Versioned names: Gymnasium ids, PettingZoo modules and OpenSpiel names pass each
library's own checks, and the unversioned names promised before keep working."""

from __future__ import annotations

import importlib

import gymnasium as gym
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import sansu.envs.gymnasium
import sansu.envs.openspiel
from sansu.envs import GAMES, VERSION, pettingzoo_env
from tests.envs.test_openspiel import PUZZLE

OPTIONS = {"challenge": {"puzzle": PUZZLE.replace("x", ".")}, "thirtyfive": {"rows": 4, "cols": 4}}


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_ids_make_checked_envs(game_id):
    env_id = sansu.envs.gymnasium.IDS[game_id]
    assert env_id.startswith("sansu/") and env_id.endswith(f"-v{VERSION}")
    env = gym.make(env_id, opponent="random", **OPTIONS.get(game_id, {}))
    assert env.spec.id == env_id and env.unwrapped.game.id == game_id
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_id_with_planes_and_by_module_name():
    env = gym.make("sansu.envs.gymnasium:sansu/UTTT-v1", opponent="random", observation="planes")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (5, 81)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_modules_pass_api_test(game_id):
    module = importlib.import_module(f"sansu.envs.pettingzoo.{game_id}_v{VERSION}")
    env = module.env(**OPTIONS.get(game_id, {}))
    assert env.metadata["name"] == f"sansu_{game_id}_v{VERSION}"
    api_test(env, num_cycles=40)
    assert type(module.raw_env()) is type(pettingzoo_env(game_id, **OPTIONS.get(game_id, {})))


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_versioned_names_load_and_simulate(game_id):
    params = {
        k: v.replace(".", "x") if k == "puzzle" else v for k, v in OPTIONS.get(game_id, {}).items()
    }
    versioned, plain = sansu.envs.openspiel.short_names(game_id)
    assert versioned == f"{plain}_v{VERSION}"
    game = pyspiel.load_game(versioned, params)
    assert game.get_type().short_name == versioned
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # The unversioned name plays the same game, action for action.
    old = pyspiel.load_game(plain, params)
    assert old.num_distinct_actions() == game.num_distinct_actions()
    assert old.observation_tensor_shape() == game.observation_tensor_shape()
