"""``sansu sudoku``: answers on stdout, JSON lines, and one-line errors with exit 2."""

from __future__ import annotations

import io
import json

import pytest

from sansu.cli.main import main
from sansu.sudoku import CLASSIC, Constraints, count_solutions, parse_grid
from sansu.sudoku.rater import LEVELS

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EMPTY = "." * 81


def sudoku(capsys, *args: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["sudoku", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_from_arguments(capsys):
    code, out, err = sudoku(capsys, "solve", PUZZLE)
    assert (code, out, err) == (0, SOLUTION + "\n", "")


def test_solve_from_stdin_skips_blank_lines_and_comments(capsys, monkeypatch):
    text = f"# two puzzles\n\n{PUZZLE}\n   \n{SOLUTION}\n"
    code, out, err = sudoku(capsys, "solve", "--json", stdin=text, monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [3, 5]
    assert rows[0] == {"line": 3, "puzzle": PUZZLE, "solvable": True, "solution": SOLUTION}


def test_solve_from_a_file(capsys, tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{PUZZLE}\n{PUZZLE.replace('.', '0')}\n")
    code, out, _ = sudoku(capsys, "solve", "--file", str(path))
    assert code == 0 and out.splitlines() == [SOLUTION, SOLUTION]


def test_unsolvable_puzzle_exits_1(capsys):
    grid = list(PUZZLE)
    grid[2] = "1"  # r1c3 takes a 1 that clashes with no given, but the answer is 4
    code, out, err = sudoku(capsys, "solve", "".join(grid))
    assert code == 1 and out == "no solution\n" and err == ""


def test_bad_input_names_the_line_and_prints_nothing(capsys, monkeypatch):
    bad = PUZZLE[:3] + "5" + PUZZLE[4:]  # a second 5 in row 1
    text = f"{PUZZLE}\n# comment\n{bad}\n"
    code, out, err = sudoku(capsys, "solve", stdin=text, monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err.strip() == "sansu sudoku solve: line 3: r1c1: a 5 is already in row 1 (r1c4)"
    assert len(err.splitlines()) == 1

    code, out, err = sudoku(capsys, "count", PUZZLE, PUZZLE[:80])
    assert code == 2 and out == ""
    assert "argument 2: a grid has 81 cells, this one has 80 characters" in err

    code, out, err = sudoku(capsys, "solve", "--file", "/nonexistent/puzzles.txt")
    assert code == 2 and out == "" and "cannot read" in err

    code, out, err = sudoku(capsys, "solve", stdin="\n# nothing\n", monkeypatch=monkeypatch)
    assert code == 2 and "no puzzle" in err


def test_variant_flags(capsys):
    code, out, _ = sudoku(capsys, "solve", "--diagonals", EMPTY)
    assert code == 0 and Constraints(diagonals=True).is_satisfied_by(out.strip())
    parity = "oe" * 4 + "o" + "." * 72
    code, out, _ = sudoku(capsys, "solve", "--parity", parity, "--json", EMPTY)
    solution = json.loads(out)["solution"]
    assert Constraints(parity=parity).is_satisfied_by(solution)
    code, out, _ = sudoku(
        capsys, "solve", "--consecutive", "r1c1-r1c2,r1c2-r2c2", "--strict-consecutive", EMPTY
    )
    rules = Constraints(consecutive="r1c1-r1c2,r1c2-r2c2", strict_consecutive=True)
    assert code == 0 and rules.is_satisfied_by(out.strip())

    code, out, err = sudoku(capsys, "solve", "--parity", "oe", EMPTY)
    assert code == 2 and out == "" and "--parity" in err and "81 marks" in err
    code, out, err = sudoku(capsys, "solve", "--consecutive", "r1c1-r2c2", EMPTY)
    assert code == 2 and "not orthogonally adjacent" in err
    bad = "1" + "." * 80
    code, out, err = sudoku(capsys, "solve", "--parity", "e" + "." * 80, bad)
    assert code == 2 and "argument 1: r1c1 is marked even but holds a 1" in err


def test_count(capsys):
    code, out, _ = sudoku(capsys, "count", PUZZLE, EMPTY, "--limit", "3")
    assert code == 0 and out.splitlines() == ["1", "3+"]
    code, out, _ = sudoku(capsys, "count", "--json", EMPTY)
    assert json.loads(out) == {
        "line": 1,
        "puzzle": EMPTY,
        "count": 2,
        "limit": 2,
        "unique": False,
    }
    code, out, err = sudoku(capsys, "count", "--limit", "0", PUZZLE)
    assert code == 2 and "--limit" in err


def test_generate(capsys):
    code, out, err = sudoku(capsys, "generate", "--count", "3", "--seed", "7")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3 and len(set(lines)) == 3
    for line in lines:
        puzzle, level, score = line.split()  # every puzzle is printed with its rating
        assert count_solutions(puzzle) == 1
        assert level in LEVELS and float(score) > 0
    code, again, _ = sudoku(capsys, "generate", "--count", "3", "--seed", "7")
    assert again == out

    code, out, _ = sudoku(capsys, "generate", "--seed", "8", "--json", "--no-symmetry")
    data = json.loads(out)
    assert data["seed"] == 8 and data["level"] in LEVELS and data["score"] > 0
    assert parse_grid(data["solution"]) == tuple(int(d) for d in data["solution"])

    code, out, _ = sudoku(capsys, "generate", "--seed", "1", "--diagonals", "--json")
    data = json.loads(out)
    assert count_solutions(data["puzzle"], Constraints(diagonals=True)) == 1
    assert data["constraints"]["diagonals"] is True
    assert data["level"] is None  # the rater grades classic rules only

    code, out, err = sudoku(capsys, "generate", "--count", "0")
    assert code == 2 and out == "" and "--count" in err


def test_generate_with_difficulty(capsys):
    pytest.importorskip("sansu.sudoku.rater")
    code, out, _ = sudoku(capsys, "generate", "--seed", "3", "--difficulty", "medium")
    puzzle, level, score = out.split()
    assert code == 0 and level == "medium" and float(score) > 0
    assert count_solutions(puzzle, CLASSIC) == 1
    code, out, err = sudoku(capsys, "generate", "--difficulty", "trivial")
    assert code == 2 and out == "" and "unknown difficulty 'trivial'" in err
    code, out, err = sudoku(capsys, "generate", "--difficulty", "easy", "--diagonals")
    assert code == 2 and "classic" in err


def test_rate_and_hint(capsys):
    pytest.importorskip("sansu.sudoku.rater")
    code, out, err = sudoku(capsys, "rate", PUZZLE)
    assert code == 0 and err == ""
    level, score = out.split()[:2]
    assert level == "easy" and float(score) > 0
    code, out, _ = sudoku(capsys, "rate", "--json", PUZZLE)
    data = json.loads(out)
    assert data["level"] == "easy" and data["solved"] is True and data["techniques"]

    code, out, _ = sudoku(capsys, "hint", PUZZLE)
    assert code == 0 and out.strip() and "\n" not in out.strip()
    code, out, _ = sudoku(capsys, "hint", "--json", PUZZLE)
    step = json.loads(out)["step"]
    assert step["technique"] and step["description"]
    code, out, _ = sudoku(capsys, "hint", SOLUTION)
    assert out.strip() == "the grid is already solved"


@pytest.mark.parametrize("action", ["rate", "hint"])
def test_rate_and_hint_refuse_a_grid_without_exactly_one_solution(capsys, action):
    code, out, err = sudoku(capsys, action, EMPTY)
    assert code == 2 and out == ""
    assert err.strip() == (
        f"sansu sudoku {action}: argument 1:"
        " the grid has many solutions (a puzzle needs exactly one)"
    )
    no_solution = "12345678." + "." * 8 + "9" + "." * 63  # r1c9 can hold nothing
    code, out, err = sudoku(capsys, action, PUZZLE, no_solution)
    assert code == 2 and out == "" and "argument 2: the grid has no solution" in err


def test_help_without_an_action(capsys):
    code, out, _ = sudoku(capsys)
    assert code == 0 and "generate" in out


def test_progress_bar_only_for_batches_on_a_terminal(capsys, monkeypatch):
    from sansu.cli import sudoku as command

    assert command._progress([1, 2], "x") == [1, 2]  # stderr is not a terminal here
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert command._progress([1], "x") == [1]
    bar = command._progress([1, 2], "x")
    assert list(bar) == [1, 2] and bar is not None and not isinstance(bar, list)
