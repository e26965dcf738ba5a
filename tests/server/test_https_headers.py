"""Over https, and only over https: ``Strict-Transport-Security`` on every answer and
``Secure`` on every cookie. https is the request's own scheme, or the one a trusted
proxy names in ``X-Forwarded-Proto``; anyone else's header changes nothing.
(``test_proxy_tls.py`` checks the same through nginx.)"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from starlette.responses import PlainTextResponse

from sansu.server.app.security_headers import HSTS_MAX_AGE, SecurityHeaders, secure_cookie
from tests.server.conftest import make_client

PASSWORD = "a long passphrase"


def attributes(cookie: str) -> list[str]:
    return [a.strip().lower() for a in cookie.split(";")[1:]]


def sign_up(client: TestClient, name: str, headers: dict[str, str] | None = None) -> Any:
    r = client.post(
        "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=headers
    )
    assert r.status_code == 201, r.text
    return r


def test_over_https_every_answer_has_hsts_and_the_session_cookie_is_secure(db_path: str) -> None:
    with make_client(db_path, hsts_max_age=600) as plain:
        plain.base_url = plain.base_url.copy_with(scheme="https")
        r = sign_up(plain, "Ines")
        assert r.headers["strict-transport-security"] == "max-age=600"
        assert "secure" in attributes(r.headers["set-cookie"])
        csrf = r.json()["csrf_token"]
        for path in ("/api/health", "/", "/js/app.js", "/api/nothing"):
            assert plain.get(path).headers["strict-transport-security"] == "max-age=600", path
        out = plain.post("/api/account/logout", headers={"X-CSRF-Token": csrf})
        assert out.status_code == 200, out.text
        assert "secure" in attributes(out.headers["set-cookie"])  # the cookie's removal too


def test_over_plain_http_there_is_no_hsts_and_no_secure_cookie(db_path: str) -> None:
    with make_client(db_path) as client:
        r = sign_up(client, "Ines")
        assert "strict-transport-security" not in r.headers
        assert "secure" not in attributes(r.headers["set-cookie"])
        assert "strict-transport-security" not in client.get("/api/nothing").headers


@pytest.mark.parametrize("trusted", ["*", None, "127.0.0.1"])
def test_x_forwarded_proto_counts_only_from_a_trusted_proxy(
    db_path: str, trusted: str | None
) -> None:
    """The test client's address is ``testclient``: trusted only by ``*``."""
    believed = trusted == "*"
    with make_client(db_path, forwarded_allow_ips=trusted) as client:
        r = sign_up(client, "Ines", {"X-Forwarded-Proto": "https"})
        assert ("strict-transport-security" in r.headers) is believed
        assert ("secure" in attributes(r.headers["set-cookie"])) is believed
        health = client.get("/api/health", headers={"X-Forwarded-Proto": "https"})
        assert health.headers.get("strict-transport-security") == (
            f"max-age={HSTS_MAX_AGE}" if believed else None
        )


async def three_cookies(scope: Any, receive: Any, send: Any) -> None:
    response = PlainTextResponse("ok")
    response.set_cookie("plain", "1")
    response.set_cookie("already", "2", secure=True, samesite="strict")
    response.raw_headers.append((b"set-cookie", b"bare=3"))
    await response(scope, receive, send)


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_every_cookie_of_any_route_is_made_secure_over_https_only(scheme: str) -> None:
    client = TestClient(SecurityHeaders(three_cookies), base_url=f"{scheme}://site")
    cookies = client.get("/").headers.get_list("set-cookie")  # (no lifespan: not a `with`)
    assert [c.split("=")[0] for c in cookies] == ["plain", "already", "bare"]
    secure = [attributes(cookie).count("secure") for cookie in cookies]
    assert secure == ([1, 1, 1] if scheme == "https" else [0, 1, 0])  # over http: as set
    assert "samesite=strict" in attributes(cookies[1])  # the rest is kept


cookie_text = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters=";"), min_size=1
)


@given(
    name=cookie_text,
    parts=st.lists(st.sampled_from(["Path=/", "HttpOnly", "SameSite=Lax", "secure", "Secure"])),
)
def test_secure_cookie_adds_one_secure_and_keeps_everything_else(
    name: str, parts: list[str]
) -> None:
    value = "; ".join([f"{name}=v", *parts]).encode()
    made = secure_cookie(value)
    assert "secure" in attributes(made.decode())
    assert made.startswith(value)  # nothing taken away or reordered
    had = any(p.lower() == "secure" for p in parts)
    assert made == (value if had else value + b"; Secure")
    assert secure_cookie(made) == made  # once is enough


def test_a_negative_hsts_max_age_is_refused_before_the_server_starts(tmp_path: Any) -> None:
    from sansu.cli.main import main

    db = tmp_path / "g.db"
    assert main(["serve", "--db", str(db), "--hsts-max-age", "-1"]) == 2
    assert not db.exists()
