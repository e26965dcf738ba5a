"""The OpenSpiel games: OpenSpiel's own random simulation test, and its MCTSBot playing them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import sansu.envs.openspiel  # registers the games
from tests.envs.test_pettingzoo import PUZZLE as DOTTED

PUZZLE = DOTTED.replace(".", "x")

CASES = [
    ("sansu_uttt", {}),
    ("sansu_sansumoku", {}),
    ("sansu_thirtyfive", {}),
    ("sansu_thirtyfive", {"rows": 3, "cols": 7}),
    ("sansu_sumodoku", {}),
    ("sansu_sumodoku", {"deals": 4, "diagonals": True}),
    ("sansu_challenge", {"puzzle": PUZZLE}),
    ("sansu_challenge", {"puzzles": 2, "players": 4, "teams": True, "turn_seconds": 30}),
]
IDS = [f"{name}-{len(params)}" for name, params in CASES]


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), [*CASES[::2], CASES[5]], ids=[*IDS[::2], IDS[5]])
def test_mcts_bot_plays_to_the_end(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    sims = 2 if "challenge" in name else 8  # its random rollouts are long (wrong entries)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=sims, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sum(state.returns()) == pytest.approx(0.0)
    assert max(state.returns()) in (0.0, 1.0)


def test_game_types_declare_what_each_game_is():
    uttt = pyspiel.load_game("sansu_uttt").get_type()
    challenge = pyspiel.load_game("sansu_challenge", {"players": 3}).get_type()
    assert uttt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert uttt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert challenge.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert challenge.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game("sansu_challenge", {"players": 3}).num_players() == 3


def test_same_actions_and_observations_as_the_other_environments():
    game = pyspiel.load_game("sansu_thirtyfive", {"rows": 5, "cols": 6})
    state = game.new_initial_state()
    assert game.num_distinct_actions() == 9 * 30
    state.apply_action(9 * 7 + 4)  # r2c2=5
    assert state.history_str() == "67"
    assert str(state.engine_state.last_move) == "r2c2=5"
    obs = np.array(state.observation_tensor(0)).reshape(3, 30)
    assert obs[1, 7] == 5 and obs[0, 7] == 1


def test_serialisation_round_trips():
    game = pyspiel.load_game("sansu_sumodoku", {"deals": 3})
    state = game.new_initial_state()
    for action in (2, 9 * 40 + 0):
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="rows"):
        pyspiel.load_game("sansu_thirtyfive", {"rows": 30})
    with pytest.raises(ValueError, match="puzzle"):
        pyspiel.load_game("sansu_challenge", {"puzzles": 2, "puzzle": PUZZLE})


@pytest.mark.parametrize(
    ("name", "params"), [("sansu_sumodoku", {"deals": 3}), ("sansu_challenge", {"puzzles": 2})]
)
def test_a_drawn_game_builds_its_action_table_once(name, params, monkeypatch):
    """After a chance node, actions look moves up in a table of the drawn game built once,
    not in one built again at every action."""
    game = pyspiel.load_game(name, params)
    for outcome in (0, 1):
        state = game.new_initial_state()
        state.apply_action(outcome)
        state.apply_action(state.legal_actions()[0])
    built = []
    real = sansu.envs.openspiel.encoding_for
    monkeypatch.setattr(sansu.envs.openspiel, "encoding_for", lambda g: built.append(g) or real(g))
    for outcome in (0, 1):
        state = game.new_initial_state()
        state.apply_action(outcome)
        for _ in range(5):
            state.apply_action(state.legal_actions()[-1 if name == "sansu_challenge" else 0])
    assert built == []


SHORT = "x346x891x672x953x819x342x678x976x423x268x379x713x248x696x537x842x741x635x452x617x"
"""A puzzle with 21 blanks, so that random rollouts are short."""


@pytest.mark.parametrize("params", [{"puzzle": SHORT}, {"puzzles": 2, "difficulty": "easy"}])
def test_ismcts_plays_sudoku_challenge(params):
    game = pyspiel.load_game("sansu_challenge", params)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=rng)
    state = game.new_initial_state()
    if state.is_chance_node():
        state.apply_action(1)
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.history()) == 4 + (params.get("puzzles", 0) > 0)


def test_a_resampled_state_is_one_the_player_cannot_tell_apart():
    game = pyspiel.load_game("sansu_challenge", {"puzzle": SHORT, "players": 3})
    state = game.new_initial_state()
    for action in (0, 1, 2):  # r1c1 = 1, 2, 3: wrong, wrong, then right
        state.apply_action(action)
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for player in range(3):
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
    assert sample.legal_actions() == state.legal_actions()
    # The givens have exactly one solution: the only world consistent with them.
    assert sample.engine_state.hidden_json() == state.engine_state.hidden_json()
    sample.apply_action(sample.legal_actions()[0])
    assert len(state.history()) == 3
