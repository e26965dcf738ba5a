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

Over https (the request's own scheme, or a trusted proxy's ``X-Forwarded-Proto``:
``--forwarded-allow-ips``) a response also carries ``Strict-Transport-Security``,
so that a browser never again asks this site over plain http (where a session
cookie or a seat token could be read on the way), and every cookie it sets is
``Secure``, whichever route set it. Over plain http neither is sent: HSTS there
would let anyone on the path pin a site to https, and a ``Secure`` cookie would
never come back.
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
HSTS_MAX_AGE = 365 * 24 * 3600
"""Default seconds a browser keeps to https after an https answer (one year; 0 makes it
forget, for a site that leaves https)."""


def headers_for(
    path: str, *, https: bool = False, hsts_max_age: int = HSTS_MAX_AGE
) -> dict[str, str]:
    """The security headers of a response to ``path``; ``https``: the request came over
    https (then with ``Strict-Transport-Security``)."""
    policy = DOCS_POLICY if path == DOCS_PATH else CONTENT_SECURITY_POLICY
    headers = {"content-security-policy": policy, **COMMON}
    if https:
        headers["strict-transport-security"] = f"max-age={hsts_max_age}"
    return headers


def secure_cookie(value: bytes) -> bytes:
    """A ``Set-Cookie`` value with the ``Secure`` attribute (added unless it is there)."""
    attributes = value.split(b";")[1:]
    if any(a.strip().lower() == b"secure" for a in attributes):
        return value
    return value + b"; Secure"


class SecurityHeaders:
    """ASGI middleware: sets :func:`headers_for` on every HTTP response, replacing any
    value an inner layer gave (so no route can weaken them by accident), and over https
    makes every cookie ``Secure``. It must run inside the proxy-headers middleware, which
    sets the scheme a trusted proxy names."""

    def __init__(self, app: ASGIApp, hsts_max_age: int = HSTS_MAX_AGE) -> None:
        self.app = app
        self.hsts_max_age = hsts_max_age

    async def __call__(self, scope: Scope, receive: Any, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"
        chosen = headers_for(scope.get("path", ""), https=https, hsts_max_age=self.hsts_max_age)
        extra = [(k.encode(), v.encode()) for k, v in chosen.items()]
        names = {k for k, _ in extra}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (k, secure_cookie(v) if https and k.lower() == b"set-cookie" else v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in names
                ]
                message["headers"] = [*kept, *extra]
            await send(message)

        await self.app(scope, receive, sending)


def install(app: FastAPI, *, hsts_max_age: int = HSTS_MAX_AGE) -> None:
    """Adds the headers to every response of ``app``: as its outermost middleware, and
    to the answer of the handler of unexpected errors, which runs outside every
    middleware. Call it after the app's other middleware and handlers are in place."""
    app.add_middleware(SecurityHeaders, hsts_max_age=hsts_max_age)
    handler = app.exception_handlers.get(Exception)
    if handler is None:
        return

    async def with_headers(request: Request, error: Exception) -> Response:
        response = await handler(request, error)  # type: ignore[misc]
        https = request.url.scheme == "https"
        chosen = headers_for(request.url.path, https=https, hsts_max_age=hsts_max_age)
        response.headers.update(chosen)
        return response

    app.exception_handlers[Exception] = with_headers
