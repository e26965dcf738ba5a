"""``sansu puzzles``: the listing for programs, the drawing, mining from stored games, bad input."""

from __future__ import annotations

import json

import pytest

from sansu.cli.main import main
from sansu.core.record import GameRecord
from sansu.core.registry import load_game
from sansu.puzzles import shipped


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["puzzles", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_prints_every_shipped_puzzle(capsys) -> None:
    code, out, err = run(capsys, "list", "uttt", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [d["id"] for d in data] == [p.id for p in shipped("uttt")]
    first = data[0]
    assert {"id", "game", "options", "moves", "solution", "rating", "themes"} <= set(first)
    state = load_game("uttt", **first["options"]).play_moves(first["moves"])
    for move in first["solution"]:
        state = state.play(move)
    assert state.result is not None and state.result.winners == ((len(first["moves"])) % 2,)


def test_the_alias_35_lists_thirtyfive(capsys) -> None:
    code, out, _ = run(capsys, "list", "35", "--json")
    assert code == 0 and {d["game"] for d in json.loads(out)} == {"thirtyfive"}


def test_show_draws_the_position_and_the_solution(capsys) -> None:
    puzzle = shipped("sansumoku")[0]
    code, out, err = run(capsys, "show", puzzle.id, "--color", "never")
    assert code == 0 and err == ""
    assert f"solution: {' '.join(puzzle.solution)}" in out
    assert "┃" in out  # the board


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["list", "chess"], "unknown game 'chess'"),
        (["list", "challenge"], "no puzzles for 'challenge'"),
        (["show", "uttt-99999"], "no puzzle 'uttt-99999'"),
        (["show", "nonsense"], "'nonsense' is no puzzle id"),
        (["mine", "uttt", "--jobs", "0"], "--jobs must be at least 1"),
        (["mine", "uttt", "--games", "0"], "--games must be at least 1"),
        (["mine", "uttt", "--depth", "9"], "--depth must be 1 to 4"),
        (["mine", "uttt", "--from", "/no/such/file.json"], "no such file"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, args, message) -> None:
    out_file = ["--out", str(tmp_path / "p.json")] if args[0] == "mine" else []
    code, out, err = run(capsys, *args, *out_file)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_a_database_that_cannot_be_opened_is_one_line(capsys, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'sansu.db'}"
    code, _, err = run(capsys, "mine", "uttt", "--from", url, "--out", str(tmp_path / "p.json"))
    assert code == 2 and err.count("\n") == 1 and "unable to open database file" in err


def test_an_out_file_that_holds_no_puzzles_is_refused_and_kept(capsys, tmp_path) -> None:
    out = tmp_path / "other.json"
    out.write_text('{"x": 1}')
    code, _, err = run(capsys, "mine", "uttt", "--games", "1", "--out", str(out))
    assert code == 2 and "expected a JSON array of puzzles" in err and err.count("\n") == 1
    assert out.read_text() == '{"x": 1}'


def test_a_bad_record_is_one_line_and_writes_nothing(capsys, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = tmp_path / "p.json"
    code, _, err = run(capsys, "mine", "uttt", "--from", str(bad), "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and not out.exists()


def test_mining_a_stored_game_finds_the_puzzle_in_it(capsys, tmp_path) -> None:
    puzzle = next(p for p in shipped("uttt") if p.extra["depth"] == 2)
    record = GameRecord(game="uttt", moves=[*puzzle.moves, *puzzle.solution])
    games = tmp_path / "games"
    games.mkdir()
    record.save(games / "game.json")
    out = tmp_path / "mined.json"
    code, _, err = run(capsys, "mine", "uttt", "--from", str(games), "--out", str(out))
    assert code == 0, err
    assert "new puzzles from 1 games" in err
    mined = json.loads(out.read_text())
    found = [d for d in mined if d["moves"] == list(puzzle.moves)]
    assert len(found) == 1
    assert found[0]["solution"] == list(puzzle.solution)
    assert found[0]["id"].startswith("uttt-") and found[0]["source"] == "game"
    # Mining the same game again adds nothing: the same position is the same puzzle.
    before = out.read_text()
    assert run(capsys, "mine", "uttt", "--from", str(games), "--out", str(out))[0] == 0
    assert out.read_text() == before


def test_mining_in_two_processes_finds_what_one_finds(capsys, tmp_path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    common = ["mine", "uttt", "--games", "3", "--seed", "5"]
    assert run(capsys, *common, "--out", str(one))[0] == 0
    assert run(capsys, *common, "--jobs", "2", "--out", str(two))[0] == 0
    assert one.read_text() == two.read_text()
    assert json.loads(one.read_text())  # seeds 5 to 7 hold puzzles
