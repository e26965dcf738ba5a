"""The generic search on a game small enough to know the answers: solver, max^n, budgets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sansu.ai.adapters import Adapter, score_rewards
from sansu.ai.mcts import MCTS, rewards_of
from sansu.core.protocol import Result
from tests.ai.toy import Take


def search(stones: int, players: int = 2, **budget):
    game = Take(stones=stones, players=players)
    return MCTS(Adapter(game)).run(game.initial_state(), **budget)


@pytest.mark.parametrize("stones", [1, 2, 4, 5, 7, 8, 10, 11])
def test_a_won_pile_is_proven_won_with_the_right_move(stones) -> None:
    stats = search(stones, simulations=3000, seed=1)
    assert stats.proven == 1.0
    best = stats.candidates[0]
    assert best.proven == 1.0
    assert (stones - best.move) % 3 == 0


@pytest.mark.parametrize("stones", [3, 6, 9])
def test_a_lost_pile_is_proven_lost(stones) -> None:
    stats = search(stones, simulations=5000, seed=1)
    assert stats.proven == 0.0
    assert all(c.proven == 0.0 for c in stats.candidates)


def test_the_solver_stops_the_search_early() -> None:
    assert search(4, simulations=100_000, seed=1).simulations < 1000


def test_three_players_each_maximise_their_own_reward() -> None:
    # Three players, 2 stones: taking both wins outright.
    stats = search(2, players=3, simulations=200, seed=3)
    assert stats.candidates[0].move == 2 and stats.candidates[0].proven == 1.0
    # Four stones: taking 2 lets player 1 take the last 2; taking 1 leaves 3, and whatever
    # player 1 takes, player 2 takes the rest. Player 0 cannot win: proven 0.
    stats = search(4, players=3, simulations=3000, seed=3)
    assert stats.proven == 0.0


def test_a_simulation_budget_repeats_exactly_and_a_time_budget_stops() -> None:
    a = search(40, simulations=300, seed=9)
    b = search(40, simulations=300, seed=9)
    assert [(c.move, c.visits, c.reward) for c in a.candidates] == [
        (c.move, c.visits, c.reward) for c in b.candidates
    ]
    assert a.simulations == 300
    timed = search(60, time_ms=30, seed=1)
    assert timed.simulations > 0


def test_a_finished_game_cannot_be_searched() -> None:
    game = Take(stones=1)
    with pytest.raises(ValueError, match="over"):
        MCTS(Adapter(game)).run(game.initial_state().play(1), simulations=5)


def test_rewards_of_results() -> None:
    assert rewards_of(Result.win(1, reason="x"), 2) == (0.0, 1.0)
    assert rewards_of(Result.drawn("x"), 2) == (0.5, 0.5)
    assert rewards_of(Result.drawn("x"), 4) == (0.25,) * 4
    assert rewards_of(Result.win(0, 2, reason="x"), 3) == (0.5, 0.0, 0.5)
    assert rewards_of(Result.win(0, 2, reason="x"), 4, teams=((0, 2), (1, 3))) == (1, 0, 1, 0)


@given(scores=st.lists(st.integers(-20, 200), min_size=2, max_size=5))
def test_score_rewards_share_one_among_the_leaders(scores) -> None:
    rewards = score_rewards(scores, None)
    assert sum(rewards) == pytest.approx(1.0)
    best = max(scores)
    for s, r in zip(scores, rewards, strict=True):
        assert (r > 0) == (s == best)


def test_progressive_widening_keeps_few_children_and_still_proves() -> None:
    game = Take(stones=200, most=40)
    start = game.initial_state()
    plain = MCTS(Adapter(game)).run(start, simulations=100, seed=2)
    assert len(plain.candidates) == 40  # every move gets a child before any gets two
    wide = MCTS(Adapter(game), widening=1.0).run(start, simulations=100, seed=2)
    assert len(wide.candidates) <= 11  # at most sqrt(visits) children
    assert max(c.visits for c in wide.candidates) > 5
    small = Take(stones=10, most=3)  # 10 = 2 (mod 4): take 2
    proven = MCTS(Adapter(small), widening=1.0).run(small.initial_state(), simulations=5000, seed=1)
    assert proven.proven == 1.0 and proven.candidates[0].move == 2
