"""Names that look alike are one name: a sign-up whose confusable skeleton is taken is
refused, and migration 0007 gives every existing account its skeleton."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from sansu.server.accounts import users
from sansu.server.accounts.users import UserError, skeleton
from sansu.server.base.store import make_engine, migrate
from tests.server.accounts_fixtures import engine_fixture as engine_fixture
from tests.server.accounts_fixtures import fast_hashing_fixture as fast_hashing_fixture
from tests.server.accounts_fixtures import sign_up
from tests.server.test_ratings_migration import HEAD, state
from tests.server.test_reviews_migration import downgrade

NAME = st.from_regex(users.NAME_PATTERN, fullmatch=True)


@pytest.mark.parametrize(
    ("taken", "lookalike"),
    [
        ("Alice", "AIice"),  # a capital i for an l
        ("Alice", "A1ice"),
        ("alice", "ALlCE"),
        ("Bob0", "BobO"),
        ("Boo", "B00"),
        ("Emma", "Ernrna"),  # rn for m
        ("Dave", "DAVE"),  # case alone, as before
    ],
)
def test_a_lookalike_of_a_taken_name_is_refused(
    engine: sa.Engine, taken: str, lookalike: str
) -> None:
    sign_up(engine, taken)
    with engine.connect() as c:
        before = c.execute(sa.select(users.users)).all()
    with pytest.raises(UserError) as refused:
        sign_up(engine, lookalike)
    assert refused.value.code == "name_taken"
    assert "looks like" in str(refused.value) or "taken" in str(refused.value)
    with engine.connect() as c:
        assert c.execute(sa.select(users.users)).all() == before


def test_names_that_only_share_letters_are_fine(engine: sa.Engine) -> None:
    for name in ("Alice", "Alicia", "Alic3", "Bob", "Bobby", "Emma", "Emmy"):
        sign_up(engine, name)


@given(NAME)
def test_the_skeleton_ignores_case_and_the_lookalikes(name: str) -> None:
    swapped = name.swapcase()
    assert skeleton(swapped) == skeleton(name)
    for a, b in (("l", "I"), ("1", "l"), ("O", "0"), ("rn", "m")):
        assert skeleton(name.replace(a, b)) == skeleton(name)
    assert len(skeleton(name)) <= len(name)


def test_0007_gives_old_accounts_their_skeleton(engine: sa.Engine, any_db: str) -> None:
    downgrade(engine, "0006")
    assert state(engine)[1] == "0006"
    with engine.begin() as c:
        for i, name in enumerate(("Alice", "AIice", "Bob")):
            c.execute(
                sa.text(
                    "INSERT INTO users (name, name_key, password_hash, created_at,"
                    " password_changed_at, bot) VALUES (:n, :k, 'x', :t, :t, false)"
                ),
                {"n": name, "k": name.lower(), "t": float(i)},
            )
    migrate(make_engine(any_db))
    assert state(engine)[1] == HEAD
    with engine.connect() as c:
        rows = dict(c.execute(sa.text("SELECT name, name_skeleton FROM users")).all())
    # the older of two lookalikes keeps the skeleton; the later one has none to claim
    assert rows == {"Alice": skeleton("Alice"), "AIice": None, "Bob": skeleton("Bob")}
    with pytest.raises(UserError):
        sign_up(engine, "A1ice")
