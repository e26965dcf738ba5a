"""The packed states of Ultimate Tic-Tac-Toe and Sansumoku: what they answer stays consistent.

The engines keep the position as bit masks with derived fields (the legal
cells, where each digit blocks); these properties check, on random games,
that the derived fields always agree with the position itself, that a
rejected move changes nothing, and that a state survives pickling.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.core.sections import PLACES

GAMES = ("uttt", "sansumoku")


def random_states(game_id: str, seed: int) -> list[sansu.State]:
    game = sansu.load_game(game_id)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while state.result is None:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_masks_agree_with_the_cells_and_the_move_list(game_id: str, seed: int) -> None:
    for state in random_states(game_id, seed):
        marks0, marks1 = state.bitboards()[:2]  # type: ignore[attr-defined]
        cells = state.cells_json()
        for place in PLACES:
            owner = 0 if marks0 >> place.bit & 1 else 1 if marks1 >> place.bit & 1 else None
            assert (cells[place.cell] or {}).get("player") == owner
        legal = {m.cell for m in state.legal_moves()}  # type: ignore[attr-defined]
        assert len(legal) == len(state.legal_moves())  # no move listed twice
        assert all(cells[c] is None for c in legal)
        if state.result is not None:
            assert not legal and state.to_move is None
        else:
            assert legal and state.to_move == state.ply % 2


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 80), min_size=3, max_size=3))
def test_a_rejected_move_changes_nothing_and_says_why(
    game_id: str, seed: int, picks: list[int]
) -> None:
    states = random_states(game_id, seed)
    state = states[random.Random(seed).randrange(len(states))]
    before = state.to_dict()
    legal = {m.cell for m in state.legal_moves()}  # type: ignore[attr-defined]
    for cell in picks:
        if cell in legal:
            assert state.play(PLACES[cell]).ply == state.ply + 1
        else:
            with pytest.raises(sansu.IllegalMove) as caught:
                state.play(PLACES[cell])
            assert caught.value.reason and caught.value.move == PLACES[cell].text
    for bad in ("r0c1", 42, None, "r1c1=5"):
        with pytest.raises(sansu.IllegalMove):
            state.play(bad)  # type: ignore[arg-type]
    assert state.to_dict() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pickled_state_plays_on_like_the_original(game_id: str) -> None:
    rng = random.Random(7)
    for state in random_states(game_id, 11)[::7]:
        copy = pickle.loads(pickle.dumps(state))
        assert copy.to_dict() == state.to_dict()
        while state.result is None:
            move = rng.choice(state.legal_moves())
            state, copy = state.play(move), copy.play(move)
            assert copy.to_dict() == state.to_dict()
