"""The moderators' queue: reports of an account or of a chat message.

A report stays for good, closed with a resolution and the moderator who closed it.
``open_key`` names the reporter and the target while the report is open and is null
once it is closed: being unique, it lets a reporter hold one open report per target
on every database, with no partial index.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import Base

MAX_TEXT = 500
"""A report's words: a few sentences, not a file."""
MAX_RESOLUTION = 200


def account() -> Mapped[int | None]:
    """An account a report names: null once the account is deleted (the name stays)."""
    return mapped_column(Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True)


class ReportRow(Base):
    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_status_at", "status", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(16))
    """``account`` (from a profile) or ``message`` (a chat message)."""
    category: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(MAX_TEXT), default="")
    reporter_id: Mapped[int | None] = account()
    reporter: Mapped[str] = mapped_column(String(64))
    """The reporter's name, or for an anonymous player ``seat N of GAME``."""
    target_id: Mapped[int | None] = account()
    target: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The reported account's name (a message's author, as shown)."""
    message_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("chat_messages.id", ondelete="SET NULL"), nullable=True
    )
    game_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    status: Mapped[str] = mapped_column(String(8), default="open")
    """``open`` or ``closed``."""
    open_key: Mapped[str | None] = mapped_column(String(96), unique=True, nullable=True)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    closed_by_id: Mapped[int | None] = account()
    closed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    resolution: Mapped[str | None] = mapped_column(String(MAX_RESOLUTION), nullable=True)


reports = ReportRow.__table__
