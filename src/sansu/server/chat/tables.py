"""What the server keeps of chat: each message sent in a game's rooms (reports of them go
to the moderators' queue, :mod:`sansu.server.moderation`).

A message stays in its table for good, with the game it was sent in, even once a
moderator removed it (``removed_by``, ``removed_at``): nothing sent is lost, and a
moderator's queue can always see what was said and who hid it.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import Base


class ChatMessageRow(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(24), ForeignKey("games.id", ondelete="CASCADE"))
    room: Mapped[str] = mapped_column(String(16))
    """``players`` or ``spectators``."""
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The author's account (``None``: an anonymous player, known by its seat)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The author's seat in the game (``None``: a spectator)."""
    name: Mapped[str] = mapped_column(String(64))
    """The author's name as shown when the message was sent."""
    text: Mapped[str] = mapped_column(String(140))
    at: Mapped[float] = mapped_column(Float)
    removed_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The moderator's account that removed the message (``None``: shown)."""
    removed_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_chat_messages_game", "game_id", "room", "id"),)


chat_messages = ChatMessageRow.__table__
