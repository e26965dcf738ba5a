"""Sudoku Challenge: whole scripted games with their exact score sheets, sequences, the
completion bonus and errors (the final round, teams, chrono, moves and options are in
``test_challenge_options.py``).

The puzzles are a solved grid with a few cells blanked (each with exactly one
solution), so a whole game is a dozen entries. Every expected score sheet
below was worked out by hand from the rules in ``docs/rules/reference/challenge.md``.
"""

from __future__ import annotations

import pytest

import sansu
from sansu.games.challenge import (
    ChallengeState,
    Entry,
    SudokuChallenge,
    round_count,
)

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
NINE = "..46789126.21953481983425678597.14234268..79171392485696153728428741963.3452861.."
"""Nine blanks: r1c1=5 r1c2=3 r2c2=7 (top-left box), r4c5=6 r5c5=5 r5c6=3 (centre box),
r8c9=5 r9c8=7 r9c9=9 (bottom-right box)."""
SIXTEEN = "..4678912..219534819.342567859..14234268..79171392.856961537.8.2874196..3452861.."
"""Sixteen blanks: the nine above and r2c1=6 r3c3=8 r4c4=7 r6c6=4 r7c7=2 r7c9=4 r8c8=3."""

Row = tuple[int, int, str, str, int, int, int, int, int, int]


def game(puzzle: str = NINE, **options: object) -> SudokuChallenge:
    loaded = sansu.load_game("challenge", puzzle=puzzle, **options)
    assert isinstance(loaded, SudokuChallenge)
    return loaded


def play(moves: str, puzzle: str = NINE, **options: object) -> ChallengeState:
    state = game(puzzle, **options).play_moves(moves.split())
    assert isinstance(state, ChallengeState)
    return state


def cont(state: ChallengeState, moves: str) -> ChallengeState:
    for move in moves.split():
        state = state.play(move)
    return state


def sheet(state: ChallengeState) -> list[Row]:
    """The score sheet of ``to_dict()`` as (round, player, entries, errors, digits,
    bonus, handicap, penalty, grid full, total) lines."""
    return [
        (
            row["round"],
            row["player"],
            " ".join(e["entry"] for e in row["entries"]),
            " ".join(row["errors"]),
            row["digits"],
            row["bonus"],
            row["handicap"],
            row["penalty"],
            row["grid_full"],
            row["total"],
        )
        for row in state.to_dict()["score_sheet"]
    ]


def assert_adds_up(state: ChallengeState) -> None:
    for player, score in enumerate(state.scores):
        assert score == sum(row.total for row in state.sheet if row.player == player)


# -- the worked example of docs/rules/reference/challenge.md ------------------------

MAIN = "r9c9=9 r1c2=3  r9c8=7 r8c9=5  r5c5=3 r5c5=5 r4c5=6  r5c6=3 r1c1=5 r2c2=7"
"""Two players, regular, handicap, errors=original, final order increasing."""

MAIN_SHEET: list[Row] = [
    # round, player, entries, errors, digits, bonus, handicap, penalty, grid full, total
    (1, 0, "r9c9=9", "", 9, 0, 0, 0, 0, 9),
    (1, 1, "r1c2=3", "", 3, 0, 4, 0, 0, 7),
    (2, 0, "r9c8=7 r8c9=5", "", 12, 10, 0, 0, 0, 22),
    (2, 1, "r5c5=5 r4c5=6", "r5c5=3", 6, 10, 0, 0, 0, 16),
    (3, 1, "r5c6=3 r1c1=5 r2c2=7", "", 15, 10, 0, 0, 0, 25),
    (3, 0, "", "", 0, 0, 0, 0, 10, 10),
]


def test_main_game_score_sheet_turn_by_turn() -> None:
    state = play(MAIN)
    assert sheet(state) == MAIN_SHEET
    assert state.scores == (41, 48)
    assert state.result == sansu.Result((1,), False, (41, 48), "grid complete, 41–48")
    assert [row.status for row in state.sheet][-2:] == ["played", "grid full"]
    assert state.grid == tuple(int(d) for d in SOLUTION)
    assert_adds_up(state)


def test_main_game_turns_rounds_and_final_round() -> None:
    g = game()
    state = g.initial_state()
    seen = []
    for move in MAIN.split():
        seen.append((state.round, state.round_count, state.to_move, state.entries_left,
                     state.final_round, state.order))  # fmt: skip
        state = state.play(move)
    assert seen == [
        (1, 1, 0, 1, False, (0, 1)),
        (1, 1, 1, 1, False, (0, 1)),
        (2, 2, 0, 2, False, (0, 1)),
        (2, 2, 0, 1, False, (0, 1)),
        (2, 2, 1, 2, False, (0, 1)),
        (2, 2, 1, 2, False, (0, 1)),  # the error does not count towards the turn's entries
        (2, 2, 1, 1, False, (0, 1)),
        (3, 3, 1, 3, True, (1, 0)),  # final round: 23 before 31
        (3, 3, 1, 2, True, (1, 0)),
        (3, 3, 1, 1, True, (1, 0)),
    ]
    assert state.to_move is None and state.legal_moves() == []


def test_the_corrected_entry_scores_nothing_even_its_completion_in_original_mode() -> None:
    # r2c2 is the only blank of row 2: the correction completes the row, but earns nothing.
    state = play("r2c2=1 r2c2=7")
    assert sheet(state)[0] == (1, 0, "r2c2=7", "r2c2=1", 0, 0, 0, 0, 0, 0)
    assert state.sheet[0].entries[0].corrected
    assert state.sheet[0].entries[0].completes == ("row 2",)
    assert state.scores == (0, 4)


def test_the_corrected_entry_scores_normally_in_simplified_mode() -> None:
    state = play("r2c2=1 r2c2=7", errors="simplified")
    assert sheet(state)[0] == (1, 0, "r2c2=7", "r2c2=1", 7, 10, 0, 1, 0, 16)
    assert state.scores == (16, 4)


def test_main_game_with_simplified_errors() -> None:
    state = play(MAIN, errors="simplified")
    assert sheet(state) == [
        (1, 0, "r9c9=9", "", 9, 0, 0, 0, 0, 9),
        (1, 1, "r1c2=3", "", 3, 0, 4, 0, 0, 7),
        (2, 0, "r9c8=7 r8c9=5", "", 12, 10, 0, 0, 0, 22),
        (2, 1, "r5c5=5 r4c5=6", "r5c5=3", 11, 10, 0, 2, 0, 19),  # the error costs 2 (round of 2)
        (3, 1, "r5c6=3 r1c1=5 r2c2=7", "", 15, 10, 0, 0, 0, 25),
        (3, 0, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.result is not None and state.result.reason == "grid complete, 41–51"


def test_each_error_costs_the_rounds_count_in_simplified_mode() -> None:
    state = play("r5c5=1 r5c5=2 r5c5=5 r1c2=3", errors="simplified", sequence="express")
    row = sheet(state)[0]
    assert row[2:] == ("r5c5=5 r1c2=3", "r5c5=1 r5c5=2", 8, 0, 0, 6, 0, 2)
    assert state.scores == (2, 4)
    assert state.entries_left == 1 and state.to_move == 0


def test_main_game_without_handicap() -> None:
    state = play(MAIN, handicap=False)
    assert sheet(state)[1] == (1, 1, "r1c2=3", "", 3, 0, 0, 0, 0, 3)
    assert all(row[6] == 0 for row in sheet(state))
    assert state.scores == (41, 44)
    assert state.result is not None and state.result.winners == (1,)


def test_handicap_is_in_the_scores_from_the_start() -> None:
    state = game(players=5).initial_state()
    assert state.scores == (0, 4, 6, 8, 10)
    assert [(row.player, row.handicap, row.status) for row in state.sheet] == [
        (0, 0, "playing"), (1, 4, "waiting"), (2, 6, "waiting"), (3, 8, "waiting"),
        (4, 10, "waiting"),
    ]  # fmt: skip
    assert game(players=5, handicap=False).initial_state().scores == (0,) * 5


def test_main_game_with_status_quo_final_order() -> None:
    # The same entries; now player 0 plays first in the final round and fills the grid.
    moves = MAIN.replace("r5c6=3 r1c1=5 r2c2=7", "") + " r5c6=3 r1c1=5 r2c2=7"
    state = play(moves, final_order="status_quo")
    assert sheet(state)[4:] == [
        (3, 0, "r5c6=3 r1c1=5 r2c2=7", "", 15, 10, 0, 0, 0, 25),
        (3, 1, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.scores == (56, 33)
    assert state.result is not None and state.result.winners == (0,)


# -- sequences ---------------------------------------------------------------------

SIXTEEN_MOVES = (
    "r3c3=8 r1c1=5  r7c9=4 r8c9=5 r2c2=7 r1c2=3  r5c5=5 r5c6=3 r4c5=6 r2c1=6 r8c8=3 r9c9=9"
    "  r4c4=7 r6c6=4 r7c7=2 r9c8=7"
)


def test_sequences() -> None:
    assert [round_count("regular", r) for r in range(1, 8)] == [1, 2, 3, 1, 2, 3, 1]
    assert [round_count("shortened", r) for r in range(1, 8)] == [1, 2, 3, 3, 3, 3, 3]
    assert [round_count("express", r) for r in range(1, 8)] == [3] * 7


FIRST_THREE_ROUNDS: list[Row] = [
    (1, 0, "r3c3=8", "", 8, 10, 0, 0, 0, 18),
    (1, 1, "r1c1=5", "", 5, 0, 4, 0, 0, 9),
    (2, 0, "r7c9=4 r8c9=5", "", 9, 0, 0, 0, 0, 9),
    (2, 1, "r2c2=7 r1c2=3", "", 10, 10, 0, 0, 0, 20),
    (3, 0, "r5c5=5 r5c6=3 r4c5=6", "", 14, 10, 0, 0, 0, 24),
    (3, 1, "r2c1=6 r8c8=3 r9c9=9", "", 18, 10, 0, 0, 0, 28),
]


def test_regular_game_on_sixteen_blanks() -> None:
    state = play(SIXTEEN_MOVES, SIXTEEN)
    assert sheet(state) == [
        *FIRST_THREE_ROUNDS,
        (4, 0, "r4c4=7", "", 7, 10, 0, 0, 0, 17),  # a round of 1 again, not yet final
        (4, 1, "r6c6=4", "", 4, 10, 0, 0, 0, 14),
        (5, 0, "r7c7=2 r9c8=7", "", 9, 10, 0, 0, 0, 19),  # final: 68 before 71
        (5, 1, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.result == sansu.Result((0,), False, (87, 81), "grid complete, 87–81")


def test_shortened_game_on_sixteen_blanks() -> None:
    state = play(SIXTEEN_MOVES, SIXTEEN, sequence="shortened")
    assert sheet(state) == [
        *FIRST_THREE_ROUNDS,
        (4, 0, "r4c4=7 r6c6=4 r7c7=2", "", 13, 10, 0, 0, 0, 23),  # final round of 3
        (4, 1, "r9c8=7", "", 7, 10, 0, 0, 0, 17),  # one empty cell left: enters just that
    ]
    assert state.result == sansu.Result((), True, (74, 74), "grid complete, 74–74")


def test_shortened_final_round_lets_the_last_player_enter_what_is_left() -> None:
    state = play(SIXTEEN_MOVES.rsplit(" ", 1)[0], SIXTEEN, sequence="shortened")
    assert (state.to_move, state.round_count, state.entries_left) == (1, 3, 1)
    assert state.to_dict()["entries_left"] == 1


def test_express_game() -> None:
    moves = "r1c2=3 r1c1=5 r2c2=7  r9c9=9 r9c8=7 r8c9=5  r4c5=6 r5c5=5 r5c6=3"
    state = play(moves, sequence="express", handicap=False)
    assert sheet(state) == [
        (1, 0, "r1c2=3 r1c1=5 r2c2=7", "", 15, 10, 0, 0, 0, 25),
        (1, 1, "r9c9=9 r9c8=7 r8c9=5", "", 21, 10, 0, 0, 0, 31),
        (2, 0, "r4c5=6 r5c5=5 r5c6=3", "", 14, 10, 0, 0, 0, 24),
        (2, 1, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.result == sansu.Result((0,), False, (49, 41), "grid complete, 49–41")


def test_equal_scores_are_a_draw() -> None:
    moves = "r1c2=3 r5c5=5 r9c9=9  r2c2=7 r4c5=6 r9c8=7  r1c1=5 r5c6=3 r8c9=5"
    state = play(moves, sequence="express", handicap=False)
    assert sheet(state) == [
        (1, 0, "r1c2=3 r5c5=5 r9c9=9", "", 17, 0, 0, 0, 0, 17),
        (1, 1, "r2c2=7 r4c5=6 r9c8=7", "", 20, 10, 0, 0, 0, 30),
        (2, 0, "r1c1=5 r5c6=3 r8c9=5", "", 13, 10, 0, 0, 0, 23),
        (2, 1, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.result == sansu.Result((), True, (40, 40), "grid complete, 40–40")


# -- the completion bonus -------------------------------------------------------------


def test_one_entry_completing_a_row_a_column_and_a_box_scores_ten_once() -> None:
    state = play("r1c1=5 r1c2=3  r2c2=7", sequence="express")
    entry = state.sheet[0].entries[-1]
    assert entry.completes == ("row 2", "column 2", "top-left box")
    assert sheet(state)[0][4:] == (15, 10, 0, 0, 0, 25)


def test_two_completing_entries_in_one_turn_score_ten_once() -> None:
    state = play("r4c5=6 r8c9=5", sequence="express")  # rows 4 and 8, each its only blank
    assert [e.completes for e in state.sheet[0].entries] == [("row 4",), ("row 8",)]
    assert state.sheet[0].bonus == 10 and state.scores[0] == 21


def test_no_bonus_without_a_completion() -> None:
    state = play("r1c2=3 r5c5=5", sequence="express")
    assert state.sheet[0].bonus == 0 and state.scores[0] == 8


# -- errors ------------------------------------------------------------------------------


def test_a_wrong_entry_is_recorded_not_placed_and_binds_the_next_entry() -> None:
    state = play("r5c5=3")
    assert state.grid[40] == 0
    assert state.required_cell == 40 and state.to_move == 0 and state.entries_left == 1
    data = state.to_dict()
    assert data["errors"] == [{"player": 0, "cell": "r5c5", "digit": 3, "round": 1}]
    assert data["required_cell"] == "r5c5"
    assert data["cells"][40] is None
    assert data["legal_moves"] == [f"r5c5={d}" for d in (1, 2, 4, 5, 6, 7, 8, 9)]
    with pytest.raises(sansu.IllegalMove, match="after the error at r5c5 your next entry must be"):
        state.play("r1c2=3")
    with pytest.raises(sansu.IllegalMove, match="a 3 at r5c5 was already found wrong"):
        state.play("r5c5=3")
    again = state.play("r5c5=4")
    assert [str(e.digit) for e in again.errors] == ["3", "4"] and again.required_cell == 40
    done = again.play("r5c5=5")
    assert done.required_cell is None and done.to_move == 1
    assert done.sheet[0].errors == (Entry(40, 3), Entry(40, 4))


def test_wrong_digits_stay_excluded_for_everyone() -> None:
    state = play("r1c1=1 r1c1=5 r5c5=9", sequence="express", turn_seconds=30)
    state = state.play("timeout")  # the pending correction lapses with the turn
    assert state.to_move == 1 and state.required_cell is None
    texts = [str(m) for m in state.legal_moves()]
    assert "r5c5=9" not in texts and "r5c5=5" in texts
    assert state.wrong_digits(40) == [9]
