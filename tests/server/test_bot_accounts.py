"""Bot accounts and API tokens, the domain alone: who may hold tokens, what a token
opens, and what revoking it does."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansu.server.accounts.users import UserError
from sansu.server.bots import accounts as bot_accounts
from tests.server.accounts_fixtures import engine_fixture as engine_fixture
from tests.server.accounts_fixtures import fast_hashing_fixture as fast_hashing_fixture
from tests.server.accounts_fixtures import sign_up


def bot_with_tokens(engine: sa.Engine, name: str, count: int) -> tuple[object, list[str]]:
    user = sign_up(engine, name)
    with engine.begin() as c:
        user = bot_accounts.make_bot(c, user.id)
        tokens = [bot_accounts.create_token(c, user, f"t{i}", now=1.0)[0] for i in range(count)]
    return user, tokens


def test_only_a_bot_holds_tokens_and_labels_are_checked(engine: sa.Engine) -> None:
    person = sign_up(engine, "person")
    with engine.begin() as c, pytest.raises(UserError) as refused:
        bot_accounts.create_token(c, person, "x", now=1.0)
    assert refused.value.code == "not_a_bot"
    _bot, _tokens = bot_with_tokens(engine, "robot", 0)
    with engine.begin() as c:
        robot = bot_accounts.make_bot(c, _bot.id)  # type: ignore[attr-defined]
        for label in ("", "   ", "x" * 41, 7):
            with pytest.raises(UserError):
                bot_accounts.create_token(c, robot, label, now=1.0)
        for i in range(bot_accounts.MAX_TOKENS):
            bot_accounts.create_token(c, robot, f"t{i}", now=1.0)
        with pytest.raises(UserError) as refused:
            bot_accounts.create_token(c, robot, "one more", now=1.0)
        assert refused.value.code == "too_many_tokens"


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(count=st.integers(1, 4), revoked=st.sets(st.integers(0, 3)), junk=st.text(max_size=80))
def test_a_token_opens_its_own_bot_until_revoked_and_nothing_else_opens_any(
    engine: sa.Engine, count: int, revoked: set[int], junk: str
) -> None:
    with engine.begin() as c:
        c.execute(sa.text("delete from api_tokens"))
        c.execute(sa.text("delete from users"))
    robot, tokens = bot_with_tokens(engine, "robot", count)
    other, other_tokens = bot_with_tokens(engine, "other", 1)
    with engine.begin() as c:
        ids = [t.id for t in bot_accounts.list_tokens(c, robot.id)]  # type: ignore[attr-defined]
        for i in sorted(revoked):
            if i < count:
                assert bot_accounts.revoke_token(c, robot.id, ids[i], now=2.0)  # type: ignore[attr-defined]
                assert not bot_accounts.revoke_token(c, robot.id, ids[i], now=3.0)  # type: ignore[attr-defined]
        # Nobody revokes another account's token.
        assert not bot_accounts.revoke_token(c, other.id, ids[0], now=2.0)  # type: ignore[attr-defined]
    with engine.connect() as c:
        for i, token in enumerate(tokens):
            expected = None if i in revoked else robot
            assert bot_accounts.token_user(c, token) == expected
        assert bot_accounts.token_user(c, other_tokens[0]) == other
        if junk not in tokens and junk not in other_tokens:
            assert bot_accounts.token_user(c, junk) is None
        assert len(bot_accounts.list_tokens(c, robot.id)) == count - len(  # type: ignore[attr-defined]
            {i for i in revoked if i < count}
        )
