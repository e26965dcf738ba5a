"""Moderation over HTTP: a player's report of an account, and the moderators' routes
(``/api/mod/...``: the reports queue, an account's lookup and the actions on it, the
removal of a chat message, the audit log).

Every route needs a signed-in session, and a write its CSRF token; the moderators'
routes answer ``403 not_a_moderator`` to anyone without the role, before anything is
looked up or changed. A message is reported through the chat's own route
(``POST /api/chat/{id}/report``), which files it in the same queue.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from sansu.server.accounts import SessionOnly, User, bot_refused
from sansu.server.base import REQUEST, part, refusals
from sansu.server.moderation.actions import Moderation
from sansu.server.moderation.reports import Category, Reports

ModerationPart = Annotated[Moderation, part("moderation")]
ReportsPart = Annotated[Reports, part("reports")]
UserName = Annotated[str, Path(min_length=1, max_length=20, description="a user name, any case")]
ReportId = Annotated[int, Path(ge=1, le=2**53, description="a report's id")]
MessageId = Annotated[int, Path(ge=1, le=2**53, description="a chat message's id")]


class AccountReport(BaseModel):
    model_config = REQUEST
    category: Category
    text: str = Field("", max_length=2000, description="at most 500 characters once trimmed")


class Reason(BaseModel):
    model_config = REQUEST
    reason: str = Field(max_length=1000, description="why: 1 to 200 characters once trimmed")


class Renaming(Reason):
    name: str | None = Field(
        None, max_length=64, description="the new name (none: a neutral player-ID)"
    )


class EngineMark(Reason):
    on: bool = Field(description="true marks the account, false takes the mark away")


class NewName(BaseModel):
    model_config = REQUEST
    name: str = Field(max_length=64, description="2–20 letters, digits, '_' or '-'")


class Resolution(BaseModel):
    model_config = REQUEST
    resolution: str = Field(max_length=1000, description="1 to 200 characters once trimmed")


router = APIRouter(prefix="/api", tags=["moderation"])


async def _reporter(caller: SessionOnly) -> User:
    _token, user = await caller.session()
    if user.bot:
        raise bot_refused()
    return user


async def _moderator(caller: SessionOnly, moderation: Moderation, *, write: bool) -> User:
    _token, user = await caller.session(write=write)
    return await moderation.moderator(user)


@router.post("/users/{name}/report", status_code=201, responses=refusals(401, 403, 404, 409))
async def report_account(
    name: UserName, body: AccountReport, reports: ReportsPart, caller: SessionOnly
) -> dict[str, Any]:
    """Reports an account to the moderators: a category and a short text. One open
    report per reporter and account; a few an hour."""
    reporter = await _reporter(caller)
    return {"report": await reports.file_account(reporter, name, body.category, body.text)}


@router.post("/account/name", responses=refusals(401, 403, 409))
async def choose_name(
    body: NewName, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Chooses a new name, once, after a moderator renamed the account (its games,
    ratings and links by game id stay)."""
    _token, user = await caller.session()
    renamed = await moderation.choose_name(user, body.name)
    return {"user": {"id": renamed.id, "name": renamed.name, "rename_once": renamed.rename_once}}


@router.get("/mod/reports", responses=refusals(401, 403))
async def report_queue(
    moderation: ModerationPart,
    caller: SessionOnly,
    status: Annotated[Literal["open", "closed", "all"], Query()] = "open",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The reports queue: open ones first, newest first; a message's with its context."""
    await _moderator(caller, moderation, write=False)
    return {"reports": await moderation.reports.queue(status, limit)}


@router.post("/mod/reports/{report_id}/close", responses=refusals(401, 403, 404, 409))
async def close_report(
    report_id: ReportId, body: Resolution, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Closes a report with a resolution (recorded in the audit log)."""
    actor = await _moderator(caller, moderation, write=True)
    return {"report": await moderation.close_report(actor, report_id, body.resolution)}


@router.get("/mod/users/{name}", responses=refusals(401, 403, 404))
async def look_up(name: UserName, moderation: ModerationPart, caller: SessionOnly) -> Any:
    """An account as a moderator sees it: role, closed, engine mark, open reports."""
    await _moderator(caller, moderation, write=False)
    return {"user": await moderation.lookup(name)}


@router.post("/mod/users/{name}/close", responses=refusals(401, 403, 404, 409))
async def close_account(
    name: UserName, body: Reason, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Closes (bans) an account: no sign-in, its sessions and tokens refused at once, its
    seeks and challenges gone, its games in play resigned."""
    actor = await _moderator(caller, moderation, write=True)
    return {"user": await moderation.close(actor, name, body.reason)}


@router.post("/mod/users/{name}/reopen", responses=refusals(401, 403, 404, 409))
async def reopen_account(
    name: UserName, body: Reason, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Reopens a closed account."""
    actor = await _moderator(caller, moderation, write=True)
    return {"user": await moderation.reopen(actor, name, body.reason)}


@router.post("/mod/users/{name}/rename", responses=refusals(401, 403, 404, 409))
async def rename_account(
    name: UserName, body: Renaming, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Renames an account (an offensive name); it may then choose a name once."""
    actor = await _moderator(caller, moderation, write=True)
    return {"user": await moderation.rename(actor, name, body.name, body.reason)}


@router.post("/mod/users/{name}/engine", responses=refusals(401, 403, 404, 409))
async def mark_engine(
    name: UserName, body: EngineMark, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Marks or unmarks an account as an engine's user (off the leaderboards; its rated
    games change no rating)."""
    actor = await _moderator(caller, moderation, write=True)
    return {"user": await moderation.mark_engine(actor, name, body.on, body.reason)}


@router.post("/mod/messages/{message_id}/remove", responses=refusals(401, 403, 404, 409))
async def remove_message(
    message_id: MessageId, body: Reason, moderation: ModerationPart, caller: SessionOnly
) -> dict[str, Any]:
    """Removes a chat message: hidden from every reader, kept for the record."""
    actor = await _moderator(caller, moderation, write=True)
    return {"message": await moderation.remove_message(actor, message_id, body.reason)}


@router.get("/mod/audit", responses=refusals(401, 403))
async def audit_log(
    moderation: ModerationPart,
    caller: SessionOnly,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The audit log, newest first: who did what to whom, when and why."""
    await _moderator(caller, moderation, write=False)
    return {"entries": await moderation.audit(limit)}
