"""Rating math that knows no game: numbers in, numbers out.

Two-player games use Glicko-2 through the ``glicko2`` package (Ryan
Kirkman's implementation, kept on PyPI as ``glicko2``); multiplayer and team
games use OpenSkill's Plackett–Luce model (``openskill``) on the same scale,
so both show ratings around 1500. Each game is its own rating period, as on
lichess: a rating moves right after the game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import glicko2
from openskill.models import PlackettLuce

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
"""A Glicko-2 rating whose deviation is at least this is provisional (shown with ``?``),
as on lichess: about 14 games from the start."""
OPENSKILL_PROVISIONAL_DEVIATION = 175.0
"""OpenSkill's deviation falls more slowly (110 would take 77 two-player games); 175, half
the start, takes about 30 two-player or 54 five-player games of alternating results."""

OPENSKILL = PlackettLuce(
    mu=START_RATING, sigma=START_DEVIATION, beta=START_DEVIATION / 2, tau=START_DEVIATION / 100
)
"""Plackett–Luce on the Glicko scale (OpenSkill's defaults scaled: beta = sigma / 2,
tau = sigma / 100), so the two systems' numbers read alike."""


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    """Glicko-2's volatility; carried unchanged by OpenSkill."""
    provisional_from: float = field(default=PROVISIONAL_DEVIATION, compare=False, repr=False)
    """The deviation from which the rating is provisional (it depends on the system)."""

    @property
    def provisional(self) -> bool:
        return self.deviation >= self.provisional_from

    def shown(self) -> str:
        """The rating as a page shows it: ``1500?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


REPEAT_WINDOW = 86_400.0
"""Seconds within which rated games between the same accounts count as repeated."""
REPEAT_WEIGHTS = (1.0, 1.0, 0.5, 0.25, 0.125)
"""The share of a full game that a pair's first, second, ... rated game within
:data:`REPEAT_WINDOW` counts for; from the sixth on, nothing (at most 2.875 games a day)."""


def repeat_weight(earlier: int) -> float:
    """The share of a full game a rated game counts for when the same accounts played
    ``earlier`` rated games together in the window before it: farming one account
    against another brings little."""
    return REPEAT_WEIGHTS[earlier] if 0 <= earlier < len(REPEAT_WEIGHTS) else 0.0


def weighted(before: Rating, after: Rating, weight: float) -> Rating:
    """``before`` moved by ``weight`` of the way to ``after`` (rating, deviation, volatility)."""
    if weight >= 1.0:
        return after
    if weight <= 0.0:
        return before

    def part(old: float, new: float) -> float:
        return old + weight * (new - old)

    return Rating(
        part(before.rating, after.rating),
        part(before.deviation, after.deviation),
        part(before.volatility, after.volatility),
        after.provisional_from,
    )


class _Glicko2Player(glicko2.Player):
    """``glicko2.Player`` with step 5's function f as in Glickman's paper.

    The package's ``_f`` uses the rating (mu) squared where the paper has the
    deviation (phi) squared, so its new volatility is off (0.0599934 instead
    of the paper's 0.0599960 in Glickman's worked example, and further off
    away from 1500). This one method is the paper's formula; the rest is the
    package's.
    """

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi2 = self.getRd() ** 2 / 173.7178**2
        ex = math.exp(x)
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (
            (x - a) / self._tau**2
        )


def glicko2_pair(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game; ``score`` is the first player's: 1, ½ or 0."""
    if score not in (0.0, 0.5, 1.0):
        raise ValueError("score must be 1, 0.5 or 0")
    out = []
    for me, other, mine in ((first, second, score), (second, first, 1.0 - score)):
        player = _Glicko2Player(me.rating, me.deviation, me.volatility)
        player.update_player([other.rating], [other.deviation], [mine])
        out.append(Rating(player.getRating(), player.getRd(), player.vol))
    return out[0], out[1]


def openskill_teams(
    teams: Sequence[Sequence[Rating]], ranks: Sequence[float]
) -> list[list[Rating]]:
    """Every player's rating after one game of ``teams`` placed by ``ranks``
    (lower is better, equal ranks tie).

    A deviation never ends above the starting one: the model's ``tau`` widens it before
    the game, which for a nearly unknown player in a large team can outweigh what one
    game teaches."""
    if len(teams) < 2 or len(ranks) != len(teams) or any(not team for team in teams):
        raise ValueError("a rated game needs two or more non-empty teams, one rank each")
    before = [[OPENSKILL.rating(mu=r.rating, sigma=r.deviation) for r in team] for team in teams]
    after = OPENSKILL.rate(before, ranks=list(ranks))
    return [
        [
            Rating(
                new.mu,
                min(new.sigma, START_DEVIATION),
                old.volatility,
                OPENSKILL_PROVISIONAL_DEVIATION,
            )
            for new, old in zip(team, olds, strict=True)
        ]
        for team, olds in zip(after, teams, strict=True)
    ]
