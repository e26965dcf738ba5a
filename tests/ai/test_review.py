"""Game review and position analysis: blunders are found, quiet games stay quiet, all repeatable."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.ai.levels import level_for
from sansu.ai.player import ComputerPlayer
from sansu.ai.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    REVIEW_VERSION,
    Analyser,
    ProgressiveAnalysis,
    analyse_position,
    classify,
    review_game,
)
from sansu.core.protocol import IllegalMove, State
from sansu.core.registry import load_game


def _wins_at_once(state: State, move: object) -> bool:
    after = state.play(move)
    return after.result is not None and after.result.winners == (state.to_move,)


def thrown_away_win(seed: int) -> list[str] | None:
    """Moves of a random UTTT game up to a move that passes over a win in one and lets
    the opponent win in one instead, then the opponent's win; ``None`` if there is none."""
    rng = random.Random(seed)
    state = load_game("uttt").initial_state()
    moves: list[str] = []
    while state.result is None:
        legal = state.legal_moves()
        if any(_wins_at_once(state, m) for m in legal):
            for m in legal:
                after = state.play(m)
                if after.result is None:
                    replies = [r for r in after.legal_moves() if _wins_at_once(after, r)]
                    if replies:
                        return [*moves, str(m), str(replies[0])]
        m = rng.choice(legal)
        moves.append(str(m))
        state = state.play(m)
    return None


def engine_game(game_id: str, plies: int, simulations: int, seed: int) -> list[str]:
    """A game whose every move is the reviewing engine's own choice (its settings, a budget)."""
    game = load_game(game_id)
    player = ComputerPlayer(game, replace(level_for(game_id, "max"), reuse=False), seed=seed)
    state = game.initial_state()
    moves: list[str] = []
    while state.result is None and len(moves) < plies:
        move = player.choose(state, simulations=simulations).move
        moves.append(str(move))
        state = state.play(move)
    return moves


def random_moves(game_id: str, plies: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    state = load_game(game_id).initial_state()
    moves: list[str] = []
    while state.result is None and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return moves


def test_thresholds_are_ordered_and_classify_by_them() -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER <= 1
    assert classify(INACCURACY - 0.01) is None
    assert classify(INACCURACY) == "inaccuracy"
    assert classify(MISTAKE) == "mistake"
    assert classify(BLUNDER) == "blunder"
    assert classify(1.0) == "blunder"


def test_throwing_away_a_won_uttt_position_is_a_blunder() -> None:
    found = [m for m in (thrown_away_win(seed) for seed in range(40)) if m is not None]
    assert len(found) >= 3
    for moves in found[:3]:
        review = review_game(load_game("uttt"), moves, simulations=500, seed=3)
        bad = review.reviews[-2]
        assert bad.move == moves[-2]
        assert bad.chance_before == pytest.approx(1.0)
        assert bad.chance_after == pytest.approx(0.0)
        assert bad.judgement == "blunder"
        assert bad.best is not None and bad.best != bad.move
        assert review.reviews[-1].judgement is None  # taking the win is no mistake
        assert bad in review.turning_points


def test_a_quiet_uttt_game_has_no_turning_points() -> None:
    moves = engine_game("uttt", 30, 3_000, seed=4)
    review = review_game(load_game("uttt"), moves, simulations=2_000, seed=1)
    assert review.turning_points == []
    assert all(r.drop < INACCURACY for r in review.reviews)


@pytest.mark.parametrize(
    ("game_id", "plies", "simulations"),
    [("uttt", 14, 300), ("sansumoku", 14, 300), ("thirtyfive", 10, 600),
     ("sumodoku", 6, 40), ("challenge", 6, 30)],
)  # fmt: skip
def test_every_game_reviews_reproducibly_into_json(
    game_id: str, plies: int, simulations: int
) -> None:
    game = load_game(game_id)
    moves = random_moves(game_id, plies, seed=2)
    seen: list[tuple[int, int]] = []
    review = review_game(
        game, moves, simulations=simulations, seed=5, progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(i, len(moves) + 1) for i in range(1, len(moves) + 2)]
    assert len(review.positions) == len(moves) + 1 and len(review.reviews) == len(moves)
    for position in review.positions:
        assert 0.0 <= position.chance <= 1.0
        if position.chances is not None:
            assert all(0.0 <= c <= 1.0 for c in position.chances)
            assert sum(position.chances) == pytest.approx(1.0)
        for line in position.candidates:
            assert 0.0 <= line.chance <= 1.0
    for step, move in zip(review.reviews, moves, strict=True):
        assert step.move == move
        assert step.drop >= 0.0
    data = review.to_dict()
    assert data["version"] == REVIEW_VERSION and data["game"] == game.id
    assert json.loads(json.dumps(data)) == data
    again = review_game(load_game(game_id), moves, simulations=simulations, seed=5)
    assert again.to_dict() == data


def test_an_illegal_move_is_refused_before_any_search() -> None:
    calls: list[int] = []
    with pytest.raises(IllegalMove, match="move 2"):
        review_game(
            load_game("uttt"),
            ["r5c5", "r5c5"],
            simulations=10,
            progress=lambda d, t: calls.append(d),
        )
    assert calls == []


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "100"])
def test_a_bad_budget_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="simulations"):
        review_game(load_game("uttt"), ["r5c5"], simulations=bad)  # type: ignore[arg-type]


def test_a_finished_game_ends_with_its_result() -> None:
    moves = next(m for m in (thrown_away_win(s) for s in range(40)) if m is not None)
    review = review_game(load_game("uttt"), moves, simulations=100)
    last = review.positions[-1]
    second_won = len(moves) % 2 == 0  # the winner made the last move
    assert last.to_move is None and last.best is None
    assert last.chances == ((0.0, 1.0) if second_won else (1.0, 0.0))


def test_analyse_position_gives_top_moves_and_a_line() -> None:
    state = load_game("uttt").play_moves(["r5c5", "r4c4"])
    analysis = analyse_position(state, 1_000, top=4)
    assert len(analysis.candidates) == 4
    assert analysis.best == analysis.candidates[0].move == analysis.pv[0]
    assert {c.move for c in analysis.candidates} <= {str(m) for m in state.legal_moves()}
    assert analysis.to_dict()["simulations"] == 1_000
    line = state
    for move in analysis.pv:  # the best line is playable from the position
        line = line.play(move)


def test_progressive_analysis_goes_deeper_each_time_up_to_its_limit() -> None:
    state = load_game("sansumoku").play_moves(["r5c5"])
    session = ProgressiveAnalysis(state, start=200, limit=800)
    budgets = [session.deepen().simulations for _ in range(4)]
    assert budgets == [200, 400, 800, 800]
    assert session.finished
    with pytest.raises(ValueError):
        ProgressiveAnalysis(state, start=0)


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 25), review_seed=st.integers(0, 99))
def test_every_judgement_follows_from_the_chances(seed: int, plies: int, review_seed: int) -> None:
    moves = random_moves("uttt", plies, seed)
    review = review_game(load_game("uttt"), moves, simulations=150, seed=review_seed)
    for step, before, after in zip(
        review.reviews, review.positions[:-1], review.positions[1:], strict=True
    ):
        assert step.chance_before == before.chance
        assert after.chances is not None and step.chance_after == after.chances[step.player]
        if step.move == before.best:
            assert step.drop == 0.0
        else:
            assert step.drop == pytest.approx(max(0.0, before.chance - after.chances[step.player]))
        assert step.judgement == classify(step.drop)
        assert (step.judgement is not None) == (step in review.turning_points)


def test_three_player_challenge_judges_the_mover_only() -> None:
    game = load_game("challenge", players=3, seed=4)
    rng = random.Random(6)
    state = game.initial_state()
    moves: list[str] = []
    while state.result is None and len(moves) < 8:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    review = review_game(game, moves, simulations=30, seed=2)
    assert all(p.chances is None for p in review.positions if p.to_move is not None)
    assert review.to_dict()["options"]["seed"] is None  # the seed would give the solution away
    for step, before, after in zip(
        review.reviews, review.positions[:-1], review.positions[1:], strict=True
    ):
        assert 0.0 <= step.chance_before <= 1.0
        if after.to_move == step.player:
            assert step.chance_after == after.chance
        elif step.chance_after is not None:
            assert step.chance_after in [line.chance for line in before.candidates]


def test_an_analyser_refuses_a_position_of_another_game_or_options() -> None:
    from sansu.ai.review import Analyser

    analyser = Analyser(load_game("thirtyfive"))
    with pytest.raises(ValueError, match="'uttt' position"):
        analyser.analyse(load_game("uttt").initial_state(), 10)
    with pytest.raises(ValueError, match="other options"):
        analyser.analyse(load_game("thirtyfive", rows=9).initial_state(), 10)
    assert analyser.analyse(load_game("thirtyfive").initial_state(), 50).simulations == 50


def test_a_position_with_one_forced_move_takes_its_value_from_after_the_move() -> None:
    game = load_game("sumodoku")
    state = game.initial_state()
    rng = random.Random(5)
    while [str(m) for m in state.legal_moves()] != ["sudoku"]:
        assert state.result is None, "the game ended before only the claim was left"
        choices = [m for m in state.legal_moves() if str(m) not in ("sudoku", "timeout")]
        state = state.play(rng.choice(choices))
    analysis = Analyser(game).analyse(state, 16)
    after = Analyser(game).analyse(state.play("sudoku"), 16)
    mover = state.to_move
    assert after.chances is not None and mover is not None
    assert analysis.best == "sudoku" and analysis.pv == ("sudoku",)
    assert analysis.chance == after.chances[mover] and analysis.proven == after.proven
    assert analysis.chances is not None and sum(analysis.chances) == pytest.approx(1.0)


def test_accuracy_follows_the_drops_of_each_players_moves() -> None:
    from sansu.ai.accuracy import game_accuracy, move_accuracy

    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.1) == pytest.approx(63.8, abs=0.5)
    assert 0.0 <= move_accuracy(1.0) < 2.0
    steps = [move_accuracy(d) for d in (0.0, 0.0, 0.02, 0.05)]
    assert all(a > b for a, b in zip(steps, steps[2:], strict=False))
    clean = game_accuracy([100.0] * 10)
    one_blunder = game_accuracy([100.0] * 9 + [move_accuracy(0.4)])
    assert clean == pytest.approx(100.0) and one_blunder is not None
    # One blunder among good moves costs more than its share of a plain mean.
    assert one_blunder < (900 + move_accuracy(0.4)) / 10
    assert game_accuracy([]) is None


def test_a_review_gives_each_player_an_accuracy_from_their_own_moves() -> None:
    moves = next(m for seed in range(200) if (m := thrown_away_win(seed)))
    review = review_game(load_game("uttt"), moves, simulations=300, seed=1)
    data = review.to_dict()
    accuracy = data["accuracy"]
    assert set(accuracy) == {"0", "1"}
    thrower = review.reviews[-2].player  # passed over a win in one
    assert review.reviews[-2].judgement is not None
    assert accuracy[str(thrower)] < accuracy[str(1 - thrower)]
    per_move = [m["accuracy"] for m in data["moves_reviewed"]]
    assert all(0.0 <= a <= 100.0 for a in per_move)
