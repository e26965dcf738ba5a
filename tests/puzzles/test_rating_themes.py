"""Starting ratings from measured difficulty, and themes read off the solution."""

from __future__ import annotations

import math

import sansu
from sansu.puzzles import shipped
from sansu.puzzles.games import result_verdict
from sansu.puzzles.rating import Difficulty, decoys
from sansu.puzzles.themes import themes
from tests.puzzles.test_prove import WIN_IN_ONE, WIN_IN_TWO


def test_the_rating_grows_with_depth_decoys_and_misses_and_stays_in_range() -> None:
    base = Difficulty(depth=1, choices=8, decoys=1, misses=0.5)
    assert base.rating() == round(1000 + 20 * math.log2(8))
    assert Difficulty(2, 8, 1, 0.5).rating() == base.rating() + 300
    assert Difficulty(1, 8, 4, 0.5).rating() == base.rating() + 120
    assert Difficulty(1, 8, 1, 1.0).rating() == base.rating() + 250
    assert Difficulty(9, 80, 80, 1.0).rating() == 2600
    assert Difficulty(1, 1, 0, 0.0).rating() == 750


def test_decoys_count_the_moves_that_survive_a_one_move_look() -> None:
    state = sansu.load_game("uttt").play_moves(WIN_IN_ONE.split())
    count = decoys(state, result_verdict)
    assert 1 <= count <= len(state.legal_moves())


def test_a_section_winning_move_is_no_quiet_move() -> None:
    state = sansu.load_game("uttt").play_moves(WIN_IN_ONE.split())
    assert len(state.allowed_sections()) > 1  # sent to a closed section: a free move
    assert themes(state, ["r9c2"], 1) == ("win in 1", "free move")


def test_a_win_in_two_names_its_depth() -> None:
    state = sansu.load_game("uttt").play_moves(WIN_IN_TWO.split())
    found = themes(state, ["r4c8", "r3c4", "r6c8"], 2)
    assert found[0] == "win in 2"


def test_sending_to_a_full_board_means_the_opponent_moves_free() -> None:
    for p in shipped("uttt"):
        if "send to a full board" not in p.themes:
            continue
        state = sansu.load_game("uttt").play_moves(p.moves)
        frees = []
        for i, move in enumerate(p.solution):
            state = state.play(move)
            if i % 2 == 0 and state.result is None:
                frees.append(len(state.allowed_sections()) > 1)
        assert any(frees), p.id


def test_a_35_that_converts_turns_squares_to_the_learner() -> None:
    for p in shipped("thirtyfive")[:80]:
        if "a 35 that converts" not in p.themes:
            continue
        state = sansu.load_game("thirtyfive").play_moves(p.moves)
        learner = state.to_move
        gained = False
        for i, move in enumerate(p.solution):
            before = state.scores()[learner]
            state = state.play(move)
            gained |= i % 2 == 0 and state.scores()[learner] > before + 1
        assert gained, p.id


def test_a_35_on_the_last_square_counts_the_other_35s_as_decoys() -> None:
    puzzles = [p for p in shipped("thirtyfive") if p.extra["depth"] == 1]
    counts = set()
    for p in puzzles[:40]:
        state = sansu.load_game("thirtyfive").play_moves(p.moves)
        tempting = sum(
            bool(state.play(m).triggered_cells()) and str(m) != p.solution[0]
            for m in state.legal_moves()
        )
        count = decoys(state, result_verdict)
        assert count == 1 + tempting, p.id  # the winning move, and the other moves with a 35
        counts.add(count)
    assert len(counts) > 1  # so the starting ratings differ
