"""The protocol's invariants, checked on random games of every registered game.

Each game adds only its own scenarios elsewhere; this file holds what every
game must satisfy: moves round-trip through text, play never changes the old
state, the JSON of a state is plain JSON, records replay exactly, games end,
and the result agrees with whose turn it is.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.core.registry import game_class
from sansu.render import engine_name, render

GAMES = sansu.game_ids()
MAX_PLIES = 400


def random_game(game: sansu.Game, seed: int) -> list[sansu.State]:
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while state.result is None and len(states) <= MAX_PLIES:
        moves = state.legal_moves()
        assert moves, "a game that is not over must offer a move"
        state = state.play(rng.choice(moves))
        states.append(state)
    return states


def test_every_game_is_listed() -> None:
    assert {"uttt", "sansumoku"} <= set(GAMES)
    for gid in GAMES:
        cls = game_class(gid)
        assert cls.id == gid
        assert sansu.load_game(gid).id == gid


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_is_found_by_its_engine_name_and_rendered(gid: str) -> None:
    """An engine module or package under ``sansu.games`` is named like its game, and that
    name finds its renderer, however the engine is split inside."""
    state = sansu.load_game(gid).initial_state()
    assert type(state.game).__module__.split(".")[:3] == ["sansu", "games", gid]
    assert engine_name(state) == gid
    assert render(state).strip()


@pytest.mark.parametrize("gid", GAMES)
def test_unknown_option_is_a_clear_error(gid: str) -> None:
    with pytest.raises(ValueError, match="unknown option 'no_such_option'"):
        sansu.load_game(gid, no_such_option=1)


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        sansu.load_game("chess")


@pytest.mark.parametrize("gid", GAMES)
@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_protocol(gid: str, seed: int) -> None:
    game = sansu.load_game(gid)
    states = random_game(game, seed)
    final = states[-1]
    assert final.result is not None, "random games must end"
    assert final.to_move is None and final.legal_moves() == []
    pairs = list(itertools.pairwise(states))
    for before, after in pairs[:: max(1, len(pairs) // 12)]:
        snapshot = json.dumps(before.to_dict(), sort_keys=True)
        # Playing again from `before` gives the same state and leaves `before` unchanged.
        again = before.play(str(after.last_move))
        assert json.dumps(before.to_dict(), sort_keys=True) == snapshot
        assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(
            after.to_dict(), sort_keys=True
        )
    for before, after in pairs:
        assert after.ply == before.ply + 1
        assert before.result is None and before.to_move is not None
    for state in states[:: max(1, len(states) // 5)]:
        data = state.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert data["game"] == gid
        assert data["to_move"] == state.to_move
        moves = state.legal_moves()
        texts = [str(m) for m in moves]
        assert len(set(texts)) == len(texts), "move texts are unique"
        assert sorted(data["legal_moves"]) == sorted(texts)
        for move in moves:
            assert str(game.parse_move(str(move))) == str(move)
            assert str(game.parse_move("  " + str(move).upper() + " ")) == str(move)


@pytest.mark.parametrize("gid", GAMES)
def test_records_round_trip(gid: str) -> None:
    game = sansu.load_game(gid)
    states = random_game(game, 7)
    record = sansu.GameRecord.start(game, players=["a", "b"])
    for state in states[1:]:
        record.append(state.last_move)
    loaded = sansu.GameRecord.from_json(record.to_json())
    assert loaded == record
    assert json.dumps(loaded.replay().to_dict(), sort_keys=True) == json.dumps(
        states[-1].to_dict(), sort_keys=True
    )
    assert [s.ply for s in loaded.states()] == list(range(len(states)))


@pytest.mark.parametrize("gid", GAMES)
def test_text_that_names_no_move_is_rejected(gid: str) -> None:
    game = sansu.load_game(gid)
    state = game.initial_state()
    for text in ["", "hello", "r0c0", "r99c1", "r1c1=x=2"]:
        with pytest.raises(sansu.IllegalMove):
            state.play(text)
    with pytest.raises(sansu.IllegalMove):
        state.play(12345)  # type: ignore[arg-type]
