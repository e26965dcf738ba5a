"""The board's 8 symmetries: a game played through a symmetry is the same game turned."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sansu
from sansu.envs.encoding import encoding_for
from sansu.envs.symmetry import Symmetries, square_maps

CASES = [
    ("uttt", {}),
    ("sansumoku", {}),
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 5, "cols": 5}),
]


def test_the_maps_are_the_eight_distinct_permutations_of_the_square() -> None:
    maps = square_maps(4)
    assert len({tuple(m) for m in maps}) == 8
    for m in maps:
        assert sorted(m) == list(range(16))
    # A quarter turn four times over is the identity.
    quarter = maps[1]
    cells = np.arange(16)
    for _ in range(4):
        cells = quarter[cells]
    assert np.array_equal(cells, np.arange(16))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_a_game_played_through_a_symmetry_is_the_game_turned(game_id, options) -> None:
    game = sansu.load_game(game_id, **options)
    enc = encoding_for(game)
    sym = Symmetries(game_id, **options)
    rng = random.Random(5)
    for k in range(8):
        for _ in range(3):
            state = game.initial_state()
            twin = game.initial_state()
            while not state.is_over:
                obs, mask = enc.observation(state), enc.mask(state)
                assert np.array_equal(enc.observation(twin), sym.observation(obs, k))
                assert np.array_equal(enc.mask(twin), sym.actions_of(mask, k))
                action = enc.action_of(rng.choice(state.legal_moves()))
                state = state.play(enc.move_of(state, action))
                twin = twin.play(enc.move_of(twin, sym.action(action, k)))
            assert twin.is_over and twin.result.to_dict() == state.result.to_dict()
        back = sym.inverse[k]
        assert np.array_equal(sym.cells[back][sym.cells[k]], np.arange(sym.cells.shape[1]))


def test_other_boards_and_games_are_refused() -> None:
    with pytest.raises(ValueError, match="no quarter turns"):
        Symmetries("thirtyfive", rows=5, cols=6)
    with pytest.raises(ValueError, match="symmetries are for"):
        Symmetries("sumodoku")
    with pytest.raises(ValueError, match="last axis"):
        Symmetries("uttt").observation(np.zeros((2, 80)), 1)
