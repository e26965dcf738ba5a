"""Log-in sessions: an opaque random token per session, stored only as its sha256.

The token goes to the browser in a cookie; the database holds its hash, so
a copy of the database opens no session. Each session also has a CSRF
token, an HMAC of the session token (so it needs no column and dies with
the session): a cookie-authenticated write must carry it, which a page of
another site cannot read. Sessions expire, and can be revoked one by one
or all at once (a password change revokes the others).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, Float, ForeignKey, Index, Integer, String, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts.users import User, get_user
from sansu.server.base import Base

SESSION_SECONDS = 30 * 86_400.0
"""A session lasts 30 days from log-in."""


class SessionRow(Base):
    __tablename__ = "user_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """sha256 (hex) of the session token."""
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_user_sessions_user", "user_id"),)


user_sessions = SessionRow.__table__


@dataclass(frozen=True)
class Session:
    """A session just opened: the token is handed out once and never stored."""

    token: str
    csrf: str
    user: User
    expires_at: float


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The CSRF token of the session whose token this is."""
    return hmac.new(token.encode(), b"sansu csrf", hashlib.sha256).hexdigest()


def check_csrf(token: str, presented: object) -> bool:
    """Whether ``presented`` is the session's CSRF token (constant-time)."""
    return isinstance(presented, str) and hmac.compare_digest(
        csrf_token(token).encode(), presented.encode("utf-8", "replace")
    )


def open_session(
    connection: Connection, user: User, *, now: float, seconds: float = SESSION_SECONDS
) -> Session:
    token = secrets.token_urlsafe(32)
    connection.execute(
        insert(user_sessions).values(
            id=_hash(token), user_id=user.id, created_at=now, expires_at=now + seconds
        )
    )
    return Session(token=token, csrf=csrf_token(token), user=user, expires_at=now + seconds)


def session_user(connection: Connection, token: object, *, now: float) -> User | None:
    """The user of a live session, or ``None`` for an unknown, expired or revoked token."""
    if not isinstance(token, str) or not 0 < len(token) <= 128 or not token.isascii():
        return None
    row = connection.execute(
        select(user_sessions.c.user_id, user_sessions.c.expires_at).where(
            user_sessions.c.id == _hash(token)
        )
    ).first()
    if row is None or row.expires_at <= now:
        return None
    user = get_user(connection, row.user_id)
    return None if user is None or user.closed else user


def revoke(connection: Connection, token: object) -> bool:
    """Ends the session (log-out); ``False`` if there was none."""
    if not isinstance(token, str) or not token.isascii():
        return False
    done = connection.execute(delete(user_sessions).where(user_sessions.c.id == _hash(token)))
    return done.rowcount > 0


def revoke_all(connection: Connection, user_id: int, *, keep: str | None = None) -> int:
    """Ends every session of the user but ``keep`` (after a password change); the count."""
    where = [user_sessions.c.user_id == user_id]
    if keep is not None:
        where.append(user_sessions.c.id != _hash(keep))
    return connection.execute(delete(user_sessions).where(*where)).rowcount


def purge_expired(connection: Connection, *, now: float) -> int:
    """Deletes expired sessions (a periodic clean-up); the count."""
    return connection.execute(
        delete(user_sessions).where(user_sessions.c.expires_at <= now)
    ).rowcount
