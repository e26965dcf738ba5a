"""The ASGI application: the API, the web app's files, errors as JSON, and the lifecycle.

``create_app`` wires a store, the game service, the WebSocket hub and the
computer players together. On start it migrates the database and resumes
the games that need the server (running clocks, a computer to move); on
stop it finishes the writes in flight and closes the store.
"""

from __future__ import annotations

import html
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import sansu
from sansu.server import (
    accounts,
    analysis,
    bots,
    chat,
    learn,
    lobby,
    moderation,
    play,
    ratings,
    relation,
    tournaments,
)
from sansu.server.accounts import ONLINE_WINDOW
from sansu.server.app.assemble import assemble
from sansu.server.app.security_headers import HSTS_MAX_AGE
from sansu.server.app.security_headers import install as install_security_headers
from sansu.server.base import (
    ApiError,
    ErrorBody,
    MetricsEndpoint,
    RateLimit,
    RateLimits,
    RequestIds,
    error_response,
    install_logging,
    send_error,
)
from sansu.server.play import ABANDON_AFTER, CLAIM_AFTER, KEEP_FINISHED, KEEP_IDLE, catalog

log = logging.getLogger("sansu.server")

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
MAX_BODY = 64 * 1024
"""Bodies are small."""
MAX_RECORD_BODY = 64 * 1024
"""A record's body: the archive's caps (1000 moves of at most 32 characters, 8 KiB of
everything else) fit in about 44 KiB even indented; the longest real games (Challenge
with 5 players, about 330 moves) export to about 5 KiB."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/sansu/sansu.db`` (default ``~/.local/share/sansu/sansu.db``)."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sansu" / "sansu.db"


class BodyLimit:
    """Refuses request bodies over the limit with 413, before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, record_limit: int = MAX_RECORD_BODY):
        self.app = app
        self.limit = limit
        self.record_limit = record_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.record_limit if scope.get("path") == "/api/records" else self.limit
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send, limit)
                    return
        seen = 0
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    raise ApiError(413, "too_large", f"the body is over {limit} bytes")
            return message

        try:
            await self.app(scope, counted, send)
        except ApiError:
            if not refused:
                raise
            await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        await send_error(send, ApiError(413, "too_large", f"the body is over {limit} bytes"))


class AllowedMethods:
    """Answers 405 with every allowed method in ``Allow`` for an API path asked with
    another method (the router alone names only the first route that matches the path)."""

    def __init__(self, app: ASGIApp, routes: list[Any]) -> None:
        self.app = app
        self.table: list[tuple[re.Pattern[str], set[str]]] = []
        for route in routes:
            methods = set(getattr(route, "methods", None) or ())
            if "GET" in methods:
                methods.add("HEAD")
            if methods and hasattr(route, "path_regex"):
                self.table.append((route.path_regex, methods))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/"):
            allowed: set[str] = set()
            for pattern, methods in self.table:
                if pattern.match(path):
                    allowed |= methods
            if allowed and scope["method"] not in allowed:
                refusal = error_response(ApiError(405, "method_not_allowed", "Method Not Allowed"))
                await refusal(scope, receive, _with_allow(send, ", ".join(sorted(allowed))))
                return
        await self.app(scope, receive, send)


def _with_allow(send: Send, allow: str) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), (b"allow", allow.encode())]
        await send(message)

    return sending


def placeholder_page() -> str:
    items = "".join(
        f"<li><strong>{html.escape(g['title'])}</strong> <code>{html.escape(g['id'])}</code></li>"
        for g in catalog()["games"]
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<title>sansu</title></head><body><h1>sansu</h1>"
        f"<p>The game server is running. Games:</p><ul>{items}</ul>"
        '<p>API: <a href="/api/docs">/api/docs</a></p></body></html>'
    )


def create_app(
    db_url: str | None = None,
    *,
    computer_workers: int | None = None,
    computer_time_ms: int | None = None,
    static_dir: str | Path | None = None,
    rate_limits: RateLimits | None = None,
    keep_idle: float = KEEP_IDLE,
    keep_finished: float = KEEP_FINISHED,
    abandon_after: float = ABANDON_AFTER,
    warm_up: bool = True,
    review_simulations: int | None = None,
    analysis_simulations: tuple[int, int] | None = None,
    redis_url: str | None = None,
    metrics_port: int | None = None,
    metrics_allow: str | None = None,
    forwarded_allow_ips: str | None = None,
    online_window: float = ONLINE_WINDOW,
    smtp_url: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    hsts_max_age: int = HSTS_MAX_AGE,
    claim_after: float = CLAIM_AFTER,
) -> FastAPI:
    """The server's app on the database ``db_url`` (a SQLAlchemy URL or a SQLite file path).

    ``computer_workers``: processes for computer moves (default: one per
    core; 0 runs them in threads). ``computer_time_ms`` caps their thinking
    time per move. ``static_dir``: the web app (default: ``sansu/web/static``).
    ``rate_limits``: per client (default :class:`RateLimits`). ``keep_idle``,
    ``keep_finished``: seconds an unused game in play, or finished, stays in
    memory. ``abandon_after``: seconds without a move or a player's socket
    after which a game in play is listed as abandoned. ``warm_up``: build and load the
    computer players' compiled code, in the background (:mod:`sansu.warmup`; tests
    without computer games turn it off). ``review_simulations``: per position of a
    post-game review (default: each game's own, ``sansu.ai.review``).
    ``analysis_simulations``: the first and the largest step of the analysis board
    (default: each game's own, ``sansu.server.analysis.board.default_budgets``).
    ``redis_url``: run as one node of a cluster sharing the database (PostgreSQL)
    and this Redis server (:mod:`sansu.server.cluster.node`).
    ``metrics_port``, ``metrics_allow``: ``/metrics`` on that listener's port, and to
    those addresses (``"10.0.0.0/8,::1"``); for anyone else it is 404.
    ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-*`` and ``X-Request-Id``
    headers are believed (``"*"``: any).
    ``online_window``: seconds a signed-in player counts as online after a request or
    a socket closed (:mod:`sansu.server.accounts.online`).
    ``smtp_url``: the SMTP server of the account mails (``smtp://…``, ``smtps://…``;
    ``None``: no mail, no email features); ``public_url``: the site's address as its
    users reach it, which the mailed links point to (never the request's ``Host``).
    ``hsts_max_age``: the ``Strict-Transport-Security`` max-age of https answers.
    ``claim_after``: seconds a player who left a game with their move must be gone before
    the opponent may claim it.
    """
    server = assemble(
        db_url or str(default_db_path()),
        computer_workers=computer_workers,
        computer_time_ms=computer_time_ms,
        rate_limits=rate_limits,
        keep_idle=keep_idle,
        keep_finished=keep_finished,
        abandon_after=abandon_after,
        review_simulations=review_simulations,
        analysis_simulations=analysis_simulations,
        redis_url=redis_url,
        online_window=online_window,
        smtp_url=smtp_url,
        public_url=public_url,
        claim_after=claim_after,
    )
    store, computer, service = server.store, server.computer, server.service
    streams, cluster, shared = server.streams, server.cluster, server.shared

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        install_logging()
        try:
            if warm_up:
                await computer.start()
            store.open()
            await service.start()
            await server.tournaments.resume()
            if cluster is not None:
                await cluster.start()
            if shared is not None:
                await shared.start()
            yield
        finally:
            # Every way out (a signal, an error at start, the app's end) stops the workers.
            streams.close()
            try:
                if shared is not None:
                    await shared.stop()
                if cluster is not None:
                    await cluster.stop()
                await service.stop()
                await server.postbox.close()
                await store.drain()
            finally:
                computer.close()
                store.close()

    app = FastAPI(
        title="sansu",
        version=sansu.__version__,
        description="Play sansu's games online, against the computer, and watch.",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        # Every route counts against the per-client request limit.
        responses={429: {"model": ErrorBody, "description": "over a rate limit (see Retry-After)"}},
    )
    for name, part in vars(server).items():
        setattr(app.state, name, part)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return error_response(ApiError(400, "malformed_json", "the body is not valid JSON"))
        first = problems[0] if problems else {}
        loc = tuple(first.get("loc", ()))
        if loc[-1:] == ("game",) and first.get("type") == "literal_error":
            games = ", ".join(sansu.game_ids())
            given = first.get("input")
            return error_response(
                ApiError(422, "unknown_game", f"unknown game {given!r} (games: {games})")
            )
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = (
            f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "invalid")
        )
        return error_response(ApiError(422, "invalid_request", message))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        response = error_response(
            ApiError(
                error.status_code, codes.get(error.status_code, "http_error"), str(error.detail)
            )
        )
        response.headers.update(error.headers or {})
        return response

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        return error_response(ApiError(500, "internal", "the server failed; nothing was changed"))

    # Every domain's routes, in the order they match.
    routers = [
        play.info_router,
        play.router,
        play.offers_router,
        play.socket_router,
        analysis.reviews_router,
        accounts.router,
        accounts.recovery_router,
        analysis.hints_router,
        ratings.router,
        lobby.router,
        bots.router,
        bots.tokens_router,
        analysis.router,
        analysis.positions_router,
        tournaments.router,
        bots.tournament_router,
        learn.lessons_router,
        learn.puzzles_router,
        learn.mistakes_router,
        learn.trainer_router,
        chat.router,
        relation.router,
        moderation.router,
    ]
    for router in routers:
        app.include_router(router)

    static = Path(static_dir) if static_dir is not None else STATIC
    if (static / "index.html").is_file():
        files = StaticFiles(directory=static, html=True)

        @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
        async def _web(request: Request, path: str) -> Response:
            """The web app's files; a path without a file extension that names no file
            is one of the app's own pages, so it gets ``index.html``."""
            if path == "api" or path.startswith("api/"):
                raise ApiError(404, "not_found", "Not Found")
            clean = os.path.normpath(path) if path else "."
            try:
                return await files.get_response(clean, request.scope)
            except StarletteHTTPException as error:
                if error.status_code != 404 or "." in Path(path).name:
                    raise
                return await files.get_response("index.html", request.scope)

    else:

        @app.get("/", include_in_schema=False)
        async def _home() -> HTMLResponse:
            return HTMLResponse(placeholder_page())

    if shared is not None:
        shared.install(app)
    app.add_middleware(AllowedMethods, routes=[r for router in routers for r in router.routes])
    app.add_middleware(BodyLimit)
    app.add_middleware(RateLimit, limiter=server.limiter)
    install_security_headers(app, hsts_max_age=hsts_max_age)
    app.add_middleware(
        MetricsEndpoint, metrics=service.metrics, port=metrics_port, allow=metrics_allow
    )
    if forwarded_allow_ips:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=forwarded_allow_ips)
    app.add_middleware(RequestIds, trusted=forwarded_allow_ips)
    return app
