"""The log-in limiter: failures counted per (account, address), per account and per
address, with growing waits; one atomic check-and-count, so concurrent guesses get no
more checks than the limit; over HTTP, the owner on a fresh address still logs in."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import limits.storage.memory
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from sansu.server.accounts import login_limits, users
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.users import UserError
from sansu.server.app import create_app
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)
from tests.server.conftest import NO_LIMITS

PASSWORD = "correct horse battery"
WAIT = 30.0
"""Seconds a test waits for threads that should be quick (the machine may be busy)."""


class Clock:
    """A clock for the limiter and ``limits``' memory storage, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    fake = SimpleNamespace(time=clock.time)
    monkeypatch.setattr(limits.storage.memory, "time", fake)
    monkeypatch.setattr(login_limits, "time", fake)
    return clock


# -- over HTTP ----------------------------------------------------------------------------


def addressed(app: Any) -> Callable[..., Any]:
    """``app`` with each request's client address taken from its ``X-Test-Address``."""

    async def wrapper(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 4000)}
        await app(scope, receive, send)

    return wrapper


@pytest.fixture
def web(db_path: str, fast_hashing: None) -> Iterator[TestClient]:
    app = create_app(db_path, computer_workers=0, rate_limits=NO_LIMITS, warm_up=False)
    with TestClient(addressed(app)) as c:
        yield c


def login(c: TestClient, address: str, password: str, name: str = "Alice") -> Any:
    c.cookies.clear()
    return c.post(
        "/api/account/login",
        json={"name": name, "password": password},
        headers={"X-Test-Address": address},
    )


def test_the_owner_logs_in_from_a_fresh_address_while_another_is_held_back(
    web: TestClient,
) -> None:
    r = web.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 201, r.text
    for _ in range(5):
        assert login(web, "198.51.100.7", "wrong password!").status_code == 401
    held = login(web, "198.51.100.7", PASSWORD)  # the right password, from the guesser
    assert held.status_code == 429 and held.json()["error"]["code"] == "too_many_attempts"
    assert 1 <= held.json()["error"]["detail"]["retry_after"] <= 300
    owner = login(web, "203.0.113.20", PASSWORD)
    assert owner.status_code == 200, owner.text
    assert owner.json()["user"]["name"] == "Alice"
    again = login(web, "198.51.100.7", PASSWORD)  # the guesser's address is still held
    assert again.status_code == 429


# -- atomic: concurrent guesses ---------------------------------------------------------


def test_concurrent_wrong_guesses_get_exactly_the_limits_checks(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 guesses at once from one address: exactly 5 passwords are checked. Each check
    waits until every guess is either being checked or refused, so a limiter that tests
    before it counts lets them all through."""
    sign_up(engine, "Alice", PASSWORD)
    guesses = 30
    checked = refused = 0
    turn = threading.Condition()
    verify = users._verify

    def counted(stored: str | None, password: str | None) -> bool:
        nonlocal checked
        with turn:
            checked += 1
            turn.notify_all()
            turn.wait_for(lambda: checked + refused == guesses, timeout=5.0)
        return verify(stored, password)

    monkeypatch.setattr(users, "_verify", counted)
    limiter = LoginLimiter()
    start = threading.Barrier(guesses)

    def guess(i: int) -> None:
        nonlocal refused
        start.wait(timeout=WAIT)
        try:
            with engine.begin() as c:
                users.authenticate(
                    c, "Alice", f"wrong guess {i}", client="192.0.2.1", limiter=limiter
                )
        except UserError as error:
            if error.code == "too_many_attempts":
                with turn:
                    refused += 1
                    turn.notify_all()
            else:
                assert error.code == "bad_credentials"

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(guesses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=WAIT)
    assert (checked, refused) == (5, 25)


@pytest.mark.parametrize(
    ("limiter", "pairs", "limit"),
    [
        (LoginLimiter(per_account="7/hour"), [("alice", f"10.0.0.{i}") for i in range(30)], 7),
        (LoginLimiter(per_client="6/hour"), [(f"user{i}", "10.0.0.1") for i in range(30)], 6),
    ],
    ids=["one account, many addresses", "one address, many accounts"],
)
def test_concurrent_attempts_never_pass_a_ceiling(
    limiter: LoginLimiter, pairs: list[tuple[str, str]], limit: int
) -> None:
    start = threading.Barrier(len(pairs))
    allowed: list[bool] = []

    def go(name: str, client: str) -> None:
        start.wait(timeout=WAIT)
        allowed.append(limiter.attempt(name, client).allowed)

    threads = [threading.Thread(target=go, args=pair) for pair in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=WAIT)
    assert sorted(allowed) == [False] * (len(pairs) - limit) + [True] * limit


# -- the rules, against a model ---------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("abc"), st.sampled_from(["x", "y", "z"]), st.booleans()),
        max_size=60,
    )
)
def test_attempts_follow_the_three_counts(attempts: list[tuple[str, str, bool]]) -> None:
    """Within one window: an attempt is let through exactly when its (account,
    address), its account and its address are under their limits; refusals count
    nothing; a right password takes its attempt back and clears its (account, address)."""
    limiter = LoginLimiter(per_pair="2/hour", per_account="4/hour", per_client="3/hour")
    pair: dict[tuple[str, str], int] = {}
    account: dict[str, int] = {}
    client: dict[str, int] = {}
    for name, address, right in attempts:
        attempt = limiter.attempt(name, address)
        expected = (
            pair.get((name, address), 0) < 2
            and account.get(name, 0) < 4
            and client.get(address, 0) < 3
        )
        assert attempt.allowed == expected
        if not attempt.allowed:
            assert attempt.retry_after >= 1
            assert limiter.retry_after(name, address) >= 1
        elif right:
            limiter.succeeded(attempt)
            pair[(name, address)] = 0
        else:
            pair[(name, address)] = pair.get((name, address), 0) + 1
            account[name] = account.get(name, 0) + 1
            client[address] = client.get(address, 0) + 1


def test_repeated_failures_wait_longer_and_longer(clock: Clock) -> None:
    limiter = LoginLimiter(per_pair="2/minute;4/hour;5/day")
    waits = []
    for _ in range(3):
        while (attempt := limiter.attempt("alice", "10.0.0.1")).allowed:
            pass
        waits.append(attempt.retry_after)
        clock.now += attempt.retry_after + 1
    assert waits[0] <= 60 < waits[1] <= 3600 < waits[2] <= 86400
    assert limiter.attempt("alice", "10.0.0.2").allowed  # another address was never held


def test_the_limits_are_parsed_at_start() -> None:
    with pytest.raises(ValueError):
        LoginLimiter(per_pair="five a minute")
