"""The named levels: how much each one thinks and how carefully it picks its move.

Strength comes from the simulation budget first (so a level is as strong on
a slow machine as on a fast one, up to its time limit), then from how the
move is picked: the lower levels pick at random among the moves their small
search liked (more often the better ones), so they make the mistakes of a
hurried player: a threat noticed too late, a good move played instead of
the best one. Lower levels of Sudoku Challenge also see fewer deductions.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

LEVELS = ("beginner", "easy", "medium", "hard", "max")


@dataclass(frozen=True)
class Level:
    """One level's settings for one game."""

    name: str
    time_ms: int
    """Default thinking time per move."""
    simulations: int | None
    """Most simulations per move (``None``: only the clock limits it)."""
    temperature: float = 0.0
    """0: play the most searched move; above 0: draw a move with odds visits^(1/T)."""
    c_uct: float = 0.8
    playout: int = 1
    """Compiled kernels' policy: 0 uniform playouts, 1 that take a game-winning move; for
    Ultimate Tic-Tac-Toe 2 also avoids moves that let the opponent win at once, 3 takes
    half the time a section-winning move, + 4 makes a free move a section choice then
    a cell choice in the tree (Sansumoku too), + 8 gives new children the kernel's
    ``prior`` (both), + 16 draws a playout's moves with the older, slower code (kept for
    ``max0``), + 32 takes section wins in playouts with any policy (see the kernels)."""
    vision: str = "solve"
    """Sudoku Challenge: what the player deduces (see :mod:`sansu.ai.sight`)."""
    widening: float = 2.0
    """Generic search: progressive widening (at most ``widening * sqrt(visits)`` children)."""
    draw: float = 0.5
    """Compiled kernels: what a draw is worth to the searching player (below ½ it prefers
    chances to win over a safe draw; at 0.3 ``max`` drew less against OpenSpiel's bot but
    lost more, for the same score, so every level is neutral)."""
    reuse: bool = False
    """Compiled kernels: go on from the previous search's tree when the game has moved on
    by this player's move and the reply (a player object kept through a game)."""
    net: float = 0.0
    """Ultimate Tic-Tac-Toe and Sansumoku: the shipped value network's share of a leaf's
    value (0: playouts alone; 1: the network alone; see :mod:`sansu.ai.network`); 35: the
    fitted leaf evaluator's (:mod:`sansu.ai.thirtyfive_eval`), when one is shipped."""
    net_visits: int = 0
    """Ultimate Tic-Tac-Toe and Sansumoku: how many visits of a new leaf alone the shipped
    network's value of it counts as (0: none), a head start among its siblings that fades
    as real visits come; what is backed up stays ``net``'s blend."""
    prior: float = 0.0
    """Ultimate Tic-Tac-Toe and Sansumoku: the weight of the shipped policy network's odds
    of the moves as PUCT's priors (0: none; see :class:`~sansu.ai.compiled.CompiledSearch`)."""
    fpu: float = 0.0
    """With ``prior``: how far below its parent's mean an unvisited move is taken to be."""
    book: bool = False
    """Play the shipped opening book's move while the position is in it (compiled games; see
    :mod:`sansu.ai.book`)."""
    endgame: int = 0
    """Ultimate Tic-Tac-Toe: solve a position exactly first when its open sections have at
    most this many empty cells (0: never; see :mod:`sansu.ai.endgame`)."""
    bestfirst: bool = False
    """Ultimate Tic-Tac-Toe and Sansumoku: search best-first on the shipped value network,
    with no playouts (:mod:`sansu.ai.bestfirst`); then ``c_uct`` is its exploration, ``fpu``
    a child's bonus before its first expansion and ``minimax`` how much a child's minimax
    value, rather than its mean, counts in choosing it. ``reuse`` and ``endgame`` as above;
    ``playout``, ``net``, ``net_visits``, ``prior`` and ``draw`` play no part."""
    minimax: float = 0.3
    """With ``bestfirst``: a child's minimax value's share of its score, its mean's the rest."""

    def __post_init__(self) -> None:
        """Refuse settings out of range (a match's ``max:net=2`` must not start)."""
        if self.time_ms <= 0 or (self.simulations is not None and self.simulations <= 0):
            raise ValueError("time_ms and simulations must be positive")
        if min(self.temperature, self.c_uct, self.playout, self.net_visits, self.prior) < 0:
            raise ValueError(
                "temperature, c_uct, playout, net_visits and prior must not be negative"
            )
        if not 0 <= self.endgame <= 81:
            raise ValueError("endgame must be from 0 to 81 (empty cells)")
        if not 0 <= self.fpu <= 1 or not 0 <= self.minimax <= 1:
            raise ValueError("fpu and minimax must be between 0 and 1")
        if self.widening <= 0 or not 0 <= self.draw <= 1 or not 0 <= self.net <= 1:
            raise ValueError("widening must be positive, draw and net between 0 and 1")
        from sansu.ai.compiled import MAX_NET_VISITS

        if self.net_visits > MAX_NET_VISITS:
            raise ValueError(f"net_visits must be at most {MAX_NET_VISITS}")


COMPILED = {
    "beginner": Level("beginner", 200, 60, temperature=1.0, playout=0),
    "easy": Level("easy", 300, 400, temperature=0.3, playout=0),
    "medium": Level("medium", 500, 3_000, c_uct=0.5),
    "hard": Level("hard", 1_000, 25_000, c_uct=0.5),
    "max": Level("max", 2_000, None, c_uct=0.5),
}
"""Ultimate Tic-Tac-Toe and Sansumoku: the search runs compiled, some 10⁵ simulations/s."""

BESTFIRST = {"bestfirst": True, "c_uct": 0.41, "fpu": 0.4, "minimax": 0.3, "reuse": True}
"""The best-first search's settings. Ultimate Tic-Tac-Toe, 100 ms a move, against the playout
``max`` of then (:data:`UTTT_PUCT`), without the kept tree, 60 games each: ``minimax`` 0.3
scored 52.5%, 0.6 42.5% (40 games) and 1.0 42.5%; at 0.6, ``c_uct`` 0.3 48.3% and 0.6 50.0%,
``fpu`` 0.2 40.8% and 0.7 35.8%; with the kept tree at ``minimax`` 0.3, 52.5% over 100 games
(docs/ai.md)."""

UTTT = {
    **COMPILED,
    "medium": Level("medium", 500, 3_000, c_uct=0.5, playout=6),
    "hard": Level("hard", 1_000, 25_000, c_uct=0.5, playout=6, net_visits=30),
    "max": Level("max", 2_000, None, **BESTFIRST),  # type: ignore[arg-type]
}
"""Ultimate Tic-Tac-Toe: from ``medium`` up the tree splits a free move into section and
cell, and playouts avoid handing the opponent a win at once; ``max`` searches best-first
on the shipped network, with no playouts, as Sansumoku's does (:data:`BESTFIRST`). At 100 ms
a move, against the strongest public C bot: 60.0% over 200 games as this level and 63.0% over
200 through ``sansu engine``, where :data:`UTTT_PUCT`, the ``max`` of before, scored 51.2%;
against ``max0`` 72.2% over 200 (95% CI 65.7–78.0%); against ``hard`` at their own budgets
85.0% over 20 (64.0–94.8%; see docs/ai.md)."""

UTTT_PUCT = Level(
    "max", 2_000, None, c_uct=0.35, playout=6, reuse=True, net=0.25, net_visits=30, prior=1.0
)
"""Ultimate Tic-Tac-Toe's strongest playout search, its ``max`` before the best-first
search: what a policy run's self-play searches with (:mod:`sansu.ai.training.pipeline`).
It keeps its tree from one move to the next. Against OpenSpiel's bot (40 games each, 200 ms
a move) these took it from 80% (plain playouts) to 88% (split free moves) and 91–94% (kept tree);
``c_uct`` 0.3 scored 62%, 0.8 85% and 1.1 88%. Over 600 games (three runs of 200,
``benchmarks/ai_bench.py --only openspiel``) ``max`` scored 91.5%, 89.5–92.5% per run; with
the faster playouts, 95.2% (91.4–97.4%) over 200; with the network and the
policy priors, 93.2% (88.9–96.0%) over 200, and with ``c_uct`` 0.35 beside them 95.0%
(91.0–97.3%). The kernel's priors (+ 8) and
section wins in playouts (+ 32) scored 45.0% and 43.8% against ``max0``: not used.

``max`` also chooses among a node's children by PUCT on the shipped policy network's odds
(``prior`` 1); against ``max`` without them at 100 ms a move, 100 games each: 58.0% at
``prior`` 1, 55.5% at ½, 54.0% at ¼, 40.0% at 2; 55.5% at 1 with ``fpu`` 0.1 (see docs/ai.md).
The priors explore too, so UCT's own term is smaller than before them: against ``c_uct`` 0.5,
0.35 scored 56.0% (49.1–62.7%) and 0.25 52.5% (45.6–59.3%), 200 games each at 100 ms a move.

``hard`` and ``max`` use the shipped network: its value of a new leaf counts as 30 visits of
that leaf (``net_visits``), and ``max`` also backs up a quarter of it with the playout's result
(``net`` ¼). ``hard`` so against ``hard`` without it, both at 25,000 simulations a move: 67.0%
over 100 games (95% CI 57.3–75.4%). ``max`` against ``max0`` at 100 ms a move: see docs/ai.md
(100-game sweeps there: 61–64% with the visits alone at ``net_visits`` 30 or 80 and ``c_uct``
0.35–0.7, 67–69% with ``net`` ¼ or 0.4 as well). Backing up half the network's value instead
(``net=0.5,c_uct=0.3``, no visits) scored 56.3% for ``hard`` over 200 games: not significant."""

THIRTYFIVE = {
    "beginner": Level("beginner", 300, 1_500, temperature=1.0, playout=0),
    "easy": Level("easy", 500, 6_000, temperature=0.3, playout=0),
    "medium": Level("medium", 1_000, 25_000, c_uct=0.5),
    "hard": Level("hard", 2_000, 100_000, c_uct=0.5),
    "max": Level("max", 3_000, None, c_uct=0.3),
}
"""35: compiled too, but with up to 9 × 144 moves a position it needs more simulations.
``max`` explores less than the others (``c_uct`` 0.3): against ``max`` at 0.5, 70.5% over 100
games at 200 ms a move on 8×8 (95% CI 60.9–78.5%, +70 =1 −29; ``sansu match thirtyfive
max:c_uct=0.3 max --time-ms 200 --games 100 --jobs 2 --seed 41``). ``medium`` at 0.3 beat
``medium`` 86.2% over 40 games, but ``medium`` and ``hard`` keep 0.5 until matches at
``hard``'s budget say the order of the levels holds."""

GENERIC = {
    "beginner": Level("beginner", 300, 24, temperature=1.0, vision="glance"),
    "easy": Level("easy", 500, 100, temperature=0.3, vision="singles"),
    "medium": Level("medium", 1_000, 400, vision="chain"),
    "hard": Level("hard", 2_000, 1_500, vision="chain"),
    "max": Level("max", 3_000, None, vision="solve"),
}
"""Sumodoku and Sudoku Challenge, searched through the protocol in Python (some 10³ to 10⁴
simulations/s in Sumodoku, whose playouts run on bit masks; 10² to 10³ in Sudoku Challenge)."""

SUMODOKU = {**GENERIC, "max": Level("max", 3_000, None, c_uct=0.4, vision="solve")}
"""Sumodoku: ``max`` explores half as much as the generic search's default (``c_uct`` 0.4, not
0.8): against ``max`` at 0.8, 62.0% over 100 games at 200 ms a move (95% CI 52.2–70.9%, +62
−38; ``sansu match sumodoku max:c_uct=0.4 max --time-ms 200 --games 100 --jobs 2 --seed 93``)
and 75.0% over 60 at 500 ms (62.8–84.2%, +45 −15; seed 94). The lower levels keep 0.8."""

SANSUMOKU_PUCT = Level(
    "max", 2_000, None, c_uct=0.35, playout=9, reuse=True, net=0.25, net_visits=30, prior=1.0
)
"""Sansumoku's strongest playout search, its ``max`` before the best-first search: what a
Sansumoku policy run's self-play searches with (:mod:`sansu.ai.training.pipeline`).

It uses the shipped network (:mod:`sansu.ai.network`) as Ultimate Tic-Tac-Toe's ``max``
does: its value of a new leaf counts as 30 visits of that leaf and a quarter of it is
backed up with the playout's result; it keeps its tree from one move to the next and gives
new children a head start or handicap from the kernel's ``prior`` (+ 8); against ``max0``
at 100 ms a move see docs/ai.md (100-game sweeps there: 79.0% at ``net_visits`` 30, 75.0%
at 80; with the visits alone, no share backed up, 69–71%; without the network 57.9% over
260 games). It chooses among a node's children by PUCT on Sansumoku's own shipped policy
network (``prior`` 1), with less of UCT's exploration (``c_uct`` 0.35): against itself
without them (``c_uct`` 0.5), 100 ms a move, 59.9% over 400 games (95% CI 55.0–64.6%); the
priors at ``c_uct`` 0.5 scored 51.0% and at 0.25 59.0% (200 games each; see docs/ai.md)."""

SANSUMOKU = {
    **COMPILED,
    "hard": Level("hard", 1_000, 25_000, c_uct=0.5, net=0.25, net_visits=30),
    "max": Level("max", 2_000, None, **BESTFIRST),  # type: ignore[arg-type]
}
"""Sansumoku: ``hard`` uses the shipped network as :data:`SANSUMOKU_PUCT` does. ``hard`` so
against the ``hard`` of before (half the network's value backed up, ``c_uct`` 0.3, itself
58.8% over 200 games against playouts alone), both at 25,000 simulations a move: 69.0% over
100 games (95% CI 59.4–77.2%).

``max`` is the best-first search on the shipped network (:mod:`sansu.ai.bestfirst`), with
no playouts, at the settings measured in Ultimate Tic-Tac-Toe (:data:`BESTFIRST`). At 100 ms
a move, against :data:`SANSUMOKU_PUCT`: 69.0% over 200 games (95% CI 62.3–75.0%); against
the ``max`` of before the policy network (``c_uct`` 0.5, no priors), 200 games each, 74.8%
(68.3–80.3%) as the benchmark player and 74.5% (68.0–80.0%) as this level; against ``hard``
at their own budgets 92.5% over 20 games (73.1–98.2%; see docs/ai.md)."""

PLAYOUT_MAX = {"uttt": UTTT_PUCT, "sansumoku": SANSUMOKU_PUCT}
"""The games whose ``max`` searches best-first, with their strongest playout search."""

PER_GAME: dict[str, dict[str, Level]] = {
    "uttt": UTTT,
    "sansumoku": SANSUMOKU,
    "thirtyfive": THIRTYFIVE,
    "sumodoku": SUMODOKU,
    "challenge": GENERIC,
}


BENCHMARK_PLAYERS = ("max0", "netmax", "netmix", "bestfirst")
"""Players for measuring the network (``sansu match``, benchmarks), not levels: ``max0`` is
``max`` as it was before the value network (kept unchanged as the opponent to beat),
``netmax`` and ``netmix`` are that ``max`` with the shipped network valuing its leaves
alone or half and half with a playout, and ``bestfirst`` is the best-first search on the
shipped network (:mod:`sansu.ai.bestfirst`) at its measured settings."""

MAX0 = {
    "uttt": Level("max0", 2_000, None, c_uct=0.5, playout=22, reuse=True),
    "sansumoku": Level("max0", 2_000, None, c_uct=0.5),
    "thirtyfive": Level("max0", 3_000, None, c_uct=0.5),
    "sumodoku": replace(GENERIC["max"], name="max0"),
    "challenge": replace(GENERIC["max"], name="max0"),
}
"""``max`` as it was before the value network and the faster playouts, written out
rather than derived from :data:`PER_GAME`, so that improving ``max`` leaves it unchanged
(Ultimate Tic-Tac-Toe's also keeps the slower playouts of then: + 16)."""


NET_C_UCT = {True: 0.15, False: 0.3}
"""The exploration of ``netmax`` (the network alone) and ``netmix``: a network's values are
smoother than playouts' results, so its search explores less. Against ``max0`` at 1,000
simulations a move (100 games each) ``netmax`` scored 69.0%, 75.5%, 63.5%, 58.5% and 51.5% at
0.08, 0.15, 0.25, 0.5 and 0.8; ``netmix`` at 10,000 simulations 60.0% and 47.5% at 0.3 and 0.5
(40 games each)."""


def benchmark_level(game_id: str, name: str) -> Level:
    """The settings of a benchmark player (see :data:`BENCHMARK_PLAYERS`)."""
    base = MAX0.get(game_id, replace(GENERIC["max"], name="max0"))
    if name == "max0":
        return base
    if name == "bestfirst":
        return replace(base, name=name, **BESTFIRST)  # type: ignore[arg-type]
    if name in ("netmax", "netmix"):
        alone = name == "netmax"
        return replace(base, name=name, net=1.0 if alone else 0.5, c_uct=NET_C_UCT[alone])
    raise ValueError(f"unknown benchmark player {name!r}")


def level_for(game_id: str, level: str) -> Level:
    """The settings of ``level`` in the game ``game_id``; ``ValueError`` for an unknown level."""
    if not isinstance(level, str) or level.strip().lower() not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    table = PER_GAME.get(game_id, GENERIC)
    return replace(table[level.strip().lower()])


def playout_max(game_id: str) -> Level:
    """The strongest settings of ``game_id`` that search by playouts: ``max``'s, or where
    ``max`` searches best-first, those it had before (:data:`PLAYOUT_MAX`)."""
    if game_id in PLAYOUT_MAX:
        return replace(PLAYOUT_MAX[game_id])
    return level_for(game_id, "max")


def with_settings(level: Level, overrides: str) -> Level:
    """``level`` with settings changed by ``overrides`` (``"playout=38,reuse=1"``), to try an
    idea in a match; ``ValueError`` for an unknown setting or a bad value."""
    types = {f.name: type(getattr(level, f.name)) for f in fields(level)}
    changes: dict[str, object] = {}
    for item in filter(None, overrides.split(",")):
        key, sep, value = item.partition("=")
        key = key.strip()
        if key not in types or key == "name" or not sep:
            raise ValueError(f"unknown setting {key!r} (settings: {', '.join(types)})")
        kind = int if key == "simulations" else types[key]
        if kind is bool:
            if value not in ("0", "1"):
                raise ValueError(f"{key} is 0 or 1, not {value!r}")
            changes[key] = value == "1"
        elif key == "simulations" and value == "none":
            changes[key] = None
        else:
            try:
                changes[key] = kind(value)
            except ValueError:
                raise ValueError(f"bad value {value!r} for {key}") from None
    return replace(level, **changes)
