"""Quick pairing's matching: who plays whom among the players waiting, by rating.

Pure: numbers in, pairs out (no clock, no I/O), so the rule can be tested on
its own. Two waiting players are paired when they wait in the same pool
(same game, time control, rated or casual), are different people, and their
ratings differ by no more than **both** of their current ranges. A range
widens while its player waits (:func:`rating_range`):

- ±100 points on arrival,
- 50 points wider every 5 seconds of waiting (±150 after 5 s, ±300 after 20 s),
- unlimited after 60 seconds: anyone in the same pool will do.

The longest waiting are served first, each with the closest rating that fits.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

RANGE_START = 100.0
RANGE_STEP = 50.0
STEP_SECONDS = 5.0
OPEN_AFTER = 60.0
"""Seconds of waiting after which the range is unlimited."""


@dataclass(frozen=True)
class Waiting:
    """One player waiting: ``key`` names the entry, ``person`` the player (an account or
    an anonymous browser), ``pool`` what they wait for, ``since`` when they came."""

    key: str
    person: Hashable
    pool: Hashable
    rating: float
    since: float


def rating_range(waited: float) -> float:
    """How far from their rating a player who waited ``waited`` seconds accepts."""
    if waited >= OPEN_AFTER:
        return math.inf
    return RANGE_START + RANGE_STEP * math.floor(max(waited, 0.0) / STEP_SECONDS)


def fits(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may be paired now."""
    if a.key == b.key or a.person == b.person or a.pool != b.pool:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= rating_range(now - a.since) and gap <= rating_range(now - b.since)


def pairs(waiting: Sequence[Waiting], now: float) -> list[tuple[Waiting, Waiting]]:
    """The pairs to start now; nobody is in two of them, and any two players left
    unpaired do not fit each other."""
    order = sorted(waiting, key=lambda w: (w.since, w.key))
    free = {w.key for w in order}
    out: list[tuple[Waiting, Waiting]] = []
    for a in order:
        if a.key not in free:
            continue
        candidates = [b for b in order if b.key in free and fits(a, b, now)]
        best = min(candidates, key=lambda b: abs(a.rating - b.rating), default=None)
        if best is not None:
            free.discard(a.key)
            free.discard(best.key)
            out.append((a, best))
    return out
