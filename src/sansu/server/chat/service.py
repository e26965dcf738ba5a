"""The chat of each game: messages stored with the game, delivered live through its sockets.

A message is committed to the store first, then sent as a ``chat`` event to
the sockets of the game that hear its room (:func:`~sansu.server.chat.rooms.audience`),
on this node and, through :attr:`Chat.relay`, on every other node of a cluster.
Chat events are not numbered game events: a client that reconnects reads the
room again (``GET /api/games/{id}/chat``), so a lost relay loses nothing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from limits import parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from sqlalchemy import Connection, insert, select, update

from sansu.server.accounts import SignedIn, Who, get_user
from sansu.server.base import ApiError, count
from sansu.server.chat.rooms import (
    REASONS,
    Room,
    audience,
    author_of,
    check_read,
    clean_text,
    seat_name,
)
from sansu.server.chat.tables import chat_messages
from sansu.server.play import GameService, dumps

TOPIC = "chat"
"""The cluster bus's topic of chat events."""
RATE = "4/10seconds;20/minute"
"""Messages one author may send: a greeting and a few words, never a flood."""


class Bus(Protocol):
    """What :meth:`Chat.link` needs of a cluster's bus (:mod:`sansu.server.cluster.bus`)."""

    def listen(self, topic: str, listener: Callable[[dict[str, Any]], None]) -> None: ...

    def publish(self, topic: str, data: dict[str, Any]) -> None: ...


def no_such_message(message_id: int) -> ApiError:
    return ApiError(404, "no_such_message", f"there is no chat message {message_id}")


def message_json(row: Any) -> dict[str, Any]:
    """A message as every reader sees it (its author's key names them for muting)."""
    author = f"user:{row.user_id}" if row.user_id is not None else f"seat:{row.game_id}:{row.seat}"
    return {
        "id": row.id,
        "room": row.room,
        "author": author,
        "name": row.name,
        "seat": row.seat,
        "text": row.text,
        "at": row.at,
    }


ReportFiler = Callable[[dict[str, Any]], Awaitable[int]]
"""Files a report of a message in the moderators' queue (:mod:`sansu.server.moderation`)
and answers its id: the report's ``message_id``, ``game_id``, ``reason``, the reporter's
``user_id`` and ``seat`` (either may be ``None``), and the message's ``author_id`` and
``author`` (its name)."""


class Chat:
    """Every game's chat: reading, writing, reporting, and removal by a moderator.
    ``file_report``: where a report goes (the moderators' queue). ``storage``: where the
    authors' message counts are kept (a cluster's Redis, so that an author counts once
    on every node; default: this process's memory)."""

    def __init__(
        self,
        service: GameService,
        *,
        file_report: ReportFiler,
        rate: str = RATE,
        storage: Storage | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.store = service.store
        self.file_report = file_report
        self.rate = parse_many(rate)
        self._limiter = FixedWindowRateLimiter(storage or MemoryStorage())
        self._clock = clock
        self.relay: Callable[[dict[str, Any]], None] | None = None
        """On a node of a cluster: tells the other nodes a chat event (they call
        :meth:`deliver`)."""

    def link(self, bus: Bus) -> None:
        """On a node of a cluster: sends this node's chat events to the others on ``bus``'s
        topic ``chat``, and delivers theirs to this node's sockets."""
        bus.listen(TOPIC, self.deliver)
        self.relay = lambda news: bus.publish(TOPIC, news)

    async def messages(self, game_id: str, who: Who, room: Room) -> list[dict[str, Any]]:
        """The room's messages in the order sent, without those a moderator removed."""
        live = await self.service.get(game_id)
        check_read(live, who, room)

        def read(c: Connection) -> list[dict[str, Any]]:
            rows = c.execute(
                select(chat_messages)
                .where(
                    chat_messages.c.game_id == live.id,
                    chat_messages.c.room == room,
                    chat_messages.c.removed_by.is_(None),
                )
                .order_by(chat_messages.c.id)
            )
            return [message_json(row) for row in rows]

        return await self.store.read(read)

    async def post(self, game_id: str, who: Who, room: Room, text: str) -> dict[str, Any]:
        """Stores a message of ``who`` in ``room`` and sends it to the room's audience."""
        live = await self.service.get(game_id)
        text = clean_text(text)
        author = author_of(live, who, room)
        name = (
            seat_name(live, author.seat)
            if author.seat is not None
            else await self._account_name(author.user_id)
        )
        limits = [("chat messages", item) for item in self.rate]
        await count(self._limiter, limits, author.key(live.id), "you", "chat_rate_limited")
        row = {
            "game_id": live.id,
            "room": room,
            "user_id": author.user_id,
            "seat": author.seat,
            "name": name,
            "text": text,
            "at": self._clock(),
        }
        message_id = await self.store.write(
            lambda c: c.execute(insert(chat_messages).values(**row)).inserted_primary_key[0]
        )
        message = message_json(_Row(id=message_id, **row))
        over = live.status != "active"
        self._announce({"type": "chat", "game": live.id, "over": over, "message": message})
        return message

    async def report(self, message_id: int, who: Who, reason: str) -> dict[str, Any]:
        """Files a report of a message by someone who can read it (a player, or a
        signed-in spectator) in the moderators' queue."""
        if reason not in REASONS:
            raise ApiError(422, "bad_reason", f"a report's reason is one of {', '.join(REASONS)}")
        row = await self._message(message_id)
        if row.removed_by is not None:
            raise no_such_message(message_id)
        live = await self.service.get(row.game_id)
        held = check_read(live, who, row.room)
        user_id = who.user_id if isinstance(who, SignedIn) else None
        if not held and user_id is None:
            raise ApiError(401, "sign_in_required", "sign in to report a message")
        report = {
            "message_id": message_id,
            "game_id": row.game_id,
            "reason": reason,
            "user_id": user_id,
            "seat": min(held) if held else None,
            "author_id": row.user_id,
            "author": row.name,
        }
        report_id = await self.file_report(report)
        return {"id": report_id, "message": message_id, "reason": reason}

    async def remove(self, message_id: int, by: int) -> bool:
        """A moderator's removal: the message stays in the store, with ``by`` (the
        moderator's account) and the time, and is hidden from every reader; the game's
        sockets are told to drop it. False when it was already removed."""
        row = await self._message(message_id)
        if row.removed_by is not None:
            return False
        now = self._clock()

        def hide(c: Connection) -> int:
            return c.execute(
                update(chat_messages)
                .where(chat_messages.c.id == message_id, chat_messages.c.removed_by.is_(None))
                .values(removed_by=by, removed_at=now)
            ).rowcount

        if not await self.store.write(hide):
            return False
        self._announce(
            {"type": "chat_removed", "game": row.game_id, "room": row.room, "id": message_id}
        )
        return True

    def deliver(self, news: dict[str, Any]) -> None:
        """Sends a chat event to this node's sockets of its game that hear its room (a
        removal goes to every socket of the game: a client drops what it has)."""
        connections = self.service.hub.connections.get(str(news.get("game")), ())
        if not connections:
            return
        if news.get("type") == "chat":
            message = news["message"]
            text = dumps({"type": "chat", "message": message})
            over = bool(news.get("over"))
            for connection in list(connections):
                if audience(message["room"], connection.seats, over):
                    connection.send(text)
        elif news.get("type") == "chat_removed":
            text = dumps({"type": "chat_removed", "room": news["room"], "id": news["id"]})
            for connection in list(connections):
                connection.send(text)

    def _announce(self, news: dict[str, Any]) -> None:
        self.deliver(news)
        if self.relay is not None:
            self.relay(news)

    async def message(self, message_id: int) -> dict[str, Any]:
        """A message as a moderator sees it, removed or not: with its game, its author's
        account and who removed it."""
        row = await self._message(message_id)
        return {
            **message_json(row),
            "game": row.game_id,
            "user_id": row.user_id,
            "removed_by": row.removed_by,
            "removed_at": row.removed_at,
        }

    async def _message(self, message_id: int) -> Any:
        row = await self.store.read(
            lambda c: c.execute(
                select(chat_messages).where(chat_messages.c.id == message_id)
            ).first()
        )
        if row is None:
            raise no_such_message(message_id)
        return row

    async def _account_name(self, user_id: int | None) -> str:
        user = None if user_id is None else await self.store.read(lambda c: get_user(c, user_id))
        if user is None:
            raise ApiError(401, "sign_in_required", "sign in to write in the spectators' room")
        return user.name


class _Row:
    """A stored message's fields, as :func:`message_json` reads them."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)
