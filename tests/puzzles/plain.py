"""A plain minimax over the engine protocol, written apart from the prover to check its proofs.

No table, no ordering, no shared code: the slow test re-proves shipped
puzzles with it, and the mining benchmark times the prover against it.
"""

from __future__ import annotations

from typing import Any


def winners(state: Any) -> tuple[int, ...] | None:
    """Who won once the game is decided: the result, or an accepted Sumodoku claim."""
    if state.result is not None:
        return tuple(state.result.winners)
    if getattr(state, "phase", None) == "claim":
        return (state.claimant,)
    return None


def forced(state: Any, me: int, n: int) -> bool:
    """``me``, to move in ``state``, wins within ``n`` of its moves whatever the opponent does."""
    return any(wins_after(state.play(move), me, n) for move in state.legal_moves())


def wins_after(state: Any, me: int, n: int) -> bool:
    """After a move of ``me``: the game is won, or (``n`` > 1) every reply still loses."""
    decided = winners(state)
    if decided is not None:
        return decided == (me,)
    if n <= 1:
        return False
    for reply in state.legal_moves():
        after = state.play(reply)
        decided = winners(after)
        if decided is None:
            if not forced(after, me, n - 1):
                return False
        elif decided != (me,):
            return False
    return True
