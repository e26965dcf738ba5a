"""The exact endgame of Ultimate Tic-Tac-Toe against plain minimax over the rules engine."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.ai.kernels import uttt as UK
from sansu.ai.kernels import uttt_endgame as E

WIN = E.WIN


def _key(state) -> tuple:
    return tuple(state.mark_at(c) for c in range(81)), tuple(state.allowed_sections())


def _after(state, move) -> int:
    """The score of ``move`` for the player making it (wins sooner and losses later better)."""
    nxt = state.play(move)
    if nxt.result is not None:
        if nxt.result.draw:
            return 0
        return WIN - 1 if nxt.result.winners[0] == state.to_move else 1 - WIN
    value = -minimax(nxt, {})
    return value - 1 if value > 0 else value + 1 if value < 0 else 0


def minimax(state, memo: dict) -> int:
    """Plain minimax over the engine (remembering positions met twice, no pruning)."""
    key = _key(state)
    if key not in memo:
        best = -WIN
        for move in state.legal_moves():
            nxt = state.play(move)
            if nxt.result is not None:
                value = 0 if nxt.result.draw else WIN - 1
            else:
                child = -minimax(nxt, memo)
                value = child - 1 if child > 0 else child + 1 if child < 0 else 0
            best = max(best, value)
        memo[key] = best
    return memo[key]


def near_the_end(seed: int, empty: int):
    """A position of a random game with at most ``empty`` cells left in open sections."""
    rng = random.Random(seed)
    game = sansu.load_game("uttt")
    while True:
        state = game.initial_state()
        while state.result is None:
            if E.open_empty(UK.from_state(state)) <= empty:
                return state
            state = state.play(rng.choice(state.legal_moves()))


def solve(state, budget: int = 10**7, table: E.Table | None = None):
    table = table or E.Table(16)
    out = np.empty(81, np.int16)
    values = np.empty(81, np.int64)
    n, score, nodes = E.solve(UK.from_state(state), budget, *table.arrays(), out, values)
    moves = [UK.move_of(state.game, int(c)) for c in out[: max(n, 0)]]
    return n, score, nodes, moves, values[: max(n, 0)].tolist()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), empty=st.integers(1, 9))
def test_the_solver_scores_a_position_as_minimax_does(seed, empty) -> None:
    state = near_the_end(seed, empty)
    n, score, _, moves, values = solve(state)
    assert n == len(state.legal_moves())
    assert score == minimax(state, {})
    # The move it plays is worth its score: the fastest win, the slowest loss.
    assert _after(state, moves[0]) == score == values[0]
    if score == 0:
        for move, value in zip(moves[1:], values[1:], strict=True):
            assert (value == 0) == (_after(state, move) == 0)
            assert value <= 0


def test_the_sample_covers_free_moves_full_boards_and_every_outcome() -> None:
    """The positions the property test draws include what the rules make special."""
    free = drawn = 0
    outcomes = set()
    for seed in range(80):
        state = near_the_end(seed, 9)
        kernel = UK.from_state(state)
        free += len(state.allowed_sections()) > 1
        score = solve(state)[1]
        outcomes.add((score > 0) - (score < 0))
        drawn += score == 0  # a draw comes only when every section is closed
        assert E.open_empty(kernel) <= 9
    assert free >= 10 and drawn >= 5 and outcomes == {-1, 0, 1}


def test_a_solve_out_of_nodes_says_so_and_a_later_one_finishes() -> None:
    state = near_the_end(7, 22)
    table = E.Table(18)
    n, _, nodes, _, _ = solve(state, budget=50, table=table)
    assert n == -1 and nodes > 50
    n, score, _, moves, _ = solve(state, table=table)
    assert n == len(state.legal_moves()) and moves[0] in state.legal_moves()
    assert solve(state, table=E.Table(18))[1] == score


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_table_gives_the_same_scores_as_a_fresh_one(seed) -> None:
    """Entries are exact scores or bounds relative to their position: valid in any solve."""
    table = E.Table(12)  # small: entries collide and are replaced
    for k in range(4):
        state = near_the_end(1000 * seed + k, 14)
        assert solve(state, table=table)[1] == solve(state, table=E.Table(16))[1]


def _player(endgame: int):
    from sansu.ai.levels import level_for, with_settings
    from sansu.ai.player import ComputerPlayer

    settings = with_settings(level_for("uttt", "max"), f"endgame={endgame}")
    return ComputerPlayer(sansu.load_game("uttt"), settings, seed=3)


@pytest.mark.parametrize("seed", range(40, 52))
def test_max_with_the_endgame_plays_the_fastest_win_the_slowest_loss_and_keeps_draws(seed):
    state = near_the_end(seed, 10)
    if len(state.legal_moves()) == 1:
        return
    score = minimax(state, {})
    analysis = _player(81).choose(state, simulations=2_000)
    value = _after(state, analysis.move)
    if score != 0:
        # Decided at once by the solve, with the best outcome soonest (or latest).
        assert value == score and analysis.simulations == 0
        assert analysis.proven == ("win" if score > 0 else "loss")
    else:
        assert value == 0 and analysis.simulations > 0


def test_a_drawn_root_searches_only_the_moves_that_keep_the_draw() -> None:
    """Every move but the draws is marked lost before the search: none of them is played."""
    for seed in range(200):
        state = near_the_end(seed, 10)
        moves = state.legal_moves()
        kinds = {_after(state, m) == 0 for m in moves}
        if minimax(state, {}) == 0 and kinds == {True, False}:
            break
    else:  # pragma: no cover - the seeds above hold such positions
        pytest.fail("no drawn position with a losing move")
    analysis = _player(81).choose(state, simulations=3_000)
    assert _after(state, analysis.move) == 0 and analysis.simulations == 3_000
    lost = [c for c in analysis.candidates if c.proven is not None and c.proven <= 0.0]
    assert all(_after(state, c.move) < 0 for c in lost)


def test_too_big_or_out_of_budget_the_search_goes_on_as_without_the_endgame() -> None:
    state = near_the_end(5, 30)
    with_it = _player(10).choose(state, simulations=500)
    without = _player(0).choose(state, simulations=500)
    assert (with_it.move, with_it.simulations) == (without.move, without.simulations)


@pytest.mark.parametrize("bad", [-1, 82])
def test_an_endgame_limit_out_of_range_is_refused(bad) -> None:
    from sansu.ai.compiled import CompiledSearch
    from sansu.ai.endgame import Endgame
    from sansu.ai.levels import level_for, with_settings

    with pytest.raises(ValueError, match="endgame"):
        with_settings(level_for("uttt", "max"), f"endgame={bad}")
    if bad < 0:
        with pytest.raises(ValueError, match="endgame"):
            Endgame(bad)
    with pytest.raises(ValueError, match="Ultimate"):
        CompiledSearch("sansumoku", endgame=10)


def test_warming_up_a_player_readies_its_endgame_and_only_when_it_has_one() -> None:
    """The solver's compiled code and table are ready before the first move's clock starts."""
    with_it, without = _player(24), _player(0)
    with_it.warm_up()
    without.warm_up()
    assert with_it._search.endgame._table is not None
    assert without._search.endgame._table is None
