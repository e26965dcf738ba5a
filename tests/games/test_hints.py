"""Hints: given only with aids on, for the mover, from what everyone sees."""

from __future__ import annotations

import json

import pytest

from sansu.core.cells import cell_name
from sansu.core.record import GameRecord
from sansu.core.registry import load_game
from sansu.games.hints import AidsOff, NoHint, aids_on, hint, supports_hints

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_aids_are_off_unless_asked_for() -> None:
    for game_id in ("sumodoku", "challenge"):
        assert load_game(game_id).options["aids"] is False
        assert aids_on(load_game(game_id, aids="true"))
        with pytest.raises(ValueError, match="option 'aids'"):
            load_game(game_id, aids="maybe")
    assert supports_hints(load_game("sumodoku")) and not supports_hints(load_game("uttt"))


@pytest.mark.parametrize(
    ("game_id", "options", "moves"),
    [("sumodoku", {}, ["r1c1=1"]), ("challenge", {"puzzle": PUZZLE}, ["r1c3=4"])],
)
def test_records_without_the_option_still_load(
    game_id: str, options: dict[str, str], moves: list[str]
) -> None:
    record = GameRecord.from_dict({"game": game_id, "options": options, "moves": moves})
    assert record.options["aids"] is False
    assert GameRecord.from_json(record.to_json()).moves == moves


@pytest.mark.parametrize("game_id", ["sumodoku", "challenge"])
def test_hints_are_refused_when_aids_are_off(game_id: str) -> None:
    state = load_game(game_id).initial_state()
    with pytest.raises(AidsOff, match="aids=false"):
        hint(state)


def test_a_game_without_hints_says_so() -> None:
    with pytest.raises(NoHint, match="no hints"):
        hint(load_game("uttt").initial_state())


def test_sumodoku_hint_lists_exactly_the_colours_the_mover_may_place() -> None:
    game = load_game("sumodoku", aids=True)
    state = game.play_moves(["r1c1=1", "r1c5=5"])
    answer = hint(state)
    legal = {str(m) for m in state.legal_moves()}
    listed = {f"{cell}={c}" for cell, colours in answer["cells"].items() for c in colours}
    assert listed == {m for m in legal if "=" in m}
    one = hint(state, "r1c9")["cells"]
    assert list(one) == ["r1c9"]
    assert 1 not in one["r1c9"] and 5 not in one["r1c9"]  # both already in row 1
    assert set(one["r1c9"]) <= set(game.colours_of(state.to_move))
    json.dumps(answer)


def test_sumodoku_hint_refuses_a_bad_or_filled_cell() -> None:
    state = load_game("sumodoku", aids=True).play_moves(["r1c1=1"])
    with pytest.raises(ValueError, match="not empty"):
        hint(state, "r1c1")
    for bad in ("r0c1", "x", "r1c1=3"):
        with pytest.raises(ValueError, match="not a cell"):
            hint(state, bad)


def test_challenge_hint_is_the_rater_next_step_and_its_digit_is_right() -> None:
    game = load_game("challenge", puzzle=PUZZLE, aids=True)
    state = game.initial_state()
    answer = hint(state)
    assert answer["kind"] == "step" and answer["technique"]
    assert answer["description"] and answer["cells"]
    placed = answer["placements"][0]
    solution = state.hidden_json()["solution"]
    assert str(solution[placed["index"]]) == str(placed["digit"])
    assert placed["cell"] in answer["cells"]
    after = state.play(f"{placed['cell']}={placed['digit']}")
    assert after.grid[placed["index"]] == placed["digit"]  # the hinted entry is correct


def test_challenge_hint_leaves_out_digits_already_found_wrong() -> None:
    game = load_game("challenge", puzzle=PUZZLE, aids=True)
    state = game.initial_state()
    first = hint(state)["placements"][0]
    wrong = next(d for d in range(1, 10) if d != first["digit"])
    state = state.play(f"{first['cell']}={wrong}")
    assert wrong in state.wrong_digits(first["index"])
    again = hint(state)
    assert all(
        not (p["index"] == first["index"] and p["digit"] == wrong) for p in again["placements"]
    )
    required = state.required_cell
    if required is not None:
        other = next(c for c in range(81) if c != required)
        with pytest.raises(ValueError, match="goes on in"):
            hint(state, cell_name(other))


def test_no_hint_once_the_game_is_over() -> None:
    game = load_game("challenge", puzzle=PUZZLE, aids=True)
    state = game.initial_state()
    while state.result is None:
        step = hint(state)["placements"][0]
        state = state.play(f"{step['cell']}={step['digit']}")
    with pytest.raises(NoHint, match="over"):
        hint(state)
