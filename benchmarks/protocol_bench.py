"""Random full games per second through the public Python API, for every game.

The reference is OpenSpiel's Ultimate Tic-Tac-Toe driven from Python through
its C++ bindings (the ``bench`` extra installs it). The machine's load
changes from second to second, so the reference is timed in alternation
with each game: a round of OpenSpiel, a round of the game, again and again;
each line gives the median of the per-pair ratios. Only Ultimate
Tic-Tac-Toe is the same game as the reference; Sansumoku is its closest
relative (same board, same routing, plus digits); the other lines compare
different games and say so. Target: at least 1× for Ultimate Tic-Tac-Toe
and Sansumoku (whose moves are compiled unless ``SANSU_PURE_PYTHON=1``: the
first line says which). A last line plays a state that keeps no rules
(:class:`NoRules`) through the same loop: what the loop alone costs. Times
are the thread's CPU time (``time.thread_time``), so that other processes
on a shared machine do not count.

Usage: ``python benchmarks/protocol_bench.py [--rounds N] [--seconds S] [GAME ...]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import sansu
from sansu.games import native

TARGETS = {"uttt": 1.0, "sansumoku": 1.0}
"""Ratio to OpenSpiel's Ultimate Tic-Tac-Toe that the game must reach."""


def games_per_second(play_one: Callable[[random.Random], None], rng, seconds: float) -> float:
    """Games played in about ``seconds`` of this thread's CPU time, per second of it."""
    games = 0
    start = time.thread_time()
    while (elapsed := time.thread_time() - start) < seconds:
        play_one(rng)
        games += 1
    return games / elapsed


def sansu_player(game_id: str) -> Callable[[random.Random], None]:
    game = sansu.load_game(game_id)

    def play_one(rng: random.Random) -> None:
        state = game.initial_state()
        choice = rng.choice
        while state.result is None:
            state = state.play(choice(state.legal_moves()))

    return play_one


class NoRules:
    """A state that keeps no rules: 58 plies (a random UTTT game's length) of nine fixed moves.

    Played through the same loop, it measures what the loop itself costs in
    Python (the calls, ``choice``, a new immutable state of thirteen slots a
    move): the ceiling of any pure-Python engine under this protocol.
    """

    __slots__ = ("_0", "_1", "_2", "_3", "_4", "_5", "_6", "_7")
    __slots__ += ("game", "last_move", "ply", "result", "to_move")
    MOVES = tuple(range(9))
    LENGTH = 58

    def legal_moves(self) -> list[int]:
        return [*self.MOVES]

    def play(self, move: int) -> NoRules:
        new = object.__new__(NoRules)
        new.game, new._0, new._1, new._2, new._3 = self.game, 1, 2, 3, 4
        new._4, new._5, new._6, new._7 = 5, 6, 7, 8
        new.last_move = move
        ply = new.ply = self.ply + 1
        new.to_move = 1 - self.to_move
        new.result = None if ply < self.LENGTH else "over"
        return new


def no_rules_player() -> Callable[[random.Random], None]:
    def play_one(rng: random.Random) -> None:
        state = object.__new__(NoRules)
        state.game, state.ply, state.to_move, state.result = None, 0, 0, None
        choice = rng.choice
        while state.result is None:
            state = state.play(choice(state.legal_moves()))

    return play_one


def openspiel_player() -> Callable[[random.Random], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("ultimate_tic_tac_toe")

    def play_one(rng: random.Random) -> None:
        state = game.new_initial_state()
        choice = rng.choice
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))

    return play_one


def label(game_id: str) -> str:
    if game_id == "(no rules)":
        return "the loop alone: the ceiling of pure Python"
    if game_id == "uttt":
        return "same game"
    if game_id == "sansumoku":
        return "its closest relative"
    return "a different game"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed pairs per game")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed round")
    parser.add_argument("games", nargs="*", default=sansu.game_ids())
    args = parser.parse_args([] if argv is None else argv)
    print(
        f"## Random full games per second through the public API"
        f" ({args.rounds} pairs of {args.seconds:g} s rounds, in alternation with OpenSpiel)"
    )
    print(native.describe())
    reference = openspiel_player()
    if reference is None:
        print("OpenSpiel not installed: no reference (pip install open_spiel)")
    players = [(game_id, sansu_player(game_id)) for game_id in args.games]
    players.append(("(no rules)", no_rules_player()))
    for game_id, ours in players:
        rng, ref_rng = random.Random(1), random.Random(1)
        ours(rng)
        if reference is not None:
            reference(ref_rng)
        rates, ratios, ref_rates = [], [], []
        for _ in range(args.rounds):
            if reference is not None:
                ref_rates.append(games_per_second(reference, ref_rng, args.seconds))
            rates.append(games_per_second(ours, rng, args.seconds))
            if reference is not None:
                ratios.append(rates[-1] / ref_rates[-1])
        name = game_id if game_id.startswith("(") else f"sansu {game_id}"
        line = f"{name:18} {statistics.median(rates):9,.0f} games/s"
        if reference is not None:
            ratio = statistics.median(ratios)
            line += (
                f"   OpenSpiel UTTT {statistics.median(ref_rates):9,.0f} games/s"
                f"   ratio {ratio:5.2f}× ({label(game_id)})"
            )
            if game_id in TARGETS:
                verdict = "met" if ratio >= TARGETS[game_id] else "MISSED"
                line += f"   target ≥ {TARGETS[game_id]:g}×: {verdict}"
        print(line, flush=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
