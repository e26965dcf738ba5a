"""``sansu analyse``: the per-move table, the turning points, JSON, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sansu.cli.main import main
from sansu.core.record import GameRecord
from sansu.core.registry import load_game
from tests.ai.test_review import random_moves, thrown_away_win


def analyse(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["analyse", *args])
    out, err = capsys.readouterr()
    return code, out, err


def save(tmp_path: Path, game_id: str, moves: list[str]) -> str:
    record = GameRecord.start(load_game(game_id))
    for move in moves:
        record.append(move)
    path = tmp_path / f"{game_id}.json"
    record.save(path)
    return str(path)


@pytest.fixture(scope="module")
def blunder() -> list[str]:
    return next(m for m in map(thrown_away_win, range(40)) if m is not None)


def test_the_table_shows_every_move_and_the_blunder(capsys, tmp_path, blunder) -> None:
    path = save(tmp_path, "uttt", blunder)
    code, out, err = analyse(capsys, "uttt", "--record", path, "--sims", "300")
    assert code == 0 and err == ""
    table, points = out.split("turning points:")
    rows = [line.split() for line in table.splitlines() if line[:4].strip().isdigit()]
    assert [int(r[0]) for r in rows] == list(range(1, len(blunder) + 1))
    assert [r[2] for r in rows] == blunder
    number = len(blunder) - 1
    assert f"{number}. player {(number - 1) % 2} {blunder[-2]}?? blunder: 100% -> 0%" in points


def test_json_is_the_review_and_repeats(capsys, tmp_path) -> None:
    moves = random_moves("sansumoku", 10, seed=3)
    path = save(tmp_path, "sansumoku", moves)
    code, out, _ = analyse(capsys, "sansumoku", "-r", path, "--sims", "200", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "sansu-review" and data["moves"] == moves
    assert [r["move"] for r in data["moves_reviewed"]] == moves
    assert all(0 <= p["chance"] <= 1 for p in data["positions"])
    _, again, _ = analyse(capsys, "sansumoku", "-r", path, "--sims", "200", "--json")
    assert json.loads(again) == data
    _, other, _ = analyse(capsys, "sansumoku", "-r", path, "--sims", "200", "--seed", "9", "--json")
    assert json.loads(other)["seed"] == 9


def test_moves_may_be_given_instead_of_a_record(capsys) -> None:
    code, out, _ = analyse(capsys, "35", "--moves", "r1c1=5 r2c2=6", "--sims", "300")
    assert code == 0 and "thirtyfive: 2 moves" in out and "turning points" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["uttt"], "give the game to review with --record"),
        (["uttt", "--record", "/nonexistent/x.json"], "cannot read"),
        (["uttt", "--moves", "r5c5", "--sims", "0"], "--sims must be a positive"),
        (["uttt", "--moves", "r5c5", "--sims", "many"], "invalid int value"),
        (["uttt", "--moves", "r5c5", "--seed", "-1"], "--seed must be 0 or more"),
        (["uttt", "--moves", "r5c5 r5c5"], "move 2"),
        (["uttt", "--moves", ""], "no moves to review"),
        (["chess", "--moves", "e4"], "unknown game"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, args: list[str], message: str) -> None:
    code, out, err = analyse(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_a_record_of_another_game_is_refused(capsys, tmp_path) -> None:
    path = save(tmp_path, "uttt", ["r5c5"])
    code, _, err = analyse(capsys, "sansumoku", "--record", path)
    assert code == 2 and "not 'sansumoku'" in err
