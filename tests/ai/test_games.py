"""Game-specific knowledge: Sumodoku's "Sudoku!" claim, Sudoku Challenge's hidden solution."""

from __future__ import annotations

import copy
import random

import pytest

import sansu
from sansu.ai import get_player
from sansu.ai.adapters import ChallengeAdapter, SumodokuAdapter
from sansu.ai.sight import VISIONS, candidate_masks, known_digits
from sansu.core.cells import cell_name
from sansu.sudoku.generator import random_solution

# -- Sumodoku ------------------------------------------------------------------


def along_a_solution(turns: int):
    """A Sumodoku game where both players place pieces of one solved grid, ``turns`` each."""
    game = sansu.load_game("sumodoku")
    solution = random_solution(3)
    mine = [[c for c in range(81) if solution[c] in game.colours_of(p)] for p in (0, 1)]
    used: set[int] = set()
    moves = []
    for _ in range(turns):
        for p in (0, 1):
            cell = next(c for c in mine[p] if c not in used)
            used.add(cell)
            moves.append(f"r{cell // 9 + 1}c{cell % 9 + 1}={solution[cell]}")
    return game, game.play_moves(moves)


@pytest.mark.parametrize("level", ["beginner", "max"])
def test_sumodoku_claims_when_the_grid_can_be_completed_and_then_completes_it(level) -> None:
    _game, state = along_a_solution(15)
    assert state.to_move == 0 and state.claim_open()
    player = get_player("sumodoku", level, seed=1)
    analysis = player.choose(state, simulations=5)
    assert str(analysis.move) == "sudoku"
    state = state.play(analysis.move)
    while state.result is None:
        state = state.play(player.choose(state, simulations=5).move)
    assert state.result.winners == (0,)
    assert "completed" in state.result.reason


def test_sumodoku_never_claims_a_grid_that_cannot_be_completed(monkeypatch) -> None:
    _game, state = along_a_solution(15)
    monkeypatch.setattr(SumodokuAdapter, "completable", lambda self, s: False)
    player = get_player("sumodoku", "max", seed=1)
    for _ in range(3):
        assert str(player.choose(state, simulations=20).move) != "sudoku"


def test_sumodoku_before_turn_16_does_not_claim() -> None:
    _game, state = along_a_solution(10)
    adapter = SumodokuAdapter(state.game)
    assert adapter.completable(state)
    assert adapter.exact(state) is None
    assert "sudoku" not in {str(m) for m in adapter.candidates(state)}


def test_sumodoku_completability_sees_a_dead_grid() -> None:
    game = sansu.load_game("sumodoku")
    # r1c1..r1c8 take 1-8 except that the 9 the row needs is blocked in r1c9 by r2c9=9.
    moves = ["r1c1=1", "r1c2=5", "r1c3=2", "r1c4=6", "r1c5=3", "r1c6=7", "r1c7=4", "r2c9=9"]
    state = game.play_moves(moves)
    adapter = SumodokuAdapter(game)
    assert not adapter.completable(state)


@pytest.mark.parametrize(
    "options",
    [{}, {"any_colour": True}, {"diagonals": True, "parity": True}, {"consecutive": True}],
    ids=["plain", "any_colour", "diagonals+parity", "consecutive"],
)
def test_sumodoku_fast_playouts_follow_the_engine(options) -> None:
    """The adapter's bit-mask playouts, replayed move by move on the engine, agree on
    every placement's legality and on the winner, from many random positions."""
    game = sansu.load_game("sumodoku", **options)
    adapter = SumodokuAdapter(game)
    rng = random.Random(11)
    endings = set()
    for trial in range(120):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 60)):  # a random start, made through the engine
            moves = [m for m in state.legal_moves() if str(m) not in ("sudoku", "timeout")]
            if state.result is not None or not moves:
                break
            state = state.play(rng.choice(moves))
        if state.result is not None or state.phase != "play":
            continue
        winner, placements = adapter.placements_playout(state, random.Random(trial), 200)
        for cell, colour in placements:
            assert state.result is None
            move = f"r{cell // 9 + 1}c{cell % 9 + 1}={colour}"
            assert move in {str(m) for m in state.legal_moves()}
            state = state.play(move)
        if state.result is not None:
            endings.add("engine")
            assert state.result.winners == (winner,)
        elif state.claim_open() and adapter.completable(state):
            endings.add("claim wins")
            assert winner == state.to_move
        else:  # no placement left: the mover's only move is a claim, and it loses
            endings.add("stuck")
            assert not state.can_place(state.to_move)
            assert [str(m) for m in state.legal_moves()] == ["sudoku"]
            assert state.play("sudoku").result.winners == (1 - state.to_move,)
            assert winner == 1 - state.to_move
    assert "stuck" in endings, endings


def test_sumodoku_fast_playouts_claim_a_completable_grid() -> None:
    for turns, claimant in ((15, 0), (16, 1)):
        game, state = along_a_solution(turns)
        if claimant == 1:
            state = state.play(state.legal_moves()[0])  # player 0 passes up the claim
        adapter = SumodokuAdapter(game)
        assert adapter.completable(state) and state.claim_open()
        assert adapter.placements_playout(state, random.Random(1), 200) == (claimant, [])
        assert adapter.playout(state, random.Random(1), 200)[claimant] == 1.0


# -- Sudoku Challenge ----------------------------------------------------------------


def solution_of(state) -> tuple[int, ...]:
    return tuple(int(ch) for ch in state.hidden_json()["solution"])


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_what_each_vision_sees_is_right_and_grows_with_skill(difficulty) -> None:
    state = sansu.load_game("challenge", difficulty=difficulty, seed=5).initial_state()
    solution = solution_of(state)
    wrong = [0] * 81
    seen = [known_digits(state.grid, wrong, v) for v in VISIONS]
    for known in seen:
        assert all(solution[c] == d for c, d in known.items())
    assert set(seen[0]) <= set(seen[1]) <= set(seen[2]) <= set(seen[3])
    assert len(seen[3]) == state.empty_cells


def test_wrong_digits_are_no_longer_candidates() -> None:
    grid = [0] * 81
    masks = candidate_masks(grid, [0b1] + [0] * 80)
    assert masks[0] == 0x1FE and masks[1] == 0x1FF


def test_the_challenge_player_does_not_use_the_hidden_solution() -> None:
    game = sansu.load_game("challenge", players=3, seed=2)
    state = game.play_moves([])
    tampered = copy.copy(state)
    tampered._solution = tuple((d % 9) + 1 for d in solution_of(state))  # every digit wrong
    for level in ("easy", "max"):
        real = get_player("challenge", level, seed=9, options=game.options).choose(
            state, simulations=60
        )
        fake = get_player("challenge", level, seed=9, options=game.options).choose(
            tampered, simulations=60
        )
        assert str(real.move) == str(fake.move)
        assert real.simulations == fake.simulations


def test_the_challenge_player_enters_only_digits_it_knows_and_guesses_otherwise() -> None:
    game = sansu.load_game("challenge", seed=3)
    state = game.initial_state()
    solution = solution_of(state)
    player = get_player("challenge", "medium", seed=1)
    for _ in range(6):
        move = player.choose(state, simulations=30).move
        assert solution[move.cell] == move.digit  # medium chains singles: the easy grid is open
        state = state.play(move)
    adapter = ChallengeAdapter(game, vision="glance")
    adapter.prepare(state, random.Random(1))
    adapter.known = {}  # sees nothing: a guess among the candidates of a tightest cell
    guess = adapter.forced(state, random.Random(2))
    masks = candidate_masks(state.grid, [0] * 81)
    fewest = min(bin(masks[c]).count("1") for c in range(81) if not state.grid[c])
    assert bin(masks[guess.cell]).count("1") == fewest
    assert masks[guess.cell] >> (guess.digit - 1) & 1


def test_after_an_error_the_player_answers_in_the_same_cell() -> None:
    game = sansu.load_game("challenge", seed=4)
    state = game.initial_state()
    solution = solution_of(state)
    cell = state.grid.index(0)
    wrong = next(d for d in range(1, 10) if d != solution[cell])
    state = state.play(f"r{cell // 9 + 1}c{cell % 9 + 1}={wrong}")
    assert state.required_cell == cell
    for level in ("beginner", "max"):
        move = get_player("challenge", level, seed=2).choose(state, simulations=10).move
        assert move.cell == cell and move.digit != wrong


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_whole_challenge_game_between_levels_ends_with_a_result(players) -> None:
    game = sansu.load_game("challenge", players=players, seed=6, sequence="express")
    bots = [get_player("challenge", "easy", seed=p, options=game.options) for p in range(players)]
    state = game.initial_state()
    while state.result is None:
        state = state.play(bots[state.to_move].choose(state, simulations=4).move)
    assert state.empty_cells == 0


@pytest.mark.parametrize("level", ["beginner", "easy"])
def test_after_an_error_in_an_open_cell_the_player_looks_harder_instead_of_guessing_again(
    level,
) -> None:
    """A person who was told a digit is wrong studies that cell; a lower level may guess
    wrong once, never run through the digits one after the other (5-7 errors in a cell)."""
    game = sansu.load_game("challenge", difficulty="extreme", seed=1)
    start = game.initial_state()
    solution = solution_of(start)
    masks = candidate_masks(start.grid, [0] * 81)
    cell = max((c for c in range(81) if not start.grid[c]), key=lambda c: bin(masks[c]).count("1"))
    assert bin(masks[cell]).count("1") >= 5
    digits = [d for d in range(1, 10) if masks[cell] >> (d - 1) & 1 and d != solution[cell]]
    for seed in range(6):
        state = start.play(f"{cell_name(cell)}={digits[seed % len(digits)]}")
        player = get_player("challenge", level, seed=seed, options=game.options)
        move = player.choose(state, simulations=20).move
        assert move.cell == cell and move.digit == solution[cell]
