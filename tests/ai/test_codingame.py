"""``sansu codingame``: a whole game against a referee speaking CodinGame's protocol, and
input that breaks the protocol or the rules refused with a reason."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from typing import Any

import pytest

import sansu
from sansu.cli.codingame import ProtocolError, Turns, from_cell, to_cell


def test_cells_convert_both_ways() -> None:
    game = sansu.load_game("uttt")
    for move in game.initial_state().legal_moves():
        assert from_cell(to_cell(move)) == str(move)
    assert to_cell("r1c1") == "0 0" and to_cell("r9c7") == "8 6"
    for bad in ("9 0", "-2 3", "a b", "1", "1 2 3", ""):
        with pytest.raises(ProtocolError, match="row col"):
            from_cell(bad)


def referee_turn(state: sansu.core.protocol.State, last: str | None) -> str:
    lines = [to_cell(last) if last else "-1 -1", str(len(state.legal_moves()))]
    lines += [to_cell(m) for m in state.legal_moves()]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("first", [True, False])
def test_a_whole_game_against_a_referee(first: bool) -> None:
    """The referee plays random moves and checks every answer is a valid action."""
    rng = random.Random(7 + first)
    game = sansu.load_game("uttt")
    bot = subprocess.Popen(
        [sys.executable, "-m", "sansu", "codingame", "uttt", "--level", "easy",
         "--time-ms", "20", "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert bot.stdin is not None and bot.stdout is not None
    state, last = game.initial_state(), None
    if not first:
        last = rng.choice(state.legal_moves())
        state = state.play(last)
    try:
        while state.result is None:
            bot.stdin.write(referee_turn(state, last))
            bot.stdin.flush()
            answer = bot.stdout.readline()
            assert answer.endswith("\n"), bot.stderr.read() if bot.stderr else ""
            move = from_cell(answer)
            assert move in {str(m) for m in state.legal_moves()}
            state = state.play(move)
            if state.result is None:
                last = rng.choice(state.legal_moves())
                state = state.play(last)
        bot.stdin.close()
        assert bot.wait(timeout=60) == 0
    finally:
        bot.kill()


class Scripted:
    """A player that plays the first legal move (the protocol, not the search, is tested)
    and notes the time it was given for each."""

    def __init__(self) -> None:
        self.times: list[int | None] = []

    def choose(self, state, time_ms=None):
        self.times.append(time_ms)
        return type("A", (), {"move": state.legal_moves()[0]})()


@pytest.mark.parametrize("moves_first", [True, False])
def test_the_first_turn_has_the_longer_time(moves_first: bool) -> None:
    """CodinGame gives a bot's first turn 1,000 ms and the others 100: the player thinks
    ``first_ms`` on its first turn, whoever moved first, then ``time_ms``."""
    player = Scripted()
    turns = Turns(sansu.load_game("uttt").initial_state(), player, 90, first_ms=900)

    def turn(state: Any, last: str) -> str:
        legal = [to_cell(m) for m in state.legal_moves()]
        return "\n".join([last, str(len(legal)), *legal]) + "\n"

    start = sansu.load_game("uttt").initial_state()
    opening = turn(start, "-1 -1") if moves_first else turn(start.play("r5c5"), "4 4")
    turns.loop(io.StringIO(opening), io.StringIO())
    for _ in range(2):
        reply = turns.state.legal_moves()[0]
        turns.loop(io.StringIO(turn(turns.state.play(reply), to_cell(reply))), io.StringIO())
    assert player.times == [900, 90, 90]


@pytest.mark.parametrize(
    ("turns", "reason"),
    [
        ("-1 -1\n1\n4 4\n", "not the rules' legal moves"),
        ("-1 -1\nmany\n", "number of valid actions"),
        ("4 4\n8\n3 3\n3 4\n3 5\n4 3\n4 5\n5 3\n5 4\n5 5\n4 4\n1\n0 1\n", "opponent's move"),
        ("4 4\n8\n3 3\n3 4\n3 5\n4 3\n4 5\n5 3\n5 4\n5 5\n-1 -1\n1\n0 0\n", "after the game"),
        ("-1 -1\n81\n" + "".join(f"{r} {c}\n" for r in range(9) for c in range(9)) + "4 x\n",
         "row col"),
    ],
)  # fmt: skip
def test_input_off_the_protocol_or_the_rules_is_refused_with_a_reason(
    turns: str, reason: str
) -> None:
    out = io.StringIO()
    with pytest.raises(ProtocolError, match=reason):
        Turns(sansu.load_game("uttt").initial_state(), Scripted(), 10).loop(io.StringIO(turns), out)


def test_the_command_exits_2_with_the_reason_on_stderr() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sansu", "codingame", "uttt", "--level", "beginner"],
        input="-1 -1\n1\n9 9\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "row col" in done.stderr and "Traceback" not in done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "sansu", "codingame", "uttt", "--level", "genius"],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "genius" in bad.stderr
