"""Shipped puzzles proved again by the plain minimax of :mod:`tests.puzzles.plain`."""

from __future__ import annotations

import random

import pytest

from sansu.core.registry import load_game
from sansu.puzzles import shipped
from tests.puzzles.plain import forced, winners, wins_after


def lost(state, me: int, depth: int) -> bool:
    """After the opponent's move: ``me`` has won, or wins within ``depth`` by force."""
    decided = winners(state)
    if decided is not None:
        return decided == (me,)
    return state.to_move == me and forced(state, me, depth)


SAMPLE = {"uttt": 40, "sansumoku": 40, "thirtyfive": 40, "sumodoku": 40}


def sample(game: str) -> list:
    puzzles = shipped(game)
    rng = random.Random(f"reprove-{game}")
    return rng.sample(puzzles, min(SAMPLE[game], len(puzzles)))


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SAMPLE))
def test_a_sample_of_shipped_puzzles_is_proved_by_plain_minimax(game: str) -> None:
    for p in sample(game):
        before = load_game(game, **p.options).play_moves(p.moves[:-1])
        state = before.play(p.moves[-1])
        me = state.to_move
        depth = (len(p.solution) + 1) // 2
        # The first move wins within the depth, and no other move does.
        winning = [str(m) for m in state.legal_moves() if wins_after(state.play(m), me, depth)]
        assert winning == [p.solution[0]], p.id
        # No win is shorter.
        assert depth == 1 or not forced(state, me, depth - 1), p.id
        # The opponent's last move was the mistake: another move held.
        assert any(not lost(before.play(m), me, depth) for m in before.legal_moves()), p.id
        # Along the solution, each learner move is the only one winning within what is left.
        position = state
        for i, move in enumerate(p.solution):
            left = depth - i // 2
            if i % 2 == 0:
                winning = [
                    str(m) for m in position.legal_moves() if wins_after(position.play(m), me, left)
                ]
                assert winning == [move], (p.id, i)
            position = position.play(move)
