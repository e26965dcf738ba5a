"""Reviewing a finished game and analysing one position, for people who want to understand it.

A review runs the engine over every position of a record with a fixed number
of simulations and a seed per position, so the same record, budget and seed
always give the same review. Each position's value is a *winning chance*
of the player to move, in [0, 1] (a draw counts ½ in two-player games);
the drop in the mover's chance from before a move to after it classifies the
move as an inaccuracy, a mistake or a blunder (see the thresholds below and
``docs/ai.md``).

The result is plain data (:meth:`Review.to_dict` is JSON), versioned so a
stored review can be recognised and recomputed when the format changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sansu.ai.accuracy import game_accuracy, move_accuracy
from sansu.ai.analysis import RootStats
from sansu.ai.levels import level_for
from sansu.ai.mcts import rewards_of
from sansu.ai.player import ComputerPlayer
from sansu.core.protocol import Game, IllegalMove, Move, State

REVIEW_VERSION = 2
"""Bumped whenever the stored format or the meaning of its numbers changes (2: accuracy)."""

INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
"""Drops in the mover's winning chance (on a 0–1 scale) that make a move an
inaccuracy, a mistake or a blunder. Lichess uses half these on the same scale;
a fixed-budget tree search averages playouts, whose values wander by several
points from one seed to the next, so a smaller threshold would flag noise."""

DEFAULT_SIMULATIONS = 2_000
"""Simulations per position when a game has no entry in :data:`SIMULATIONS`."""

SIMULATIONS = {
    "uttt": 50_000,
    "sansumoku": 50_000,
    "thirtyfive": 20_000,
    "sumodoku": 1_000,
    "challenge": 300,
}
"""Simulations per position of a review by default: a 60-move game in seconds (compiled
kernels) to about ten seconds (35 and the games searched in Python), on one core."""


def default_simulations(game_id: str) -> int:
    """The default budget per position of a review of ``game_id``."""
    return SIMULATIONS.get(game_id, DEFAULT_SIMULATIONS)


TOP = 5
"""Candidates kept per position."""

PV_LENGTH = 8
"""Moves of the best line kept per position."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each position."""


def classify(drop: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a drop in winning chance."""
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def position_seed(seed: int, ply: int) -> int:
    """The search seed of position ``ply``: independent of every other position's search."""
    return (seed * 1_000_003 + ply * 7_919 + 12_345) % (1 << 63)


# -- one position ---------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A root move with its value: the mover's winning chance after it."""

    move: str
    chance: float
    visits: int
    proven: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "chance": round(self.chance, 4),
            "visits": self.visits,
            "proven": self.proven,
        }


@dataclass(frozen=True)
class PositionAnalysis:
    """What the engine thinks of one position."""

    ply: int
    to_move: int | None
    chance: float
    """The winning chance of the player to move (at the end: of player 0)."""
    chances: tuple[float, ...] | None
    """Every player's chance where it is known (two-player games, finished games)."""
    best: str | None
    pv: tuple[str, ...]
    candidates: tuple[Line, ...]
    simulations: int
    proven: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "to_move": self.to_move,
            "chance": round(self.chance, 4),
            "chances": None if self.chances is None else [round(c, 4) for c in self.chances],
            "best": self.best,
            "pv": list(self.pv),
            "candidates": [c.to_dict() for c in self.candidates],
            "simulations": self.simulations,
            "proven": self.proven,
        }


class Analyser:
    """The engine set up for reviewing one game: the strongest settings, no kept tree."""

    def __init__(self, game: Game) -> None:
        settings = replace(level_for(game.id, "max"), reuse=False, temperature=0.0)
        self.game = game
        self._player = ComputerPlayer(game, settings, seed=0)

    def analyse(
        self, state: State, simulations: int, *, seed: int = 0, top: int = TOP
    ) -> PositionAnalysis:
        """Search ``state`` for exactly ``simulations`` simulations (reproducible from ``seed``)."""
        if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations <= 0:
            raise ValueError(f"simulations must be a positive whole number, not {simulations!r}")
        if state.game.id != self.game.id:
            raise ValueError(f"a {state.game.id!r} position given to a {self.game.id!r} analyser")
        if state.game is not self.game and state.game.options != self.game.options:
            raise ValueError("a position of the same game with other options: analyse it apart")
        players = state.game.num_players
        if state.result is not None:
            rewards = rewards_of(state.result, players, getattr(state.game, "teams", None))
            return PositionAnalysis(
                state.ply, None, rewards[0], tuple(rewards), None, (), (), 0, proven=True
            )
        stats: RootStats = self._player._searcher().run(
            state, simulations=simulations, seed=position_seed(seed, state.ply)
        )
        lines = tuple(
            Line(
                str(c.move),
                c.reward if c.proven is None else c.proven,
                c.visits,
                c.proven is not None,
            )
            for c in stats.candidates[:top]
        )
        if not lines:  # a search that saw no choice (one forced move): its value is the child's
            return self._forced(state, simulations, seed, stats.simulations)
        best = lines[0]
        chance = min(1.0, max(0.0, _root_chance(stats)))
        chances = None
        if players == 2:
            mover = state.to_move
            chances = (chance, 1.0 - chance) if mover == 0 else (1.0 - chance, chance)
        pv = tuple(stats.pv[:PV_LENGTH]) if stats.pv and stats.pv[0] == best.move else (best.move,)
        return PositionAnalysis(
            state.ply,
            state.to_move,
            chance,
            chances,
            best.move,
            pv,
            lines,
            stats.simulations,
            proven=stats.proven is not None or (best.proven and best.chance >= 1.0),
        )

    def _forced(self, state: State, simulations: int, seed: int, done: int) -> PositionAnalysis:
        moves = state.legal_moves()
        if len(moves) != 1:  # pragma: no cover - every search with a choice expands its root
            raise RuntimeError("the search found no move")
        mover = state.to_move
        child = self.analyse(state.play(moves[0]), simulations, seed=seed)
        if child.chances is not None and mover is not None:
            chance = child.chances[mover]
        elif child.to_move == mover:
            chance = child.chance
        else:  # several players and the turn passed: the child's search cannot tell
            chance = 0.5
        move = str(moves[0])
        proven = child.proven
        chances = None
        if state.game.num_players == 2:
            chances = (chance, 1.0 - chance) if mover == 0 else (1.0 - chance, chance)
        line = Line(move, chance, max(1, done), proven)
        return PositionAnalysis(
            state.ply, mover, chance, chances, move, (move,), (line,), done, proven=proven
        )

    def chance_of_move(self, stats: PositionAnalysis, move: str) -> float | None:
        """The mover's chance after ``move`` as the search of its position saw it."""
        for line in stats.candidates:
            if line.move == move:
                return line.chance
        return None


def _root_chance(stats: RootStats) -> float:
    """The mover's chance at the root: exact when proven, else the visit-weighted mean.

    The mean over every searched move (what the root itself backed up) is the
    steadier estimate: the best move's own mean, taken from few visits, is
    biased upwards by being the one the search liked most.
    """
    if stats.proven is not None:
        return stats.proven
    best = stats.candidates[0]
    if best.proven is not None and best.proven >= 1.0:
        return 1.0
    visits = sum(c.visits for c in stats.candidates)
    if visits == 0:  # pragma: no cover - a search visits its root's children
        return best.reward
    return (
        sum(c.visits * (c.reward if c.proven is None else c.proven) for c in stats.candidates)
        / visits
    )


def analyse_position(
    state: State, simulations: int = DEFAULT_SIMULATIONS, *, seed: int = 0, top: int = TOP
) -> PositionAnalysis:
    """The engine's view of ``state``: the mover's chance, the best line, the top moves."""
    return Analyser(state.game).analyse(state, simulations, seed=seed, top=top)


class ProgressiveAnalysis:
    """An analysis that deepens each time it is asked: for a board someone is looking at.

    Every :meth:`deepen` searches afresh with twice the previous budget (up to
    ``limit``), so the answer gets steadier the longer the page stays open and
    each step stays short; the caller stops calling when the viewer leaves.
    """

    def __init__(
        self,
        state: State,
        *,
        start: int = 500,
        limit: int = 256_000,
        seed: int = 0,
        top: int = TOP,
    ) -> None:
        if start <= 0 or limit < start:
            raise ValueError(f"need 0 < start <= limit, not start={start}, limit={limit}")
        self.state = state
        self.next_budget = start
        self.limit = limit
        self.seed = seed
        self.top = top
        self.latest: PositionAnalysis | None = None
        self._analyser = Analyser(state.game)

    @property
    def finished(self) -> bool:
        """True when the position is over or the last search used the whole limit."""
        return self.state.result is not None or (
            self.latest is not None and self.latest.simulations >= self.limit
        )

    def deepen(self) -> PositionAnalysis:
        """One more, deeper search; returns its analysis (also kept in :attr:`latest`)."""
        if self.finished and self.latest is not None:
            return self.latest
        budget = min(self.next_budget, self.limit)
        self.latest = self._analyser.analyse(self.state, budget, seed=self.seed, top=self.top)
        self.next_budget = budget * 2
        return self.latest


# -- a whole game ---------------------------------------------------------------


@dataclass(frozen=True)
class MoveReview:
    """One move of the game: who played it, what it cost them, and what was better."""

    ply: int
    """The position the move was played in (0: the first move)."""
    player: int
    move: str
    best: str | None
    chance_before: float
    chance_after: float | None
    """The mover's chance after the move (``None`` where the search cannot tell)."""
    drop: float
    judgement: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "number": self.ply + 1,
            "player": self.player,
            "move": self.move,
            "best": self.best,
            "chance_before": round(self.chance_before, 4),
            "chance_after": None if self.chance_after is None else round(self.chance_after, 4),
            "drop": round(self.drop, 4),
            "accuracy": round(move_accuracy(self.drop), 1),
            "judgement": self.judgement,
        }


@dataclass
class Review:
    """The review of a game: every position's analysis and every move's judgement."""

    game: str
    options: dict[str, Any]
    moves: list[str]
    simulations: int
    seed: int
    positions: list[PositionAnalysis] = field(default_factory=list)
    reviews: list[MoveReview] = field(default_factory=list)

    def accuracy(self) -> dict[int, float]:
        """Each player's accuracy over the game (0–100), for players who moved."""
        by_player: dict[int, list[float]] = {}
        for r in self.reviews:
            by_player.setdefault(r.player, []).append(move_accuracy(r.drop))
        return {p: game_accuracy(a) or 0.0 for p, a in sorted(by_player.items())}

    @property
    def turning_points(self) -> list[MoveReview]:
        """The moves judged an inaccuracy, a mistake or a blunder, in order."""
        return [r for r in self.reviews if r.judgement is not None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "sansu-review",
            "version": REVIEW_VERSION,
            "game": self.game,
            "options": self.options,
            "moves": list(self.moves),
            "simulations": self.simulations,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "positions": [p.to_dict() for p in self.positions],
            "moves_reviewed": [r.to_dict() for r in self.reviews],
            "turning_points": [r.ply for r in self.turning_points],
            "accuracy": {str(p): round(a, 1) for p, a in self.accuracy().items()},
        }


def review_game(
    game: Game,
    moves: Sequence[Move | str],
    *,
    simulations: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    options: dict[str, Any] | None = None,
) -> Review:
    """Review ``moves`` of ``game``: every position searched for ``simulations`` simulations.

    Raises ``ValueError`` (an :class:`IllegalMove` naming the move's number)
    before any search when a move is illegal. ``simulations`` defaults to
    :func:`default_simulations`; ``options`` are what the review records as
    the game's options (by default ``game.options``).
    """
    if simulations is None:
        simulations = default_simulations(game.id)
    if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations <= 0:
        raise ValueError(f"simulations must be a positive whole number, not {simulations!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a whole number from 0, not {seed!r}")
    states = [game.initial_state()]
    for number, move in enumerate(moves, 1):
        try:
            states.append(states[-1].play(move))
        except IllegalMove as error:
            raise IllegalMove(f"move {number}, {error}") from None
    if options is None:  # what anyone may see: Sudoku Challenge withholds its seed
        public = getattr(game, "public_options", None)
        options = public() if callable(public) else game.options
    analyser = Analyser(game)
    positions: list[PositionAnalysis] = []
    total = len(states)
    for index, state in enumerate(states):
        positions.append(analyser.analyse(state, simulations, seed=seed))
        if progress is not None:
            progress(index + 1, total)
    return assemble_review(game, states, positions, simulations, seed, options)


def assemble_review(
    game: Game,
    states: Sequence[State],
    positions: Sequence[PositionAnalysis],
    simulations: int,
    seed: int,
    options: dict[str, Any],
) -> Review:
    """The review made of every position's analysis (``states[i]`` searched as ``positions[i]``).

    :func:`review_game` searches the positions in turn; a server may search them
    in parts on several workers and join the parts here, with the same result.
    """
    if len(states) != len(positions) or not states:
        raise ValueError(f"{len(states)} positions given with {len(positions)} analyses")
    texts = [str(state.last_move) for state in states[1:]]
    analyser = Analyser(game)
    review = Review(game.id, dict(options), texts, simulations, seed, list(positions))
    for ply, text in enumerate(texts):
        review.reviews.append(_judge(list(states), review.positions, ply, text, analyser))
    return review


def _judge(
    states: list[State],
    positions: list[PositionAnalysis],
    ply: int,
    move: str,
    analyser: Analyser,
) -> MoveReview:
    before, after = positions[ply], positions[ply + 1]
    mover = states[ply].to_move
    assert mover is not None
    chance_after: float | None
    if after.chances is not None:
        chance_after = after.chances[mover]
    elif after.to_move == mover:
        chance_after = after.chance
    else:  # several players and the turn passed: only this search saw the move
        chance_after = analyser.chance_of_move(before, move)
    choices = len(states[ply].legal_moves())
    drop = 0.0
    if chance_after is not None and choices > 1 and move != before.best:
        drop = max(0.0, before.chance - chance_after)
    return MoveReview(
        ply, mover, move, before.best, before.chance, chance_after, drop, classify(drop)
    )
