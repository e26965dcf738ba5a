"""Matches between computer players: one game, a series, scores with confidence intervals.

A player is named by a level (``beginner`` … ``max``) or a reference
opponent (``flat``: flat Monte Carlo, ``random``), or a benchmark player of
:data:`sansu.ai.levels.BENCHMARK_PLAYERS` (``max0``, ``netmax``, ``netmix``,
``bestfirst``). In a series the first player's seat rotates (colours
alternate in two-player games; in games of more players the first player
takes one seat and the second all others).
Everything is seeded, so a series replays move for move when the players
have simulation budgets.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sansu.ai.levels import BENCHMARK_PLAYERS, benchmark_level
from sansu.core.protocol import Game

REFERENCE_PLAYERS = ("flat", "random")
MAX_PLIES = 5000


def make_player(game: Game, name: str, *, seed: int | None) -> Any:
    """A player for ``game`` called ``name``: a level or a reference opponent; a level or
    benchmark player may be followed by changed settings, ``max:playout=38,c_uct=0.6``."""
    from sansu.ai import player_for
    from sansu.ai.baselines import FlatMonteCarlo, RandomPlayer

    if ":" in name:
        from sansu.ai.levels import level_for, with_settings
        from sansu.ai.player import ComputerPlayer

        base, _, overrides = name.partition(":")
        check_player_name(name)
        if base in BENCHMARK_PLAYERS:
            level = benchmark_level(game.id, base)
        else:
            level = level_for(game.id, base)
        return ComputerPlayer(game, with_settings(level, overrides), seed=seed)
    if name == "flat":
        return FlatMonteCarlo(game, seed=seed)
    if name == "random":
        return RandomPlayer(game, seed=seed)
    if name in BENCHMARK_PLAYERS:
        from sansu.ai.player import ComputerPlayer

        return ComputerPlayer(game, benchmark_level(game.id, name), seed=seed)
    return player_for(game, name, seed=seed)


def check_player_name(name: str) -> str:
    """``name`` if it names a player, else ``ValueError``."""
    from sansu.ai.levels import LEVELS, with_settings

    if ":" in name:
        base, _, overrides = name.partition(":")
        if base not in LEVELS and base not in BENCHMARK_PLAYERS:
            raise ValueError(f"only a level or a benchmark player takes settings, not {base!r}")
        with_settings(benchmark_level("uttt", "max0"), overrides)
        return name
    if name not in LEVELS and name not in REFERENCE_PLAYERS and name not in BENCHMARK_PLAYERS:
        names = ", ".join((*LEVELS, *REFERENCE_PLAYERS, *BENCHMARK_PLAYERS))
        raise ValueError(f"unknown player {name!r} (players: {names})")
    return name


@dataclass
class Outcome:
    """One finished game of a series."""

    index: int
    seats: tuple[str, ...]
    first_seat: int
    """The seat of the series' first player in this game."""
    score: float
    """The first player's reward: 1 win, ½ two-player draw, 0 loss."""
    reason: str
    plies: int
    moves: list[str]
    slowest_ms: dict[str, float] = field(default_factory=dict)
    """Per player name, the longest time one move took."""
    budget_ms: dict[str, float] = field(default_factory=dict)
    """Per player name, the time budget of a move."""
    times_ms: dict[str, list[float]] = field(default_factory=dict)
    """Per player name, the time each of its moves took."""


def play_game(
    game: Game,
    seats: Sequence[str],
    *,
    seed: int,
    time_ms: int | Mapping[str, int] | None = None,
    simulations: int | None = None,
    first_seat: int = 0,
    index: int = 0,
    factory: Callable[[Game, str, int], Any] | None = None,
    opening: int = 0,
    opening_seed: int = 0,
) -> Outcome:
    """Play one game, seat ``i`` taken by the player called ``seats[i]``.

    ``time_ms`` is everyone's time per move, or a time per player name (a
    name left out plays at its level's own budget). The first ``opening`` plies
    are drawn uniformly at random from ``opening_seed`` (untimed), so that
    players who always answer alike still play different games.
    """
    from sansu.ai.mcts import rewards_of

    make = factory or (lambda g, name, s: make_player(g, name, seed=s))
    players = [make(game, name, seed * 131 + i) for i, name in enumerate(seats)]
    for player in players:  # compiled code loads now, not on the clock of the first move
        if hasattr(player, "warm_up"):
            player.warm_up()
    state = game.initial_state()
    moves: list[str] = []
    rng = random.Random(opening_seed)
    while len(moves) < opening:
        move = rng.choice(state.legal_moves())
        after = state.play(move)
        if after.result is not None:
            break
        moves.append(str(move))
        state = after
    slowest: dict[str, float] = {}
    budget: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    while state.result is None and len(moves) < MAX_PLIES:
        mover = state.to_move
        assert mover is not None
        player = players[mover]
        name = seats[mover]
        own = time_ms.get(name) if isinstance(time_ms, Mapping) else time_ms
        start = time.perf_counter()
        analysis = player.choose(state, time_ms=own, simulations=simulations)
        spent = (time.perf_counter() - start) * 1000
        slowest[name] = max(slowest.get(name, 0.0), spent)
        times.setdefault(name, []).append(spent)
        budget[name] = float(own if own is not None else getattr(player, "time_ms", 0))
        state = state.play(analysis.move)
        moves.append(str(analysis.move))
    if state.result is None:
        score, reason = 0.5, f"stopped after {MAX_PLIES} moves"
    else:
        teams = getattr(game, "teams", None)
        score = rewards_of(state.result, game.num_players, teams)[first_seat]
        reason = state.result.reason
    return Outcome(
        index, tuple(seats), first_seat, score, reason, len(moves), moves, slowest, budget, times
    )


def series_seats(players: int, a: str, b: str, index: int) -> tuple[tuple[str, ...], int]:
    """The seats of game ``index`` of a series of ``a`` against ``b``, and ``a``'s seat."""
    seat = index % players
    return tuple(a if i == seat else b for i in range(players)), seat


def run_one(task: dict[str, Any]) -> Outcome:
    """One game of a series, from a picklable task (for worker processes)."""
    from sansu.core.registry import load_game

    game = load_game(task["game"], **task["options"])
    seats, first = series_seats(game.num_players, task["a"], task["b"], task["index"])
    return play_game(
        game,
        seats,
        seed=task["seed"] * 1_000_003 + task["index"],
        time_ms=task.get("time_ms"),
        simulations=task.get("simulations"),
        first_seat=first,
        index=task["index"],
        opening=task.get("opening", 0),
        # both colours of a pair of games play the same opening
        opening_seed=task["seed"] * 1_000_003 + task["index"] // game.num_players,
    )


def tasks(
    game_id: str,
    options: dict[str, Any],
    a: str,
    b: str,
    games: int,
    *,
    seed: int = 0,
    time_ms: int | Mapping[str, int] | None = None,
    simulations: int | None = None,
    opening: int = 0,
) -> list[dict[str, Any]]:
    return [
        {"game": game_id, "options": options, "a": a, "b": b, "index": i, "seed": seed,
         "time_ms": time_ms, "simulations": simulations, "opening": opening}
        for i in range(games)
    ]  # fmt: skip


def run_series(
    task_list: list[dict[str, Any]],
    *,
    jobs: int = 1,
    progress: Callable[[Iterable[Outcome], int], Iterable[Outcome]] | None = None,
) -> list[Outcome]:
    """Play every task, on ``jobs`` processes; outcomes in game order."""
    wrap = progress or (lambda it, total: it)
    if jobs <= 1 or len(task_list) <= 1:
        done = list(wrap((run_one(t) for t in task_list), len(task_list)))
    else:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs, maxtasksperchild=50) as pool:
            done = list(wrap(pool.imap_unordered(run_one, task_list), len(task_list)))
    return sorted(done, key=lambda o: o.index)


# -- statistics -----------------------------------------------------------------


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate ``score / n`` (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(rate: float) -> float:
    """The rating difference that a score ``rate`` in (0, 1) implies."""
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / rate - 1)


@dataclass
class Summary:
    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def line(self) -> str:
        low, high = self.interval
        return (
            f"{self.a} vs {self.b}: {self.games} games, +{self.wins} ={self.draws} -{self.losses},"
            f" score {100 * self.rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%),"
            f" Elo {elo(self.rate):+.0f}"
        )

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "a": self.a, "b": self.b, "games": self.games, "wins": self.wins,
            "draws": self.draws, "losses": self.losses, "score": self.score,
            "rate": round(self.rate, 4), "ci95": [round(low, 4), round(high, 4)],
            "elo": round(elo(self.rate), 1),
        }  # fmt: skip


def summarise(a: str, b: str, outcomes: Sequence[Outcome]) -> Summary:
    wins = sum(1 for o in outcomes if o.score >= 0.999)
    losses = sum(1 for o in outcomes if o.score <= 0.001)
    score = sum(o.score for o in outcomes)
    return Summary(a, b, len(outcomes), wins, len(outcomes) - wins - losses, losses, score)
