"""Ratings: the rating math (Glicko-2, OpenSkill), each account's ratings and history,
leaderboards and profiles, and the computer levels' published ratings.

May import: base, accounts.
"""

from __future__ import annotations

from sansu.server.ratings.levels import level_ratings
from sansu.server.ratings.rating_math import REPEAT_WINDOW, Rating, glicko2_pair, repeat_weight
from sansu.server.ratings.refunds import REFUND_DAYS, refund_opponents
from sansu.server.ratings.routes import router
from sansu.server.ratings.table import (
    OPENSKILL_GAMES,
    get_rating,
    rate_game,
    rated_games,
    rating_history,
    speed_of,
)

__all__ = [
    "OPENSKILL_GAMES",
    "REFUND_DAYS",
    "REPEAT_WINDOW",
    "Rating",
    "get_rating",
    "glicko2_pair",
    "level_ratings",
    "rate_game",
    "rated_games",
    "rating_history",
    "refund_opponents",
    "repeat_weight",
    "router",
    "speed_of",
]
