"""``sansu bot``'s decisions that need no server: filters, thinking budgets, arguments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sansu.cli.bot import Filters
from sansu.cli.bot_engine import option_args, think_ms
from sansu.cli.main import main


def challenge(game: str = "uttt", rated: bool = False, initial: float | None = 60) -> dict:
    tc = None if initial is None else {"initial_seconds": initial, "increment_seconds": 0}
    return {"game": game, "rated": rated, "time_control": tc}


def test_filters_accept_and_decline_with_a_reason() -> None:
    assert Filters().refusal(challenge()) is None
    games = Filters(games=frozenset({"uttt"}))
    assert games.refusal(challenge("sansumoku")) == "this bot plays uttt"
    assert Filters(rated="rated").refusal(challenge()) == "this bot plays rated games only"
    assert Filters(rated="casual").refusal(challenge(rated=True)) is not None
    assert Filters(timed="timed").refusal(challenge(initial=None)) is not None
    assert Filters(timed="untimed").refusal(challenge()) is not None
    assert Filters(min_seconds=120).refusal(challenge(initial=60)) is not None
    assert Filters(max_seconds=30).refusal(challenge(initial=60)) is not None
    assert Filters(min_seconds=30, max_seconds=60).refusal(challenge(initial=60)) is None


@given(
    remaining=st.floats(0, 10_000),
    increment=st.floats(0, 60),
    seat=st.integers(0, 1),
)
def test_a_move_never_takes_more_than_a_third_of_the_clock_left(
    remaining: float, increment: float, seat: int
) -> None:
    clock = {"remaining": [remaining, remaining], "increment": increment}
    budget = think_ms({"clock": clock}, seat, 1000)
    assert 20 <= budget <= 30_000
    assert budget <= max(20, remaining * 1000 / 3)


def test_untimed_games_think_the_given_time_and_turn_limits_cap_it() -> None:
    assert think_ms({"clock": None}, 0, 700) == 700
    assert think_ms({"clock": {"limit": {"seconds_left": 1.0}}}, 0, 5000) == 500


def test_options_become_engine_arguments() -> None:
    assert option_args({"rows": 9, "honour": True, "seed": None}) == [
        "--option", "honour=true", "--option", "rows=9",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["bot", "--server", "http://x", "--token-file", "/nonexistent/token"],
        ["bot", "--server", "http://x", "--token-file", "/dev/null"],
        ["bot", "--server", "http://x"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "sansu bot" in capsys.readouterr().err
