"""The compiled kernels against the engines: same legal moves and results at every step."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.ai.compiled import CompiledSearch, net_arguments, same_position
from sansu.ai.kernels import sansumoku as SK
from sansu.ai.kernels import thirtyfive as TK
from sansu.ai.kernels import uttt as UK
from sansu.ai.kernels.tree import Tree
from sansu.core.sections import LINES, PLACES

KERNELS = {"uttt": UK, "sansumoku": SK, "thirtyfive": TK}
OPENING = {"uttt": "r5c5", "sansumoku": "r5c5", "thirtyfive": "r5c5=7"}


def kernel_moves(kernel, game, st) -> set[str]:
    out = np.empty(kernel.MAX_MOVES, dtype=np.int16)
    n = kernel.legal(st, out)
    return {str(kernel.move_of(game, int(m))) for m in out[:n]}


def kernel_result(kernel, st):
    r = int(st[kernel.RESULT])
    return None if r == kernel.ONGOING else ("draw" if r == kernel.DRAWN else r)


def engine_result(state):
    if state.result is None:
        return None
    return "draw" if state.result.draw else state.result.winners[0]


@pytest.mark.parametrize("game_id", sorted(KERNELS))
@settings(max_examples=100)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(3, 12), cols=st.integers(3, 12))
def test_a_random_game_goes_the_same_way_in_kernel_and_engine(game_id, seed, rows, cols) -> None:
    kernel = KERNELS[game_id]
    options = {"rows": rows, "cols": cols} if game_id == "thirtyfive" else {}
    game = sansu.load_game(game_id, **options)
    rng = random.Random(seed)
    state = game.initial_state()
    st_ = kernel.from_state(state)
    while True:
        assert kernel_moves(kernel, game, st_) == {str(m) for m in state.legal_moves()}
        assert kernel_result(kernel, st_) == engine_result(state)
        if state.result is not None:
            break
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        kernel.play(st_, kernel.code_of(game, move))
        # Reading the state afresh gives what the kernel reached by playing.
        if state.result is None:
            assert same_position(kernel, kernel.from_state(state), st_)


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_kernel_playouts_end_in_a_result(game_id) -> None:
    kernel = KERNELS[game_id]
    root = kernel.from_state(sansu.load_game(game_id).initial_state())
    tree = Tree(16, 3)
    assert root[kernel.RESULT] == kernel.ONGOING
    policies = [0, 1]
    if kernel is UK:  # every playout kind, plus section wins, plus max0's draws
        policies = [k | extra for k in range(4) for extra in (0, UK.GREEDY, UK.COUNTED)]
    for policy in policies:
        for _ in range(50):
            st_ = root.copy()
            assert kernel.playout(st_, tree.meta, policy) in (0, 1, 2)
            assert st_[kernel.RESULT] != kernel.ONGOING


UTTT_WIN = (
    "r5c5 r6c6 r8c8 r4c6 r3c8 r9c4 r7c3 r1c8 r3c4 r8c1 r6c2 r8c6 r4c9 r1c7 r3c2 r7c6 r3c7 r9c3"
    " r9c7 r7c1 r2c3 r4c7 r3c3 r7c9 r2c8 r6c4 r8c3 r6c9 r8c9 r5c8 r5c4 r5c3 r8c7 r4c2 r1c4 r2c1"
    " r6c1 r9c1 r3c5 r9c6 r2c5 r6c5 r3c6"
)
SANSUMOKU_WIN = (
    "r4c6 r3c9 r9c8 r8c4 r6c3 r7c7 r1c2 r2c5 r6c6 r8c9 r5c7 r4c2 r1c5 r3c5 r9c4 r7c1 r2c3 r5c8"
    " r4c4 r1c3 r1c6 r5c1 r4c3 r5c5 r5c4 r6c2 r7c6 r6c5 r7c4 r3c1 r8c1 r5c3 r6c7 r9c2 r8c5 r6c4"
    " r8c2 r4c5 r2c6 r6c8 r6c1 r9c3 r7c9"
)
WINS = {"uttt": (UTTT_WIN, "r1c9"), "sansumoku": (SANSUMOKU_WIN, "r9c1")}


@pytest.mark.parametrize("game_id", sorted(WINS))
def test_the_solver_proves_the_win_in_one(game_id) -> None:
    moves, winning = WINS[game_id]
    state = sansu.load_game(game_id).play_moves(moves.split())
    assert state.play(winning).result.winners == (state.to_move,)
    stats = CompiledSearch(game_id).run(state, simulations=3000, seed=1)
    best = stats.candidates[0]
    assert str(best.move) == winning
    assert best.proven == 1.0
    assert stats.proven == 1.0  # the root itself is settled
    assert stats.simulations < 3000  # and the search stopped early


@pytest.mark.parametrize("policy", [1, 7])
def test_the_solver_proves_a_lost_position(policy) -> None:
    # A position (found by random play) where every move lets the opponent win at once.
    game = sansu.load_game("uttt")
    rng = random.Random(11)
    for _ in range(400):
        state = game.initial_state()
        while state.result is None:
            moves = state.legal_moves()
            if len(moves) > 1 and all(
                any(
                    (r := after.play(m2).result) is not None and r.winners == (after.to_move,)
                    for m2 in after.legal_moves()
                )
                for after in (state.play(m) for m in moves)
            ):
                stats = CompiledSearch("uttt", policy=policy).run(state, simulations=20000, seed=2)
                assert stats.proven == 0.0
                assert all(c.proven == 0.0 for c in stats.candidates)
                return
            state = state.play(rng.choice(moves))
    pytest.fail("no lost position found")  # pragma: no cover


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_a_search_with_a_simulation_budget_repeats_exactly(game_id) -> None:
    state = sansu.load_game(game_id).play_moves([OPENING[game_id]])
    a = CompiledSearch(game_id).run(state, simulations=2000, seed=7)
    b = CompiledSearch(game_id).run(state, simulations=2000, seed=7)
    assert [(str(c.move), c.visits) for c in a.candidates] == [
        (str(c.move), c.visits) for c in b.candidates
    ]
    assert a.simulations == 2000
    assert sum(c.visits for c in a.candidates) == 2000


def test_a_small_tree_fills_up_and_the_search_goes_on() -> None:
    state = sansu.load_game("uttt").initial_state()
    tree = Tree(200, 1)
    tree.mover[0] = 1
    done = UK.search(
        UK.from_state(state), *tree.arrays(), 5000, 0.8, 1, 0, 0.5, *net_arguments("uttt", None, 0)
    )
    assert done == 5000
    assert tree.nodes <= 200
    assert tree.visits[0] == 5000


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_a_kept_tree_is_reused_two_moves_later_and_only_then(game_id) -> None:
    game = sansu.load_game(game_id, **({"rows": 4, "cols": 4} if game_id == "thirtyfive" else {}))
    search = CompiledSearch(game_id, reuse=True)
    state = game.play_moves([OPENING[game_id].replace("r5c5", "r2c2")])
    first = search.run(state, simulations=20_000, seed=1)
    mine = first.candidates[0].move
    after = state.play(mine)
    assert len(first.pv) >= 2 and first.pv[0] == str(mine)
    reply = first.pv[1]  # a reply the tree has searched
    again = search.run(after.play(reply), simulations=10, seed=2)
    assert sum(c.visits for c in again.candidates) > 10  # earlier simulations count
    # A position that is not two moves on starts afresh.
    fresh = search.run(state, simulations=10, seed=3)
    assert sum(c.visits for c in fresh.candidates) == 10
    plain = CompiledSearch(game_id).run(after.play(reply), simulations=10, seed=2)
    assert {str(c.move) for c in plain.candidates} == {str(c.move) for c in again.candidates}


def _free_move_position(game_id: str, seed: int):
    """A position of a random game, 30 plies on or more, where the mover may choose a section."""
    rng = random.Random(seed)
    game = sansu.load_game(game_id)
    while True:
        state = game.initial_state()
        while state.result is None and (state.ply < 30 or len(state.allowed_sections()) < 2):
            state = state.play(rng.choice(state.legal_moves()))
        if state.result is None:
            return state


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_free_moves_split_in_the_tree_still_give_real_moves_and_lines(game_id) -> None:
    # Policy + 4 splits a free move below the root into a section choice and a cell choice.
    state = _free_move_position(game_id, 3)
    stats = CompiledSearch(game_id, policy=5).run(state, simulations=30_000, seed=4)
    legal = {str(m) for m in state.legal_moves()}
    assert {str(c.move) for c in stats.candidates} == legal
    line = state
    for text in stats.pv:
        line = line.play(text)  # every move of the line is legal in turn
    assert len(stats.pv) >= 3


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
@pytest.mark.parametrize("seed", range(4))
def test_a_kept_tree_with_split_free_moves_serves_whole_games(game_id, seed) -> None:
    # With free moves split in the tree, a kept node may have section choices below it;
    # it must then not become a root, and every answer must still be a legal move.
    game = sansu.load_game(game_id)
    search = CompiledSearch(game_id, policy=5 | KERNELS[game_id].PRIOR, reuse=True)
    rng = random.Random(seed)
    state = game.initial_state()
    while state.result is None:
        if state.to_move == 0:
            stats = search.run(state, simulations=400, seed=state.ply)
            move = stats.candidates[0].move
            assert move in state.legal_moves()
            assert {str(c.move) for c in stats.candidates} <= {str(m) for m in state.legal_moves()}
        else:
            move = rng.choice(state.legal_moves())
        state = state.play(move)


def _expected_prior(kernel, state, move) -> tuple[float, float]:
    """The prior of ``move`` from the engine's public state, and what sending the opponent
    to a section they can win at once adds (Sansumoku's kernel judges that from the
    position before the move, so it may or may not count there)."""
    owner = state.mark_at if state.game.id == "uttt" else state.player_at
    mover, s, p = state.to_move, move.section, move.position
    marks = {q.position: owner(q.cell) for q in PLACES if q.section == s}
    mine = {q for q, o in marks.items() if o == mover} | {p}
    theirs = {q for q, o in marks.items() if o == 1 - mover}
    h = 0.0
    won = any(set(line) <= mine for line in LINES)
    if won:
        h += UK.PRIOR_WIN_SECTION
    if any(p in line and set(line) - {p} <= theirs for line in LINES):
        h += UK.PRIOR_BLOCK
    fills = sum(o is None for o in marks.values()) == 1
    if state.is_closed(p) or (p == s and (won or fills)):
        return h + UK.PRIOR_FREE_MOVE, 0.0
    after = state.play(move)
    sends = any(
        after.play(m).section_owner(p) == 1 - mover for m in after.legal_moves() if m.section == p
    )
    return h, UK.PRIOR_SEND_TO_WIN if sends or state.game.id == "sansumoku" else 0.0


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_the_priors_judge_moves_as_the_engine_sees_them(game_id) -> None:
    # The progressive bias: winning a section and taking the opponent's winning cell are
    # good; handing the opponent a free move, or a section they can win at once, is bad.
    kernel = KERNELS[game_id]
    game = sansu.load_game(game_id)
    rng = random.Random(6)
    kinds: set[float] = set()
    for _ in range(25):
        state = game.initial_state()
        while state.result is None:
            st_ = kernel.from_state(state)
            for move in state.legal_moves():
                if state.play(move).result is not None:
                    continue
                h = kernel.prior(st_, move.bit)
                base, send = _expected_prior(kernel, state, move)
                if game_id == "uttt":
                    assert h == base + send, (state.ply, str(move))
                else:
                    assert h in (base, base + send), (state.ply, str(move))
                kinds.add(h)
            state = state.play(rng.choice(state.legal_moves()))
    assert len(kinds) >= 5


def _wins_at_once(state) -> bool:
    """Whether the player to move at ``state`` (engine) can win the game with one move."""
    mover = state.to_move
    return any(
        (after := state.play(m)).result is not None and after.result.winners == (mover,)
        for m in state.legal_moves()
    )


def test_the_playouts_threat_helpers_agree_with_the_engine() -> None:
    # The playout knowledge of UTTT's kernel (a winning move, a move that hands the
    # opponent a win) judged against the engine on positions from random games.
    game = sansu.load_game("uttt")
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        state = game.initial_state()
        while state.result is None:
            st = UK.from_state(state)
            player = state.to_move
            found = UK.winning_move(st, player)
            assert (found >= 0) == _wins_at_once(state)
            if found >= 0:
                assert state.play(UK.move_of(game, found)).result.winners == (player,)
            danger = UK.threats(st, 1 - player)
            for move in state.legal_moves():
                after = state.play(move)
                if after.result is not None:
                    continue
                handed = UK.gives_win(st, move.bit, danger, 1 - player)
                assert handed == _wins_at_once(after), (state.ply, str(move))
                checked += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 10_000


def test_the_playouts_random_move_is_legal_and_uniform() -> None:
    # A free move is drawn by rejection (random cells until an empty one of an open
    # section), or for max0 by counting: every legal move comes up, nothing else does,
    # at even odds.
    game = sansu.load_game("uttt")
    rng = random.Random(8)
    tree = Tree(1, 21)
    free = 0
    for _ in range(12):
        state = game.initial_state()
        while state.result is None:
            st_ = UK.from_state(state)
            legal = {m.bit for m in state.legal_moves()}
            draws = 40 * len(legal)
            for draw in (UK.random_move, UK.counted_move):
                counts: dict[int, int] = {}
                for _ in range(draws):
                    code = int(draw(st_, tree.meta))
                    counts[code] = counts.get(code, 0) + 1
                assert set(counts) == legal
                if len(legal) > 9:
                    free += 1
                    # Each count is about Binomial(draws, 1/n): mean 40, sd about 6.3.
                    assert min(counts.values()) > 5 and max(counts.values()) < 90
            state = state.play(rng.choice(state.legal_moves()))
    assert free > 20
