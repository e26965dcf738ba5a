"""What each game brings to mining: a position's key, what decides it, where to look, how deep.

The key identifies a position for the transposition table and for telling
two puzzles apart (the same position is the same puzzle, whatever moves led
there). It is read off the engine's own fields, which fix everything the
rules look at (whose turn, where the next move may go, what was won).

What "wins by force" means is the game's (``docs/puzzles.md``): the result,
except that in Sumodoku an accepted Sudoku claim is a win, because the
engine accepts a claim only when the grid has a valid completion, and the
claimant then fills it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from sansu.core.protocol import Player, State
from sansu.core.sections import FULL, HAS_LINE
from sansu.puzzles.prove import Prover


def _sections_key(state: State) -> Hashable:
    s = state
    return (s._marks, s._other_marks, s._legal)  # type: ignore[attr-defined]


_COMPLETES = tuple(
    sum(1 << p for p in range(9) if not m >> p & 1 and HAS_LINE[m | 1 << p]) for m in range(512)
)
"""``_COMPLETES[marks]``: the empty positions of a section that would give ``marks`` a line."""
_DECIDING = tuple(
    tuple(s for s in range(9) if not won >> s & 1 and HAS_LINE[won | 1 << s]) for won in range(512)
)
"""``_DECIDING[won]``: the sections whose winning completes a line of sections."""


def _uttt_wins_at_once(state: State) -> bool:
    """Whether the mover has a move that wins the game: a line in a section that completes a
    line of sections (the masks say it without playing the moves)."""
    s = state
    marks, legal = s._marks, s._legal  # type: ignore[attr-defined]
    for section in _DECIDING[s._won]:  # type: ignore[attr-defined]
        shift = 9 * section
        if _COMPLETES[marks >> shift & FULL] & legal >> shift:
            return True
    return False


def _sansumoku_key(state: State) -> Hashable:
    s = state
    return (s._marks, s._other_marks, s._digits, s._legal, s._won, s._other_won)  # type: ignore[attr-defined]


def _thirtyfive_key(state: State) -> Hashable:
    s = state
    return (s._values, s._red, s._hl0, s._hl1, s._done, s.to_move)  # type: ignore[attr-defined]


def _sumodoku_key(state: State) -> Hashable:
    s = state
    return (s._grid, s._hands, s._turns, s._phase, s.to_move, s._spare)  # type: ignore[attr-defined]


def result_verdict(state: State) -> tuple[Player, ...] | None:
    """The winners by the result (empty for a draw), ``None`` while the game goes on."""
    result = state.result
    return None if result is None else result.winners


def sumodoku_verdict(state: State) -> tuple[Player, ...] | None:
    """As :func:`result_verdict`, and an accepted claim wins for the claimant."""
    result = state.result
    if result is not None:
        return result.winners
    if state.phase == "claim":  # type: ignore[attr-defined]
        return (state.claimant,)  # type: ignore[attr-defined]
    return None


@dataclass(frozen=True)
class Kit:
    """How to mine one game."""

    key: Callable[[State], Hashable]
    verdict: Callable[[State], tuple[Player, ...] | None]
    depth: int
    """The deepest forced win searched by default (learner moves)."""
    worth_trying: Callable[[State, int], bool]
    """Whether a position may hold a forced win within the depth: a cheap filter, so that the
    prover is asked only where it can answer yes."""
    possible: Callable[[State, int], bool] | None = None
    """An exact shortcut for the prover: false only where the mover cannot win within ``n``."""
    at_once: Callable[[State], bool] | None = None
    """Exactly whether the mover can win with one move, without playing the moves."""


def _uttt_try(state: State, depth: int) -> bool:
    """A move wins at most one section, so the mover needs ``3 - depth`` sections already.
    (Not so in Sansumoku, where one move may win several sections by constraint.)"""
    return state._won.bit_count() + depth >= 3  # type: ignore[attr-defined]


def _any(state: State, depth: int) -> bool:
    return True


def _thirtyfive_possible(state: State, n: int) -> bool:
    """35 is decided by the count on a full board: a win within ``n`` of the mover's moves
    (the last reply included) needs at most ``2 n`` empty squares."""
    return len(state.empty_cells()) <= 2 * n  # type: ignore[attr-defined]


def _thirtyfive_try(state: State, depth: int) -> bool:
    """Searched to the end, so only close to it, and with the learner making the last move
    (a solution ends with the learner's move)."""
    empties = len(state.empty_cells())  # type: ignore[attr-defined]
    return empties % 2 == 1 and empties <= 2 * depth - 1


def _sumodoku_try(state: State, depth: int) -> bool:
    """Sumodoku is decided by a claim (turns 16 to 35), a 40th piece or a player left without a
    move: from the claim window on, and near the end."""
    return state.turn_number() >= 16 or state.ply >= 60  # type: ignore[attr-defined]


KITS: dict[str, Kit] = {
    "uttt": Kit(_sections_key, result_verdict, 3, _uttt_try, _uttt_try, _uttt_wins_at_once),
    "sansumoku": Kit(_sansumoku_key, result_verdict, 3, _any),
    "thirtyfive": Kit(_thirtyfive_key, result_verdict, 2, _thirtyfive_try, _thirtyfive_possible),
    "sumodoku": Kit(_sumodoku_key, sumodoku_verdict, 2, _sumodoku_try),
}
"""The games puzzles are mined for (Sudoku Challenge is a race to solve, not a game of
forced wins)."""


def kit(game_id: str) -> Kit:
    """The kit of ``game_id``; ``ValueError`` for a game without puzzles."""
    try:
        return KITS[game_id]
    except KeyError:
        raise ValueError(
            f"no puzzles for {game_id!r} (games with puzzles: {', '.join(KITS)})"
        ) from None


def prover(game_id: str, **settings: Any) -> Prover:
    """A prover of ``game_id`` with its key, verdict and shortcut."""
    k = kit(game_id)
    return Prover(k.key, k.verdict, possible=k.possible, at_once=k.at_once, **settings)
