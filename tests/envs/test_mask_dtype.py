"""One dtype for masks everywhere: int8, as PettingZoo's and Gymnasium's own masks are."""

from __future__ import annotations

import numpy as np
import pytest

import sansu
from sansu.envs import VectorEnv, gym_env, pettingzoo_env
from sansu.envs.encoding import encoding_for


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku", "thirtyfive", "sumodoku", "challenge"])
def test_every_environment_masks_with_int8(game_id: str) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    assert (
        encoding_for(sansu.load_game(game_id)).mask(sansu.load_game(game_id).initial_state()).dtype
        == np.int8
    )
    aec = pettingzoo_env(game_id)
    aec.reset(seed=0)
    assert aec.observe(aec.agent_selection)["action_mask"].dtype == np.int8
    if game_id in VectorEnv.GAMES:
        venv = VectorEnv(game_id, 3)
        assert venv.reset().legal_action_mask.dtype == np.int8
        out = venv.step(venv.random_actions())
        assert out.legal_action_mask.dtype == np.int8
        assert set(np.unique(out.legal_action_mask)) <= {0, 1}
    env = gym_env(game_id, opponent="beginner")
    _obs, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
