"""A puzzle's starting rating, from what makes it hard to solve, for Glicko-2 to start from.

The server refines a puzzle's rating from players' attempts; until then it
starts here. Four measured things make a puzzle hard (``docs/puzzles.md``):

- ``depth``: how many of the learner's moves the forced win takes;
- ``choices``: how many legal first moves there are;
- ``decoys``: how many first moves look good to a shallow look (they neither
  lose nor draw at once, nor let the opponent win or draw at once; in 35 a
  move that sets off a 35 looks good even when it ends the game);
- ``misses``: the share of a weak player's tries (the ``beginner`` level, each
  try its own seed) that do not play the solution's first move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sansu.core.protocol import Move, Player, State
from sansu.puzzles.prove import Verdict

BASE = 1000.0
PER_DEPTH = 300.0
PER_DECOY_DOUBLING = 60.0
PER_CHOICE_DOUBLING = 20.0
MISS_WEIGHT = 500.0
LOWEST, HIGHEST = 400.0, 2600.0
TRIES = 6
"""How many times the weak player tries each puzzle."""


@dataclass(frozen=True)
class Difficulty:
    depth: int
    choices: int
    decoys: int
    misses: float

    def rating(self) -> float:
        """``1000 + 300 (depth - 1) + 60 log2(decoys) + 20 log2(choices) + 500 (misses - ½)``,
        kept within 400–2600 and rounded to a whole number."""
        value = (
            BASE
            + PER_DEPTH * (self.depth - 1)
            + PER_DECOY_DOUBLING * math.log2(max(1, self.decoys))
            + PER_CHOICE_DOUBLING * math.log2(max(1, self.choices))
            + MISS_WEIGHT * (self.misses - 0.5)
        )
        return float(round(min(HIGHEST, max(LOWEST, value))))


def decoys(state: State, verdict: Verdict) -> int:
    """The first moves that survive a one-move look: the game goes on (or the learner wins),
    and no reply ends it at once in the opponent's favour or in a draw. In 35, where the
    last square ends the game whatever is written, a move that sets off a 35 looks good too:
    a 35 is what a player looks for."""
    me = state.to_move
    count = 0
    for move in state.legal_moves():
        after = state.play(move)
        winners = verdict(after)
        if winners is not None:
            count += me in winners or bool(getattr(after, "triggered_cells", list)())
            continue
        if not any(_spoils(after.play(reply), verdict, me) for reply in after.legal_moves()):
            count += 1
    return count


def _spoils(state: State, verdict: Verdict, me: Player | None) -> bool:
    winners = verdict(state)
    return winners is not None and me not in winners


def misses(state: State, first: Move, seed: int, tries: int = TRIES) -> float:
    """The share of ``tries`` weak tries (the ``beginner`` level, at its number of simulations,
    so the same on any machine) that miss ``first``."""
    from sansu.ai import player_for

    missed = 0
    for i in range(tries):
        bot = player_for(state.game, "beginner", seed=seed * 1009 + i)
        move = bot.choose(state, simulations=bot.settings.simulations).move
        missed += str(move) != str(first)
    return missed / tries


def difficulty(state: State, first: Move, depth: int, verdict: Verdict, seed: int) -> Difficulty:
    """The measured difficulty of the puzzle at ``state`` whose solution starts with ``first``."""
    return Difficulty(
        depth=depth,
        choices=len(state.legal_moves()),
        decoys=decoys(state, verdict),
        misses=misses(state, first, seed),
    )
