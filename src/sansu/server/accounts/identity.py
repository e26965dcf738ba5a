"""Who acts in a request: a seat's token, a signed-in account, or both.

A browser where a player is signed in carries the session cookie
(``sansu_session``) with every request. The cookie alone proves nothing
about who *sent* a write (another site can make the browser send it), so a
write counts as the account's only with the session's CSRF token in the
``X-CSRF-Token`` header; a WebSocket counts as the account's only when its
``Origin`` is this site. A seat token (``Authorization: Bearer``) works as
before, with or without a session.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends
from starlette.requests import HTTPConnection

from sansu.server.accounts import sessions as user_sessions
from sansu.server.accounts.users import User
from sansu.server.base import ApiError, Auth, Store, bearer


@dataclass(frozen=True)
class SignedIn:
    """A signed-in account acting through its session (cookie authentication), with the
    seat token it also presented, if any: it holds its account's seats and the token's."""

    user_id: int
    token: str | None = None


Who = str | SignedIn | None
"""Who acts for seats: a seat token, a signed-in account, or nobody (a spectator)."""


COOKIE = "sansu_session"
CSRF_HEADER = "X-CSRF-Token"


async def session_of(store: Store, cookies: Mapping[str, str]) -> tuple[str, User] | None:
    """The session token and its user, when the cookie holds a live session."""
    token = cookies.get(COOKIE)
    if not token:
        return None
    user = await store.read(lambda c: user_sessions.session_user(c, token, now=time.time()))
    return None if user is None else (token, user)


def csrf_failed() -> ApiError:
    return ApiError(
        403,
        "csrf_failed",
        f"a write with the session cookie needs the session's {CSRF_HEADER} header "
        "(from the log-in's answer or GET /api/account)",
    )


def bot_refused() -> ApiError:
    return ApiError(
        403,
        "bot_account",
        "a bot account plays through the bot API with its API token (docs/bots.md),"
        " not through a browser's session",
    )


async def signed_session(
    store: Store, request: HTTPConnection, csrf: str | None = None, *, write: bool = True
) -> tuple[str, User]:
    """The session and user a request needs: refused ``401 not_signed_in`` without a
    live session and, for a write, ``403 csrf_failed`` without its CSRF token (``csrf``,
    or else the request's header)."""
    session = await session_of(store, request.cookies)
    if session is None:
        raise ApiError(401, "not_signed_in", "this needs a signed-in session (log in first)")
    presented = csrf if csrf is not None else request.headers.get(CSRF_HEADER)
    if write and not user_sessions.check_csrf(session[0], presented):
        raise csrf_failed()
    return session


async def account(store: Store, request: HTTPConnection, *, write: bool) -> User | None:
    """The signed-in user of a request; for a write, only with the session's CSRF token
    (without it the request is anonymous, as if no cookie had come). A bot account's
    session may read but never write here: bots play through the bot API."""
    session = await session_of(store, request.cookies)
    if session is None:
        return None
    if write and not user_sessions.check_csrf(session[0], request.headers.get(CSRF_HEADER)):
        return None
    if write and session[1].bot:
        raise bot_refused()
    return session[1]


async def acting(store: Store, request: HTTPConnection, token: str | None, *, write: bool) -> Who:
    """Who acts: the account (with ``token`` too, if given) or the token alone.

    A cookie-authenticated write without the CSRF token is refused when no
    seat token came either, so that the mistake is named, not mistaken for
    a spectator."""
    session = await session_of(store, request.cookies)
    if session is None:
        return token
    if write and not user_sessions.check_csrf(session[0], request.headers.get(CSRF_HEADER)):
        if token is None:
            raise csrf_failed()
        return token
    if session[1].bot:
        if write:
            raise bot_refused()
        return token
    return SignedIn(session[1].id, token)


def same_origin(request: HTTPConnection) -> bool:
    """Whether the request's ``Origin`` is this site (scheme-less compare of host and port)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host")
    if not origin or not host:
        return False
    return urlsplit(origin).netloc.lower() == host.lower()


async def socket_account(store: Store, websocket: HTTPConnection) -> User | None:
    """The account a WebSocket acts for: its session cookie, if it came from this site.

    A socket opened by another site's page carries the cookie too; it is
    refused outright rather than silently made a spectator."""
    session = await session_of(store, websocket.cookies)
    if session is None:
        return None
    if not same_origin(websocket):
        raise ApiError(
            403, "bad_origin", "a socket signed in by cookie must come from this site's pages"
        )
    if session[1].bot:
        return None  # a bot's session watches: its seats are played through the bot API
    return session[1]


def mark_seen(connection: HTTPConnection, user_id: int) -> None:
    """Counts ``user_id`` online for a while: they made a request now
    (:class:`~sansu.server.accounts.online.Online`, on ``app.state.online``)."""
    online = getattr(connection.app.state, "online", None)
    if online is not None:
        online.seen(user_id)


class Caller:
    """Who sent a request, found out only when a route asks: its seat token
    (``Authorization: Bearer``) and its signed-in account.

    Routes get it through :data:`TokenOrSession` (a seat's token or the session) or
    :data:`SessionOnly`. It reads nothing until asked, so that a request's shape is
    judged (422) before who sent it, as when each route read its caller itself."""

    def __init__(
        self, store: Store, connection: HTTPConnection, authorization: str | None = None
    ) -> None:
        self.store = store
        self.connection = connection
        self.authorization = authorization

    @property
    def token(self) -> str | None:
        """The seat token presented, if any (a malformed header: ``401 token_required``)."""
        return bearer(self.authorization)

    async def acting(self, *, write: bool) -> Who:
        """Who acts for seats: see :func:`acting`."""
        who = await acting(self.store, self.connection, self.token, write=write)
        if isinstance(who, SignedIn):
            mark_seen(self.connection, who.user_id)
        return who

    async def account(self, *, write: bool) -> User | None:
        """The signed-in account: see :func:`account`."""
        user = await account(self.store, self.connection, write=write)
        if user is not None:
            mark_seen(self.connection, user.id)
        return user

    async def session(self, csrf: str | None = None, *, write: bool = True) -> tuple[str, User]:
        """The live session, or a refusal: see :func:`signed_session`."""
        found = await signed_session(self.store, self.connection, csrf, write=write)
        mark_seen(self.connection, found[1].id)
        return found


def _token_or_session(
    connection: HTTPConnection,
    authorization: Auth = None,
) -> Caller:
    return Caller(connection.app.state.store, connection, authorization)


def _session_only(connection: HTTPConnection) -> Caller:
    return Caller(connection.app.state.store, connection)


TokenOrSession = Annotated[Caller, Depends(_token_or_session)]
"""A route's caller, who may present a seat's token (``Authorization: Bearer``) or a session."""
SessionOnly = Annotated[Caller, Depends(_session_only)]
"""A route's caller known by the session cookie alone."""
