"""Roles and the audit log: who may moderate, and a record of every such change.

An account is a player (no role), a ``moderator`` or an ``admin``; the role is
a column of the account's row. Roles are granted from the server's machine
(``sansu admin grant NAME ROLE``), never through the API, so that nobody can
raise their own. Every grant writes a line of the audit log in the same
transaction: when, who acted (``command line`` for the operator), what, on
whom, and the details as JSON. The log keeps a line when the accounts it names
are gone (their ids become null; the names stay).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts.users import UserError, find_user, users
from sansu.server.base import Base

ROLES = ("admin", "moderator")
"""The roles an account may hold; a player holds none."""
OPERATOR = "command line"
"""The actor of what the server's operator does with ``sansu admin``."""


class AuditRow(Base):
    __tablename__ = "audit_log"
    __table_args__ = (Index("audit_log_at", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    actor_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    actor: Mapped[str] = mapped_column(String(64))
    """The actor's name when it acted (or :data:`OPERATOR`)."""
    action: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    target: Mapped[str | None] = mapped_column(String(64), nullable=True)
    detail: Mapped[str] = mapped_column(Text)
    """What changed, as a JSON object (e.g. ``{"role": "moderator", "was": null}``)."""


audit_log = AuditRow.__table__


@dataclass(frozen=True)
class AuditEntry:
    at: float
    actor: str
    action: str
    target: str | None
    detail: dict[str, Any]


def role_of(connection: Connection, user_id: int) -> str | None:
    """The account's role, or ``None`` for a player (or no such account)."""
    return connection.execute(select(users.c.role).where(users.c.id == user_id)).scalar()


def grant(
    connection: Connection, name: str, role: str | None, *, now: float, actor: str = OPERATOR
) -> str | None:
    """Gives the account ``name`` the ``role`` (``None``: back to player) and records it;
    the role it had. ``UserError`` for an unknown account or role (nothing changes)."""
    if role is not None and role not in ROLES:
        raise UserError("bad_role", f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    user = find_user(connection, name)
    if user is None:
        raise UserError("no_user", f"no account named {name!r}")
    was = role_of(connection, user.id)
    connection.execute(update(users).where(users.c.id == user.id).values(role=role))
    record(connection, "grant", {"role": role, "was": was}, now=now, actor=actor, target=user)
    return was


def record(
    connection: Connection,
    action: str,
    detail: dict[str, Any],
    *,
    now: float,
    actor: str = OPERATOR,
    actor_id: int | None = None,
    target: Any = None,
) -> None:
    """Writes one line of the audit log (``target``: a :class:`~.users.User` or ``None``)."""
    connection.execute(
        insert(audit_log).values(
            at=now,
            actor_id=actor_id,
            actor=actor,
            action=action,
            target_id=None if target is None else target.id,
            target=None if target is None else target.name,
            detail=json.dumps(detail, sort_keys=True),
        )
    )


def audit_entries(connection: Connection, limit: int = 100) -> list[AuditEntry]:
    """The newest lines of the audit log, newest first."""
    rows = connection.execute(
        select(audit_log).order_by(audit_log.c.at.desc(), audit_log.c.id.desc()).limit(limit)
    )
    return [AuditEntry(r.at, r.actor, r.action, r.target, json.loads(r.detail)) for r in rows]
