"""Sumodoku under random play: the invariants that every position keeps, in every variant.

The engine's bit masks are checked against the plain rule book
(:meth:`Constraints.placement_error`), generated layouts against the solver,
and random games (claims, erasures, honour-mode cheating, reports and
challenges included) against the piece count and the rules.
"""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.games.sumodoku import CLAIM, Erase, Placement, SumodokuState
from sansu.sudoku.generator import random_solution
from sansu.sudoku.grid import EMPTY
from sansu.sudoku.solver import is_solvable

VARIANTS = [
    {},
    {"any_colour": True},
    {"diagonals": True},
    {"parity": True},
    {"consecutive": True},
    {"consecutive": True, "strict_consecutive": True},
    {"strict_consecutive": True},
    {"honour": True},
    {"any_colour": True, "diagonals": True, "parity": True, "honour": True},
]
MAX_CLAIM_MOVES = 60
"""Random claimants rarely finish; after this many claim moves the host's clock runs out."""


def snapshot(state: SumodokuState) -> tuple:
    return (
        state.grid, tuple(state.owner_of(c) for c in range(81)), state.hand(0), state.hand(1),
        state.spare, state.removed, tuple(state.holes()), state.phase, state.to_move,
        state.result, state.ply, state.turns_taken(0), state.turns_taken(1),
    )  # fmt: skip


def brute_force_placements(state: SumodokuState) -> set[str]:
    """Every rule-abiding placement of the mover, straight from the rule book."""
    rules = state.game.rules
    hand = state.hand(state.to_move)  # type: ignore[arg-type]
    return {
        f"r{cell // 9 + 1}c{cell % 9 + 1}={colour}"
        for cell in range(81)
        if state.grid[cell] == 0
        for colour in range(1, 10)
        if hand[colour] and rules.placement_error(state.grid, cell, colour) is None
    }


def check(state: SumodokuState) -> None:
    """The invariants of every position."""
    game = state.game
    assert state.inventory() == 81
    filled = [c for c in range(81) if state.grid[c]]
    assert all(state.owner_of(c) is not None for c in filled)
    assert all(state.grid[c] == 0 for c in state.holes())
    for colour in range(1, 10):
        on_board = state.grid.count(colour)
        assert on_board + state.removed[colour] <= 9
    if not game.honour:
        assert game.rules.violations(state.grid) == [], "no broken rule ever stands"
    if state.phase == CLAIM:
        assert state.result is not None or state.to_move == state.claimant
        assert state.result is not None or sum(state.hand(state.claimant)) >= state.grid.count(0)  # type: ignore[arg-type]  # fmt: skip
    elif state.result is None:
        assert state.turns_taken(0) - state.turns_taken(1) == (1 if state.to_move == 1 else 0)
        if game.deal is not None:
            for player in (0, 1):
                placed = sum(1 for c in filled if state.owner_of(c) == player)
                lost = state.removed if game.honour else None
                assert placed + state.pieces_left(player) <= 40
                if lost is None or not any(lost):
                    assert placed + state.pieces_left(player) == 40


def random_game(
    options: dict, seed: int, cheat: float = 0.0, guide: float = 0.0
) -> list[SumodokuState]:
    """A random game; with ``cheat`` (honour variant) some placements break rules and
    spectators report some offending pieces; with ``guide`` that share of moves places
    a piece where a solved grid of the rules has it (so claims can succeed)."""
    rng = random.Random(seed)
    game = sansu.load_game("sumodoku", seed=seed % 50, **options)
    solution = random_solution(seed, game.rules) if guide else None
    state = game.initial_state()
    states = [state]
    claim_moves = 0
    while state.result is None:
        if state.phase == CLAIM:
            claim_moves += 1
            if claim_moves > MAX_CLAIM_MOVES:
                state = state.play("timeout")
                states.append(state)
                break
        move = None
        if cheat and game.honour and state.phase != CLAIM:
            roll = rng.random()
            offenders = state.offending_cells() if roll < 2 * cheat else []
            if offenders and roll < cheat:
                move = f"report r{offenders[0] // 9 + 1}c{offenders[0] % 9 + 1}"
            elif roll < 2 * cheat:
                empty = [c for c in range(81) if state.grid[c] == 0]
                hand = state.hand(state.to_move)  # type: ignore[arg-type]
                colours = [c for c in range(1, 10) if hand[c]]
                if empty and colours:
                    cell, colour = rng.choice(empty), rng.choice(colours)
                    move = f"r{cell // 9 + 1}c{cell % 9 + 1}={colour}"
        if move is None and solution is not None and rng.random() < guide:
            fitting = [
                m for m in state.legal_moves()
                if isinstance(m, Placement) and solution[m.cell] == m.colour
            ]  # fmt: skip
            if state.claim_open() and rng.random() < 0.05:
                fitting = ["sudoku"]
            move = rng.choice(fitting) if fitting else None
        if move is None:
            moves = state.legal_moves()
            # Claims are rare choices for people; keep random games mostly in the play phase.
            placements = [m for m in moves if isinstance(m, Placement | Erase)]
            move = rng.choice(placements if placements and rng.random() < 0.97 else moves)
        state = state.play(move)
        states.append(state)
    return states


@settings(max_examples=25)
@given(
    seed=st.integers(0, 10_000),
    diagonals=st.booleans(),
    strict=st.booleans(),
    parity=st.booleans(),
)
def test_generated_layouts_always_admit_a_completion(
    seed: int, diagonals: bool, strict: bool, parity: bool
) -> None:
    game = sansu.load_game(
        "sumodoku", seed=seed, parity=parity, consecutive=True, diagonals=diagonals,
        strict_consecutive=strict,
    )  # fmt: skip
    rules = game.rules
    assert rules.consecutive and rules.diagonals is diagonals
    assert (rules.parity is not None) is parity
    assert is_solvable(EMPTY, rules)
    # The layout is a function of the seed alone.
    again = sansu.load_game("sumodoku", **game.options)
    assert again.rules == rules


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(VARIANTS))
def test_legal_placements_are_exactly_those_the_rules_allow(seed: int, variant: dict) -> None:
    states = random_game(variant, seed)
    for state in states[:: max(1, len(states) // 6)]:
        if state.result is not None:
            assert state.legal_moves() == []
            continue
        listed = {str(m) for m in state.legal_moves() if isinstance(m, Placement)}
        assert listed == brute_force_placements(state)
        texts = [str(m) for m in state.legal_moves()]
        assert len(texts) == len(set(texts))
        assert ("sudoku" in texts) is state.claim_open()
        assert ("challenge" in texts) is (state.game.honour and state.phase != CLAIM)


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(VARIANTS))
def test_random_games_keep_every_invariant(seed: int, variant: dict) -> None:
    states = random_game(variant, seed)
    assert states[-1].result is not None
    for state in states:
        check(state)
    # Replaying from any position gives the same next position and leaves the old one alone.
    for before, after in list(itertools.pairwise(states))[::7]:
        frozen = snapshot(before)
        assert snapshot(before.play(str(after.last_move))) == snapshot(after)
        assert snapshot(before) == frozen


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(VARIANTS))
def test_guided_games_reach_claims_erasures_and_full_grids(seed: int, variant: dict) -> None:
    states = random_game(variant, seed, guide=0.97)
    final = states[-1]
    assert final.result is not None
    for state in states:
        check(state)
    if final.result.reason.startswith("Sudoku!"):
        assert final.game.rules.is_satisfied_by(final.grid)
        assert final.result.winners == (final.claimant,)
    if final.result.reason == "all 40 pieces placed":
        assert final.pieces_left(final.result.winners[0]) == 0
    if final.result.reason.endswith("has no legal move"):
        loser = 1 - final.result.winners[0]
        assert not final.can_place(loser) and not final.claim_open()
        assert not [m for m in final.legal_moves() if isinstance(m, Placement)]


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), any_colour=st.booleans())
def test_honour_games_with_cheating_and_reports(seed: int, any_colour: bool) -> None:
    states = random_game({"honour": True, "any_colour": any_colour}, seed, cheat=0.08)
    final = states[-1]
    assert final.result is not None
    for state in states:
        check(state)
        assert all(state.offence(c) is None for c in state.holes())
    for before, after in itertools.pairwise(states):
        if str(after.last_move).startswith("report"):
            assert after.to_move == before.to_move, "a report uses no turn"
            assert [after.turns_taken(p) for p in (0, 1)] == [before.turns_taken(p) for p in (0, 1)]
            (hole,) = set(after.holes()) - set(before.holes())
            assert before.offence(hole) is not None and after.grid[hole] == 0
            assert sum(after.removed) == sum(before.removed) + 1
    if str(final.last_move) == "challenge":
        broken = bool(final.game.rules.violations(final.grid))
        challenger = states[-2].to_move
        assert (final.result.winners == (challenger,)) is broken


def test_records_of_random_games_round_trip() -> None:
    for seed, variant in enumerate(VARIANTS):
        states = random_game(variant, seed, cheat=0.05)
        game = states[0].game
        record = sansu.GameRecord.start(game)
        for state in states[1:]:
            record.append(state.last_move)
        loaded = sansu.GameRecord.from_json(record.to_json())
        assert json.dumps(loaded.replay().to_dict(), sort_keys=True) == json.dumps(
            states[-1].to_dict(), sort_keys=True
        )
