"""Chat in each game: the players' room and the spectators' room, stored with the game,
delivered live through the game's socket, reported to and removed by moderators.

May import: base, accounts, play.
"""

from __future__ import annotations

from sansu.server.chat.rooms import MAX_TEXT, REASONS, ROOMS, Room
from sansu.server.chat.routes import router
from sansu.server.chat.service import RATE, Chat, ReportFiler
from sansu.server.chat.tables import ChatMessageRow, chat_messages

__all__ = [
    "MAX_TEXT",
    "RATE",
    "REASONS",
    "ROOMS",
    "Chat",
    "ChatMessageRow",
    "ReportFiler",
    "Room",
    "chat_messages",
    "router",
]
