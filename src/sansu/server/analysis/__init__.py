"""Analysis: the analysis board's searches, post-game reviews and hints.

May import: base, accounts, play.
"""

from __future__ import annotations

from sansu.server.analysis.board import Analyses
from sansu.server.analysis.reviews import Reviews
from sansu.server.analysis.routes import hints_router, reviews_router, router

__all__ = [
    "Analyses",
    "Reviews",
    "hints_router",
    "reviews_router",
    "router",
]
