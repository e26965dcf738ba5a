"""``sansu play``: a game typed at the terminal, redrawn in place, players named by colour."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from sansu.cli.main import main

CLEAR = "\x1b[2J"  # what rich sends to clear the screen


def answers(monkeypatch, *lines: str) -> list[str]:
    """Feed ``lines`` to ``input()`` (then end of input); returns the prompts shown."""
    prompts: list[str] = []
    queue = iter(lines)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts


def test_a_short_session_with_an_illegal_move_undo_and_a_saved_record(
    monkeypatch, capsys, tmp_path
) -> None:
    prompts = answers(monkeypatch, "r5c5", "r1c1", "moves", "r4c4", "undo", "r6c6", "quit")
    path = tmp_path / "game.json"
    assert main(["play", "uttt", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Illegal: r1c1: you must play in the centre section" in out
    assert "r4c4 r4c5 r4c6" in out  # the listed legal moves
    assert prompts[:3] == ["X> ", "O> ", "O> "]  # players by their marks, not "player 0"
    record = json.loads(path.read_text())
    assert record["game"] == "uttt"
    assert record["moves"] == ["r5c5", "r6c6"]


@pytest.mark.parametrize(
    ("game", "names"),
    [("sansumoku", ["Blue> ", "Orange> "]), ("thirtyfive", ["Red> ", "Blue> "]),
     ("sumodoku", ["Blue> ", "Orange> "]), ("challenge", ["Blue> ", "Blue> "])],
)  # fmt: skip
def test_players_are_named_by_colour(monkeypatch, capsys, game: str, names: list[str]) -> None:
    first = {"sansumoku": "r5c5", "thirtyfive": "r1c1=5", "sumodoku": "r1c1=1"}.get(game, "?")
    prompts = answers(monkeypatch, first)
    assert main(["play", game]) == 0
    assert prompts == names
    assert "player 0" not in capsys.readouterr().out.lower()


def test_end_of_input_quits(monkeypatch, capsys) -> None:
    answers(monkeypatch)
    assert main(["play", "sansumoku"]) == 0
    assert "Blue to move" in capsys.readouterr().out


def test_which_game_asks_again_until_it_gets_a_game(monkeypatch, capsys) -> None:
    prompts = answers(monkeypatch, "", "chess", "35", "quit")
    assert main(["play"]) == 0
    out = capsys.readouterr().out
    assert prompts == ["Which game? ", "Which game? ", "Which game? ", "Red> "]
    assert "unknown game 'chess'" in out and "Red to move" in out
    answers(monkeypatch, "", "")  # nothing but empty answers, then end of input: no game
    assert main(["play"]) == 0
    assert "to move" not in capsys.readouterr().out


def test_on_a_terminal_the_board_is_redrawn_in_place(monkeypatch) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system="standard")
    monkeypatch.setattr("rich.console.Console", lambda **kw: console)
    answers(monkeypatch, "r5c5", "r4c4", "r9c9", "quit")
    assert main(["play", "uttt"]) == 0
    text = screen.getvalue()
    # One clear before each drawing: four drawings (start, two moves, the refusal).
    assert text.count(CLEAR) == 4
    last = text[text.rindex(CLEAR) :]
    assert last.count("┏") == 1  # a single board on the screen
    assert "Illegal: r9c9" in last


def test_help_is_plain_text(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "``" not in out and "--vs LEVEL" in out and "redrawn in place" in out
