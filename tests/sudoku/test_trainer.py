"""The technique trainer: each exercise's next step is its technique, and answers are judged.

For every offered technique and several seeds, the position's candidates are
given to the rater's finders one rung at a time: every simpler rung must find
nothing and the technique must find the exercise's step.
"""

from __future__ import annotations

import doctest

import pytest

from sansu.sudoku import trainer
from sansu.sudoku.logic.board import BIT, DIGITS, Board
from sansu.sudoku.rater import LADDER, next_step
from sansu.sudoku.trainer import check, exercise, techniques
from sansu.sudoku.trainer_seeds import ON_DEMAND, SEEDS

SEEDS_TRIED = (0, 1, 5)
IDS = [t.id for t in techniques()]


def rungs_below(name: str) -> list:
    index = next(i for i, rung in enumerate(LADDER) if rung.name == name)
    return list(LADDER[:index]), LADDER[index]


def board_of(drill: trainer.Exercise) -> Board:
    return Board(list(drill.values), list(drill.candidates))


def test_the_offer_runs_up_the_ladder_from_the_singles_to_als_xz() -> None:
    names = [t.name for t in techniques()]
    order = [rung.name for rung in LADDER]
    assert names == sorted(names, key=order.index)
    assert names[0] == "naked single" and names[-1] == "als-xz"
    assert {"hidden single (box)", "x-wing", "xy-chain"} <= set(names)
    assert all(
        t.description and t.level in ("easy", "medium", "hard", "expert", "extreme")
        for t in techniques()
    )
    assert trainer.technique("X-Wing").id == "x-wing"
    assert trainer.technique("bug+1").id == "bug-plus-1"


@pytest.mark.parametrize("technique_id", IDS)
def test_the_next_step_is_the_technique_and_nothing_simpler_applies(technique_id: str) -> None:
    for seed in SEEDS_TRIED:
        drill = exercise(technique_id, seed)
        below, rung = rungs_below(drill.technique.name)
        board = board_of(drill)
        for simpler in below:
            assert simpler.find(board) is None, (seed, simpler.name)
        found = rung.find(board)
        assert found is not None and found.description == drill.step.description
        assert next_step(drill.values, drill.candidates).description == drill.step.description
        # The position is on the way to the solution: no digit of it is wrong or lost.
        for cell, digit in enumerate(drill.solution):
            assert drill.values[cell] in (0, digit)
            assert drill.values[cell] or drill.candidates[cell] & BIT[digit]
            assert not drill.givens[cell] or drill.values[cell] == drill.givens[cell]
        assert drill.answers


@pytest.mark.parametrize("technique_id", IDS)
def test_right_and_wrong_answers_are_judged(technique_id: str) -> None:
    drill = exercise(technique_id, 2)
    for cell, digit in drill.answers:
        verdict = check(drill, cell, digit)
        assert verdict.right and verdict.message.startswith("Right")
        assert verdict.step.description == drill.step.description
    name_of = trainer.NAMES
    if drill.technique.kind == "place":
        # Any digit that is not the cell's own is wrong.
        cell = next(c for c in range(81) if len(DIGITS[drill.candidates[c]]) >= 2)
        wrong = next(d for d in DIGITS[drill.candidates[cell]] if d != drill.solution[cell])
        verdict = check(drill, cell, wrong)
        assert not verdict.right and verdict.message == f"Not so: {name_of[cell]} is not {wrong}."
    else:
        # The cells the step clears keep their own digit: removing it is wrong.
        cell = drill.answers[0][0]
        digit = drill.solution[cell]
        verdict = check(drill, cell, digit)
        assert not verdict.right
        assert (
            verdict.message
            == f"Not so: {digit} belongs on {name_of[cell]}, so it cannot be removed."
        )


def test_a_true_removal_that_is_not_the_step_is_not_counted() -> None:
    drill = exercise("x-wing", 3)
    cell, digit = next(
        (c, d)
        for c in range(81)
        for d in DIGITS[drill.candidates[c]]
        if d != drill.solution[c] and (c, d) not in drill.answers
    )
    verdict = check(drill, cell, digit)
    assert not verdict.right and "not by this X-wing" in verdict.message


def test_any_hidden_single_in_a_box_counts() -> None:
    drill = exercise("hidden-single-box", 4)
    board = board_of(drill)
    singles = []
    for box in range(9):
        cells = [9 * (3 * (box // 3) + i // 3) + 3 * (box % 3) + i % 3 for i in range(9)]
        for d in range(1, 10):
            spots = [c for c in cells if board.cands[c] & BIT[d]]
            if len(spots) == 1:
                singles.append((spots[0], d))
    assert len(singles) >= 1
    assert all(check(drill, c, d).right for c, d in singles)


def test_the_same_seed_gives_the_same_exercise_and_others_differ() -> None:
    first = exercise("naked-pair", 11)
    assert exercise("naked-pair", 11) == first
    others = {exercise("naked-pair", s).values for s in range(12, 16)}
    assert first.values not in others and len(others) == 4


def test_bad_input_is_refused_with_a_reason() -> None:
    drill = exercise("x-wing", 1)
    filled = next(c for c in range(81) if drill.values[c])
    empty = next(c for c in range(81) if not drill.values[c])
    missing = (
        next(d for d in range(1, 10) if not drill.candidates[empty] & BIT[d])
        if (drill.candidates[empty] != 0x1FF)
        else None
    )
    with pytest.raises(ValueError, match="unknown technique 'chess'"):
        exercise("chess", 1)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        exercise("x-wing", -1)
    with pytest.raises(ValueError, match="already filled"):
        check(drill, filled, 1)
    with pytest.raises(ValueError, match="r1c1 to r9c9"):
        check(drill, "r0c1", 1)
    with pytest.raises(ValueError, match="a digit is 1 to 9"):
        check(drill, empty, 0)
    if missing is not None:
        with pytest.raises(ValueError, match="is not a candidate"):
            check(drill, empty, missing)


def test_cells_are_named_or_numbered() -> None:
    drill = exercise("naked-single", 0)
    ((cell, digit),) = drill.answers
    name = trainer.NAMES[cell]
    assert check(drill, name.upper(), digit).right and check(drill, cell, digit).right


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_every_shipped_seed_reaches_its_technique(name: str) -> None:
    rung = next(r for r in LADDER if r.name == name)
    assert name not in ON_DEMAND
    for source in SEEDS[name]:
        assert trainer._position(source, rung) is not None, source


def test_the_docstring_example_runs() -> None:
    result = doctest.testmod(trainer)
    assert result.failed == 0 and result.attempted > 0
