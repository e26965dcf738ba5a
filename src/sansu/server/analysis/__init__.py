"""Analysis: the analysis board's searches, post-game reviews and hints.

May import: base, accounts, play.
"""

from __future__ import annotations

from sansu.server.analysis.board import Analyses
from sansu.server.analysis.reviews import Reviews
from sansu.server.analysis.routes import build_analysis_router
from sansu.server.analysis.routes_hints import build_hints_router
from sansu.server.analysis.routes_reviews import reviews_router

__all__ = [
    "Analyses",
    "Reviews",
    "build_analysis_router",
    "build_hints_router",
    "reviews_router",
]
