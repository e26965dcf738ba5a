"""Property: no sequence of operations by user A changes user B's data (account row,
sessions, ratings, rating history), whatever A tries, on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from sansu.server.accounts import sessions as user_sessions
from sansu.server.accounts import users
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.users import UserError
from sansu.server.ratings import table as ratings
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)

A_PASSWORD, B_PASSWORD = "password of a", "password of b"
texts = st.text(max_size=30)
names = st.sampled_from(["Alice", "alice", "Bob", "BOB", "Carol", "Nobody", "b"]) | texts
passwords = st.sampled_from([A_PASSWORD, B_PASSWORD, "new password a"]) | texts
game_ids = st.sampled_from(["b-game", "a-game", "x"]) | st.text(min_size=1, max_size=24)
operations = st.one_of(
    st.tuples(st.just("sign_up"), names, passwords),
    st.tuples(st.just("log_in"), names, passwords),
    st.tuples(st.just("change_password"), passwords, passwords),
    st.tuples(st.just("open_session")),
    st.tuples(st.just("revoke"), st.integers(0, 5) | texts),
    st.tuples(st.just("revoke_all"), st.booleans()),
    st.tuples(st.just("look_up"), texts),
    st.tuples(st.just("rate"), game_ids, st.sampled_from([[1, 2], [2, 1], [1, 1]])),
    st.tuples(st.just("rate_team"), game_ids, st.permutations([1, 2, 3])),
)


def b_data(engine: Engine, b: int) -> dict[str, list[tuple]]:
    tables = {
        "users": (users.users, users.users.c.id),
        "sessions": (user_sessions.user_sessions, user_sessions.user_sessions.c.user_id),
        "ratings": (ratings.ratings, ratings.ratings.c.user_id),
        "history": (ratings.rating_history, ratings.rating_history.c.user_id),
    }
    with engine.connect() as c:
        out = {
            name: sorted(map(tuple, c.execute(sa.select(table).where(column == b))), key=repr)
            for name, (table, column) in tables.items()
        }
        out["rated"] = list(map(tuple, c.execute(sa.select(ratings.rated_games).where(
            ratings.rated_games.c.game_id == "b-game"))))  # fmt: skip
    return out


def test_user_a_cannot_change_user_bs_data(engine: Engine) -> None:
    a = sign_up(engine, "Alice", A_PASSWORD)
    b = sign_up(engine, "Bob", B_PASSWORD)
    carol, dave, eve = (sign_up(engine, name) for name in ("Carol", "Dave", "Eve"))
    with engine.begin() as c:
        b_session = user_sessions.open_session(c, b, now=0.0)
        ratings.rate_game(c, "b-game", game="uttt", speed="timed", players=[b.id, carol.id],
                          ranks=[1, 2], now=0.0)  # fmt: skip
    clock = itertools.count(1)
    a_tokens: list[str] = []
    before = b_data(engine, b.id)

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(operations, max_size=8))
    def run(ops: list[tuple]) -> None:
        limiter = LoginLimiter()
        for op, *args in ops:
            now = float(next(clock))
            try:
                with engine.begin() as c:
                    if op == "sign_up":
                        users.sign_up(c, args[0], args[1], now=now)
                    elif op == "log_in":
                        users.authenticate(c, args[0], args[1], client="a", limiter=limiter)
                    elif op == "change_password":
                        users.change_password(c, a.id, args[0], args[1], now=now)
                    elif op == "open_session":
                        a_tokens.append(user_sessions.open_session(c, a, now=now).token)
                    elif op == "revoke":
                        token = args[0]
                        if isinstance(token, int):
                            token = a_tokens[token] if token < len(a_tokens) else b_session.csrf
                        user_sessions.revoke(c, token)
                    elif op == "revoke_all":
                        keep = a_tokens[-1] if args[0] and a_tokens else None
                        user_sessions.revoke_all(c, a.id, keep=keep)
                    elif op == "look_up":
                        assert user_sessions.session_user(c, args[0], now=now) in (None, a)
                    elif op == "rate":
                        ratings.rate_game(c, args[0], game="uttt", speed="timed",
                                          players=[a.id, carol.id], ranks=args[1],
                                          now=now)  # fmt: skip
                    elif op == "rate_team":
                        ratings.rate_game(c, args[0], game="challenge", speed="untimed",
                                          players=[a.id, (carol.id, dave.id), eve.id],
                                          ranks=args[1], now=now)  # fmt: skip
            except (UserError, ValueError):
                pass
        assert b_data(engine, b.id) == before
        with engine.connect() as c:
            assert user_sessions.session_user(c, b_session.token, now=0.5) == b

    run()
    # The operations do reach the store: one more of A's games is rated, B's data still not.
    with engine.begin() as c:
        ratings.rate_game(c, "a-final", game="uttt", speed="timed", players=[a.id, carol.id],
                          ranks=[1, 2], now=float(next(clock)))  # fmt: skip
    with engine.connect() as c:
        assert ratings.is_rated(c, "a-final") and ratings.history(c, a.id, "uttt", "timed")
    assert b_data(engine, b.id) == before
