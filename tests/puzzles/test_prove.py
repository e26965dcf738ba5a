"""The proof search on positions built by hand: what it proves, what it rejects, which defence."""

from __future__ import annotations

import pytest

import sansu
from sansu.puzzles.games import kit, result_verdict
from sansu.puzzles.prove import Prover, SearchLimit
from tests.puzzles.toy import start


def prover(**kwargs) -> Prover:
    return Prover(lambda s: s.path, result_verdict, **kwargs)


LONG_DEFENCE = {
    "a": {  # the only winning first move
        "short": {"w": 0, "x": 1},  # X wins at once: win in 1 more
        "long": {"g": {"h": {"w": 0, "q": "draw"}}, "n": 1},  # holds out: win in 2 more
    },
    "b": {"d": "draw", "e": {"w": 0}},  # the opponent draws
    "c": {"z": 1},
}


def test_a_forced_win_is_found_with_its_depth_and_line() -> None:
    p = prover()
    state = start(LONG_DEFENCE)
    assert p.shortest(state, 3) == 3
    assert not p.wins(state, 2)
    line = p.line(state, 3)
    assert line is not None and line.depth == 3
    assert line.moves == ["a", "long", "g", "h", "w"]


def test_the_opponent_defends_with_the_reply_that_holds_out_longest() -> None:
    p = prover()
    after = start(LONG_DEFENCE).play("a")
    move, ties = p._defence(after, 0, 2)
    assert (move, ties) == ("long", 1)


def test_ties_go_to_the_reply_that_leaves_one_winning_move_then_to_the_text() -> None:
    tree = {
        "a": {
            "m": {"w1": 0, "w2": 0},  # two ways to win after it
            "z": {"w": 0, "n": 1},  # one
            "y": {"w": 0, "n": 1},  # one, and "y" < "z"
        }
    }
    line = prover().line(start(tree), 2)
    assert line is not None and line.moves == ["a", "y", "w"] and line.alternatives == [3]


def test_two_winning_first_moves_are_no_puzzle() -> None:
    tree = {"a": 0, "b": 0, "c": {"x": 1}}
    p = prover()
    assert p.shortest(start(tree), 2) == 1
    assert p.winning_moves(start(tree), 1) == ["a", "b"]
    assert p.line(start(tree), 2) is None


def test_a_second_move_with_two_ways_to_win_is_no_puzzle() -> None:
    tree = {"a": {"r": {"w1": 0, "w2": 0}}, "b": {"r": "draw"}}
    assert prover().line(start(tree), 2) is None


def test_a_position_the_opponent_can_hold_is_rejected() -> None:
    tree = {"a": {"r": {"w": 0}, "s": "draw"}, "b": {"r": 1}}
    p = prover()
    assert p.shortest(start(tree), 3) is None
    assert p.line(start(tree), 3) is None


def test_a_mistake_is_a_move_the_opponent_could_have_avoided() -> None:
    # Player 1 to move after "o": "blunder" lets player 0 win at once, "hold" does not.
    tree = {"o": {"blunder": {"w": 0}, "hold": {"x": 1}}, "p": {"only": {"w": 0}}}
    p = prover()
    assert p.avoidable(start(tree).play("o"), 1)
    assert not p.avoidable(start(tree).play("p"), 1)


def test_the_node_budget_stops_a_search() -> None:
    state = sansu.load_game("uttt").initial_state()
    k = kit("uttt")
    with pytest.raises(SearchLimit):
        Prover(k.key, k.verdict, node_limit=50).wins(state, 3)


WIN_IN_ONE = (
    "r8c6 r5c7 r6c3 r7c9 r2c7 r4c3 r3c7 r9c3 r9c8 r7c5 r2c6 r4c9 r2c8 r5c5 r6c6 r9c9 r7c8 r1c6 "
    "r3c8 r8c5 r4c6 r1c9 r1c8 r3c5 r7c6 r9c4 r8c2 r6c4 r7c2 r1c5 r1c4 r3c3 r8c8 r6c5 r9c6 r6c9"
)
WIN_IN_TWO = (
    "r9c8 r9c4 r7c3 r3c7 r7c2 r3c6 r8c7 r4c2 r2c4 r4c3 r1c8 r3c5 r8c4 r4c1 r2c2 r6c4 r7c1 r1c1 "
    "r3c2 r9c6 r8c8 r5c4 r1c5 r1c4 r1c2 r1c6 r2c9 r5c8 r6c6 r7c8 r2c5 r4c4 r8c5"
)


def uttt_prover() -> Prover:
    k = kit("uttt")
    return Prover(k.key, k.verdict)


def test_a_uttt_win_in_one_is_the_one_move_that_ends_the_game() -> None:
    state = sansu.load_game("uttt").play_moves(WIN_IN_ONE.split())
    winning = [m for m in state.legal_moves() if state.play(m).result is not None]
    assert [str(m) for m in winning] == ["r9c2"]
    assert state.play(winning[0]).result.winners == (state.to_move,)
    line = uttt_prover().line(state, 3)
    assert line is not None and line.depth == 1 and [str(m) for m in line.moves] == ["r9c2"]


def test_a_uttt_win_in_two_holds_against_every_reply() -> None:
    state = sansu.load_game("uttt").play_moves(WIN_IN_TWO.split())
    p = uttt_prover()
    assert p.shortest(state, 3) == 2
    assert [str(m) for m in p.winning_moves(state, 2)] == ["r4c8"]
    after = state.play("r4c8")
    for reply in after.legal_moves():  # every reply leaves a win at once
        position = after.play(reply)
        assert any(
            position.play(m).result is not None
            and position.play(m).result.winners == (state.to_move,)
            for m in position.legal_moves()
        )


def test_the_empty_board_is_no_forced_win() -> None:
    assert uttt_prover().shortest(sansu.load_game("uttt").initial_state(), 2) is None


def test_the_uttt_shortcuts_agree_with_playing_the_moves() -> None:
    import random

    k = kit("uttt")
    rng = random.Random(3)
    checked = 0
    for _ in range(30):
        state = sansu.load_game("uttt").initial_state()
        while state.result is None:
            mover = state.to_move
            at_once = any(
                (r := state.play(m).result) is not None and r.winners == (mover,)
                for m in state.legal_moves()
            )
            assert k.at_once(state) == at_once
            assert k.possible(state, 1) or not at_once
            checked += at_once
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 10  # the sample holds wins at once
