"""Best-first search on the value network: its tree against the network and the rules."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.ai.bestfirst import BestFirstSearch, _mark_lost
from sansu.ai.compiled import kernel
from sansu.ai.kernels import bestfirst as B
from sansu.ai.kernels.sectioned import MAX_MOVES
from sansu.ai.kernels.valuenet import MAX_ACTIVE, features_of_state
from sansu.ai.levels import level_for, with_settings
from sansu.ai.network import shipped
from sansu.ai.player import ComputerPlayer, compiled_search
from tests.ai.test_endgame import minimax, near_the_end

GAMES = ("uttt", "sansumoku")


def random_position(game_id: str, seed: int, plies: int):
    rng = random.Random(seed)
    state = sansu.load_game(game_id).initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        nxt = state.play(rng.choice(moves))
        if nxt.result is not None:
            break
        state = nxt
    return state


def children(arrays, node: int) -> range:
    first, count = arrays[0], arrays[1]
    return range(int(first[node]), int(first[node]) + max(int(count[node]), 0))


def walk(search: BestFirstSearch, k, state, top: int):
    """Every expanded node of the tree with its position (replayed by the engine)."""
    arrays = search._room(top)
    todo = [(0, state)]
    while todo:
        node, position = todo.pop()
        yield node, position
        for c in children(arrays, node):
            if arrays[3][c] > 0:
                todo.append((c, position.play(k.move_of(position.game, int(arrays[2][c])))))


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40))
def test_children_are_the_legal_moves_valued_by_the_network(game_id, seed, plies) -> None:
    state = random_position(game_id, seed, plies)
    net = shipped(game_id)
    search = BestFirstSearch(game_id, net, reuse=False)
    k = kernel(game_id)
    stats = search.run(state, simulations=30)
    arrays = search._room(stats.nodes)
    value, total = arrays[4], arrays[5]
    for node, position in walk(search, k, state, stats.nodes):
        kids = list(children(arrays, node))
        codes = [int(arrays[2][c]) for c in kids]
        assert sorted(codes) == sorted(k.code_of(state.game, m) for m in position.legal_moves())
        for c in kids:
            after = position.play(k.move_of(state.game, int(arrays[2][c])))
            if after.result is not None:
                expected = 0.5 if after.result.draw else B.WIN
                assert value[c] == expected
                continue
            if arrays[3][c] == 0:  # valued by the network alone, for the player who moved
                v = float(net.predict(features_of_state(after)[None, :].astype(np.float32))[0])
                assert value[c] == pytest.approx((1.0 - v) / 2.0, abs=1e-3)
                assert total[c] == value[c]
        if kids and arrays[3][node] > 0:  # minimax: one minus the best child's value
            assert value[node] == pytest.approx(1.0 - max(value[c] for c in kids), abs=1e-6)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60))
def test_a_child_shares_its_parents_sums_and_is_valued_as_if_afresh(game_id, seed, plies) -> None:
    """The search sums a node's marks and other sections once for all its children and
    adds each child's own rows; every child's value is still the kernel's evaluation of
    it from scratch."""
    state = random_position(game_id, seed, plies)
    search = BestFirstSearch(game_id, shipped(game_id), reuse=False)
    k = kernel(game_id)
    stats = search.run(state, simulations=40)
    arrays = search._room(stats.nodes)
    moves = np.empty(MAX_MOVES, dtype=np.int16)
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    checked = 0
    for node, position in walk(search, k, state, stats.nodes):
        for c in children(arrays, node):
            after = position.play(k.move_of(state.game, int(arrays[2][c])))
            if after.result is not None or arrays[3][c] > 0:  # an expanded child: minimax
                continue
            r0 = k.judge(k.from_state(after), *search.weights, moves, active)
            afresh = r0 if position.to_move == 0 else 1.0 - r0
            assert arrays[4][c] == pytest.approx(afresh, abs=1e-6)
            checked += 1
    if plies < 20:  # near the end every child may be over or expanded; early, not
        assert checked > 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), empty=st.integers(1, 7))
def test_proven_moves_are_what_minimax_says(seed, empty) -> None:
    state = near_the_end(seed, empty)
    search = BestFirstSearch("uttt", shipped("uttt"), reuse=False)
    stats = search.run(state, simulations=3000)
    for c in stats.candidates:
        if c.proven is None:
            continue
        after = state.play(c.move)
        if after.result is not None:
            exact = 0.5 if after.result.draw else 1.0
        else:
            score = -minimax(after, {})
            exact = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        assert exact == c.proven
    if stats.proven is not None:
        score = minimax(state, {})
        assert stats.proven == (1.0 if score > 0 else 0.0)
        assert stats.candidates[0].proven == stats.proven


def test_a_solved_win_is_played_and_a_lost_move_avoided() -> None:
    """Positions whose best move is a proven win: the search plays one."""
    found = 0
    for seed in range(200):
        state = near_the_end(seed, 6)
        score = minimax(state, {})
        if score <= 0:
            continue
        stats = BestFirstSearch("uttt", shipped("uttt"), reuse=False).run(
            state, simulations=5000
        )
        best = stats.candidates[0]
        after = state.play(best.move)
        won = after.result is not None and not after.result.draw
        assert won or -minimax(after, {}) > 0, f"seed {seed}: {best.move} does not win"
        found += 1
        if found == 8:
            break
    assert found == 8


def test_a_drawn_roots_lost_moves_stay_lost_and_every_value_is_its_childrens_minimax() -> None:
    """The endgame marks a drawn root's losing moves lost before the search goes on; the
    kernel's backup, which rescans a node only when its best child fell, must find the
    root's value set to match."""
    k = kernel("uttt")
    found = 0
    memo: dict = {}
    for seed in range(300):
        state = near_the_end(seed, 9)
        if minimax(state, memo) != 0:
            continue
        losing = {m for m in state.legal_moves() if state.play(m).result is None
                  and minimax(state.play(m), memo) > 0}  # fmt: skip
        if not losing:
            continue
        search = BestFirstSearch("uttt", shipped("uttt"), reuse=False, endgame=30)
        stats = search.run(state, simulations=3000)
        assert stats.candidates[0].move not in losing, f"seed {seed}"
        assert_minimax_values(search, k, state, stats.nodes)
        found += 1
        if found == 4:
            break
    assert found == 4
    # The root's best child marked lost as the search does it, once the root is
    # expanded: the root's value must follow at once, or the backup, trusting it, keeps
    # a value no child has.
    state = random_position("uttt", 3, 10)
    search = BestFirstSearch("uttt", shipped("uttt"), reuse=False)
    top = search.run(state, simulations=1).nodes
    arrays = search._room(top)
    assert arrays[3][0] == 1 and all(arrays[3][c] == 0 for c in children(arrays, 0))
    best = max(children(arrays, 0), key=lambda c: arrays[4][c])
    _mark_lost(arrays, {int(arrays[2][best])})
    assert arrays[4][0] == np.float32(1.0 - max(arrays[4][c] for c in children(arrays, 0)))
    assert_minimax_values(search, k, state, search._search(k, k.from_state(state), top, 3))


def assert_minimax_values(search: BestFirstSearch, k, state, top: int) -> None:
    """Every expanded node's value is one minus its best child's, as stored."""
    arrays = search._room(top)
    value = arrays[4]
    for node, _ in walk(search, k, state, top):
        kids = children(arrays, node)
        if len(kids):
            assert value[node] == np.float32(1.0 - max(value[c] for c in kids)), node


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_budget_gives_the_same_tree(game_id) -> None:
    state = random_position(game_id, 5, 12)
    a = BestFirstSearch(game_id, shipped(game_id)).run(state, simulations=400, seed=1)
    b = BestFirstSearch(game_id, shipped(game_id)).run(state, simulations=400, seed=2)
    assert [(c.move, c.visits, c.reward) for c in a.candidates] == [
        (c.move, c.visits, c.reward) for c in b.candidates
    ]
    assert a.pv == b.pv and a.nodes == b.nodes


@pytest.mark.parametrize("game_id", GAMES)
def test_a_kept_tree_goes_on_where_the_game_went(game_id) -> None:
    k = kernel(game_id)
    state = random_position(game_id, 11, 6)
    search = BestFirstSearch(game_id, shipped(game_id))
    stats = search.run(state, simulations=2000)
    old = tuple(a.copy() for a in search._room(stats.nodes))
    code = k.code_of(state.game, stats.candidates[0].move)
    mine = next(c for c in children(old, 0) if int(old[2][c]) == code)
    reply = max(children(old, mine), key=lambda c: old[3][c])
    after = state.play(stats.candidates[0].move)
    after = after.play(k.move_of(state.game, int(old[2][reply])))
    top = search._reused(k, k.from_state(after), after)
    new = search._room(top)
    seen = []

    def same(a: int, b: int) -> None:  # the subtree under ``reply`` is the new tree
        seen.append(b)
        assert [x[a] for x in old[1:]] == [x[b] for x in new[1:]]
        for x, y in zip(children(old, a), children(new, b), strict=True):
            same(x, y)

    same(reply, 0)
    assert top == search.reused == len(seen) > 100
    assert sorted(seen) == list(range(top))
    # the search goes on from there; a position the kept tree never reached starts afresh
    again = BestFirstSearch(game_id, shipped(game_id))
    again.run(state, simulations=2000)
    assert again.run(after, simulations=10).nodes > top == again.reused
    search.run(random_position(game_id, 12, 9), simulations=10)
    assert search.reused == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_level_with_bestfirst_plays_whole_games(game_id) -> None:
    game = sansu.load_game(game_id)
    level = with_settings(level_for(game_id, "max"), "bestfirst=1,c_uct=0.41,fpu=0.4")
    players = [ComputerPlayer(game, level, seed=s) for s in (1, 2)]
    state = game.initial_state()
    while state.result is None:
        analysis = players[state.ply % 2].choose(state, simulations=150)
        assert analysis.move in state.legal_moves()
        state = state.play(analysis.move)


def test_a_game_without_a_network_is_refused() -> None:
    level = with_settings(level_for("thirtyfive", "max"), "bestfirst=1")
    with pytest.raises(ValueError, match="value network"):
        compiled_search("thirtyfive", level)
    with pytest.raises(ValueError, match="minimax"):
        with_settings(level_for("uttt", "max"), "minimax=1.5")


def test_the_tree_grows_to_its_limit_and_stops_there() -> None:
    state = random_position("uttt", 3, 4)
    search = BestFirstSearch("uttt", shipped("uttt"), reuse=False, max_nodes=50_000)
    stats = search.run(state, simulations=100_000)
    size = len(search._room(1)[0])
    assert size == 50_000 and stats.nodes <= size
    assert stats.simulations < 100_000
    assert stats.candidates and stats.candidates[0].move in state.legal_moves()


def test_warming_up_keeps_no_tree_for_the_first_move() -> None:
    level = with_settings(level_for("uttt", "max"), "bestfirst=1,c_uct=0.41,fpu=0.4")
    player = ComputerPlayer(sansu.load_game("uttt"), level, seed=1)
    player.warm_up()
    state = random_position("uttt", 4, 2)
    player.choose(state, simulations=50)
    assert player._search.reused == 0
