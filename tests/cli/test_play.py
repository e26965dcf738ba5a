"""``sansu play``: a hot-seat game typed at the terminal."""

from __future__ import annotations

import json

from sansu.cli.main import main


def test_a_short_session_with_an_illegal_move_undo_and_a_saved_record(
    monkeypatch, capsys, tmp_path
) -> None:
    lines = iter(["r5c5", "r1c1", "moves", "r4c4", "undo", "r6c6", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    path = tmp_path / "game.json"
    assert main(["play", "uttt", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Illegal: r1c1: you must play in the centre section" in out
    assert "r4c4 r4c5 r4c6" in out  # the listed legal moves
    record = json.loads(path.read_text())
    assert record["game"] == "uttt"
    assert record["moves"] == ["r5c5", "r6c6"]


def test_end_of_input_quits(monkeypatch, capsys) -> None:
    def eof(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    assert main(["play", "sansumoku"]) == 0
    assert "Blue to move" in capsys.readouterr().out
