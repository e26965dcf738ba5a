"""Security headers on every response: API answers, pages, static files, and every kind
of error (including those answered by middleware and the unexpected-error handler)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from sansu.server.app.security_headers import CONTENT_SECURITY_POLICY
from sansu.server.base.ratelimit import RateLimits
from sansu.web import STATIC_DIR
from tests.server.conftest import make_client


def assert_secured(r: Response, policy: str = CONTENT_SECURITY_POLICY) -> None:
    assert r.headers["content-security-policy"] == policy, r.request.url
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers.get_list("content-security-policy") == [policy]  # no second copy


def test_the_policy_is_strict() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self'"  # no inline script, no eval, no other site
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'"
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/health", 200),
        ("GET", "/api/catalog", 200),
        ("GET", "/api/account", 200),
        ("GET", "/", 200),
        ("HEAD", "/", 200),
        ("GET", "/play/uttt", 200),
        ("GET", "/js/app.js", 200),
        ("GET", "/favicon.svg", 200),
        ("GET", "/nothing-here.js", 404),
        ("GET", "/api/nothing", 404),
        ("GET", "/api/games/nosuchgame", 404),
        ("DELETE", "/api/catalog", 405),
        ("POST", "/api/account/logout", 401),
    ],
)
def test_every_answer_has_the_headers(
    client: TestClient, method: str, path: str, status: int
) -> None:
    r = client.request(method, path)
    assert r.status_code == status, r.text
    assert_secured(r)


def test_refusals_have_the_headers(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    assert_secured(r)
    r = client.post("/api/games", json={"game": "chess"})
    assert r.status_code == 422
    assert_secured(r)
    r = client.post(
        "/api/games", content=b"x" * (65 * 1024), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413  # answered by the body limit, before the app
    assert_secured(r)


def test_rate_limited_answers_have_the_headers(db_path: str) -> None:
    with make_client(db_path, rate_limits=RateLimits(requests="1/minute")) as c:
        assert c.get("/api/health").status_code == 200
        r = c.get("/api/health")
        assert r.status_code == 429
        assert_secured(r)


def test_unexpected_errors_have_the_headers(db_path: str) -> None:
    app = make_client(db_path).app

    async def boom() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/api/boom", boom)  # type: ignore[attr-defined]
    routes = app.router.routes  # type: ignore[attr-defined]
    routes.insert(0, routes.pop())  # before the web app's catch-all route
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/boom")
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal"
        assert_secured(r)


def test_the_api_docs_page_gets_its_own_policy(client: TestClient) -> None:
    r = client.get("/api/docs")
    assert r.status_code == 200
    policy = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "cdn.jsdelivr.net" in policy
    assert r.headers["referrer-policy"] == "no-referrer"


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._in_inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.handlers += [k for k in names if k.startswith("on")]
        self._in_inline = tag == "script" and "src" not in names
        if self._in_inline:
            self.inline.append("")

    def handle_data(self, data: str) -> None:
        if self._in_inline:
            self.inline[-1] += data

    def handle_endtag(self, tag: str) -> None:
        self._in_inline = False


def test_the_web_app_has_no_inline_script() -> None:
    for page in STATIC_DIR.rglob("*.html"):
        parser = _Scripts()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.inline == [] and parser.handlers == [], page
