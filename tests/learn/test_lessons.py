"""Every lesson played through the engine: each step's position is legal, its solution
reaches every goal with legal scripted replies, and each wrong move listed in the data
is refused or misses the goal as the data says; bad lesson data is refused on load."""

from __future__ import annotations

import copy
import json

import pytest

import sansu
from sansu.learn import DATA, LessonError, check, lesson, lesson_games
from sansu.learn import parse as parse_lesson

GAMES = ["uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive"]


def raw(game: str) -> dict:
    return json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))


def test_every_game_has_a_lesson_of_six_to_twelve_steps() -> None:
    assert sorted(lesson_games()) == sorted(GAMES)
    for game in GAMES:
        assert 6 <= len(lesson(game).steps) <= 12


@pytest.mark.parametrize("game", GAMES)
def test_every_step_plays_through_the_engine(game: str) -> None:
    for step in lesson(game).steps:
        state = sansu.load_game(game, **step.options).initial_state()
        for move in step.moves:
            state = state.play(move)  # the position is legal
        assert state.to_move is not None, step.id
        start = check(game, step, [])
        assert start.status == "play" and start.message == step.tasks[0].prompt
        learner: list[str] = []
        for n, move in enumerate(step.solution):
            learner.append(move)
            verdict = check(game, step, learner)
            last = n == len(step.solution) - 1
            assert verdict.status == ("done" if last else "play"), (step.id, verdict)
            assert verdict.accepted == len(learner)
        # The verdict's moves replay on the engine, scripted replies included.
        state = sansu.load_game(game, **step.options).initial_state()
        for move in verdict.moves:
            state = state.play(move)
        replies = [m for task in step.tasks for m in task.reply]
        assert len(verdict.moves) == len(step.moves) + len(step.solution) + len(replies)
        for wrong in step.wrong:
            verdict = check(game, step, list(wrong.moves))
            assert verdict.status == wrong.verdict, (step.id, wrong)
            if wrong.verdict == "illegal":
                with pytest.raises(sansu.IllegalMove) as refused:
                    replay = sansu.load_game(game, **step.options).initial_state()
                    for move in verdict.moves:
                        replay = replay.play(move)
                    replay.play(wrong.moves[-1])
                assert verdict.message == str(refused.value)
            else:
                assert verdict.message == step.tasks[verdict.task].hint


def test_each_goal_kind_is_taught_somewhere() -> None:
    kinds = {t.goal.kind for g in GAMES for s in lesson(g).steps for t in s.tasks}
    assert kinds >= {"any", "moves", "section", "win", "convert", "cancel", "score"}


def test_moves_after_the_step_is_finished_are_refused() -> None:
    step = lesson("uttt").steps[0]
    with pytest.raises(ValueError, match="finished"):
        check("uttt", step, [*step.solution, "r1c1"])


def test_a_wrong_solution_in_the_data_is_refused_on_load() -> None:
    data = raw("uttt")
    data["steps"][2]["solution"] = ["r1c1"]
    with pytest.raises(LessonError, match=r"win-section.*'missed'"):
        parse_lesson("uttt", data)


def test_an_illegal_reply_in_the_data_is_refused_on_load() -> None:
    data = raw("uttt")
    data["steps"][1]["tasks"][0]["reply"] = ["r9c9"]
    with pytest.raises(LessonError, match="reply to task 1 'r9c9' is illegal"):
        parse_lesson("uttt", data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["steps"][0]["tasks"][0].update(goal={"kind": "fly"}), "goal kind 'fly'"),
        (lambda d: d["steps"][0].update(moves=["r5c5", "r5c5"]), "position move 2"),
        (lambda d: d["steps"][1].update(id="first-mark"), "step ids repeat"),
        (lambda d: d["steps"][0].update(colour="red"), "unknown fields"),
        (lambda d: d.update(steps=d["steps"][:5]), "6-12 steps"),
        (lambda d: d["steps"][1]["wrong"][0].update(verdict="missed"), "not 'missed'"),
    ],
)
def test_bad_lesson_data_is_refused_with_the_reason(change, message: str) -> None:
    data = copy.deepcopy(raw("uttt"))
    change(data)
    with pytest.raises(LessonError, match=message):
        parse_lesson("uttt", data)


def test_an_unknown_game_has_no_lesson() -> None:
    with pytest.raises(LessonError, match="chess"):
        lesson("chess")


def test_moves_after_a_refused_or_missed_move_are_refused() -> None:
    step = lesson("uttt").step("sending")
    assert step is not None
    with pytest.raises(ValueError, match="move 1 \\(r5c6\\) is illegal"):
        check("uttt", step, ["r5c6", "r1c3"])
    with pytest.raises(ValueError, match="move 1 \\(r1c1\\) already missed"):
        check("uttt", step, ["r1c1", "r1c3"])


def test_a_game_and_its_alias_share_one_lesson() -> None:
    assert lesson("35") is lesson("thirtyfive")


def test_the_highlight_goal_counts_empty_squares_taken() -> None:
    data = raw("thirtyfive")
    step = next(s for s in data["steps"] if s["id"] == "conversion")
    step["tasks"][0]["goal"] = {"kind": "highlight", "at_least": 4}
    step["wrong"] = [{"moves": ["r3c2=8"], "verdict": "missed"}]
    found = parse_lesson("thirtyfive", data).step("conversion")
    assert found is not None and check("thirtyfive", found, ["r3c2=9"]).status == "done"
    step["tasks"][0]["goal"] = {"kind": "highlight", "at_least": 5}  # only 4 squares are empty
    with pytest.raises(LessonError, match=r"conversion.*'missed'"):
        parse_lesson("thirtyfive", data)
