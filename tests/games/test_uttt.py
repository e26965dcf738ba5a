"""Ultimate Tic-Tac-Toe: the rule text's situations and the engine against a plain model."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sansu
from tests.games.naive_sections import NaiveBoard

GAME = sansu.load_game("uttt")


def cells(moves) -> set[str]:
    return {str(m) for m in moves}


def test_first_move_anywhere_then_sent_to_the_matching_section() -> None:
    start = GAME.initial_state()
    assert len(start.legal_moves()) == 81
    # X takes the centre section's middle-right cell (position 5): O goes to section 5.
    state = start.play("r5c6")
    assert state.to_move == 1
    assert cells(state.legal_moves()) == {f"r{r}c{c}" for r in (4, 5, 6) for c in (7, 8, 9)}


def test_wrong_section_taken_cell_and_game_over_are_explained() -> None:
    state = GAME.play_moves(["r5c5"])
    with pytest.raises(sansu.IllegalMove, match=r"^r1c1: you must play in the centre section$"):
        state.play("r1c1")
    with pytest.raises(sansu.IllegalMove, match="already taken"):
        state.play("r5c5")
    with pytest.raises(sansu.IllegalMove, match="places no digits"):
        state.play("r5c4=3")


WIN_TWO_SECTIONS = [
    "r1c1", "r2c1", "r4c2", "r1c4", "r1c2", "r2c4", "r4c3", "r1c7",
    "r1c3",  # X completes the top row of the top-left section
    "r2c7",
    "r4c1",  # X completes the top row of the centre-left section, sending O to the won top-left
]  # fmt: skip


def test_winning_a_section_closes_it() -> None:
    state = GAME.play_moves(WIN_TWO_SECTIONS[:9])
    assert state.section_owner(0) == 0 and state.is_closed(0)
    assert state.section_owner(3) is None
    assert state.to_move == 1 and state.allowed_sections() == [2]
    with pytest.raises(sansu.IllegalMove, match="top-left section is won"):
        state.play("r3c3")


def test_sent_to_a_won_section_gives_a_free_choice() -> None:
    state = GAME.play_moves(WIN_TWO_SECTIONS)
    assert state.section_owner(3) == 0
    assert state.to_move == 1
    assert state.allowed_sections() == [1, 2, 4, 5, 6, 7, 8]
    legal = cells(state.legal_moves())
    assert len(legal) == 81 - 9 - 9 - 2 - 2
    assert "r5c5" in legal and "r3c3" not in legal and "r6c3" not in legal
    data = state.to_dict()
    assert data["sections"][0] == {"owner": 0, "closed": True, "by_constraint": False}


def test_x_completes_a_column_of_sections() -> None:
    # X goes on to win the bottom-left section: top-left, centre-left and
    # bottom-left make a column of sections.
    state = GAME.play_moves(WIN_TWO_SECTIONS)
    for move in ["r8c4", "r7c1", "r4c4", "r7c2", "r3c4", "r7c3"]:
        state = state.play(move)
    assert state.result is not None
    assert state.result.winners == (0,) and not state.result.draw
    assert state.result.reason == "three sections in a row"
    assert state.winning_line() == (0, 3, 6)
    assert state.to_move is None and state.legal_moves() == []
    with pytest.raises(sansu.IllegalMove, match="the game is over"):
        state.play("r5c5")


def test_three_sections_in_a_row_win_and_the_result_names_it() -> None:
    naive_checked = play_checked(seed=123)
    final = naive_checked[-1]
    assert final.result is not None
    if not final.result.draw:
        (winner,) = final.result.winners
        assert final.result.reason == "three sections in a row"
        line = final.winning_line()
        assert line is not None
        assert all(final.section_owner(s) == winner for s in line)


def play_checked(seed: int) -> list[sansu.State]:
    """A random game played by the engine and the plain model together."""
    rng = random.Random(seed)
    naive = NaiveBoard(digits=False)
    state = GAME.initial_state()
    states = [state]
    while state.result is None:
        legal = cells(state.legal_moves())
        assert legal == {f"r{r + 1}c{c + 1}" for r, c in naive.legal()}
        for text in (f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)):
            if text not in legal:
                with pytest.raises(sansu.IllegalMove):
                    state.play(text)
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        naive.play(*divmod(move.cell, 9))
        states.append(state)
        assert state.to_move == naive.to_move
        assert state.ply == len(states) - 1 and state.last_move is move
        assert state.allowed_sections() == ([] if state.result else naive.allowed())
        assert [state.section_owner(s) for s in range(9)] == naive.won
        assert [state.is_closed(s) for s in range(9)] == [naive.closed(s) for s in range(9)]
    assert state.result.draw == naive.draw
    assert state.result.winners == (() if naive.winner is None else (naive.winner,))
    return states


@given(seed=st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_plain_model(seed: int) -> None:
    play_checked(seed)


def test_many_random_games_end_consistently() -> None:
    rng = random.Random(2024)
    results = {"win": 0, "draw": 0}
    for _ in range(2000):
        state = GAME.initial_state()
        while state.result is None:
            state = state.play(rng.choice(state.legal_moves()))
        owners = [state.section_owner(s) for s in range(9)]
        if state.result.draw:
            results["draw"] += 1
            assert all(state.is_closed(s) for s in range(9))
            assert state.winning_line() is None
        else:
            results["win"] += 1
            (winner,) = state.result.winners
            assert any(all(owners[s] == winner for s in line) for line in LINES)
    assert results["win"] > 0 and results["draw"] > 0


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
