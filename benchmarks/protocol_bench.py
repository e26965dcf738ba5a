"""Random full games per second through the public Python API, for every game.

The reference is OpenSpiel's Ultimate Tic-Tac-Toe driven from Python through
its C++ bindings, measured in the same run on the same machine (install it
with ``pip install open_spiel``; the ``bench`` extra does). Each figure is the
median of several timed rounds after a warm-up round.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import sansu

ROUNDS = 5
SECONDS = 1.0
TARGET_UTTT = 5000


def rate(play_one: Callable[[random.Random], None], rounds: int = ROUNDS) -> float:
    """Median games per second over ``rounds`` rounds of about ``SECONDS`` each."""
    rng = random.Random(1)
    play_one(rng)
    rates = []
    for _ in range(rounds):
        games = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < SECONDS:
            play_one(rng)
            games += 1
        rates.append(games / elapsed)
    return statistics.median(rates)


def sansu_player(game_id: str) -> Callable[[random.Random], None]:
    game = sansu.load_game(game_id)

    def play_one(rng: random.Random) -> None:
        state = game.initial_state()
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


def main() -> None:
    print("## Random full games per second through the public API (median of 5 rounds)")
    reference = openspiel_player()
    ref_rate = rate(reference) if reference is not None else None
    if ref_rate is None:
        print("OpenSpiel not installed: no reference (pip install open_spiel)")
    else:
        print(f"{'openspiel ultimate_tic_tac_toe (reference)':44} {ref_rate:10,.0f} games/s")
    for game_id in sansu.game_ids():
        games_per_s = rate(sansu_player(game_id), rounds=3)
        line = f"{'sansu ' + game_id:44} {games_per_s:10,.0f} games/s"
        if ref_rate is not None:
            line += f"   {games_per_s / ref_rate:5.2f}× OpenSpiel UTTT"
        if game_id in ("uttt", "sansumoku"):
            verdict = "met" if games_per_s >= TARGET_UTTT else "MISSED"
            line += f"   target ≥ {TARGET_UTTT:,}: {verdict}"
        print(line)


if __name__ == "__main__":
    main()
