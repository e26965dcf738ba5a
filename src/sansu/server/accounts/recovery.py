"""An account's email address and its one-time links: verifying an address, resetting a
forgotten password.

A link carries a random token (``secrets.token_urlsafe``); the database keeps only its
sha256, so a copy of the database opens no link. Each link is for one purpose and one
address, expires (a day to verify, an hour to reset), works once, and dies with any
change it did not make: a newer link of the same purpose replaces it, a new password
outdates a reset link (the link holds a hash of the password's hash), and a reset link
sent to an address the account no longer has stops working. An address is checked by
``email-validator``, stored in lower case, and verified by one account at most.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import Connection, Float, ForeignKey, Index, Integer, String, delete, insert, select
from sqlalchemy import update as update_rows
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts import users as accounts
from sansu.server.accounts.users import NAME_PATTERN, UserError, name_key, users
from sansu.server.base import Base

VERIFY_SECONDS = 24 * 3600.0
"""A verification link works for a day."""
RESET_SECONDS = 3600.0
"""A reset link works for an hour."""
MAX_EMAIL = 254
VERIFY, RESET = "verify", "reset"


class LinkRow(Base):
    __tablename__ = "account_links"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """sha256 (hex) of the link's token."""
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"))
    purpose: Mapped[str] = mapped_column(String(8))
    """``verify`` or ``reset``."""
    email: Mapped[str] = mapped_column(String(MAX_EMAIL))
    """The address the link was sent to (for ``verify``: the address it proves)."""
    binding: Mapped[str] = mapped_column(String(64))
    """sha256 of the account's password hash when the link was made: a new password
    (a change, or another reset) outdates the link."""
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_account_links_user", "user_id", "purpose"),)


links = LinkRow.__table__


@dataclass(frozen=True)
class Letter:
    """A link to send: the token goes into the mail and nowhere else."""

    user_id: int
    name: str
    email: str
    purpose: str
    token: str
    expires_at: float


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_email(text: object) -> str:
    """The address in its stored form, or ``UserError("bad_email")``."""
    if not isinstance(text, str) or not 3 <= len(text.strip()) <= MAX_EMAIL:
        raise UserError("bad_email", f"an email address is 3 to {MAX_EMAIL} characters")
    try:
        checked = validate_email(text.strip(), check_deliverability=False)
    except EmailNotValidError as error:
        raise UserError("bad_email", f"not an email address: {error}") from None
    return checked.normalized.lower()


def _issue(
    connection: Connection, user_id: int, name: str, purpose: str, email: str, *, now: float
) -> Letter:
    """A new link; it replaces the account's older links of the same purpose."""
    connection.execute(delete(links).where(links.c.expires_at <= now))
    connection.execute(delete(links).where(links.c.user_id == user_id, links.c.purpose == purpose))
    password_hash = connection.execute(
        select(users.c.password_hash).where(users.c.id == user_id)
    ).scalar()
    token = secrets.token_urlsafe(32)
    seconds = VERIFY_SECONDS if purpose == VERIFY else RESET_SECONDS
    connection.execute(
        insert(links).values(
            id=_hash(token),
            user_id=user_id,
            purpose=purpose,
            email=email,
            binding=_hash(password_hash or ""),
            created_at=now,
            expires_at=now + seconds,
        )
    )
    return Letter(user_id, name, email, purpose, token, now + seconds)


def _take(connection: Connection, token: object, purpose: str, *, now: float) -> object:
    """The live link row of ``token``, deleted (a link works once); else ``bad_link``."""
    bad = UserError("bad_link", "this link is unknown, used or expired: ask for a new one")
    if not isinstance(token, str) or not 0 < len(token) <= 128 or not token.isascii():
        raise bad
    row = connection.execute(
        select(links).where(links.c.id == _hash(token), links.c.purpose == purpose)
    ).first()
    if row is None:
        raise bad
    connection.execute(delete(links).where(links.c.id == row.id))
    if row.expires_at <= now:
        raise bad
    return row


def account_email(connection: Connection, user_id: int, *, now: float) -> dict[str, object]:
    """The account's verified address and the one waiting for its link, if any."""
    email = connection.execute(select(users.c.email).where(users.c.id == user_id)).scalar()
    pending = connection.execute(
        select(links.c.email, links.c.expires_at).where(
            links.c.user_id == user_id, links.c.purpose == VERIFY, links.c.expires_at > now
        )
    ).first()
    return {
        "email": email,
        "verified": email is not None,
        "pending": pending.email if pending else None,
        "pending_expires_at": pending.expires_at if pending else None,
    }


def request_email(
    connection: Connection, user_id: int, password: object, email: object, *, now: float
) -> Letter | None:
    """A verification link for a new address, after checking the password; the old
    address stays until the new one is verified. ``None`` (nothing to send) when the
    account already has this address; an address verified by another account gets a
    link all the same (refused only when followed), so the answer tells nobody whose
    address it is."""
    address = normalise_email(email)
    if not accounts.password_matches(connection, user_id, password):
        raise UserError("bad_credentials", "the password is wrong")
    row = connection.execute(select(users.c.name, users.c.email).where(users.c.id == user_id))
    user = row.first()
    if user is None:
        raise UserError("no_user", "no such user")
    if user.email == address:
        return None
    return _issue(connection, user_id, user.name, VERIFY, address, now=now)


def verify_email(connection: Connection, token: object, *, now: float) -> str:
    """Makes the link's address the account's verified one; the address."""
    row = _take(connection, token, VERIFY, now=now)
    address = row.email  # type: ignore[attr-defined]
    owner = connection.execute(select(users.c.id).where(users.c.email == address)).scalar()
    if owner is not None and owner != row.user_id:  # type: ignore[attr-defined]
        raise UserError("email_taken", "this address is another account's")
    try:
        with connection.begin_nested():
            connection.execute(
                update_rows(users)
                .where(users.c.id == row.user_id, users.c.deleted_at.is_(None))  # type: ignore[attr-defined]
                .values(email=address)
            )
    except IntegrityError:  # verified for another account a moment before
        raise UserError("email_taken", "this address is another account's") from None
    return address


def remove_email(connection: Connection, user_id: int, password: object) -> None:
    """Removes the verified address and any pending one (asks for the password)."""
    if not accounts.password_matches(connection, user_id, password):
        raise UserError("bad_credentials", "the password is wrong")
    connection.execute(update_rows(users).where(users.c.id == user_id).values(email=None))
    connection.execute(delete(links).where(links.c.user_id == user_id))


def request_reset(connection: Connection, who: object, *, now: float) -> Letter | None:
    """A reset link for the account named ``who`` (its name or its verified address), or
    ``None`` when there is none or it has no verified address: the caller answers both
    the same way."""
    if not isinstance(who, str):
        return None
    who = who.strip()
    if NAME_PATTERN.fullmatch(who):
        where = users.c.name_key == name_key(who)
    else:
        try:
            where = users.c.email == normalise_email(who)
        except UserError:
            return None
    row = connection.execute(
        select(users.c.id, users.c.name, users.c.email).where(where, users.c.deleted_at.is_(None))
    ).first()
    if row is None or row.email is None:
        return None
    return _issue(connection, row.id, row.name, RESET, row.email, now=now)


def reset_password(
    connection: Connection, token: object, new_password: object, *, now: float
) -> int:
    """Sets the new password of the link's account; the account's id (the caller ends
    its sessions). The link stops working if the password or the address changed since
    it was sent."""
    accounts.check_password(new_password)  # before the link is spent
    row = _take(connection, token, RESET, now=now)
    user = connection.execute(
        select(users.c.email, users.c.password_hash, users.c.deleted_at).where(
            users.c.id == row.user_id  # type: ignore[attr-defined]
        )
    ).first()
    if (
        user is None
        or user.deleted_at is not None
        or user.email != row.email  # type: ignore[attr-defined]
        or _hash(user.password_hash) != row.binding  # type: ignore[attr-defined]
    ):
        raise UserError("bad_link", "this link is unknown, used or expired: ask for a new one")
    accounts.set_password(connection, row.user_id, new_password, now=now)  # type: ignore[attr-defined]
    connection.execute(delete(links).where(links.c.user_id == row.user_id))  # type: ignore[attr-defined]
    return row.user_id  # type: ignore[attr-defined]
