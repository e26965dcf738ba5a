"""Analysis: the analysis board's searches, post-game reviews, hints, and positions set up by moves.

May import: base, accounts, play.
"""

from __future__ import annotations

from sansu.server.analysis.board import Analyses
from sansu.server.analysis.reviews import Reviews
from sansu.server.analysis.routes import hints_router, refuse_review, reviews_router, router
from sansu.server.analysis.routes_positions import positions_router

__all__ = [
    "Analyses",
    "Reviews",
    "hints_router",
    "positions_router",
    "refuse_review",
    "reviews_router",
    "router",
]
