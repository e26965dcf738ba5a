"""The shared encoding: actions round-trip, observations say what the engine's own methods say."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.core.sections import cells_of_section
from sansu.envs.encoding import encoding_for, returns
from tests.envs.test_pettingzoo import PUZZLE

GAMES = [
    ("uttt", {}),
    ("sansumoku", {}),
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 3, "cols": 12}),
    ("sumodoku", {"honour": True}),
    ("challenge", {"puzzle": PUZZLE, "turn_seconds": 10}),
]


def slow_observation(state) -> np.ndarray:
    """The observation of a sectioned game or 35, cell by cell through the public methods."""
    game_id = state.game.id
    if game_id == "thirtyfive":
        planes = np.zeros((3, state.size), dtype=np.int8)
        for cell in range(state.size):
            colour, highlight = state.colour_at(cell), state.highlight_at(cell)
            planes[0, cell] = 0 if colour is None else colour + 1
            planes[1, cell] = state.value_at(cell) or 0
            planes[2, cell] = 0 if highlight is None else highlight + 1
        return planes
    digits = game_id == "sansumoku"
    planes = np.zeros((3 if digits else 2, 81), dtype=np.int8)
    for cell in range(81):
        who = state.player_at(cell) if digits else state.mark_at(cell)
        planes[0, cell] = 0 if who is None else who + 1
        if digits:
            planes[1, cell] = state.digit_at(cell) or 0
    for s in range(9):
        owner = state.section_owner(s)
        code = 3 if owner is None and state.is_closed(s) else 0 if owner is None else owner + 1
        planes[-1, list(cells_of_section(s))] = code
    return planes


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1))
def test_actions_round_trip_and_observations_fit(game_id, options, seed):
    game = sansu.load_game(game_id, **options)
    enc = encoding_for(game)
    rng = random.Random(seed)
    state = game.initial_state()
    previous = None
    while state.result is None and state.ply < 120:
        moves = state.legal_moves()
        actions = [enc.action_of(m) for m in moves]
        assert len(set(actions)) == len(actions) and all(0 <= a < enc.num_actions for a in actions)
        assert sorted(actions) == enc.legal_actions(state)
        assert np.flatnonzero(enc.mask(state)).tolist() == sorted(actions)
        for move, action in zip(moves, actions, strict=True):
            assert enc.move_of(state, action) == move and enc.text_of(action) == str(move)
        obs = enc.observation(state)
        assert obs.shape == enc.observation_shape and obs.dtype == enc.observation_dtype
        assert obs.min() >= 0 and obs.max() <= enc.observation_high
        if game_id in ("uttt", "sansumoku", "thirtyfive"):
            assert np.array_equal(obs, slow_observation(state))
        if previous is not None:  # patched from the previous one, and leaving it alone
            kept = previous[1].copy()
            assert np.array_equal(enc.next_observation(previous[1], previous[0], state), obs)
            assert np.array_equal(previous[1], kept)
            patched = enc.next_observation(kept, previous[0], state, in_place=True)
            assert np.array_equal(patched, obs)  # in place: ``kept`` itself, or a new one
        previous = state, obs
        state = state.play(rng.choice(moves))
    assert sum(returns(state)) == pytest.approx(0.0)


def test_challenge_observation_holds_no_solution():
    game = sansu.load_game("challenge", puzzle=PUZZLE)
    enc = encoding_for(game)
    state = game.initial_state()
    solution = state.hidden_json()["solution"]
    wrong = next(d for d in range(1, 10) if str(d) != solution[2])
    before = enc.observation(state)
    state = state.play(f"r1c3={wrong}")
    after = enc.observation(state)
    # The error is public (the wrong digit, the required cell); the right digit is not.
    assert after[162 + 2] == 1 << wrong and after[251] == 3
    assert np.array_equal(after[:81], before[:81])

