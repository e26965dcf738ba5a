"""Accounts: user names, Argon2 password hashes, sign-up, log-in and password change.

Accounts are optional (anyone can still play with seat tokens); this module
is the user domain on its own, so the HTTP layer only wires it in. Every
function works on the caller's ``Connection`` and transaction, the way the
store's write jobs run. A password is held only as an Argon2id hash
(``argon2-cffi``), is never logged, and a hash made with older parameters is
replaced at the next successful log-in.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Boolean,
    Connection,
    Float,
    Integer,
    String,
    UniqueConstraint,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.lookalikes import skeleton
from sansu.server.base import Base, seats

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{2,20}")
"""2 to 20 ASCII letters, digits, ``_`` or ``-``: ASCII only, so no two names
look alike through lookalike letters of other scripts."""
RESERVED_NAMES = frozenset(
    {
        "admin", "administrator", "anonymous", "api", "bot", "computer", "guest",
        "help", "lobby", "login", "logout", "me", "mod", "moderator", "null", "owner",
        "root", "sansu", "settings", "signup", "staff", "static", "support", "system",
        "undefined", "user", "users", "www",
    }
)  # fmt: skip
"""Names that would pass for the site or a page of it (compared case-insensitively)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""A bound on what a request may make the server hash."""

HASHER = PasswordHasher()
"""argon2-cffi's defaults (RFC 9106's low-memory profile); raising them later
makes every stored hash ``check_needs_rehash`` at its owner's next log-in."""


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(20))
    """The name as its owner wrote it."""
    name_key: Mapped[str] = mapped_column(String(20), unique=True)
    """The name in lower case: names are unique case-insensitively."""
    name_skeleton: Mapped[str | None] = mapped_column(String(20), unique=True, nullable=True)
    """What every lookalike of the name shares (:func:`~.lookalikes.skeleton`): no two
    accounts have one (``None`` only for an old account whose older lookalike has it)."""
    password_hash: Mapped[str] = mapped_column(String(255))
    """The Argon2id hash in PHC form (parameters and salt included)."""
    created_at: Mapped[float] = mapped_column(Float)
    password_changed_at: Mapped[float] = mapped_column(Float)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    """A program's account (a bot plays through the API); kept off the human leaderboards."""
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """``admin`` or ``moderator``; ``None``: a player (:mod:`~.roles`)."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """The verified address, normalised (:mod:`~.recovery`); ``None``: none verified."""
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its owner deleted the account (:mod:`~.ownership`); ``None``: in use."""
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a moderator closed the account (``None``: open): it cannot sign in, and
    its sessions and API tokens are refused."""
    engine_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a moderator marked the account as using an engine (``None``: unmarked)."""
    rename_once: Mapped[bool] = mapped_column(Boolean, default=False)
    """The account was renamed by a moderator and may choose its name once."""

    __table_args__ = (UniqueConstraint("email", name="uq_users_email"),)


users = UserRow.__table__


class UserError(ValueError):
    """A refused account operation; ``code`` is the machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class User:
    """What the rest of the server may know of an account (never the hash)."""

    id: int
    name: str
    created_at: float
    bot: bool
    role: str | None = None
    closed: bool = False
    """Closed by a moderator: no sign-in, no session, no token."""
    engine: bool = False
    """Marked by a moderator as using an engine: off the leaderboards, no rated change."""
    rename_once: bool = False


def name_key(name: str) -> str:
    return name.lower()


def check_name(name: object) -> str:
    """The name if it is acceptable, else a ``UserError`` saying why."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise UserError(
            "bad_name", "a user name is 2 to 20 letters, digits, '_' or '-' (ASCII only)"
        )
    if name_key(name) in RESERVED_NAMES:
        raise UserError("reserved_name", "this user name is reserved")
    return name


def check_password(password: object) -> str:
    """The password if it may be hashed; it is never echoed in the error."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise UserError(
            "bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    if _usable(password) is None:
        raise UserError("bad_password", "a password must be valid Unicode text")
    if any(unicodedata.category(c) == "Cc" for c in password):
        raise UserError(
            "bad_password", "a password holds no control characters (NUL, tab, escape, ...)"
        )
    if not password.strip():
        raise UserError("bad_password", "a password is more than spaces")
    return password


def _user(row: Any) -> User:
    return User(
        id=row.id,
        name=row.name,
        created_at=row.created_at,
        bot=row.bot,
        role=row.role,
        closed=row.closed_at is not None,
        engine=row.engine_at is not None,
        rename_once=bool(row.rename_once),
    )


def get_user(connection: Connection, user_id: int) -> User | None:
    row = connection.execute(select(users).where(users.c.id == user_id)).first()
    return _user(row) if row else None


def find_user(connection: Connection, name: str) -> User | None:
    """The account of ``name`` in any case, or ``None``."""
    if not isinstance(name, str):
        return None
    row = connection.execute(select(users).where(users.c.name_key == name_key(name))).first()
    return _user(row) if row else None


def sign_up(
    connection: Connection, name: object, password: object, *, now: float, bot: bool = False
) -> User:
    """A new account; ``UserError("name_taken")`` if the name is taken in any case, or
    one that looks like it (the same skeleton)."""
    name = check_name(name)
    password = check_password(password)
    key, shape = name_key(name), skeleton(name)
    taken = connection.execute(
        select(users.c.name_key).where((users.c.name_key == key) | (users.c.name_skeleton == shape))
    ).first()
    if taken is not None:
        if taken.name_key == key:
            raise UserError("name_taken", "this user name is taken")
        raise UserError("name_taken", "this user name looks like one that is taken")
    values = {
        "name": name,
        "name_key": key,
        "name_skeleton": shape,
        "password_hash": HASHER.hash(password),
        "created_at": now,
        "password_changed_at": now,
        "bot": bot,
    }
    try:
        with connection.begin_nested():
            user_id = connection.execute(insert(users).values(values)).inserted_primary_key[0]
    except IntegrityError:  # a concurrent sign-up took the name first
        raise UserError("name_taken", "this user name is taken") from None
    return User(id=user_id, name=name, created_at=now, bot=bot)


_DUMMY_HASH = HASHER.hash("an unknown name costs as much as a wrong password")


def _usable(password: object) -> str | None:
    """The password if it could be anyone's (text of a hashable length), else ``None``."""
    if not isinstance(password, str) or len(password) > MAX_PASSWORD:
        return None
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return password


def _verify(stored_hash: str | None, password: str | None) -> bool:
    """Whether ``password`` matches; always one Argon2 verification, so an unknown
    name or an unusable password takes as long as a wrong one."""
    try:
        matched = HASHER.verify(stored_hash or _DUMMY_HASH, password or "")
    except (VerificationError, InvalidHashError):
        return False
    return matched and stored_hash is not None and password is not None


def authenticate(
    connection: Connection,
    name: object,
    password: object,
    *,
    client: str,
    limiter: LoginLimiter,
) -> User:
    """The account whose password this is; one error for an unknown name or a wrong
    password, and ``UserError("too_many_attempts")`` while the limiter holds this
    attempt back (then the password is not even checked)."""
    key = name_key(name) if isinstance(name, str) and NAME_PATTERN.fullmatch(name) else ""
    attempt = limiter.attempt(key, client)
    if not attempt.allowed:
        raise UserError("too_many_attempts", "too many failed log-ins: wait and try again")
    row = None
    if key:
        row = connection.execute(select(users).where(users.c.name_key == key)).first()
    text = _usable(password)
    if not _verify(row.password_hash if row else None, text) or row is None or text is None:
        limiter.failed()
        raise UserError("bad_credentials", "wrong user name or password")  # stays counted
    limiter.succeeded(attempt)
    if row.closed_at is not None:  # told only to whoever knows the password
        raise UserError("account_closed", "this account was closed by a moderator")
    if HASHER.check_needs_rehash(row.password_hash):
        connection.execute(
            update(users).where(users.c.id == row.id).values(password_hash=HASHER.hash(text))
        )
    return _user(row)


def change_password(
    connection: Connection, user_id: int, old_password: object, new_password: object, *, now: float
) -> None:
    """Sets a new password after checking the current one (the caller then revokes the
    account's other sessions)."""
    new_password = check_password(new_password)
    row = connection.execute(select(users).where(users.c.id == user_id)).first()
    if row is None:
        raise UserError("no_user", "no such user")
    if not _verify(row.password_hash, _usable(old_password)):
        raise UserError("bad_credentials", "the current password is wrong")
    connection.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(password_hash=HASHER.hash(new_password), password_changed_at=now)
    )


def password_matches(connection: Connection, user_id: int, password: object) -> bool:
    """Whether ``password`` is the account's (one Argon2 verification, as a log-in)."""
    row = connection.execute(select(users.c.password_hash).where(users.c.id == user_id)).first()
    return _verify(row.password_hash if row else None, _usable(password))


def set_password(connection: Connection, user_id: int, new_password: object, *, now: float) -> None:
    """Sets a new password without the old one (a reset link proved the owner); the caller
    revokes the account's sessions."""
    new_password = check_password(new_password)
    connection.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(password_hash=HASHER.hash(new_password), password_changed_at=now)
    )


def rename(connection: Connection, user_id: int, new_name: object, *, by_owner: bool) -> User:
    """Gives the account a new name (its id, games and ratings stay); the seats it holds
    show the new name. The owner may do it only once after a moderator's rename
    (``rename_once``); a moderator's rename grants that once. ``UserError`` for a bad or
    taken name, or an owner without the right (nothing changes)."""
    name = check_name(new_name)
    row = connection.execute(select(users).where(users.c.id == user_id)).first()
    if row is None:
        raise UserError("no_user", "no such user")
    if by_owner and not row.rename_once:
        raise UserError("no_rename", "only an account a moderator renamed may choose a name, once")
    key, shape = name_key(name), skeleton(name)
    taken = connection.execute(
        select(users.c.id).where(
            users.c.id != user_id, (users.c.name_key == key) | (users.c.name_skeleton == shape)
        )
    ).first()
    if taken is not None:
        raise UserError("name_taken", "this user name is taken (or looks like one that is)")
    try:
        with connection.begin_nested():
            connection.execute(
                update(users)
                .where(users.c.id == user_id)
                .values(name=name, name_key=key, name_skeleton=shape, rename_once=not by_owner)
            )
    except IntegrityError:
        raise UserError("name_taken", "this user name is taken") from None
    connection.execute(update(seats).where(seats.c.user_id == user_id).values(name=name))
    return replace(_user(row), name=name, rename_once=not by_owner)
