"""Bots: bot accounts and their API tokens, the bot API (playing, challenges,
event stream) and bots in tournaments.

May import: base, accounts, ratings, play, lobby, tournaments.
"""

from __future__ import annotations

from sansu.server.bots.announcer import pairing_announcer
from sansu.server.bots.routes import router
from sansu.server.bots.routes_tokens import router as tokens_router
from sansu.server.bots.routes_tournaments import router as tournament_router

__all__ = [
    "pairing_announcer",
    "router",
    "tokens_router",
    "tournament_router",
]
