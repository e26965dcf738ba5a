"""The shipped puzzles: well formed, legal, ending in the learner's win, proved for a sample."""

from __future__ import annotations

import random
import re

import pytest

from sansu.core.registry import load_game
from sansu.puzzles import Puzzle, shipped
from sansu.puzzles.games import KITS, kit
from sansu.puzzles.prove import Prover
from sansu.puzzles.themes import THEMES

GAMES = sorted(KITS)
SAMPLE = 6
"""Puzzles per game proved again in the ordinary suite (all of them take minutes)."""


def sample(game: str, size: int = SAMPLE) -> list[Puzzle]:
    puzzles = shipped(game)
    return random.Random(f"sample-{game}").sample(puzzles, min(size, len(puzzles)))


@pytest.mark.parametrize("game", GAMES)
def test_a_starter_set_is_shipped_with_stable_ids(game: str) -> None:
    puzzles = shipped(game)
    assert len(puzzles) >= 300
    ids = [p.id for p in puzzles]
    assert ids == [f"{game}-{i:04d}" for i in range(1, len(puzzles) + 1)]
    assert all(p.game == game for p in puzzles)


@pytest.mark.parametrize("game", GAMES)
def test_every_puzzle_is_described(game: str) -> None:
    for p in shipped(game):
        depth = p.extra["depth"]
        assert len(p.solution) == 2 * depth - 1, p.id
        assert f"win in {depth}" in p.themes, p.id
        assert set(p.themes) <= set(THEMES[game]), p.id
        assert 400 <= p.rating <= 2600, p.id
        assert p.source in ("self-play", "game"), p.id
        assert Puzzle.from_dict(p.to_dict()) == p


@pytest.mark.parametrize("game", GAMES)
def test_every_puzzle_is_legal_and_ends_in_the_learners_win(game: str) -> None:
    verdict = kit(game).verdict
    keys = set()
    for p in shipped(game):
        state = load_game(game, **p.options).play_moves(p.moves)
        assert verdict(state) is None, p.id
        learner = state.to_move
        keys.add(kit(game).key(state))
        for i, move in enumerate(p.solution):
            assert state.to_move == (learner if i % 2 == 0 else 1 - learner), p.id
            assert verdict(state) is None, p.id
            state = state.play(move)
        assert verdict(state) == (learner,), p.id
    assert len(keys) == len(shipped(game)), "two puzzles share a position"


@pytest.mark.parametrize("game", GAMES)
def test_a_sample_is_proved_again(game: str) -> None:
    k = kit(game)
    for p in sample(game):
        prover = Prover(k.key, k.verdict)
        before = load_game(game, **p.options).play_moves(p.moves[:-1])
        state = before.play(p.moves[-1])
        depth = p.extra["depth"]
        assert prover.shortest(state, depth) == depth, p.id
        assert [str(m) for m in prover.winning_moves(state, depth)] == [p.solution[0]], p.id
        assert prover.avoidable(before, depth), p.id
        line = prover.line(state, depth)
        assert line is not None and [str(m) for m in line.moves] == list(p.solution), p.id


def test_ids_read_like_the_game_and_a_number() -> None:
    for game in GAMES:
        assert all(re.fullmatch(rf"{game}-\d{{4,}}", p.id) for p in shipped(game))
