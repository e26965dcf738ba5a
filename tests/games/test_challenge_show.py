"""Sudoku Challenge through ``sansu show`` and the terminal renderer."""

from __future__ import annotations

import json

import pytest

from sansu.cli.main import main
from sansu.render import render

from .test_challenge import MAIN, NINE, SOLUTION, play


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["show", "challenge", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_show_json_has_the_game_fields_and_no_solution(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = show(capsys, "-o", f"puzzle={NINE}", "--moves", "r9c9=9 r1c2=3 r5c5=1",
                            "--json")  # fmt: skip
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "challenge"
    assert data["to_move"] == 0 and data["scores"] == [9, 7]
    assert data["round"] == 2 and data["round_count"] == 2 and data["entries_left"] == 2
    assert data["order"] == [0, 1] and data["final_round"] is False
    assert data["required_cell"] == "r5c5" and data["turn_seconds"] == 0
    assert data["errors"] == [{"player": 0, "cell": "r5c5", "digit": 1, "round": 2}]
    assert data["legal_moves"] == [f"r5c5={d}" for d in range(2, 10)]
    assert data["options"]["puzzle"] == NINE and data["options"]["seed"] is None
    assert [row["total"] for row in data["score_sheet"]] == [9, 7, 0, 0]
    assert "solution" not in data and SOLUTION not in out


def test_show_reveal_adds_the_solution(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = show(capsys, "-o", f"puzzle={NINE}", "--json", "--reveal")
    assert status == 0
    assert json.loads(out)["solution"] == SOLUTION


def test_show_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = show(capsys, "-o", f"puzzle={NINE}", "--moves", MAIN, "--color", "never")
    assert status == 0
    assert "GRID COMPLETE, 41–48: Orange wins" in out
    assert "\x1b[" not in out


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["players=6"], "option 'players': expected a whole number from 2 to 5, got '6'"),
        (["players=3", "teams=true"],
         "option 'teams': teams need exactly 4 players (two teams of two), not 3"),
        ([f"puzzle={'.' * 81}"], "option 'puzzle': the puzzle has more than one solution"),
        ([f"puzzle={NINE[:-1]}x"], "option 'puzzle': bad character 'x' at position 81 (r9c9)"),
    ],
)  # fmt: skip
def test_show_bad_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    if not options[0].startswith("puzzle"):
        options = [f"puzzle={NINE}", *options]
    status, out, err = show(capsys, *(a for o in options for a in ("-o", o)), "--json")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_show_illegal_move_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = show(capsys, "-o", f"puzzle={NINE}", "--moves", "r9c9=9 r9c9=9")
    assert status == 2 and out == ""
    assert err == "move 2, r9c9=9: r9c9 is already filled (a 9 by player 0)\n"


def test_render_plain_marks_players_required_cell_and_sheet() -> None:
    state = play("r9c9=9 r1c2=3 r9c8=7 r8c9=5 r5c5=3")
    text = render(state, color=False)
    assert "round 2 · 2 entries a turn · 5 empty" in text
    assert "┃ · │ 3₁│ 4 ┃" in text  # r1c1 empty, r1c2 by Orange (player 1), r1c3 a given
    assert "│[ ]│" in text  # r5c5 must be corrected
    assert "Orange to move: 2 entries left this turn, must correct r5c5 (not 3)" in text
    assert "scores: Blue 31 · Orange 7" in text
    assert "errors: r5c5=3 (Orange, round 2)" in text
    assert "3 + 4 handicap" in text and "12 + 10 bonus" in text
    assert "\x1b[" not in text


def test_render_final_round_teams_and_colour() -> None:
    moves = "r9c9=9 r1c2=3 r5c5=5 r4c5=6"
    state = play(moves, players=4, teams=True)
    text = render(state, color=False)
    # Orange (player 1) has the lowest score, but Red, Orange's team-mate, played last.
    assert "FINAL ROUND · order Blue, Orange, Green, Red" in text
    assert "team A (Blue, Green) 20 · team B (Orange, Red) 31" in text
    coloured = render(state, color=True)
    assert "\x1b[" in coloured and "FINAL ROUND" in coloured
    done = play(MAIN)
    assert "grid full, could not play" in render(done, color=False)
    assert "r5c5=3✗ r5c5=5(0) r4c5=6" in render(done, color=False)


def test_render_timeouts() -> None:
    state = play("r1c2=3 timeout", turn_seconds=30)
    text = render(state, color=False)
    assert "30 s a turn" in text and "(time up)" in text


def test_show_generated_puzzle_hides_the_seed_unless_revealed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = show(capsys, "-o", "seed=4", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["options"]["seed"] is None and "solution" not in data
    status, out, _ = show(capsys, "-o", "seed=4", "--json", "--reveal")
    revealed = json.loads(out)
    assert revealed["givens"] == data["givens"]
    assert all(g in (".", s) for g, s in zip(data["givens"], revealed["solution"], strict=True))
