"""Bots: bot accounts and their API tokens, the bot API (playing, challenges,
event stream) and bots in tournaments.

May import: base, accounts, ratings, play, lobby, tournaments.
"""

from __future__ import annotations

from sansu.server.bots.routes import build_bot_router
from sansu.server.bots.routes_tokens import build_tokens_router
from sansu.server.bots.routes_tournaments import build_bot_tournament_router, pairing_announcer

__all__ = [
    "build_bot_router",
    "build_bot_tournament_router",
    "build_tokens_router",
    "pairing_announcer",
]
