"""Recovery and ownership over HTTP: an email address and its verification, a forgotten
password's reset, the account's deletion and the export of its data.

Every token arrives in a JSON body, never in a URL, so none reaches an access log; the
links put it in the fragment (``/#/reset/TOKEN``), which browsers keep to themselves.
A reset request gets one answer (202) whether or not the name or address is anyone's,
and the account is looked up and mailed after the answer, so neither the answer nor its
time tells.
Writes with the session cookie carry the CSRF header; the ones that change who owns the
account (its address, its deletion) also ask for the password, counted against the
log-in limits as a log-in is.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from sansu.server.accounts import ownership, recovery
from sansu.server.accounts import sessions as user_sessions
from sansu.server.accounts.identity import SessionOnly, session_of
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.postbox import Postbox
from sansu.server.accounts.routes import CsrfHeader, LoginLimits, Store, clear_session_cookie
from sansu.server.accounts.users import MAX_PASSWORD, User, UserError, name_key
from sansu.server.base import ApiError, client_of, error_response, part, refusals
from sansu.server.base import Store as StoreClass

T = TypeVar("T")
log = logging.getLogger("sansu.server")

STATUS = {
    "bad_email": 422,
    "bad_password": 422,
    "bad_credentials": 403,
    "bad_link": 400,
    "email_taken": 409,
    "no_user": 404,
}
RESET_ANSWER = (
    "If an account has that name or that verified address, a link to reset its password"
    " is on its way to the address. It works for an hour."
)

Mail = Annotated[Postbox, part("postbox")]
"""The mailer, the links' public address, the clock and the reset limits."""


class EmailChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(max_length=recovery.MAX_EMAIL)
    password: str = Field(max_length=MAX_PASSWORD)


class PasswordOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=MAX_PASSWORD)


class LinkToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=128)


class ResetRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    who: str = Field(max_length=recovery.MAX_EMAIL, description="a user name or an address")


class Reset(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=128)
    new_password: str = Field(max_length=MAX_PASSWORD, description="8 characters or more")


class EmailState(BaseModel):
    configured: bool = Field(description="whether this server sends mail (--smtp)")
    email: str | None = Field(None, description="the verified address")
    verified: bool = False
    pending: str | None = Field(None, description="an address waiting for its link")
    pending_expires_at: float | None = None


def _refusal(error: UserError) -> ApiError:
    return ApiError(STATUS.get(error.code, 422), error.code, str(error))


async def _write(store: StoreClass, fn: Callable[[Connection], T]) -> T:
    """``fn`` in its own transaction, in a worker thread (Argon2 is slow)."""
    try:
        return await asyncio.to_thread(store.write_now, fn)
    except UserError as error:
        raise _refusal(error) from None


def _private(response: Response) -> None:
    response.headers["Cache-Control"] = "no-store"


def _too_many_mails() -> Response:
    refusal = error_response(
        ApiError(429, "too_many_requests", "too many mails asked for: wait and try again")
    )
    refusal.headers.update({"Retry-After": "3600", "Cache-Control": "no-store"})
    return refusal


def _need_mail(postbox: Postbox) -> None:
    if not postbox.configured:
        raise ApiError(404, "email_not_configured", "this server sends no mail (see --smtp)")


async def _with_password(
    store: StoreClass,
    limiter: LoginLimiter,
    request: Request,
    user: User,
    job: Callable[[Connection], T],
) -> T:
    """``job``, which checks the password, as one log-in attempt of the account."""
    attempt = limiter.attempt(name_key(user.name), client_of(request.scope))
    if not attempt.allowed:
        wait = attempt.retry_after
        raise ApiError(
            429, "too_many_attempts", f"too many wrong passwords: wait {wait} s", retry_after=wait
        )
    try:
        done = await _write(store, job)
    except ApiError as error:
        if error.code == "bad_credentials":
            limiter.failed()
        raise
    limiter.succeeded(attempt)
    return done


router = APIRouter(prefix="/api/account", tags=["accounts"])


@router.get("/email", response_model=EmailState)
async def email_state(
    request: Request, response: Response, store: Store, postbox: Mail
) -> dict[str, Any]:
    """Whether this server sends mail, and the signed-in account's address and the one
    waiting for verification (nulls for anyone not signed in)."""
    _private(response)
    session = await session_of(store, request.cookies)
    state: dict[str, Any] = {"configured": postbox.configured}
    if session is not None:
        now = postbox.clock()
        state |= await store.read(lambda c: recovery.account_email(c, session[1].id, now=now))
    return state


@router.post(
    "/email", status_code=202, response_model=EmailState, responses=refusals(401, 403, 404)
)
async def change_email(
    body: EmailChange,
    request: Request,
    response: Response,
    store: Store,
    postbox: Mail,
    limiter: LoginLimits,
    caller: SessionOnly,
    csrf: CsrfHeader = None,
) -> Any:
    """Sends a verification link to a new address (needs the password); the account's
    address stays the old one until the link is followed. Past 3 links an hour to one
    address, or 10 from one client, it is ``429``."""
    _private(response)
    _need_mail(postbox)
    _token, user = await caller.session(csrf or "")
    now = postbox.clock()
    try:
        address = recovery.normalise_email(body.email)  # a typo is not a wrong password
    except UserError as error:
        raise _refusal(error) from None
    if not postbox.allow(recovery.VERIFY, client_of(request.scope), address):
        return _too_many_mails()

    def job(c: Connection) -> tuple[recovery.Letter | None, dict[str, Any]]:
        letter = recovery.request_email(c, user.id, body.password, body.email, now=now)
        return letter, recovery.account_email(c, user.id, now=now)

    letter, state = await _with_password(store, limiter, request, user, job)
    if letter is not None:
        postbox.send(letter)
    return {"configured": True, **state}


@router.post("/email/remove", response_model=EmailState, responses=refusals(401, 403))
async def remove_email(
    body: PasswordOnly,
    request: Request,
    response: Response,
    store: Store,
    postbox: Mail,
    limiter: LoginLimits,
    caller: SessionOnly,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """Forgets the account's address (needs the password): no reset by mail then."""
    _private(response)
    _token, user = await caller.session(csrf or "")
    now = postbox.clock()

    def job(c: Connection) -> dict[str, Any]:
        recovery.remove_email(c, user.id, body.password)
        return recovery.account_email(c, user.id, now=now)

    state = await _with_password(store, limiter, request, user, job)
    return {"configured": postbox.configured, **state}


@router.post("/email/verify", responses=refusals(409))
async def verify_email(
    body: LinkToken, response: Response, store: Store, postbox: Mail
) -> dict[str, Any]:
    """Follows a verification link: its address becomes the account's (``400 bad_link``
    for an unknown, used or expired link). The token is the proof; no session needed."""
    _private(response)
    now = postbox.clock()
    address = await _write(store, lambda c: recovery.verify_email(c, body.token, now=now))
    return {"ok": True, "email": address}


@router.post("/reset/request", status_code=202, responses=refusals(404))
async def request_reset(
    body: ResetRequest, request: Request, response: Response, store: Store, postbox: Mail
) -> Any:
    """Mails a reset link to the verified address of the account with this name or
    address. The answer is the same whether or not there is one; past 3 requests an hour
    for one name or address, or 10 from one client, it is ``429``."""
    _private(response)
    _need_mail(postbox)
    if not postbox.allow(recovery.RESET, client_of(request.scope), body.who):
        return _too_many_mails()
    now = postbox.clock()

    async def look_up() -> None:
        try:
            letter = await _write(store, lambda c: recovery.request_reset(c, body.who, now=now))
        except Exception:  # the answer is gone: the log keeps the failure (no link in it)
            log.exception("a reset request failed")
            return
        if letter is not None:
            postbox.send(letter)

    postbox.later(look_up())  # after the answer, so that its time tells nothing
    return {"ok": True, "message": RESET_ANSWER}


@router.post("/reset", responses=refusals())
async def reset_password(
    body: Reset, response: Response, store: Store, postbox: Mail
) -> dict[str, Any]:
    """Follows a reset link: sets the new password and ends every session of the
    account (sign in again with the new password)."""
    _private(response)
    now = postbox.clock()

    def job(c: Connection) -> int:
        user_id = recovery.reset_password(c, body.token, body.new_password, now=now)
        return user_sessions.revoke_all(c, user_id)

    ended = await _write(store, job)
    return {"ok": True, "sessions_ended": ended}


@router.post("/delete", responses=refusals(401, 403))
async def delete_account(
    body: PasswordOnly,
    request: Request,
    response: Response,
    store: Store,
    postbox: Mail,
    limiter: LoginLimits,
    caller: SessionOnly,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """Deletes the account (needs the password): its games stay, under the name
    ``deleted user N``; its sessions, API tokens and address go. It cannot be undone."""
    _private(response)
    _token, user = await caller.session(csrf or "")
    now = postbox.clock()
    job = lambda c: ownership.delete_account(c, user.id, body.password, now=now)  # noqa: E731
    name = await _with_password(store, limiter, request, user, job)
    clear_session_cookie(response, request)
    return {"ok": True, "name": name}


@router.get("/export", responses=refusals(401))
async def export_data(store: Store, postbox: Mail, caller: SessionOnly) -> Response:
    """The account's data as a JSON download: its profile, games, ratings, chat
    messages and settings (never a password hash or a token)."""
    _token, user = await caller.session(write=False)
    now = postbox.clock()
    data = await store.read(lambda c: ownership.export_data(c, user.id, now=now))
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="sansu-{user.name}.json"',
        },
    )
