"""Tournaments: arenas, Swiss and round-robins; what players do, the director that pairs
and follows the games, standings, and the pure pairing formats in ``formats/``.

May import: base, accounts, ratings, play.
"""

from __future__ import annotations

from sansu.server.tournaments.director import Director, Pairing, PairingListener, rows_of
from sansu.server.tournaments.routes import Pause, TournamentId, router
from sansu.server.tournaments.tables import tournaments as tournaments_table
from sansu.server.tournaments.tournaments import Tournaments

__all__ = [
    "Director",
    "Pairing",
    "PairingListener",
    "Pause",
    "TournamentId",
    "Tournaments",
    "router",
    "rows_of",
    "tournaments_table",
]
