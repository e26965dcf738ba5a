"""The public API: levels for every game, budgets, seeds, wins in one, the analysis."""

from __future__ import annotations

import multiprocessing
import random
import time

import pytest

import sansu
from sansu.ai import LEVELS, Analysis, ComputerPlayer, get_player
from tests.ai.test_kernels import WINS

GAMES = sansu.game_ids()


def test_the_levels_are_named_in_order() -> None:
    assert LEVELS == ("beginner", "easy", "medium", "hard", "max")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_loads_and_plays_a_legal_move(game_id, level) -> None:
    player = get_player(game_id, level, seed=1)
    assert isinstance(player, ComputerPlayer)
    assert player.level == level and player.time_ms > 0
    state = sansu.load_game(game_id).initial_state()
    analysis = player.choose(state, simulations=8)
    assert isinstance(analysis, Analysis)
    assert analysis.move in state.legal_moves()
    assert -1.0 <= analysis.value <= 1.0
    assert analysis.pv and analysis.pv[0] == str(analysis.move)
    data = analysis.to_dict()
    assert data["move"] == str(analysis.move)
    assert set(data) >= {"move", "value", "pv", "simulations", "elapsed_ms"}


def test_level_budgets_grow_with_the_level() -> None:
    for game_id in GAMES:
        players = [get_player(game_id, level) for level in LEVELS]
        sims = [p.settings.simulations for p in players]
        assert sims[-1] is None  # max: only the clock limits it
        assert sims[:-1] == sorted(sims[:-1]) and len(set(sims[:-1])) == 4
        assert [p.time_ms for p in players] == sorted(p.time_ms for p in players)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("chess",), "unknown game"),
        (("uttt", "grandmaster"), "unknown level"),
        (("thirtyfive", "easy"), None),
    ],
)
def test_unknown_games_and_levels_are_value_errors(args, message) -> None:
    if message is None:
        with pytest.raises(ValueError, match="rows"):
            get_player(*args, rows=99)
    else:
        with pytest.raises(ValueError, match=message):
            get_player(*args)


def test_a_game_option_reaches_the_game() -> None:
    player = get_player("35", "easy", rows=5, cols=6)
    assert player.game.options == {"rows": 5, "cols": 6}
    state = player.game.initial_state()
    assert player.choose(state, simulations=5).move in state.legal_moves()


def test_bad_requests_are_value_errors() -> None:
    player = get_player("uttt", "easy")
    state = sansu.load_game("uttt").initial_state()
    with pytest.raises(ValueError, match="positive"):
        player.choose(state, simulations=0)
    with pytest.raises(ValueError, match="positive"):
        player.choose(state, time_ms=-5)
    with pytest.raises(ValueError, match="'sansumoku' position"):
        player.choose(sansu.load_game("sansumoku").initial_state(), simulations=5)
    over = sansu.load_game("uttt").play_moves([*WINS["uttt"][0].split(), WINS["uttt"][1]])
    with pytest.raises(ValueError, match="over"):
        player.choose(over, simulations=5)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_and_simulations_give_the_same_moves(game_id) -> None:
    game = sansu.load_game(game_id)
    rng = random.Random(4)
    states = [game.initial_state()]
    for _ in range(5):
        moves = [m for m in states[-1].legal_moves() if str(m) != "timeout"]
        states.append(states[-1].play(rng.choice(moves)))
    for level in ("beginner", "medium"):
        a = get_player(game_id, level, seed=42)
        b = get_player(game_id, level, seed=42)
        first = [str(a.choose(s, simulations=40).move) for s in states]
        second = [str(b.choose(s, simulations=40).move) for s in states]
        assert first == second


@pytest.mark.parametrize("game_id", sorted(WINS))
@pytest.mark.parametrize("level", LEVELS)
def test_a_win_in_one_is_always_taken(game_id, level) -> None:
    moves, winning = WINS[game_id]
    state = sansu.load_game(game_id).play_moves(moves.split())
    analysis = get_player(game_id, level, seed=5).choose(state, simulations=10)
    assert str(analysis.move) == winning
    assert analysis.value == 1.0 and analysis.proven == "win"


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku", "thirtyfive"])
def test_wins_in_one_met_in_random_games_are_taken_at_every_level(game_id) -> None:
    game = sansu.load_game(game_id, **({"rows": 4, "cols": 4} if game_id == "thirtyfive" else {}))
    players = [get_player(game_id, level, seed=3, options=game.options) for level in LEVELS]
    rng = random.Random(8)
    seen = 0
    for _ in range(60):
        state = game.initial_state()
        while state.result is None:
            mover = state.to_move
            wins = {
                str(m) for m in state.legal_moves()
                if (r := state.play(m).result) is not None and r.winners == (mover,)
            }  # fmt: skip
            if wins:
                seen += 1
                for player in players:
                    assert str(player.choose(state, simulations=4).move) in wins
            state = state.play(rng.choice(state.legal_moves()))
    assert seen >= 20


def test_the_only_move_is_played_without_searching() -> None:
    game = sansu.load_game("uttt")
    rng = random.Random(2)
    player = get_player("uttt", "max", seed=1)
    found = 0
    while found < 3:
        state = game.initial_state()
        while state.result is None:
            moves = state.legal_moves()
            if len(moves) == 1:
                analysis = player.choose(state, time_ms=5000)
                assert analysis.move is moves[0]
                assert analysis.simulations == 0 and analysis.elapsed_ms < 1000
                found += 1
            state = state.play(rng.choice(moves))


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_max_keeps_to_its_time(game_id) -> None:
    player = get_player(game_id, "max", seed=1)
    player.warm_up()
    state = sansu.load_game(game_id).initial_state()
    for budget in (60, 120):
        start = time.perf_counter()
        analysis = player.choose(state, time_ms=budget)
        wall = (time.perf_counter() - start) * 1000
        assert wall < budget + 50
        assert analysis.elapsed_ms <= wall
        assert analysis.simulations > 100


def test_a_default_budget_is_the_levels() -> None:
    player = get_player("uttt", "easy", seed=2)
    analysis = player.choose(sansu.load_game("uttt").initial_state())
    assert analysis.simulations == player.settings.simulations


def _worker_move(task: tuple[str, dict, list[str], str]) -> str:
    game_id, options, moves, level = task
    from sansu.ai import get_player as make

    player = make(game_id, level, seed=1, options=options)
    state = player.game.play_moves(moves)
    return str(player.choose(state, simulations=50).move)


def test_a_worker_process_rebuilds_the_position_and_chooses() -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        move = pool.apply(_worker_move, (("uttt", {}, ["r5c5"], "hard"),))
    state = sansu.load_game("uttt").play_moves(["r5c5"])
    assert move in {str(m) for m in state.legal_moves()}
    assert move == _worker_move(("uttt", {}, ["r5c5"], "hard"))
