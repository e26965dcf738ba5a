"""Keeping secrets out of the log: every line is rid of them before it is written.

Seat tokens, API tokens, tickets and session cookies travel in places that the
web server writes at some level: a URL's ``?token=…`` with the request line,
and at ``debug`` the WebSocket handshake's headers (``Sec-WebSocket-Protocol:
sansu, token.…``, ``Cookie: …``, ``Authorization: Bearer …``). Every record
of the server's loggers and their handlers passes through :class:`RedactTokens`,
which hides each such value, at every level, in the message and in the
traceback alike.

``sansu serve --log-format json`` writes one JSON object a line (:class:`JsonLines`,
configured by :func:`log_config`), each with the id of the request it belongs to:
:class:`RequestIds` gives every HTTP request and WebSocket one, echoed in the
``X-Request-Id`` header, or keeps a trusted proxy's (``--forwarded-allow-ips``).
Secrets are hidden there as in text.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from sansu.server.base.metrics import allow_list, allowed

HIDDEN = "[hidden]"
SECRETS = (
    # a URL's query: ?token=…, &ticket=…
    re.compile(r"((?:^|[?&;\s])(?:token|ticket|secret)=)[^&\s\"']*", re.IGNORECASE),
    # a seat token offered as a WebSocket subprotocol: token.…
    re.compile(r"(\btoken\.)[^\s,;\"'\]\)]+", re.IGNORECASE),
    # Authorization: Bearer … (and Basic …), wherever it is written
    re.compile(r"(\b(?:bearer|basic)\s+)[^\s,;\"'\]\)]+", re.IGNORECASE),
    # headers that are secrets whole: Cookie, Set-Cookie, Authorization, …
    re.compile(
        r"(\b(?:cookie|set-cookie|authorization|proxy-authorization|x-csrf-token)"
        r"[\"']?\s*[:=,]\s*[\"']?(?:b[\"'])?)[^\"'\r\n]*",
        re.IGNORECASE,
    ),
    # a secret field of a JSON body or a Python dict, should one be written
    re.compile(
        r"([\"']?\b(?:password|new_password|current_password|secret|join_secret|token|ticket)"
        r"[\"']?\s*:\s*[\"'])[^\"']*",
        re.IGNORECASE,
    ),
    # the session cookie (accounts' ``COOKIE``), however it is quoted
    re.compile(r"(\bsansu_session=)[^;\s\"']*", re.IGNORECASE),
)
LOGGERS = (
    "",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "websockets",
    "websockets.server",
    "sansu",
    "sansu.server",
)


def redact(text: str) -> str:
    """``text`` with every secret value shown as ``[hidden]``."""
    for pattern in SECRETS:
        text = pattern.sub(rf"\1{HIDDEN}", text)
    return text


class RedactTokens(logging.Filter):
    """Rewrites each record with its secrets hidden (message and traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to its handler
            return True
        hidden = redact(message)
        if hidden != message:
            record.msg = hidden
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def install_logging() -> None:
    """Adds the filter to the server's loggers and to each of their handlers (records
    that propagate to a handler skip the filters of the loggers they pass)."""
    redactor = RedactTokens()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(redactor)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(redactor)


REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
"""The id of the request being handled (``None`` outside any request)."""
SANE_ID = re.compile(r"[A-Za-z0-9._:+=/-]{1,128}")
"""An incoming ``X-Request-Id`` that may be kept (a proxy's, e.g. nginx's ``$request_id``)."""
access_log = logging.getLogger("sansu.access")

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on each record (``record.request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        if request_id:
            entry["request_id"] = request_id
        for key in ("method", "path", "status", "ms", "client"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["error"] = redact(record.exc_text)
        return json.dumps(entry, ensure_ascii=False, default=str)


JsonLines.converter = time.gmtime


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """``logging.config.dictConfig`` for ``sansu serve``: ``None`` keeps uvicorn's text
    logs; ``"json"`` sends every logger's records, at ``level``, as JSON lines to stderr."""
    if log_format == "text":
        return None
    if log_format != "json":
        raise ValueError(f"unknown log format {log_format!r} (text, json)")
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": RedactTokens}, "request": {"()": RequestIdFilter}},
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "json",
                "filters": ["request", "redact"],
            }
        },
        "root": {"handlers": ["json"], "level": level},
        "loggers": {
            name: {"handlers": [], "level": level, "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
        },
    }


class RequestIds:
    """ASGI middleware: an id for each HTTP request and WebSocket, in
    :data:`REQUEST_ID` while it is handled and in the ``X-Request-Id`` response header.
    A sane incoming ``X-Request-Id`` is kept only from a ``trusted`` proxy's address
    (the raw peer: place this outside the proxy-headers middleware). Each HTTP request
    is logged at ``info`` on ``sansu.access`` (its path, never its query) with its
    client's address: the one a trusted proxy named, which the proxy-headers middleware
    wrote into the same ``scope`` on its way in."""

    def __init__(self, app: ASGIApp, trusted: str | None = None) -> None:
        self.app = app
        self.trust_all = (trusted or "").strip() == "*"
        self.trusted = () if self.trust_all else allow_list(trusted)

    def _from_proxy(self, scope: Scope) -> str | None:
        if not (self.trust_all or allowed(scope.get("client"), self.trusted)):
            return None
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                text = value.decode("latin-1")
                return text if SANE_ID.fullmatch(text) else None
        return None

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = self._from_proxy(scope) or secrets.token_hex(8)
        token = REQUEST_ID.set(request_id)
        header = (b"x-request-id", request_id.encode())
        started = time.perf_counter()
        status = 0

        async def sending(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] in ("http.response.start", "websocket.accept"):
                message["headers"] = [*message.get("headers", []), header]
                status = message.get("status", 101)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if kind == "http" and access_log.isEnabledFor(logging.INFO):
                client = scope.get("client")
                address = str(client[0]) if client else "unknown"
                access_log.info(
                    "%s %s %s %s",
                    address,
                    scope.get("method"),
                    scope.get("path"),
                    status,
                    extra={
                        "method": scope.get("method"),
                        "path": scope.get("path"),
                        "status": status,
                        "ms": round(1000 * (time.perf_counter() - started), 2),
                        "client": address,
                    },
                )
            REQUEST_ID.reset(token)
