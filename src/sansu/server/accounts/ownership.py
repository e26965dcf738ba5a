"""What an owner may do with the account itself: export its data, delete it.

Deleting keeps the games (the other players' records stay whole): the account's name
becomes ``deleted user N`` (N its id) in the account, in its seats and in its chat
messages; its password, address, links, sessions and API tokens go. The row stays, with
its name's skeleton (:mod:`~.lookalikes`), so the old name and its lookalikes can never be
signed up again: nobody can pass for the deleted player in the games that name them.

The other domains' tables (seats, ratings, chat, bots, puzzles) are read and written here
by their names in the shared schema, not by importing those domains, which sit above
accounts; a table that this server does not have is skipped.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table, delete, select, update

from sansu.server.accounts import users as accounts
from sansu.server.accounts.recovery import links
from sansu.server.accounts.sessions import revoke_all
from sansu.server.accounts.users import UserError, users
from sansu.server.base import games, metadata, seats

EXPORT_VERSION = 1
UNUSABLE_HASH = "!deleted"
"""Not a hash of anything: no password verifies against it."""


def deleted_name(user_id: int) -> str:
    """The name a deleted account goes by (spaces: no one can sign up with it)."""
    return f"deleted user {user_id}"


def _table(name: str) -> Table | None:
    return metadata.tables.get(name)


def delete_account(connection: Connection, user_id: int, password: object, *, now: float) -> str:
    """Deletes the account after checking its password; its new name."""
    row = connection.execute(select(users).where(users.c.id == user_id)).first()
    if row is None or row.deleted_at is not None:
        raise UserError("no_user", "no such user")
    if not accounts.password_matches(connection, user_id, password):
        raise UserError("bad_credentials", "the password is wrong")
    name = deleted_name(user_id)
    connection.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(
            name=name,
            name_key=name,
            password_hash=UNUSABLE_HASH,
            password_changed_at=now,
            email=None,
            role=None,
            deleted_at=now,
        )
    )
    connection.execute(update(seats).where(seats.c.user_id == user_id).values(name=name))
    chat = _table("chat_messages")
    if chat is not None:
        connection.execute(update(chat).where(chat.c.user_id == user_id).values(name=name))
    tokens = _table("api_tokens")
    if tokens is not None:
        connection.execute(
            update(tokens)
            .where(tokens.c.user_id == user_id, tokens.c.revoked_at.is_(None))
            .values(revoked_at=now)
        )
    follows = _table("follows")
    if follows is not None:  # whom it followed and who followed it: personal, not the games
        connection.execute(
            delete(follows).where(
                (follows.c.follower_id == user_id) | (follows.c.followed_id == user_id)
            )
        )
    connection.execute(delete(links).where(links.c.user_id == user_id))
    revoke_all(connection, user_id)
    return name


def _rows(
    connection: Connection, name: str, columns: tuple[str, ...], user_id: int, order: str
) -> list[dict[str, Any]]:
    table = _table(name)
    if table is None:
        return []
    query = (
        select(*(table.c[c] for c in columns))
        .where(table.c.user_id == user_id)
        .order_by(table.c[order])
    )
    return [dict(r._mapping) for r in connection.execute(query)]


def export_data(connection: Connection, user_id: int, *, now: float) -> dict[str, Any]:
    """Everything the server keeps about the account, as JSON-ready data (never a secret:
    no password hash, no token)."""
    user = connection.execute(select(users).where(users.c.id == user_id)).first()
    if user is None:
        raise UserError("no_user", "no such user")
    played = connection.execute(
        select(
            games.c.id,
            games.c.game,
            seats.c.seat,
            seats.c.name,
            games.c.status,
            games.c.casual,
            games.c.created_at,
            games.c.finished_at,
            games.c.result,
            games.c.termination,
        )
        .join(seats, seats.c.game_id == games.c.id)
        .where(seats.c.user_id == user_id)
        .order_by(games.c.created_at)
    )
    return {
        "format": "sansu account export",
        "version": EXPORT_VERSION,
        "exported_at": now,
        "profile": {
            "id": user.id,
            "name": user.name,
            "created_at": user.created_at,
            "password_changed_at": user.password_changed_at,
            "bot": user.bot,
            "role": user.role,
            "email": user.email,
        },
        "games": [dict(r._mapping) for r in played],
        "ratings": _rows(
            connection,
            "ratings",
            (
                "game",
                "speed",
                "rating",
                "deviation",
                "games",
                "wins",
                "draws",
                "losses",
                "updated_at",
            ),
            user_id,
            "game",
        ),
        "rating_history": _rows(
            connection,
            "rating_history",
            ("game", "speed", "game_id", "at", "rating", "deviation", "change"),
            user_id,
            "at",
        ),
        "chat_messages": _rows(
            connection, "chat_messages", ("game_id", "room", "name", "text", "at"), user_id, "at"
        ),
        "puzzles": _rows(
            connection,
            "puzzle_players",
            ("game", "rating", "attempts", "solved", "streak", "best_streak"),
            user_id,
            "game",
        ),
        "api_tokens": _rows(
            connection,
            "api_tokens",
            ("label", "created_at", "revoked_at"),
            user_id,
            "created_at",
        ),
        "following": _following(connection, user_id),
        "settings": {
            "email_verified": user.email is not None,
        },
    }


def _following(connection: Connection, user_id: int) -> list[dict[str, Any]]:
    """The accounts this one follows, by name, oldest first."""
    follows = _table("follows")
    if follows is None:
        return []
    query = (
        select(users.c.name, follows.c.at)
        .join(users, users.c.id == follows.c.followed_id)
        .where(follows.c.follower_id == user_id)
        .order_by(follows.c.at)
    )
    return [{"name": r.name, "since": r.at} for r in connection.execute(query)]
