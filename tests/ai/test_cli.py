"""``sansu engine``, ``sansu match`` and ``sansu play --vs``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace

import pytest

import sansu
from sansu.ai import player_for
from sansu.ai.arena import make_player, run_series, series_seats, summarise, tasks, wilson
from sansu.ai.levels import benchmark_level, level_for
from sansu.cli.engine import Engine, join_moves
from sansu.cli.main import main


def session(game_id: str, lines: list[str], level: str = "easy", **options) -> list[str]:
    game = sansu.load_game(game_id, **options)
    engine = Engine(game, player_for(game, level, seed=1))
    out = io.StringIO()
    status = engine.loop(io.StringIO("".join(line + "\n" for line in lines)), out)
    assert status == 0
    return out.getvalue().splitlines()


def test_the_engine_answers_every_command() -> None:
    out = session(
        "uttt", ["moves r5c5 r4c4", "go simulations 200", "moves", "go time_ms 50", "quit"]
    )
    assert out[0] == "ok"
    assert out[1].startswith("info simulations 200 value ")
    best = out[2].split()
    assert best[0] == "bestmove" and len(best) == 2
    state = sansu.load_game("uttt").play_moves(["r5c5", "r4c4"])
    assert best[1] in {str(m) for m in state.legal_moves()}
    assert out[3] == "ok"  # back to the initial position
    assert out[5].startswith("bestmove ")
    assert len(out) == 6  # nothing after quit


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("moves r5c5 r1c1", "move 2, r1c1: you must play in the centre section"),
        ("moves r0c0", "there is no cell"),
        ("go time_ms", "pairs"),
        ("go time_ms fast", "positive whole number"),
        ("go time_ms 0", "positive whole number"),
        ("go depth 3", "unknown go parameter 'depth'"),
        ("go simulations 5 simulations 6", "given twice"),
        ("position startpos", "unknown command 'position'"),
        ("quit now", "quit takes no arguments"),
        ("level grandmaster", "unknown level"),
        ("level", "level takes one name"),
    ],
)
def test_bad_commands_answer_error_and_change_nothing(command, reason) -> None:
    out = session("uttt", ["moves r5c5", command, "go simulations 50"])
    assert out[0] == "ok"
    assert out[1].startswith("error ") and reason in out[1]
    # Still the position after r5c5: the reply is a move of the centre section.
    move = out[3].split()[1]
    assert move in {str(m) for m in sansu.load_game("uttt").play_moves(["r5c5"]).legal_moves()}


def test_go_on_a_finished_game_is_an_error_and_blank_lines_are_ignored() -> None:
    from tests.ai.test_kernels import UTTT_WIN

    out = session("uttt", [f"moves {UTTT_WIN} r1c9", "", "   ", "go simulations 10"])
    assert out == ["ok", "error the game is over: there is no move to play"]


def test_the_level_can_change_and_end_of_input_quits() -> None:
    out = session("sansumoku", ["level max", "go time_ms 30"], level="beginner")
    assert out[0] == "ok" and out[-1].startswith("bestmove ")


def test_two_word_moves_may_be_written_with_or_without_an_underscore() -> None:
    game = sansu.load_game("sumodoku")
    assert join_moves(game, ["r1c1=1", "erase", "r1c1", "erase_r2c2", "sudoku"]) == [
        "r1c1=1", "erase r1c1", "erase r2c2", "sudoku",
    ]  # fmt: skip


def test_the_engine_runs_as_a_program_and_flushes_every_answer() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sansu", "engine", "thirtyfive", "--option", "rows=4",
         "--option", "cols=4", "--level", "beginner", "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("moves r1c1=9\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == "ok\n"  # answered before the input ends
    proc.stdin.write("go simulations 20\n")
    proc.stdin.flush()
    assert proc.stdout.readline().startswith("info ")
    assert proc.stdout.readline().startswith("bestmove r")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(timeout=30) == 0


def test_engine_usage_errors_exit_2(capsys) -> None:
    assert main(["engine", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["engine", "uttt", "--level", "godlike"]) == 2
    assert "unknown level" in capsys.readouterr().err


# -- sansu match ---------------------------------------------------------------------


def test_a_match_prints_the_score_with_a_confidence_interval(capsys) -> None:
    args = ["match", "uttt", "easy", "beginner", "--games", "4", "--simulations", "40",
            "--jobs", "1", "--json"]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["games"] == 4 and data["wins"] + data["draws"] + data["losses"] == 4
    low, high = data["ci95"]
    assert 0 <= low <= data["rate"] <= high <= 1
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["score"] == data["score"]  # seeded: same again


def test_a_timed_match_prints_each_players_mean_and_slowest_move(capsys) -> None:
    args = ["match", "uttt", "medium", "beginner", "--games", "2", "--time-ms", "30",
            "--jobs", "1"]  # fmt: skip
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    slowest = next(line for line in lines if line.startswith("slowest move: "))
    mean = next(line for line in lines if line.startswith("mean move: "))
    for line in (slowest, mean):
        assert "beginner " in line and "medium " in line
    means = dict(part.rsplit(" ", 2)[:2] for part in mean.removeprefix("mean move: ").split(", "))
    assert all(0 < float(v) < 30_000 for v in means.values()), means


def test_a_match_in_two_processes_and_as_text(capsys, tmp_path) -> None:
    out = tmp_path / "games.json"
    args = ["match", "35", "beginner", "random", "-o", "rows=4", "-o", "cols=4", "--games", "2",
            "--simulations", "10", "--jobs", "2", "--games-out", str(out)]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.startswith("beginner vs random: 2 games, +") and "95% CI" in text
    games = json.loads(out.read_text())
    assert [g["seats"] for g in games] == [["beginner", "random"], ["random", "beginner"]]


def test_random_openings_are_shared_by_the_two_colours_of_a_pair(capsys, tmp_path) -> None:
    out = tmp_path / "games.json"
    args = ["match", "uttt", "max:bestfirst=1", "max:bestfirst=1", "--games", "4",
            "--simulations", "30", "--jobs", "1", "--opening", "3", "--seed", "7",
            "--games-out", str(out)]  # fmt: skip
    assert main(args) == 0
    games = [g["moves"] for g in json.loads(out.read_text())]
    assert games[0][:3] == games[1][:3] != games[2][:3] == games[3][:3]
    # a search without chance plays the same game from the same opening
    assert games[0] == games[1] and games[2] == games[3]
    assert main([*args[:-2], "--opening", "-1"]) == 2
    assert "--opening must not be negative" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "uttt", "easy", "genius"], "unknown player 'genius'"),
        (["match", "uttt", "easy", "max", "--games", "0"], "--games must be positive"),
        (["match", "chess", "easy", "max"], "unknown game"),
        (["match", "uttt", "max:speed=3", "max0"], "unknown setting 'speed'"),
        (["match", "uttt", "max:reuse=yes", "max0"], "reuse is 0 or 1"),
        (["match", "uttt", "max:net=2", "max0"], "net between 0 and 1"),
        (["match", "uttt", "max:net_visits=-1", "max0"], "must not be negative"),
        (["match", "uttt", "max:c_uct=-0.5", "max0"], "must not be negative"),
        (["match", "uttt", "flat:c_uct=1", "max0"], "only a level or a benchmark player"),
        (["match", "sumodoku", "bestfirst", "max"], "best-first search is for"),
        (["match", "uttt", "bestfirst:minimax=2", "max"], "minimax must be between 0 and 1"),
    ],
)
def test_match_usage_errors(args, message, capsys) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_seats_rotate_and_colours_alternate() -> None:
    assert series_seats(2, "a", "b", 0) == (("a", "b"), 0)
    assert series_seats(2, "a", "b", 1) == (("b", "a"), 1)
    assert series_seats(3, "a", "b", 4) == (("b", "a", "b"), 1)


def test_a_three_player_series_scores_the_first_player() -> None:
    options = {"players": 3, "sequence": "express", "seed": 1}
    outcomes = run_series(tasks("challenge", options, "easy", "beginner", 3, simulations=3))
    assert [o.first_seat for o in outcomes] == [0, 1, 2]
    assert all(0.0 <= o.score <= 1.0 for o in outcomes)
    summary = summarise("easy", "beginner", outcomes)
    assert summary.games == 3


def test_wilson_intervals() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-3) and high == pytest.approx(0.9448, abs=1e-3)
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-3)


# -- sansu play --vs -------------------------------------------------------------------


def test_playing_against_the_computer_with_undo(monkeypatch, capsys, tmp_path) -> None:
    lines = iter(["r5c5", "undo", "r1c1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    path = tmp_path / "game.json"
    assert main(["play", "uttt", "--vs", "easy", "--seed", "1", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("O (computer) played ") == 2
    record = json.loads(path.read_text())
    assert record["moves"][0] == "r1c1" and len(record["moves"]) == 2
    assert record["metadata"]["players"] == ["human", "computer (easy)"]


def test_the_computer_moves_first_when_you_take_the_second_seat(monkeypatch, capsys) -> None:
    lines = iter(["undo", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "sansumoku", "--vs", "beginner", "--side", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("Blue (computer) played ") == 1  # nothing to undo before your first move
    assert "Nothing to undo." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "uttt", "--vs", "wizard"], "unknown level"),
        (["play", "uttt", "--vs", "easy", "--side", "2"], "--side must be a seat from 0 to 1"),
        (["play", "uttt", "--side", "1"], "add --vs LEVEL"),
    ],
)
def test_play_vs_usage_errors(args, message, capsys) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_a_player_name_may_change_a_levels_settings() -> None:
    game = sansu.load_game("uttt")
    player = make_player(game, "max:playout=38,c_uct=0.6,simulations=300", seed=1)
    assert player.settings == replace(
        level_for("uttt", "max"), playout=38, c_uct=0.6, simulations=300
    )
    max0 = make_player(game, "max0:reuse=0", seed=1).settings
    assert max0 == replace(benchmark_level("uttt", "max0"), reuse=False)
    state = game.initial_state()
    assert player.choose(state).simulations == 300
    outcomes = run_series(tasks("uttt", {}, "max:playout=38", "max0", 2, seed=1, simulations=50))
    assert [o.seats for o in outcomes] == [("max:playout=38", "max0"), ("max0", "max:playout=38")]
