"""Accounts over HTTP: sign-up, log-in, lockout, log-out, password change, the session
cookie's attributes, the CSRF header on cookie-authenticated writes, the rate limit on
sign-ups and log-ins, and no password in any answer or log line."""

from __future__ import annotations

import logging
import string
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from httpx import Response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansu.server.accounts.routes import COOKIE, CSRF_HEADER
from sansu.server.base.ratelimit import RateLimits
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client

PASSWORD = "Tr0ub4dor&3-unique-secret"
NEW_PASSWORD = "correct horse battery staple 77"


@pytest.fixture
def web(db_path: str, fast_hashing: None) -> Iterator[TestClient]:
    with make_client(db_path) as c:
        yield c


def signup(c: TestClient, name: str = "Alice", password: str = PASSWORD) -> Response:
    return c.post("/api/account/signup", json={"name": name, "password": password})


def login(c: TestClient, name: str = "Alice", password: str = PASSWORD) -> Response:
    return c.post("/api/account/login", json={"name": name, "password": password})


def session_cookie(r: Response) -> SimpleCookie:
    cookie = SimpleCookie()
    cookie.load(r.headers["set-cookie"])
    return cookie


def test_sign_up_signs_in_with_a_safe_cookie(web: TestClient) -> None:
    r = signup(web)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["user"]["name"] == "Alice" and isinstance(body["user"]["id"], int)
    morsel = session_cookie(r)[COOKIE]
    assert morsel["httponly"] and morsel["samesite"].lower() == "lax" and morsel["path"] == "/"
    assert not morsel["secure"]  # plain http here
    assert int(morsel["max-age"]) == 30 * 86400
    assert r.headers["cache-control"] == "no-store"
    me = web.get("/api/account").json()
    assert me == body  # same user, same CSRF token


def test_the_cookie_is_secure_over_https(db_path: str, fast_hashing: None) -> None:
    with make_client(db_path) as c:
        c.base_url = c.base_url.copy_with(scheme="https")
        morsel = session_cookie(signup(c))[COOKIE]
        assert morsel["secure"] and morsel["httponly"]


def test_nobody_signed_in(web: TestClient) -> None:
    assert web.get("/api/account").json() == {"user": None, "csrf_token": None}
    web.cookies.set(COOKIE, "made-up-token")
    assert web.get("/api/account").json()["user"] is None


def test_log_in_wrong_password_and_unknown_name_get_one_answer(web: TestClient) -> None:
    signup(web)
    web.cookies.clear()
    wrong = login(web, password="not the password")
    unknown = login(web, name="Nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"]["code"] == "bad_credentials"
    assert "set-cookie" not in wrong.headers
    r = login(web, name="ALICE")  # names in any case
    assert r.status_code == 200 and r.json()["user"]["name"] == "Alice"
    assert web.get("/api/account").json()["user"]["name"] == "Alice"


def test_lockout_after_five_failures_even_for_the_right_password(web: TestClient) -> None:
    signup(web)
    for _ in range(5):
        assert login(web, password="wrong password!").status_code == 401
    r = login(web)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert 1 <= int(r.headers["retry-after"]) <= 300
    assert r.json()["error"]["detail"]["retry_after"] == int(r.headers["retry-after"])
    assert "set-cookie" not in r.headers


def test_log_out_needs_the_csrf_header(web: TestClient) -> None:
    csrf = signup(web).json()["csrf_token"]
    token = web.cookies[COOKIE]
    for headers in ({}, {CSRF_HEADER: "0" * 64}, {CSRF_HEADER: csrf[:-1]}):
        r = web.post("/api/account/logout", headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
        assert web.get("/api/account").json()["user"]["name"] == "Alice"  # still signed in
    r = web.post("/api/account/logout", headers={CSRF_HEADER: csrf})
    assert r.status_code == 200 and r.json()["ok"] is True
    morsel = session_cookie(r)[COOKIE]
    assert morsel.value == "" and int(morsel["max-age"]) == 0
    assert web.get("/api/account").json()["user"] is None
    web.cookies.set(COOKIE, token)  # the old cookie opens nothing now
    assert web.get("/api/account").json()["user"] is None
    r = web.post("/api/account/logout", headers={CSRF_HEADER: csrf})
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"


def test_another_sessions_csrf_token_is_refused(web: TestClient, db_path: str) -> None:
    signup(web)
    with make_client(db_path) as other:
        other_csrf = signup(other, "Bob").json()["csrf_token"]
    r = web.post("/api/account/logout", headers={CSRF_HEADER: other_csrf})
    assert r.status_code == 403
    assert web.get("/api/account").json()["user"]["name"] == "Alice"


def test_password_change(web: TestClient, db_path: str) -> None:
    csrf = signup(web).json()["csrf_token"]
    with make_client(db_path) as elsewhere:  # a second browser, signed in too
        assert login(elsewhere).status_code == 200
        change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        r = web.post("/api/account/password", json=change)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
        wrong = {"current_password": "not the password", "new_password": NEW_PASSWORD}
        r = web.post("/api/account/password", json=wrong, headers={CSRF_HEADER: csrf})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_credentials"
        short = {"current_password": PASSWORD, "new_password": "short"}
        r = web.post("/api/account/password", json=short, headers={CSRF_HEADER: csrf})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_password"
        assert elsewhere.get("/api/account").json()["user"] is not None  # nothing changed
        r = web.post("/api/account/password", json=change, headers={CSRF_HEADER: csrf})
        assert r.status_code == 200 and r.json() == {"ok": True, "sessions_ended": 1}
        assert elsewhere.get("/api/account").json()["user"] is None
    assert web.get("/api/account").json()["user"]["name"] == "Alice"  # this session stays
    web.cookies.clear()
    assert login(web).status_code == 401
    assert login(web, password=NEW_PASSWORD).status_code == 200


def test_password_change_needs_a_session(web: TestClient) -> None:
    change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    r = web.post("/api/account/password", json=change, headers={CSRF_HEADER: "x"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"


@pytest.mark.parametrize(
    ("name", "password", "status", "code"),
    [
        ("a", PASSWORD, 422, "bad_name"),
        ("al ice", PASSWORD, 422, "bad_name"),
        ("Admin", PASSWORD, 422, "reserved_name"),
        ("Carol", "short", 422, "bad_password"),
        ("aLiCe", "another password", 409, "name_taken"),
    ],
)
def test_sign_up_refusals_change_nothing(
    web: TestClient, name: str, password: str, status: int, code: str
) -> None:
    signup(web)
    web.cookies.clear()
    r = signup(web, name, password)
    assert r.status_code == status and r.json()["error"]["code"] == code
    assert "set-cookie" not in r.headers
    assert login(web, name, password).status_code == 401  # no account was made


@pytest.mark.parametrize(
    "body",
    [{}, {"name": "Alice"}, {"name": "Alice", "password": 12345678},
     {"name": "Alice", "password": PASSWORD, "admin": True},
     {"name": "Alice", "password": "x" * 1025}],
)  # fmt: skip
def test_malformed_bodies_are_refused_in_the_error_shape(web: TestClient, body: dict) -> None:
    for path in ("/api/account/signup", "/api/account/login"):
        r = web.post(path, json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", r.text
    assert login(web).status_code == 401


def test_sign_ups_and_log_ins_are_rate_limited(db_path: str, fast_hashing: None) -> None:
    limits = RateLimits(requests=None, creates=None, accounts="3/minute")
    with make_client(db_path, rate_limits=limits) as c:
        assert signup(c, "Alice").status_code == 201
        assert login(c, "Alice").status_code == 200
        assert login(c, "Alice", "wrong password").status_code == 401
        r = signup(c, "Bob")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert login(c, "Alice").status_code == 429
        assert c.get("/api/account").json()["user"]["name"] == "Alice"  # reads are not counted


def test_no_password_in_any_answer_or_log_line(
    web: TestClient, db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answers = [signup(web), login(web, password="wrong " + PASSWORD), login(web)]
    csrf = answers[-1].json()["csrf_token"]
    change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    answers.append(web.post("/api/account/password", json=change, headers={CSRF_HEADER: csrf}))
    answers.append(web.post("/api/account/password", json=change, headers={CSRF_HEADER: csrf}))
    answers.append(signup(web, "Bob", "x" * 1025))
    answers.append(web.get("/api/account"))
    answers.append(web.post("/api/account/logout", headers={CSRF_HEADER: csrf}))
    assert [a.status_code for a in answers] == [201, 401, 200, 200, 403, 422, 200, 200]
    for answer in answers:
        seen = answer.text + str(answer.headers)
        assert PASSWORD not in seen and NEW_PASSWORD not in seen and "x" * 100 not in seen
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert PASSWORD not in logged and NEW_PASSWORD not in logged
    stored = Path(db_path).read_bytes()
    for path in Path(db_path).parent.glob("*.db*"):
        stored += path.read_bytes()
    assert PASSWORD.encode() not in stored and NEW_PASSWORD.encode() not in stored


texts = st.text(max_size=24)
names = st.sampled_from(["Alice", "alice", "Bob", "BOB", "Carol"]) | texts
passwords = st.sampled_from([PASSWORD, NEW_PASSWORD]) | texts  # not Bob's
tokens = st.text(alphabet=string.ascii_letters + string.digits + "-_.", max_size=64)
"""Header and cookie values are ASCII."""
csrfs = st.sampled_from(["own", "bob's", "none"]) | tokens
requests = st.one_of(
    st.tuples(st.just("signup"), names, passwords),
    st.tuples(st.just("login"), names, passwords),
    st.tuples(st.just("logout"), csrfs),
    st.tuples(st.just("password"), passwords, passwords, csrfs),
    st.tuples(st.just("cookie"), st.sampled_from(["bob's", "none"]) | tokens),
)


def bob_rows(client: TestClient, bob_id: int) -> list[tuple]:
    from sansu.server.accounts.sessions import user_sessions
    from sansu.server.accounts.users import users as users_table

    with client.app.state.store.engine.connect() as c:  # type: ignore[attr-defined]
        rows = [
            tuple(r) for r in c.execute(sa.select(users_table).where(users_table.c.id == bob_id))
        ]
        rows += sorted(
            tuple(r)
            for r in c.execute(sa.select(user_sessions).where(user_sessions.c.user_id == bob_id))
        )
    return rows


def test_no_requests_of_alice_change_bobs_account(db_path: str, fast_hashing: None) -> None:
    with make_client(db_path) as alice, make_client(db_path) as bob:
        answer = signup(bob, "Bob", "password of bob").json()
        bob_id, bob_csrf, bob_cookie = (
            answer["user"]["id"],
            answer["csrf_token"],
            bob.cookies[COOKIE],
        )
        signup(alice)
        before = bob_rows(bob, bob_id)

        def csrf_of(choice: str) -> dict[str, str]:
            if choice == "none":
                return {}
            if choice == "own":
                own = alice.get("/api/account").json()["csrf_token"]
                return {CSRF_HEADER: own} if own else {}
            return {CSRF_HEADER: bob_csrf if choice == "bob's" else choice}

        @given(st.lists(requests, max_size=6))
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        def run(sequence: list[tuple]) -> None:
            for kind, *args in sequence:
                if kind == "signup":
                    r = signup(alice, *args)
                elif kind == "login":
                    r = login(alice, *args)
                elif kind == "logout":
                    r = alice.post("/api/account/logout", headers=csrf_of(args[0]))
                elif kind == "password":
                    body = {"current_password": args[0], "new_password": args[1]}
                    r = alice.post("/api/account/password", json=body, headers=csrf_of(args[2]))
                else:
                    alice.cookies.clear()
                    if args[0] != "none":
                        alice.cookies.set(COOKIE, "x" + args[0] if args[0] != "bob's" else "forged")
                    continue
                assert r.status_code < 500, r.text
                assert bob_rows(bob, bob_id) == before
            me = bob.get("/api/account").json()
            assert me["user"]["name"] == "Bob" and me["csrf_token"] == bob_csrf
            assert bob.cookies[COOKIE] == bob_cookie

        run()
