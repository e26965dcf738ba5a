"""Bot accounts and their personal API tokens.

A bot account is an ordinary account flagged ``users.bot``: made so at
sign-up, or upgraded later as long as it has not played a game (a person's
games and ratings never turn into a program's). A bot authenticates on the
bot API with a personal API token: random, shown once when created, stored
only as its sha256 (the token has 256 bits of entropy, so a fast hash is
enough: there is nothing to guess), revocable one by one. Only bot accounts
may hold tokens, so a person's account cannot use the bot API at all.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from sqlalchemy import (
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts import User, UserError, get_user, users_table
from sansu.server.base import Base
from sansu.server.base import seats as seats_table

TOKEN_PREFIX = "sansu_bot_"
"""Every token starts so: a leaked one is recognisable (e.g. by secret scanners)."""
MAX_TOKENS = 10
"""Live tokens per account."""
MAX_LABEL = 40


class ApiTokenRow(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """sha256 (hex) of the token; the token itself is never stored."""
    label: Mapped[str] = mapped_column(String(MAX_LABEL))
    created_at: Mapped[float] = mapped_column(Float)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_api_tokens_user", "user_id"),)


api_tokens = ApiTokenRow.__table__


@dataclass(frozen=True)
class TokenInfo:
    """A token as its owner may see it later: never the token itself."""

    id: int
    label: str
    created_at: float

    def public(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "created_at": self.created_at,
        }


def hash_api_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def has_played(connection: Connection, user_id: int) -> bool:
    """Whether any seat of any game is bound to the account."""
    found = connection.execute(
        select(seats_table.c.game_id).where(seats_table.c.user_id == user_id).limit(1)
    ).first()
    return found is not None


def make_bot(connection: Connection, user_id: int) -> User:
    """Turns the account into a bot account; refused once it has played a game."""
    user = get_user(connection, user_id)
    if user is None:
        raise UserError("no_user", "no such user")
    if user.bot:
        return user
    if has_played(connection, user_id):
        raise UserError(
            "has_played", "an account that has played a game cannot become a bot account"
        )
    connection.execute(update(users_table).where(users_table.c.id == user_id).values(bot=True))
    return User(id=user.id, name=user.name, created_at=user.created_at, bot=True)


def _info(row: object) -> TokenInfo:
    return TokenInfo(row.id, row.label, row.created_at)  # type: ignore[attr-defined]


def create_token(
    connection: Connection, user: User, label: object, *, now: float
) -> tuple[str, TokenInfo]:
    """A new token for a bot account: the token (shown this once) and what is kept of it."""
    if not user.bot:
        raise UserError("not_a_bot", "only a bot account has API tokens (make it a bot first)")
    if not isinstance(label, str) or not 1 <= len(label.strip()) <= MAX_LABEL:
        raise UserError("bad_label", f"a token's label is 1 to {MAX_LABEL} characters")
    live = connection.execute(
        select(func.count())
        .select_from(api_tokens)
        .where(api_tokens.c.user_id == user.id, api_tokens.c.revoked_at.is_(None))
    ).scalar_one()
    if live >= MAX_TOKENS:
        raise UserError("too_many_tokens", f"an account has at most {MAX_TOKENS} live tokens")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    values = {
        "user_id": user.id,
        "token_hash": hash_api_token(token),
        "label": label.strip(),
        "created_at": now,
    }
    token_id = connection.execute(insert(api_tokens).values(values)).inserted_primary_key[0]
    return token, TokenInfo(token_id, label.strip(), now)


def list_tokens(connection: Connection, user_id: int) -> list[TokenInfo]:
    rows = connection.execute(
        select(api_tokens)
        .where(api_tokens.c.user_id == user_id, api_tokens.c.revoked_at.is_(None))
        .order_by(api_tokens.c.id)
    ).all()
    return [_info(r) for r in rows]


def revoke_token(connection: Connection, user_id: int, token_id: int, *, now: float) -> bool:
    """Revokes one of the account's tokens; ``False`` if it has no such live token."""
    done = connection.execute(
        update(api_tokens)
        .where(
            api_tokens.c.id == token_id,
            api_tokens.c.user_id == user_id,
            api_tokens.c.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
    return bool(done.rowcount)


def token_user(connection: Connection, token: str) -> User | None:
    """The bot account of a live token, or ``None`` (also for a closed account's)."""
    if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    row = connection.execute(
        select(api_tokens.c.user_id).where(
            api_tokens.c.token_hash == hash_api_token(token), api_tokens.c.revoked_at.is_(None)
        )
    ).first()
    if row is None:
        return None
    user = get_user(connection, row.user_id)
    return user if user is not None and user.bot and not user.closed else None
