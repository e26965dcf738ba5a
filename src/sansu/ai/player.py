"""A computer player: a game, a level and a seed; it chooses moves within a budget.

The player picks the search (a compiled kernel where the game has one, else
the generic search through the protocol), turns the level into a budget,
and turns what the search found into one move. Two things every level
does before searching: play the only move when there is one, and take a
win in one when there is one. A level with an opening book then plays the
book's move while the position is in it (:mod:`sansu.ai.book`).
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sansu.ai.analysis import Analysis, Candidate, RootStats
from sansu.ai.levels import Level
from sansu.core.protocol import Game, Move, State

if TYPE_CHECKING:
    from sansu.ai.book import Entry

SAFETY_MS = 4.0
"""Kept back from a timed search for choosing the move and answering."""


def compiled_search(game_id: str, settings: Level, *, net: Any = None) -> Any:
    """The compiled search that ``settings`` describe, with the shipped network if they use
    one (or ``net`` instead, for a benchmark timing a stand-in); ``ValueError`` if none ships."""
    from sansu.ai.compiled import CompiledSearch

    if settings.bestfirst:
        return _bestfirst(game_id, settings, net)
    uses = settings.net > 0.0 or settings.net_visits > 0
    if uses and net is None:
        from sansu.ai.network import shipped

        net = shipped(game_id)
        if net is None:
            raise ValueError(f"no value network is shipped for {game_id!r}")
    return CompiledSearch(
        game_id, c_uct=settings.c_uct, policy=settings.playout, reuse=settings.reuse,
        draw=settings.draw, net=net if uses else None, mix=settings.net,
        net_visits=settings.net_visits, endgame=settings.endgame, **_policy(game_id, settings),
    )  # fmt: skip


def _bestfirst(game_id: str, settings: Level, net: Any) -> Any:
    """The best-first search that ``settings`` describe, on the shipped network (or ``net``)."""
    from sansu.ai.bestfirst import BestFirstSearch

    if net is None:
        from sansu.ai.network import NET_GAMES, shipped

        net = shipped(game_id) if game_id in NET_GAMES else None
        if net is None:
            raise ValueError(f"best-first search needs a value network; none ships for {game_id!r}")
    return BestFirstSearch(
        game_id, net, minimax=settings.minimax, c=settings.c_uct, fpu=settings.fpu,
        reuse=settings.reuse, endgame=settings.endgame,
    )  # fmt: skip


def _policy(game_id: str, settings: Level) -> dict[str, Any]:
    """The shipped policy network and its settings, if ``settings`` use one."""
    if settings.prior <= 0.0:
        return {}
    from sansu.ai.network import shipped_policy

    policy_net = shipped_policy(game_id)
    if policy_net is None:
        raise ValueError(f"no policy network is shipped for {game_id!r}")
    return {"policy_net": policy_net, "c_prior": settings.prior, "fpu": settings.fpu}


class ComputerPlayer:
    """Chooses moves of one game at one level; reproducible from ``seed``.

    Successive calls of :meth:`choose` draw their seeds from ``seed`` in turn,
    so a fresh player with the same seed, given the same positions and a
    simulation budget, chooses the same moves.
    """

    def __init__(
        self, game: Game, settings: Level, *, seed: int | None = None, generic: bool = False
    ) -> None:
        """``generic``: search through the protocol alone, with no compiled code at all (the
        game's rules are the engine's own; a server's computer plays so while its compiled
        code is still being built, see :mod:`sansu.warmup`)."""
        if settings.bestfirst:
            from sansu.ai.network import NET_GAMES

            if game.id not in NET_GAMES:
                raise ValueError("best-first search is for Ultimate Tic-Tac-Toe and Sansumoku")
        self.game = game
        self.generic = generic
        self.settings = settings
        self.level: str = settings.name
        self.time_ms: int = settings.time_ms
        self.seed = seed
        self._rng = random.Random(seed)
        self._search: Any = None
        self._adapter: Any = None

    def __repr__(self) -> str:
        return f"get_player({self.game.id!r}, {self.level!r}, seed={self.seed!r})"

    # -- the search behind it ----------------------------------------------------

    @property
    def compiled(self) -> bool:
        """Whether this game is searched by a compiled kernel."""
        from sansu.ai.compiled import KERNELS

        return self.game.id in KERNELS and not self.generic

    def _searcher(self) -> Any:
        if self._search is None:
            from sansu.ai.adapters import Adapter, adapter_for
            from sansu.ai.mcts import MCTS

            s = self.settings
            if self.compiled:
                self._search = compiled_search(self.game.id, s)
            else:
                self._adapter = (
                    Adapter(self.game, vision=s.vision)
                    if self.generic
                    else adapter_for(self.game, vision=s.vision)
                )
                self._search = MCTS(self._adapter, c_uct=s.c_uct, widening=s.widening)
        return self._search

    def warm_up(self) -> None:
        """Load the compiled code now, so that the first move is not slowed by it."""
        search = self._searcher()
        if self.compiled:
            from sansu.ai.compiled import warm_up

            own = getattr(search, "warm_up", None)  # the best-first search loads its own
            own() if own is not None else warm_up(self.game.id)
            search.endgame.warm_up()
        else:
            self._adapter.warm_up()

    # -- choosing ------------------------------------------------------------------

    def choose(
        self, state: State, *, time_ms: int | None = None, simulations: int | None = None
    ) -> Analysis:
        """A legal move of ``state`` with the search's analysis.

        Budget: ``simulations`` alone searches exactly that many simulations
        (reproducible); ``time_ms`` alone thinks that long, within the
        level's simulation limit; neither uses the level's defaults.
        """
        # A full cyclic collection scans every object of the process (the numba
        # machinery alone holds many): up to 0.1 s, which would overrun the time.
        # It waits until the move is chosen; the search's tree is freed by then.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._choose(state, time_ms, simulations)
        finally:
            if collecting:
                gc.enable()

    def _choose(self, state: State, time_ms: int | None, simulations: int | None) -> Analysis:
        start = time.perf_counter()
        if state.result is not None:
            raise ValueError("the game is over: there is no move to choose")
        if state.game.id != self.game.id:
            raise ValueError(f"a {state.game.id!r} position given to a {self.game.id!r} player")
        if time_ms is not None and time_ms <= 0:
            raise ValueError(f"time_ms must be positive, not {time_ms}")
        if simulations is not None and simulations <= 0:
            raise ValueError(f"simulations must be positive, not {simulations}")
        seed = self._rng.getrandbits(63)
        rng = random.Random(seed)
        if simulations is None:
            simulations = self.settings.simulations
            if time_ms is None:
                time_ms = self.time_ms
        search = self._searcher()

        quick = self._quick_move(state, rng)
        if quick is not None:
            move, reward, why = quick
            return self._analysis(start, move, reward, [str(move)], 0, why, ())
        entry = self._book_entry(state)
        if entry is not None:
            move = state.game.parse_move(entry.move)
            return replace(
                self._analysis(start, move, (entry.value + 1) / 2, [entry.move], 0, None, ()),
                book=True,
            )

        budget = None
        if time_ms is not None:
            spent = (time.perf_counter() - start) * 1000.0
            budget = max(1.0, time_ms - spent - SAFETY_MS)
        stats: RootStats = search.run(state, time_ms=budget, simulations=simulations, seed=seed)
        if not stats.candidates:  # pragma: no cover - every search expands its root
            move = rng.choice(state.legal_moves())
            return self._analysis(start, move, 0.5, [str(move)], stats.simulations, None, ())
        chosen = self._pick(stats.candidates, rng)
        proven = None
        if chosen.proven is not None:
            proven = "win" if chosen.proven >= 1.0 else "loss" if chosen.proven <= 0.0 else "draw"
        pv = stats.pv if stats.pv and stats.pv[0] == str(chosen.move) else [str(chosen.move)]
        return self._analysis(
            start,
            chosen.move,
            chosen.reward,
            pv,
            stats.simulations,
            proven,
            tuple(stats.candidates[:5]),
        )

    def _quick_move(
        self, state: State, rng: random.Random
    ) -> tuple[Move, float, str | None] | None:
        """The only move, a win in one, or a move the game's adapter imposes."""
        if self.compiled:
            moves = state.legal_moves()
        else:
            adapter = self._adapter
            state = adapter.prepare(state, rng)
            forced = adapter.forced(state, rng)
            if forced is not None:
                return forced, 0.5, None
            moves = list(adapter.candidates(state))
        if len(moves) == 1:
            return moves[0], 0.5, None
        mover = state.to_move
        for move in moves:
            result = state.play(move).result
            if result is not None and not result.draw and result.winners == (mover,):
                return move, 1.0, "win"
        return None

    def _book_entry(self, state: State) -> Entry | None:
        """The opening book's entry for ``state`` if this level plays from a book."""
        if not self.settings.book or self.generic:
            return None
        from sansu.ai.book import shipped_book

        book = shipped_book(self.game.id)
        return None if book is None else book.probe(state)

    def _pick(self, candidates: list[Candidate], rng: random.Random) -> Candidate:
        best = candidates[0]
        t = self.settings.temperature
        if t <= 0 or (best.proven is not None and best.proven >= 1.0):
            return best
        pool = [
            c for c in candidates if c.visits > 0 and not (c.proven is not None and c.proven <= 0)
        ]
        if not pool:
            return best
        weights = [c.visits ** (1.0 / t) for c in pool]
        return rng.choices(pool, weights=weights)[0]

    def _analysis(
        self,
        start: float,
        move: Move,
        reward: float,
        pv: list[str],
        simulations: int,
        proven: str | None,
        candidates: tuple[Candidate, ...],
    ) -> Analysis:
        return Analysis(
            move=move,
            value=max(-1.0, min(1.0, 2.0 * reward - 1.0)),
            pv=pv,
            simulations=simulations,
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            proven=proven,
            candidates=candidates,
            level=self.level,
        )
