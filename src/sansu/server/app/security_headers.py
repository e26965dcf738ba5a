"""Security headers on every HTTP response: pages, files, API answers and errors alike.

A site with accounts must not run script it did not serve, be framed by
another site, have its files sniffed as another type, or leak a seat token
or an invitation secret through a ``Referer``. The Content-Security-Policy
allows script only from the site's own files (the web app has no inline
script and no ``eval``); styles may be inline because the boards set their
colours and per-board rules at run time, which runs no script. The API's
documentation page (``/api/docs``) is the one exception: its Swagger UI
comes from a CDN and starts with an inline script, so that page alone gets
a policy that allows them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Any, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_PATH = "/api/docs"
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'",
        "style-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
COMMON = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}
"""``X-Frame-Options`` repeats ``frame-ancestors 'none'`` for browsers that predate it."""


def headers_for(path: str) -> dict[str, str]:
    """The security headers of a response to ``path``."""
    policy = DOCS_POLICY if path == DOCS_PATH else CONTENT_SECURITY_POLICY
    return {"content-security-policy": policy, **COMMON}


class SecurityHeaders:
    """ASGI middleware: sets :func:`headers_for` on every HTTP response, replacing any
    value an inner layer gave (so no route can weaken them by accident)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [(k.encode(), v.encode()) for k, v in headers_for(scope.get("path", "")).items()]
        names = {k for k, _ in extra}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message["headers"] = [*kept, *extra]
            await send(message)

        await self.app(scope, receive, sending)


def install(app: FastAPI) -> None:
    """Adds the headers to every response of ``app``: as its outermost middleware, and
    to the answer of the handler of unexpected errors, which runs outside every
    middleware. Call it after the app's other middleware and handlers are in place."""
    app.add_middleware(SecurityHeaders)
    handler = app.exception_handlers.get(Exception)
    if handler is None:
        return

    async def with_headers(request: Request, error: Exception) -> Response:
        response = await handler(request, error)  # type: ignore[misc]
        response.headers.update(headers_for(request.url.path))
        return response

    app.exception_handlers[Exception] = with_headers
