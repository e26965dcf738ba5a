"""What the server keeps of the relations between accounts: who follows whom.

A row is one account following another, since ``at``; both ends go with their
accounts (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import Base


class FollowRow(Base):
    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    at: Mapped[float] = mapped_column(Float)


follows = FollowRow.__table__
