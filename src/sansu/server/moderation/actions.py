"""What a moderator does to an account or a message, each with a reason, each a line of
the audit log written in the same transaction as the change.

- **Close** (ban): the account can no longer sign in; its sessions end, the game
  sockets it signed in are closed and its API tokens are refused at once; its open
  seeks and challenges go; each game it is playing is resigned for it (aborted if it
  is still abortable), so its opponents win and are not left waiting. **Reopen** lets
  it sign in again (its bot tokens work again; its sessions do not come back).
- **Rename**: an offensive name becomes the name given, or a neutral ``player-ID``;
  the account may then choose a name once. Its games, ratings and seats keep the
  account (game links are by id), and every seat and chat message it holds shows the
  new name.
- **Engine mark**: the account leaves the leaderboards, its profile says so, no
  rated game it plays from then on changes anyone's rating (its opponents' neither),
  and what its opponents lost to it in the last 30 days (``REFUND_DAYS``) comes back
  to them (:func:`~sansu.server.ratings.refund_opponents`). The account's own rating
  stays as it is, off the boards.
- **Remove a message**: through the chat, which hides it from every reader.

Only an account whose role is ``moderator`` or ``admin`` acts (``403 not_a_moderator``);
nobody acts on their own account, and only an admin on another moderator's or admin's.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, func, select, update

from sansu.server.accounts import (
    ROLES,
    SignedIn,
    User,
    UserError,
    audit_entries,
    end_sessions,
    find_user,
    get_user,
    record,
    rename,
    role_of,
    users_table,
)
from sansu.server.base import ApiError, Store, games, seats
from sansu.server.chat import Chat, chat_messages
from sansu.server.lobby import Challenges, Seeks
from sansu.server.moderation.reports import Reports, clean, write
from sansu.server.moderation.tables import MAX_RESOLUTION, reports
from sansu.server.play import GameService
from sansu.server.ratings import refund_opponents

log = logging.getLogger("sansu.server.moderation")

STATUS = {
    "bad_name": 422,
    "reserved_name": 422,
    "name_taken": 409,
    "no_user": 404,
    "no_rename": 403,
}
"""The HTTP status of each refusal of the account domain a moderator may meet."""


def refusal(error: UserError) -> ApiError:
    return ApiError(STATUS.get(error.code, 422), error.code, str(error))


def check_reason(reason: object) -> str:
    """A moderator's reason: 1 to 200 characters of text."""
    reason = clean(reason, MAX_RESOLUTION, "a reason")
    if not reason:
        raise ApiError(422, "reason_required", "every moderator's action needs a reason")
    return reason


def account_json(c: Connection, user: User) -> dict[str, Any]:
    """An account as a moderator sees it."""
    open_reports = c.execute(
        select(func.count()).where(reports.c.target_id == user.id, reports.c.status == "open")
    ).scalar_one()
    return {
        "id": user.id,
        "name": user.name,
        "created_at": user.created_at,
        "bot": user.bot,
        "role": user.role,
        "closed": user.closed,
        "engine": user.engine,
        "rename_once": user.rename_once,
        "open_reports": open_reports,
    }


class Moderation:
    """The moderators' actions, on the parts they reach (the store, the games, the
    chat, the lobby) and the reports queue."""

    def __init__(
        self,
        store: Store,
        service: GameService,
        chat: Chat,
        seeks: Seeks,
        challenges: Challenges,
        reports: Reports,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.service = service
        self.chat = chat
        self.seeks = seeks
        self.challenges = challenges
        self.reports = reports
        self._clock = clock

    async def moderator(self, user: User) -> User:
        """``user`` if it is a moderator or an admin now, else ``403 not_a_moderator``."""
        role = await self.store.read(lambda c: role_of(c, user.id))
        if role not in ROLES:
            raise ApiError(403, "not_a_moderator", "this is for moderators")
        return User(user.id, user.name, user.created_at, user.bot, role=role)

    async def lookup(self, name: str) -> dict[str, Any]:
        def read(c: Connection) -> dict[str, Any]:
            return account_json(c, self._target(c, name))

        return await self.store.read(read)

    def _target(self, c: Connection, name: str, actor: User | None = None) -> User:
        found = find_user(c, name)
        user = None if found is None else get_user(c, found.id)
        if user is None:
            raise ApiError(404, "no_user", f"there is no user named {name!r}")
        if actor is not None and user.id == actor.id:
            raise ApiError(403, "own_account", "a moderator does not act on their own account")
        if actor is not None and user.role is not None and actor.role != "admin":
            raise ApiError(403, "protected_account", "only an admin acts on a moderator")
        return user

    async def _act(
        self,
        actor: User,
        name: str,
        action: str,
        reason: object,
        change: Callable[[Connection, User], dict[str, Any]],
    ) -> dict[str, Any]:
        """Applies ``change`` to the account ``name`` and records it, in one transaction;
        the account as it is now."""
        reason = check_reason(reason)
        now = self._clock()

        def job(c: Connection) -> dict[str, Any]:
            target = self._target(c, name, actor)
            detail = {**change(c, target), "reason": reason}
            after = get_user(c, target.id)
            assert after is not None
            record(c, action, detail, now=now, actor=actor.name, actor_id=actor.id, target=after)
            return account_json(c, after)

        try:
            return await write(self.store, job)
        except UserError as error:
            raise refusal(error) from None

    async def close(self, actor: User, name: str, reason: object) -> dict[str, Any]:
        """Closes the account (a ban); see the module's docstring for what follows."""
        now = self._clock()

        def change(c: Connection, target: User) -> dict[str, Any]:
            if target.closed:
                raise ApiError(409, "already_closed", f"{target.name} is closed already")
            c.execute(
                update(users_table).where(users_table.c.id == target.id).values(closed_at=now)
            )
            return {"sessions_ended": end_sessions(c, target.id)}

        shown = await self._act(actor, name, "close", reason, change)
        user_id = shown["id"]
        shown["sockets_closed"] = self.service.hub.close_account(user_id)
        shown["seeks_left"] = self.seeks.withdraw_account(user_id)
        shown["challenges_canceled"] = await self.challenges.cancel_account(user_id)
        shown["games_resigned"] = await self._resign_games(user_id)
        return shown

    async def _resign_games(self, user_id: int) -> list[str]:
        """Resigns each game in play the account holds a seat of; the games' ids."""
        playing = await self.store.read(
            lambda c: [
                row.id
                for row in c.execute(
                    select(games.c.id)
                    .join(seats, seats.c.game_id == games.c.id)
                    .where(seats.c.user_id == user_id, games.c.status == "active")
                    .distinct()
                )
            ]
        )
        resigned = []
        for game_id in playing:
            try:
                await self.service.resign(game_id, SignedIn(user_id))
            except ApiError as error:  # over meanwhile, or gone: nothing to resign
                log.info("a closed account's game %s was not resigned: %s", game_id, error.code)
                continue
            resigned.append(game_id)
        return resigned

    async def reopen(self, actor: User, name: str, reason: object) -> dict[str, Any]:
        """Lets a closed account sign in again."""

        def change(c: Connection, target: User) -> dict[str, Any]:
            if not target.closed:
                raise ApiError(409, "not_closed", f"{target.name} is not closed")
            c.execute(
                update(users_table).where(users_table.c.id == target.id).values(closed_at=None)
            )
            return {}

        return await self._act(actor, name, "reopen", reason, change)

    async def rename(
        self, actor: User, name: str, new_name: str | None, reason: object
    ) -> dict[str, Any]:
        """Renames the account (``new_name`` ``None``: ``player-ID``); it may choose a name
        once afterwards."""

        def change(c: Connection, target: User) -> dict[str, Any]:
            renamed = self._rename(c, target.id, new_name or f"player-{target.id}", False)
            return {"from": target.name, "to": renamed.name}

        shown = await self._act(actor, name, "rename", reason, change)
        self._rename_in_play(shown["id"], shown["name"])
        return shown

    async def choose_name(self, user: User, new_name: str) -> User:
        """The owner's one choice of a name after a moderator's rename."""
        try:
            renamed = await write(self.store, lambda c: self._rename(c, user.id, new_name, True))
        except UserError as error:
            raise refusal(error) from None
        self._rename_in_play(renamed.id, renamed.name)
        return renamed

    @staticmethod
    def _rename(c: Connection, user_id: int, new_name: str, by_owner: bool) -> User:
        renamed = rename(c, user_id, new_name, by_owner=by_owner)
        c.execute(
            update(chat_messages)
            .where(chat_messages.c.user_id == user_id)
            .values(name=renamed.name)
        )
        return renamed

    def _rename_in_play(self, user_id: int, name: str) -> None:
        """The new name on the seats of the games in memory (the stored seats have it)."""
        for live in list(self.service.rounds.games.values()):
            for seat in live.seats:
                if seat.user_id == user_id:
                    seat.name = name

    async def mark_engine(self, actor: User, name: str, on: bool, reason: object) -> dict[str, Any]:
        """Marks (``on``) or unmarks the account as an engine's user."""
        now = self._clock()

        def change(c: Connection, target: User) -> dict[str, Any]:
            if target.engine == on:
                state = "marked" if on else "not marked"
                raise ApiError(409, "no_change", f"{target.name} is {state} already")
            c.execute(
                update(users_table)
                .where(users_table.c.id == target.id)
                .values(engine_at=now if on else None)
            )
            if not on:
                return {}
            refunds = refund_opponents(c, target.id, now=now)
            return {"opponents_refunded": len(refunds), "points": round(sum(refunds.values()))}

        return await self._act(actor, name, "engine" if on else "unengine", reason, change)

    async def remove_message(self, actor: User, message_id: int, reason: object) -> dict[str, Any]:
        """Removes a chat message (hidden from every reader, kept for the record)."""
        reason = check_reason(reason)
        message = await self.chat.message(message_id)
        if not await self.chat.remove(message_id, actor.id):
            raise ApiError(409, "already_removed", "this message is removed already")
        detail = {
            "message": message_id,
            "game": message["game"],
            "text": message["text"],
            "reason": reason,
        }
        await self._record(actor, "remove_message", detail, message["user_id"])
        return {"id": message_id, "removed": True}

    async def close_report(self, actor: User, report_id: int, resolution: str) -> dict[str, Any]:
        """Closes a report with its resolution (written to the audit log too)."""
        closed = await self.reports.close(report_id, actor, resolution)
        detail = {"report": report_id, "kind": closed["kind"], "resolution": resolution.strip()}
        await self._record(actor, "close_report", detail, closed["target_id"])
        return await self.reports.get(report_id)

    async def _record(
        self, actor: User, action: str, detail: dict[str, Any], target_id: int | None
    ) -> None:
        now = self._clock()

        def job(c: Connection) -> None:
            target = None if target_id is None else get_user(c, target_id)
            record(c, action, detail, now=now, actor=actor.name, actor_id=actor.id, target=target)

        await write(self.store, job)

    async def audit(self, limit: int = 100) -> list[dict[str, Any]]:
        entries = await self.store.read(lambda c: audit_entries(c, limit))
        return [
            {"at": e.at, "actor": e.actor, "action": e.action, "target": e.target,
             "detail": e.detail}
            for e in entries
        ]  # fmt: skip
