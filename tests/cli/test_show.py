"""``sansu show``: the readable board, the JSON for programs, and one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import sansu
from sansu.cli.main import main


def show(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["show", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_of_a_uttt_position(capsys) -> None:
    code, out, err = show(capsys, "uttt", "--moves", "r5c5 r4c4", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "uttt"
    assert data["to_move"] == 0
    assert sorted(data["legal_moves"]) == sorted(f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3))
    assert data["result"] is None
    assert data["cells"][40] == {"player": 0, "value": None}
    assert data["cells"][30] == {"player": 1, "value": None}
    assert sum(cell is not None for cell in data["cells"]) == 2
    assert len(data["sections"]) == 9
    assert data["sections"][0] == {"owner": None, "closed": False, "by_constraint": False}


def test_json_of_a_finished_game_has_the_result(capsys) -> None:
    moves = "r1c1 r2c1 r4c2 r1c4 r1c2 r2c4 r4c3 r1c7 r1c3 r2c7 r4c1 r8c4 r7c1 r4c4 r7c2 r3c4 r7c3"
    code, out, _ = show(capsys, "uttt", "--moves", moves, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["to_move"] is None and data["legal_moves"] == []
    assert data["result"] == {
        "winners": [0], "draw": False, "scores": None, "reason": "three sections in a row"
    }  # fmt: skip


def test_json_of_sansumoku_has_digits(capsys) -> None:
    code, out, _ = show(capsys, "sansumoku", "--moves", "r4c4 r1c2 r2c5", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["cells"][13] == {"player": 0, "value": 1}
    assert data["sections"][4]["next_digit"] == 2


def test_readable_board_marks_the_last_move_and_the_required_digit(capsys) -> None:
    code, out, _ = show(capsys, "sansumoku", "--moves", "r4c4 r1c2 r2c5")
    assert code == 0
    assert "┏━━━┯" in out and "┗━━━┷" in out
    assert "1b*" in out  # Blue's 1 at r2c5, the last move
    assert "·2·" in out  # open cells of the centre section must take a 2
    assert "Orange to move: a 2 in the centre section" in out
    assert "\x1b[" not in out  # no colour when not writing to a terminal


def test_colour_on_request(capsys) -> None:
    code, out, _ = show(capsys, "uttt", "--moves", "r5c5", "--color", "always")
    assert code == 0 and "\x1b[" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        (["uttt", "--option", "size=3"], "unknown option 'size' for game 'uttt'"),
        (["uttt", "--option", "size"], "option 'size': expected KEY=VALUE"),
        (["uttt", "--moves", "r5c5 r5c5"], "move 2, r5c5: that cell is already taken"),
        (["uttt", "--moves", "r5c5 hello"], "move 2, 'hello' is not a move"),
        (
            ["sansumoku", "--moves", "r4c4 r1c2 r1c5"],
            "move 3, r1c5: a 1 is already in row 1 (r1c2)",
        ),
        (["uttt", "--record", "/no/such/file.json"], "cannot read"),
        (["uttt", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, args: list[str], message: str) -> None:
    code, out, err = show(capsys, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_record_file(capsys, tmp_path) -> None:
    game = sansu.load_game("sansumoku")
    record = sansu.GameRecord.start(game, players=["ann", "bob"])
    for move in ["r4c4", "r1c2", "r2c5"]:
        record.append(move)
    path = tmp_path / "game.json"
    record.save(path)
    code, out, _ = show(capsys, "sansumoku", "--record", str(path), "--json")
    assert code == 0 and json.loads(out)["ply"] == 3
    path.write_text('{"game": "sansumoku", "moves": ["r4c4", "r4c5"]}')
    code, out, err = show(capsys, "sansumoku", "--record", str(path))
    assert code == 2 and out == "" and "move 2, r4c5: you must play in the top-left section" in err


def test_console_script_and_module_entry_points() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sansu", "show", "uttt", "--moves", "r5c5", "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["to_move"] == 1
    bad = subprocess.run(
        [sys.executable, "-m", "sansu", "show", "uttt", "--moves", "r5c5 r5c5"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "move 2, r5c5: that cell is already taken"


def test_two_word_moves_are_read_as_one_move(capsys) -> None:
    # Honour variant: r1c1 and r1c5 both hold a 1 (a duplicate); a report removes r1c5's piece.
    moves = "r1c1=1 r9c9=5 r1c5=1 report r1c5"
    code, out, err = show(capsys, "sumodoku", "--option", "honour=true", "--moves", moves, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["cells"][0] == {"player": 0, "value": 1}
    assert data["cells"][4] is None or data["cells"][4].get("value") is None
    joined = "r1c1=1 r9c9=5 r1c5=1 report_r1c5"
    code, out_joined, _ = show(capsys, "sumodoku", "-o", "honour=true", "--moves", joined, "--json")
    assert code == 0 and json.loads(out_joined) == data
    code, out, err = show(capsys, "sumodoku", "--option", "honour=true", "--moves", "report r1c5")
    assert code == 2 and out == "" and "move 1, report r1c5" in err
