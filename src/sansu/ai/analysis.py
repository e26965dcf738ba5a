"""What a search found: the move, how good it looks, the expected line, the work done.

:class:`Analysis` is what :meth:`sansu.ai.ComputerPlayer.choose` returns;
:class:`RootStats` is what every search (compiled or generic) hands to the
player, which turns it into a move at its level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sansu.core.protocol import Move


@dataclass(frozen=True)
class Candidate:
    """One move at the root: how often it was searched and how it scored for the mover."""

    move: Move
    visits: int
    reward: float
    """Mean reward of the mover after this move, in [0, 1] (1: a sole win, ½: a two-player draw)."""
    proven: float | None = None
    """The exact reward under best play when the solver settled it, else ``None``."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "visits": self.visits,
            "value": round(2 * self.reward - 1, 4),
            "proven": None if self.proven is None else round(2 * self.proven - 1, 4),
        }


@dataclass
class RootStats:
    """The root of a finished search: its candidates, principal variation and effort."""

    candidates: list[Candidate]
    pv: list[str]
    simulations: int
    proven: float | None = None
    """The mover's exact reward when the solver settled the root."""
    nodes: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Analysis:
    """A chosen move with the search's opinion of the position.

    ``value`` is the expected outcome for the player to move, in [-1, 1]:
    1 a sure (sole) win, -1 a sure loss, 0 a two-player draw or an even
    game. In games of more than two players it is ``2 r - 1`` for the
    mover's reward ``r`` (1 for a sole win, ``1/k`` for a win shared by
    ``k`` players, 0 for a loss).
    """

    move: Move
    value: float
    pv: list[str]
    simulations: int
    elapsed_ms: float
    proven: str | None = None
    """``"win"``, ``"loss"`` or ``"draw"`` when the solver settled the position, else ``None``."""
    candidates: tuple[Candidate, ...] = ()
    """The most searched root moves, best first."""
    level: str = ""
    book: bool = False
    """Whether the move came from the level's opening book (:mod:`sansu.ai.book`), unsearched."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "value": round(self.value, 4),
            "pv": list(self.pv),
            "simulations": self.simulations,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "proven": self.proven,
            "candidates": [c.to_dict() for c in self.candidates],
            "level": self.level,
            "book": self.book,
        }
