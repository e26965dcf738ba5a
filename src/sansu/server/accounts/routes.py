"""Accounts over HTTP: sign-up, log-in, log-out, password change, and who is signed in.

A log-in opens a session (:mod:`sansu.server.accounts.sessions`) whose token
travels only in the ``sansu_session`` cookie: HttpOnly (no script reads it),
SameSite=Lax (another site's forms and requests do not carry it), Secure when
the request came over https. Every write authenticated by that cookie must
also carry the session's CSRF token in the ``X-CSRF-Token`` header: the token
is in the answers of sign-up, log-in and ``GET /api/account``, which a page of
another site cannot read, so it cannot forge the write (the double submit of
a value tied to the session). Sign-up and log-in take JSON bodies, which a
plain HTML form of another site cannot send.

Passwords are hashed with Argon2 (tens of milliseconds by design), so the
account work runs in a worker thread on its own connection, never on the
event loop; its transactions write only after the hashing, so they hold the
database's write lock for a moment only. A password is never logged or
echoed: refusals name the rule, never the value.

Each route is a function of this module: the store and the log-in limiter come
in through ``Depends`` (:func:`~sansu.server.base.part`), and so does the caller,
as a :class:`~sansu.server.accounts.identity.Caller`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from sansu.server.accounts import sessions as user_sessions
from sansu.server.accounts import users
from sansu.server.accounts.identity import (
    COOKIE,
    CSRF_HEADER,
    SessionOnly,
    mark_seen,
    session_of,
)
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.users import MAX_PASSWORD, User, UserError
from sansu.server.base import ApiError, client_of, part, refusals
from sansu.server.base import Store as StoreClass

T = TypeVar("T")

STATUS = {
    "bad_name": 422,
    "reserved_name": 422,
    "bad_password": 422,
    "name_taken": 409,
    "bad_credentials": 401,
    "too_many_attempts": 429,
    "no_user": 401,
    "account_closed": 403,
}
"""The HTTP status of each refusal of the user domain."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64, description="2–20 letters, digits, '_' or '-'")
    password: str = Field(max_length=MAX_PASSWORD, description="8 characters or more")


class SignUp(Credentials):
    bot: bool = Field(False, description="a bot account: plays through the bot API only")


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_password: str = Field(max_length=MAX_PASSWORD)
    new_password: str = Field(max_length=MAX_PASSWORD, description="8 characters or more")


class AccountUser(BaseModel):
    id: int
    name: str
    created_at: float = Field(description="seconds since the epoch")
    bot: bool = Field(False, description="a bot account (shown as BOT)")
    role: str | None = Field(None, description="admin or moderator; null: a player")
    rename_once: bool = Field(
        False, description="a moderator renamed the account: it may choose a name, once"
    )


class AccountState(BaseModel):
    user: AccountUser | None = Field(description="null when nobody is signed in")
    csrf_token: str | None = Field(
        description=f"send it as {CSRF_HEADER} with every write this session makes"
    )


class Done(BaseModel):
    ok: bool
    sessions_ended: int = Field(0, description="other sessions ended (a password change)")


CsrfHeader = Annotated[
    str | None, Header(alias=CSRF_HEADER, description="the session's CSRF token")
]
Store = Annotated[StoreClass, part("store")]
"""The server's store, as the composition root built it."""
LoginLimits = Annotated[LoginLimiter, part("login_limiter")]
"""The brute-force limit on log-ins."""


def _refusal(error: UserError, *, status: int | None = None) -> ApiError:
    return ApiError(status or STATUS.get(error.code, 422), error.code, str(error))


def _refused(error: ApiError) -> JSONResponse:
    """The answer of a refusal, with ``Retry-After`` when it says how long to wait."""
    headers = {"Cache-Control": "no-store"}
    if "retry_after" in error.detail:
        headers["Retry-After"] = str(error.detail["retry_after"])
    return JSONResponse(error.to_dict(), status_code=error.status, headers=headers)


def _state(user: User | None, csrf: str | None) -> dict[str, Any]:
    shown = (
        None
        if user is None
        else {
            "id": user.id,
            "name": user.name,
            "created_at": user.created_at,
            "bot": user.bot,
            "role": user.role,
            "rename_once": user.rename_once,
        }
    )
    return {"user": shown, "csrf_token": csrf}


def _https(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(user_sessions.SESSION_SECONDS),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_https(request),
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_https(request))


async def _write(store: StoreClass, fn: Callable[[Connection], T]) -> T:
    """``fn`` in its own committed transaction, in a worker thread (Argon2 is slow)."""
    return await asyncio.to_thread(store.write_now, fn)


def _private(response: Response) -> None:
    response.headers["Cache-Control"] = "no-store"


def _too_many(error: UserError, name: str, client: str, limiter: LoginLimiter) -> ApiError:
    """A refusal; ``too_many_attempts`` says how long to wait (and ``Retry-After``)."""
    if error.code != "too_many_attempts":
        return _refusal(error)
    wait = limiter.retry_after(users.name_key(name), client)
    return ApiError(429, error.code, f"{error} ({wait} s)", retry_after=wait)


router = APIRouter(prefix="/api/account", tags=["accounts"])


@router.get("", response_model=AccountState)
async def who_am_i(request: Request, response: Response, store: Store) -> dict[str, Any]:
    """Who is signed in with this browser's session cookie, and the session's CSRF
    token (``user`` is null for anyone not signed in)."""
    _private(response)
    session = await session_of(store, request.cookies)
    if session is None:
        return _state(None, None)
    mark_seen(request, session[1].id)
    return _state(session[1], user_sessions.csrf_token(session[0]))


@router.post("/signup", status_code=201, response_model=AccountState, responses=refusals(409))
async def sign_up(
    body: SignUp, request: Request, response: Response, store: Store
) -> dict[str, Any]:
    """Creates an account and signs it in (sets the session cookie); ``bot``: a bot
    account (docs/bots.md)."""
    _private(response)

    def job(c: Connection) -> user_sessions.Session:
        user = users.sign_up(c, body.name, body.password, now=time.time(), bot=body.bot)
        return user_sessions.open_session(c, user, now=time.time())

    try:
        session = await _write(store, job)
    except UserError as error:
        raise _refusal(error) from None
    set_session_cookie(response, request, session.token)
    mark_seen(request, session.user.id)
    return _state(session.user, session.csrf)


@router.post("/login", response_model=AccountState, responses=refusals(401))
async def log_in(
    body: Credentials, request: Request, response: Response, store: Store, limiter: LoginLimits
) -> Any:
    """Signs in (sets the session cookie). An unknown name and a wrong password get
    the same answer; after 5 failures into an account from one address in 5 minutes
    (and longer ceilings: docs/server.md), log-ins are refused 429
    ``too_many_attempts`` for a while."""
    _private(response)
    client = client_of(request.scope)

    def job(c: Connection) -> user_sessions.Session:
        user = users.authenticate(c, body.name, body.password, client=client, limiter=limiter)
        return user_sessions.open_session(c, user, now=time.time())

    try:
        session = await _write(store, job)
    except UserError as error:
        return _refused(_too_many(error, body.name, client, limiter))
    set_session_cookie(response, request, session.token)
    mark_seen(request, session.user.id)
    return _state(session.user, session.csrf)


@router.post("/logout", response_model=Done, responses=refusals(401, 403))
async def log_out(
    request: Request,
    response: Response,
    store: Store,
    caller: SessionOnly,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """Ends this session (needs the CSRF header) and clears its cookie."""
    _private(response)
    token, _user = await caller.session(csrf or "")
    await _write(store, lambda c: user_sessions.revoke(c, token))
    clear_session_cookie(response, request)
    return {"ok": True, "sessions_ended": 0}


@router.post("/password", response_model=Done, responses=refusals(401, 403))
async def change_password(
    body: PasswordChange,
    request: Request,
    response: Response,
    store: Store,
    limiter: LoginLimits,
    caller: SessionOnly,
    csrf: CsrfHeader = None,
) -> Any:
    """Changes the password (needs the current one and the CSRF header); every other
    session of the account ends, this one stays. Wrong current passwords count
    against the log-in limits of the account and this address."""
    _private(response)
    token, user = await caller.session(csrf or "")
    client = client_of(request.scope)
    try:
        users.check_password(body.new_password)  # before the attempt is counted
    except UserError as error:
        raise _refusal(error) from None
    attempt = limiter.attempt(users.name_key(user.name), client)
    if not attempt.allowed:
        held = UserError("too_many_attempts", "too many failed log-ins: wait and try again")
        return _refused(_too_many(held, user.name, client, limiter))

    def job(c: Connection) -> int:
        users.change_password(c, user.id, body.current_password, body.new_password, now=time.time())
        return user_sessions.revoke_all(c, user.id, keep=token)

    try:
        ended = await _write(store, job)
    except UserError as error:
        if error.code == "bad_credentials":  # stays counted as a failed log-in
            limiter.failed()
            raise _refusal(error, status=403) from None
        raise _refusal(error) from None
    limiter.succeeded(attempt)
    return {"ok": True, "sessions_ended": ended}
