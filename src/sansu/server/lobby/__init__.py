"""The lobby: open seeks, quick pairing, challenges, and each account's event stream
(challenges and game starts, as bots read it).

May import: base, accounts, ratings, play.
"""

from __future__ import annotations

from sansu.server.lobby.challenges import LIMIT, Challenge, Challenges, account_json, game_start
from sansu.server.lobby.desk import PairingDesk
from sansu.server.lobby.routes import router
from sansu.server.lobby.seeks import Seeks
from sansu.server.lobby.streams import EventStreams, lines

__all__ = [
    "LIMIT",
    "Challenge",
    "Challenges",
    "EventStreams",
    "PairingDesk",
    "Seeks",
    "account_json",
    "game_start",
    "lines",
    "router",
]
