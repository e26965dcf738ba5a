"""The compiled moves of Ultimate Tic-Tac-Toe and Sansumoku against the Python engines.

The Python ``play`` and ``legal_moves`` are the rules (kept in
``native.PURE``); the compiled ones must give the very same states (every
slot), moves, results, texts, records and errors, at every ply of
thousands of random games.
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.core.record import GameRecord
from sansu.core.sections import PLACES
from sansu.games import native, sansumoku, uttt

GAMES = {"uttt": uttt.UTTTState, "sansumoku": sansumoku.SansumokuState}
BAD_INPUTS = ["r1c1=3", "zz", "", "r10c1", 5, None, 3.5, ("r1c1",), b"r1c1"]


def slots(state: object, *, game: bool = True) -> dict[str, object]:
    """Every slot of a state (``game=False``: but its game): the position as either path left it."""
    names = type(state).__slots__
    return {name: getattr(state, name) for name in names if game or name != "game"}


def error_of(call, *args) -> tuple[type, str] | None:
    try:
        call(*args)
    except Exception as error:  # both paths must fail alike, whatever the error
        return type(error), str(error)
    return None


def test_the_compiled_moves_are_in_use_unless_pure_python_is_asked_for() -> None:
    """Under ``scripts/test`` the compiled module must be the one playing: no silent fallback."""
    if native.pure_wanted():
        assert not native.COMPILED
        assert not uttt.COMPILED and not sansumoku.COMPILED
        assert native.describe() == "pure-Python moves (SANSU_PURE_PYTHON is set)"
        return
    assert native.describe().startswith("compiled moves")
    assert native.compiled_module() is not None, "sansu.games._native was not built"
    for cls in GAMES.values():
        assert cls in native.COMPILED
        for name in native.METHODS:
            assert type(cls.__dict__[name]).__name__ in ("method_descriptor", "getset_descriptor")
            assert getattr(cls, name) is not native.PURE[cls][name]
    assert uttt.COMPILED and sansumoku.COMPILED


def test_pure_python_path_is_chosen_by_the_environment_variable() -> None:
    code = (
        "import sansu; from sansu.games import native, uttt, sansumoku\n"
        "assert not uttt.COMPILED and not sansumoku.COMPILED and not native.COMPILED\n"
        "for g in ('uttt', 'sansumoku'):\n"
        "    s = sansu.load_game(g).play_moves(['r5c5', 'r4c4'])\n"
        "    assert type(s).play is native.PURE[type(s)]['play']\n"
        "print('pure')\n"
    )
    env = {**os.environ, native.PURE_ENV: "1"}
    assert native.PURE_ENV == "SANSU_PURE_PYTHON"  # the name the docs give
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "pure"


def play_both(game_id: str, rng: random.Random, *, bad_every: int = 0) -> int:
    """One random game through both paths side by side; returns its length.

    Every ``bad_every`` plies (0: never) both paths are also given a move
    that is not legal (a random other cell, or input that names no move):
    the same error, and neither state changes.
    """
    cls = GAMES[game_id]
    pure = native.PURE[cls]
    pure_play, pure_moves, pure_cells = pure["play"], pure["legal_moves"], pure["legal_cells"]
    game = sansu.load_game(game_id)
    fast = ref = game.initial_state()
    record_moves: list[str] = []
    positions = [slots(ref, game=False)]
    while True:
        moves = fast.legal_moves()
        assert moves == pure_moves(ref)
        legal = {m.cell for m in moves}
        assert fast.legal_cells() == pure_cells(ref) == bytes(c in legal for c in range(81))
        assert slots(fast) == slots(ref)
        assert (fast.ply, fast.to_move) == (pure["ply"].__get__(ref), pure["to_move"].__get__(ref))
        assert fast.to_dict() == ref.to_dict()
        if ref.result is not None:
            assert fast.result is ref.result
            break
        if bad_every and ref.ply % bad_every == 0:
            illegal = [PLACES[c] for c in range(81) if c not in legal]
            bad = rng.choice([*illegal, *(p.text.upper() for p in illegal), *BAD_INPUTS])
            before = slots(fast)
            expected = error_of(pure_play, ref, bad)
            assert expected is not None
            assert error_of(fast.play, bad) == expected
            assert slots(fast) == before
        move = rng.choice(moves)
        text = rng.random() < 0.1  # sometimes by its text
        fast, ref = fast.play(move.text if text else move), pure_play(ref, move)
        assert fast.last_move is move and ref.last_move is move
        record_moves.append(str(move))
        positions.append(slots(ref, game=False))
    record = GameRecord(game_id, {}, record_moves, {})
    assert [slots(s, game=False) for s in record.states()] == positions
    assert record.to_dict()["result"] == ref.result.to_dict()
    return ref.ply


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_compiled_and_python_moves_agree_on_random_games(game_id: str) -> None:
    rng = random.Random(20)
    lengths = [play_both(game_id, rng, bad_every=7 if n % 4 == 0 else 0) for n in range(2000)]
    # Random games of both kinds end in every way: long and short games, both winners, draws.
    assert min(lengths) < 40 < max(lengths)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@given(seed=st.integers(0, 2**32 - 1), bad_every=st.integers(1, 9))
@settings(max_examples=150, deadline=None)
def test_compiled_and_python_moves_agree_property(game_id: str, seed: int, bad_every: int) -> None:
    play_both(game_id, random.Random(seed), bad_every=bad_every)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_results_cover_wins_of_both_players_and_draws(game_id: str) -> None:
    """The compiled path reaches every ending the engine has, with the engine's own results."""
    cls = GAMES[game_id]
    module = uttt if game_id == "uttt" else sansumoku
    rng = random.Random(7)
    seen = set()
    game = sansu.load_game(game_id)
    for _ in range(3000):
        state = game.initial_state()
        while state.result is None:
            state = state.play(rng.choice(state.legal_moves()))
        assert type(state) is cls
        seen.add(state.result)
        if len(seen) == 3:
            break
    assert seen == {*module.WINS, module.DRAW}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_compiled_states_pickle_and_keep_playing(game_id: str) -> None:
    rng = random.Random(3)
    state = sansu.load_game(game_id).initial_state()
    for _ in range(20):
        state = state.play(rng.choice(state.legal_moves()))
    copy = pickle.loads(pickle.dumps(state))
    assert slots(copy, game=False) == slots(state, game=False)
    move = rng.choice(state.legal_moves())
    assert slots(copy.play(move), game=False) == slots(state.play(move), game=False)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_game_refuses_every_move_alike(game_id: str) -> None:
    cls = GAMES[game_id]
    rng = random.Random(11)
    state = sansu.load_game(game_id).initial_state()
    while state.result is None:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.legal_moves() == []
    for place in PLACES[::8]:
        expected = error_of(native.PURE[cls]["play"], state, place)
        assert expected == (sansu.IllegalMove, f"{place.text}: the game is over")
        assert error_of(state.play, place) == expected


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_state_without_its_slots_raises_attribute_error_on_both_paths(game_id: str) -> None:
    cls = GAMES[game_id]
    empty = object.__new__(cls)
    for call in (empty.play, native.PURE[cls]["play"].__get__(empty)):
        with pytest.raises(AttributeError):
            call(PLACES[40])
    for name in ("legal_moves", "legal_cells"):
        with pytest.raises(AttributeError):
            getattr(empty, name)()
