"""Reports: any signed-in player reports an account (from its profile) or a chat message
(through the chat's report), and the moderators work through the queue.

A reporter holds at most one open report per target (``409 already_reported``), files
a few a time (``429 report_rate_limited``), and writes a short text. Nothing of a
refused report is stored.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections.abc import Callable
from typing import Any, Literal, TypeVar, get_args

from limits import parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from sqlalchemy import Connection, case, insert, select, update
from sqlalchemy.exc import IntegrityError

from sansu.server.accounts import User, find_user, get_user
from sansu.server.base import ApiError, Store, count
from sansu.server.chat import REASONS, chat_messages
from sansu.server.moderation.tables import MAX_RESOLUTION, MAX_TEXT, reports

T = TypeVar("T")
Category = Literal["cheating", "offensive_name", "abuse", "spam", "other"]
CATEGORIES: tuple[str, ...] = get_args(Category)
"""Why an account is reported (a message's reasons are the chat's: spam, insult, other)."""
RATE = "5/10minutes;20/day"
"""Reports one reporter may file: enough for what one meets, too few to flood the queue."""
CONTEXT = 3
"""Messages shown before a reported one in its room."""
STATUSES = ("open", "closed", "all")


def clean(text: object, limit: int, what: str) -> str:
    """``text`` trimmed, if it is at most ``limit`` characters of printable text."""
    if not isinstance(text, str):
        raise ApiError(422, "bad_text", f"{what} is text")
    text = text.strip()
    if len(text) > limit:
        raise ApiError(422, "bad_text", f"{what} is at most {limit} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\n" for c in text):
        raise ApiError(422, "bad_text", f"{what} holds no control characters")
    return text


async def write(store: Store, job: Callable[[Connection], T]) -> T:
    """``job`` in its own transaction, in a worker thread: a refusal it raises reaches the
    caller with nothing written (the store's batched writer would turn it into a
    ``StoreError``)."""
    return await asyncio.to_thread(store.write_now, job)


def already_reported() -> ApiError:
    return ApiError(409, "already_reported", "you have an open report of this already")


def no_such_report(report_id: int) -> ApiError:
    return ApiError(404, "no_such_report", f"there is no report {report_id}")


class Reports:
    """The reports queue. ``storage``: where reporters' counts are kept (a cluster's
    Redis; default: this process's memory)."""

    def __init__(
        self,
        store: Store,
        *,
        rate: str = RATE,
        storage: Storage | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.rate = parse_many(rate)
        self._limiter = FixedWindowRateLimiter(storage or MemoryStorage())
        self._clock = clock

    async def _count(self, reporter: str) -> None:
        limits = [("reports", item) for item in self.rate]
        await count(self._limiter, limits, reporter, "you", "report_rate_limited")

    async def _insert(self, values: dict[str, Any]) -> int:
        def job(c: Connection) -> int:
            try:
                with c.begin_nested():
                    return c.execute(insert(reports).values(**values)).inserted_primary_key[0]
            except IntegrityError:
                raise already_reported() from None

        return await write(self.store, job)

    async def _open(self, key: str) -> bool:
        found = await self.store.read(
            lambda c: c.execute(select(reports.c.id).where(reports.c.open_key == key)).first()
        )
        return found is not None

    async def file_account(
        self, reporter: User, name: str, category: str, text: str
    ) -> dict[str, Any]:
        """Files ``reporter``'s report of the account ``name``."""
        if category not in CATEGORIES:
            raise ApiError(422, "bad_category", f"a category is one of {', '.join(CATEGORIES)}")
        text = clean(text, MAX_TEXT, "a report")
        target = await self.store.read(lambda c: find_user(c, name))
        if target is None:
            raise ApiError(404, "no_user", f"there is no user named {name!r}")
        if target.id == reporter.id:
            raise ApiError(422, "own_account", "you cannot report your own account")
        key = f"user:{reporter.id}>user:{target.id}"
        if await self._open(key):
            raise already_reported()
        await self._count(f"user:{reporter.id}")
        values = {
            "at": self._clock(),
            "kind": "account",
            "category": category,
            "text": text,
            "reporter_id": reporter.id,
            "reporter": reporter.name,
            "target_id": target.id,
            "target": target.name,
            "status": "open",
            "open_key": key,
        }
        report_id = await self._insert(values)
        return {"id": report_id, "kind": "account", "target": target.name, "category": category}

    async def file_message(self, report: dict[str, Any]) -> int:
        """Files a report of a chat message (:data:`sansu.server.chat.ReportFiler`)."""
        if report["reason"] not in REASONS:
            raise ApiError(422, "bad_reason", f"a report's reason is one of {', '.join(REASONS)}")
        user_id, seat, game_id = report["user_id"], report["seat"], report["game_id"]
        user = None if user_id is None else await self.store.read(lambda c: get_user(c, user_id))
        reporter = f"user:{user_id}" if user is not None else f"seat:{game_id}:{seat}"
        if report["author_id"] is not None and report["author_id"] == user_id:
            raise ApiError(422, "own_message", "you cannot report your own message")
        key = f"{reporter}>message:{report['message_id']}"
        if await self._open(key):
            raise already_reported()
        await self._count(reporter)
        values = {
            "at": self._clock(),
            "kind": "message",
            "category": report["reason"],
            "text": "",
            "reporter_id": None if user is None else user.id,
            "reporter": user.name if user is not None else f"seat {seat} of {game_id}",
            "target_id": report["author_id"],
            "target": report["author"],
            "message_id": report["message_id"],
            "game_id": game_id,
            "status": "open",
            "open_key": key,
        }
        return await self._insert(values)

    async def queue(self, status: str = "open", limit: int = 50) -> list[dict[str, Any]]:
        """Reports, open ones first, then the newest; a message's with the message and the
        few before it in its room."""
        if status not in STATUSES:
            raise ApiError(422, "bad_status", f"a status is one of {', '.join(STATUSES)}")

        def read(c: Connection) -> list[dict[str, Any]]:
            query = select(reports).order_by(
                case((reports.c.status == "open", 0), else_=1), reports.c.at.desc(), reports.c.id
            )
            if status != "all":
                query = query.where(reports.c.status == status)
            return [self._json(c, row) for row in c.execute(query.limit(limit))]

        return await self.store.read(read)

    async def get(self, report_id: int) -> dict[str, Any]:
        def read(c: Connection) -> dict[str, Any]:
            row = c.execute(select(reports).where(reports.c.id == report_id)).first()
            if row is None:
                raise no_such_report(report_id)
            return self._json(c, row)

        return await self.store.read(read)

    def _json(self, c: Connection, row: Any) -> dict[str, Any]:
        shown = {
            key: getattr(row, key)
            for key in (
                "id", "at", "kind", "category", "text", "reporter", "target", "target_id",
                "game_id", "status", "closed_at", "closed_by", "resolution",
            )
        }  # fmt: skip
        shown["message"] = None if row.message_id is None else context(c, row.message_id)
        return shown

    async def close(self, report_id: int, moderator: User, resolution: str) -> dict[str, Any]:
        """Closes an open report with a resolution (``409 report_closed`` if closed)."""
        resolution = clean(resolution, MAX_RESOLUTION, "a resolution")
        if not resolution:
            raise ApiError(422, "bad_text", "a report is closed with a resolution")
        now = self._clock()

        def job(c: Connection) -> dict[str, Any]:
            row = c.execute(select(reports).where(reports.c.id == report_id)).first()
            if row is None:
                raise no_such_report(report_id)
            done = c.execute(
                update(reports)
                .where(reports.c.id == report_id, reports.c.status == "open")
                .values(
                    status="closed",
                    open_key=None,
                    closed_at=now,
                    closed_by_id=moderator.id,
                    closed_by=moderator.name,
                    resolution=resolution,
                )
            ).rowcount
            if not done:
                raise ApiError(409, "report_closed", "this report is closed already")
            return {"id": row.id, "kind": row.kind, "target_id": row.target_id}

        return await write(self.store, job)


def context(c: Connection, message_id: int) -> dict[str, Any] | None:
    """A reported message with up to :data:`CONTEXT` messages before it in its room."""
    m = chat_messages
    row = c.execute(select(m).where(m.c.id == message_id)).first()
    if row is None:
        return None
    before = c.execute(
        select(m)
        .where(m.c.game_id == row.game_id, m.c.room == row.room, m.c.id < row.id)
        .order_by(m.c.id.desc())
        .limit(CONTEXT)
    ).all()

    def shown(r: Any) -> dict[str, Any]:
        return {"id": r.id, "name": r.name, "text": r.text, "at": r.at,
                "removed": r.removed_by is not None}  # fmt: skip

    return {
        **shown(row),
        "game": row.game_id,
        "room": row.room,
        "before": [shown(r) for r in reversed(before)],
    }
