"""Sudoku Challenge invariants over random games with random options.

Random players enter the right digit most of the time, a wrong one
otherwise, and (with the chrono on) sometimes let the time run out. Whatever
they do: scores are the sum of their parts, the finished grid is the
solution, everyone plays in order, and nothing anyone is sent reveals the
solution.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.core.cells import cell_name
from sansu.games.challenge import (
    COMPLETION_BONUS,
    GRID_FULL,
    HANDICAPS,
    PLAYED,
    ChallengeState,
    round_count,
)

from .test_challenge import NINE, SIXTEEN, SOLUTION

options_strategy = st.fixed_dictionaries(
    {
        "puzzle": st.sampled_from([NINE, SIXTEEN]),
        "players": st.integers(2, 5),
        "sequence": st.sampled_from(["regular", "shortened", "express"]),
        "handicap": st.booleans(),
        "final_order": st.sampled_from(["increasing", "status_quo"]),
        "errors": st.sampled_from(["original", "simplified"]),
        "turn_seconds": st.sampled_from([0, 0, 30]),
    }
).flatmap(
    lambda o: (
        st.just(o) if o["players"] != 4 else st.booleans().map(lambda teams: {**o, "teams": teams})
    )
)


def random_play(state: ChallengeState, rng: random.Random, solution: str) -> ChallengeState:
    """One move of a fallible player who knows the solution."""
    moves = state.legal_moves()
    if state.turn_seconds and rng.random() < 0.05:
        return state.play("timeout")
    cell = state.required_cell
    if cell is None:
        cell = rng.choice([c for c in range(81) if not state.grid[c]])
    right = f"{cell_name(cell)}={solution[cell]}"
    if rng.random() < 0.7:
        return state.play(right)
    choices = [str(m) for m in moves if str(m).startswith(cell_name(cell) + "=")]
    return state.play(rng.choice(choices))


def assert_hides_the_solution(state: ChallengeState, solution: str) -> None:
    """No field of what a player or spectator is sent carries or singles out the solution."""
    empty = [c for c in range(81) if not state.grid[c]]
    for data in (state.to_dict(), state.view(0), state.view(None)):
        text = json.dumps(data)
        assert solution not in text
        assert "solution" not in text
        assert data["options"]["seed"] is None
        for c in empty:
            assert data["cells"][c] is None
        by_cell: dict[str, set[int]] = defaultdict(set)
        for move in data["legal_moves"]:
            if move != "timeout":
                name, digit = move.split("=")
                by_cell[name].add(int(digit))
        if state.result is not None:
            assert not by_cell
            continue
        offered = [state.required_cell] if state.required_cell is not None else empty
        assert set(by_cell) == {cell_name(c) for c in offered}
        for c in offered:
            # Every digit not already seen wrong there: the legal moves do not filter by the answer.
            assert by_cell[cell_name(c)] == set(range(1, 10)) - set(state.wrong_digits(c))
        # No list or string anywhere holds the unfilled cells' digits in order.
        hidden = "".join(solution[c] for c in empty)
        if len(hidden) >= 8:  # shorter runs can occur by chance
            assert hidden not in text.replace(",", "").replace(" ", "")


def assert_sheet_adds_up(state: ChallengeState, options: dict[str, Any]) -> None:
    simplified = options["errors"] == "simplified"
    for player, score in enumerate(state.scores):
        assert score == sum(row.total for row in state.sheet if row.player == player)
    for row in state.sheet:
        assert row.total == row.handicap + row.digits + row.bonus + row.grid_full - row.penalty
        assert row.digits == sum(e.points for e in row.entries)
        for entry in row.entries:
            scores = simplified or not entry.corrected
            assert entry.points == (entry.digit if scores else 0)
        earned = any(e.completes and (simplified or not e.corrected) for e in row.entries)
        assert row.bonus == (COMPLETION_BONUS if earned else 0)
        assert row.penalty == (len(row.errors) * row.count if simplified else 0)
        assert row.handicap == (HANDICAPS[row.player] if options["handicap"] and row.round == 1
                                else 0)  # fmt: skip


@settings(max_examples=60)
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_games(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    game = sansu.load_game("challenge", **options)
    state = game.initial_state()
    assert isinstance(state, ChallengeState)
    solution = state.hidden_json()["solution"]
    assert solution == SOLUTION
    players = game.num_players
    turns: list[tuple[int, int]] = []  # (round, player) of every move, in order
    states = [state]
    while state.result is None:
        assert len(states) < 2000
        row = state.current_row()
        assert row is not None and row.status == "playing" and row.player == state.to_move
        turns.append((state.round, state.to_move))
        state = random_play(state, rng, solution)
        states.append(state)
        for c, digit in enumerate(state.grid):
            assert digit in (0, int(solution[c]))
        assert_sheet_adds_up(state, options)
    for s in [*states[:: max(1, len(states) // 6)], state]:
        assert_hides_the_solution(s, solution)

    # The grid at the end is the solution; the result follows the scores.
    assert "".join(map(str, state.grid)) == solution
    assert state.result is not None and state.to_move is None
    final = state.team_scores or state.scores
    best = max(final)
    assert state.result.scores == tuple(final)
    assert state.result.draw == all(s == best for s in final)

    # Every player plays in order: the runs of moves are the sheet's played lines.
    runs = [t for i, t in enumerate(turns) if i == 0 or turns[i - 1] != t]
    assert runs == [(r.round, r.player) for r in state.sheet if r.status == PLAYED]
    by_round: dict[int, list[Any]] = defaultdict(list)
    for row in state.sheet:
        by_round[row.round].append(row)
    score_before = [HANDICAPS[p] if options["handicap"] else 0 for p in range(players)]
    empty = NINE.count(".") if options["puzzle"] == NINE else SIXTEEN.count(".")
    last_round = max(by_round)
    previous_last = None
    for number, rows in sorted(by_round.items()):
        order = [r.player for r in rows]
        count = round_count(options["sequence"], number)
        final_round = empty <= count * players
        by_final_order = list(range(players))
        if final_round and options["final_order"] == "increasing":
            by_final_order.sort(key=lambda p: score_before[p])
        if final_round and options.get("teams"):
            # The teams alternate, across the turn into the round too; within a team,
            # its members keep the order that final_order gives them.
            team = [p % 2 for p in order]
            assert all(a != b for a, b in pairwise(team))
            assert previous_last is None or previous_last % 2 != team[0]
            for t in (0, 1):
                assert [p for p in order if p % 2 == t] == [p for p in by_final_order if p % 2 == t]
            if previous_last is None or previous_last % 2 != by_final_order[0] % 2:
                assert order[0] == by_final_order[0]
        else:
            assert order == by_final_order
        previous_last = order[-1]
        assert all(r.count == count for r in rows)
        played = [r for r in rows if r.status == PLAYED]
        filled_the_grid = played[-1] if number == last_round else None
        for r in rows:
            if r.status == PLAYED and not r.timeout and r is not filled_the_grid:
                assert len(r.entries) == count
            if r.status == GRID_FULL:
                assert number == last_round and r.grid_full == 10 and not r.entries
            score_before[r.player] += r.total - r.handicap  # the handicap counts from the start
            empty -= len(r.entries)
        assert final_round or number != last_round
    assert empty == 0
    if options.get("teams"):  # team-mates never play one after the other
        played_by = [r.player for r in state.sheet if r.status == PLAYED]
        assert all(a % 2 != b % 2 for a, b in pairwise(played_by))


@settings(max_examples=20)
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_records_round_trip(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    game = sansu.load_game("challenge", **options)
    state = game.initial_state()
    solution = state.hidden_json()["solution"]  # type: ignore[attr-defined]
    record = sansu.GameRecord.start(game, players=["a", "b"])
    for _ in range(rng.randrange(1, 40)):
        if state.result is not None:
            break
        state = random_play(state, rng, solution)
        record.append(state.last_move)
    loaded = sansu.GameRecord.from_json(record.to_json())
    assert loaded == record
    assert loaded.replay().to_dict() == state.to_dict()
