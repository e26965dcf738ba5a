"""The PettingZoo environment's patched observations and kept masks against ones made afresh.

The environment patches its observation after each move and, for 35 and
Sudoku Challenge, a kept mask; Sumodoku's mask comes from the engine's bit
masks. At every step of many random games all of them must equal the
observation built from scratch from the engine state and the mask built
from the engine's list of legal moves.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.envs import pettingzoo_env
from sansu.envs.encoding import SUMODOKU_ACTIONS, SUMODOKU_ERASE
from tests.envs.test_pettingzoo import PUZZLE

CASES = [
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 3, "cols": 5}),
    ("thirtyfive", {"rows": 9, "cols": 9}),
    ("thirtyfive", {"rows": 4, "cols": 11}),
    ("sumodoku", {}),
    ("sumodoku", {"any_colour": True, "diagonals": True}),
    ("sumodoku", {"honour": True, "seed": 3}),
    ("sumodoku", {"parity": True, "consecutive": True, "seed": 5}),
    ("sumodoku", {"strict_consecutive": True, "deal": "1357/2468/9"}),
    ("challenge", {"puzzle": PUZZLE}),
    ("challenge", {"puzzle": PUZZLE, "players": 3, "turn_seconds": 60}),
    ("challenge", {"puzzle": PUZZLE, "players": 4, "teams": True, "sequence": "express"}),
    ("challenge", {"puzzle": PUZZLE, "players": 5, "errors": "simplified"}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items() if k != 'puzzle')}" for g, o in CASES]


def check_games(
    game_id: str, options: dict, seed: int, games: int, choose: Any = None
) -> Counter:
    """Plays ``games`` masked random games (or chosen by ``choose(state, legal, rng)``),
    checking every step; the actions played, counted."""
    env = pettingzoo_env(game_id, **options)
    enc = env.unwrapped.encoding
    rng = random.Random(seed)
    played: Counter = Counter()
    for _ in range(games):
        env.reset(seed=rng.randrange(2**16))
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            state = env.unwrapped.state
            assert np.array_equal(obs["observation"], enc.observation(state))
            mover = state.to_move
            if agent == f"player_{mover}":
                expected = enc.moves_mask(state)
                # The fresh fast mask too (OpenSpiel and Gymnasium use it).
                assert np.array_equal(enc.mask(state), expected)
            else:
                expected = np.zeros(enc.num_actions, np.int8)
            assert np.array_equal(obs["action_mask"], expected)
            assert obs["action_mask"].dtype == np.int8
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(expected).tolist()
            action = rng.choice(legal) if choose is None else choose(state, legal, rng)
            played[action] += 1
            env.step(action)
    return played


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_seeded_games_keep_observation_and_mask_equal_to_fresh_ones(game_id, options):
    assert check_games(game_id, options, seed=11, games=10).total() > 0


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_observation_and_mask_equal_to_fresh_ones(game_id, options, seed):
    check_games(game_id, options, seed, games=1)


SOLVED = [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
"""A solved grid: Sumodoku placements that agree with it can always be completed."""


def towards_a_claim(state: Any, legal: list[int], rng: random.Random) -> int:
    """Sumodoku play that reaches claims that stand: placements of :data:`SOLVED`,
    ``sudoku`` when it opens, then anything in the claim (placements, erases, ``timeout``)."""
    if state.phase == "claim":
        return rng.choice(legal)
    if SUMODOKU_ERASE + 81 in legal:
        return SUMODOKU_ERASE + 81
    agreeing = [a for a in legal if a < SUMODOKU_ERASE and SOLVED[a // 9] == a % 9 + 1]
    return rng.choice(agreeing or legal)


@pytest.mark.parametrize("options", [{}, {"honour": True}, {"any_colour": True}])
def test_sumodoku_claims_keep_observation_and_mask_equal_to_fresh_ones(options):
    played = check_games("sumodoku", options, seed=2, games=8, choose=towards_a_claim)
    erases = sum(n for a, n in played.items() if SUMODOKU_ERASE <= a < SUMODOKU_ERASE + 81)
    # The claims stood and were played: erases and timeouts came too.
    assert erases > 0 and played[SUMODOKU_ACTIONS - 1] > 0


def test_handed_observations_and_masks_stay_the_callers_after_the_next_move():
    env = pettingzoo_env("challenge", puzzle=PUZZLE)
    env.reset()
    first = env.observe("player_0")
    kept = {key: array.copy() for key, array in first.items()}
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert all(np.array_equal(first[key], kept[key]) for key in kept)


@pytest.mark.parametrize(
    "options", [{}, {"honour": True, "seed": 2}, {"any_colour": True, "parity": True, "seed": 4}]
)
def test_sumodoku_placement_masks_are_the_listed_placements(options):
    game = sansu.load_game("sumodoku", **options)
    rng = random.Random(3)
    for _ in range(3):
        state = game.initial_state()
        while True:
            listed = {(m.cell, m.colour) for m in state.legal_moves() if hasattr(m, "colour")}
            masks = state.placement_masks()
            assert len(masks) == 9
            assert {
                (cell, c + 1) for c, m in enumerate(masks) for cell in range(81) if m >> cell & 1
            } == listed
            if state.result is not None:
                break
            state = state.play(rng.choice(state.legal_moves()))


def test_challenge_wrong_mask_is_the_wrong_digits():
    game = sansu.load_game("challenge", puzzle=PUZZLE, players=3)
    rng = random.Random(5)
    state = game.initial_state()
    while state.result is None:
        for cell in range(81):
            assert state.wrong_mask(cell) == sum(1 << d for d in state.wrong_digits(cell))
        state = state.play(rng.choice(state.legal_moves()))
