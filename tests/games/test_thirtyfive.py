"""35: the rule text's examples and every ruling, as exact scenarios on small boards.

Boards are compared as pictures: ``R9``/``B9`` a red/blue 9, ``r``/``b`` an
empty square highlighted red/blue, ``.`` an empty square.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

import sansu
from sansu.cli.main import main
from sansu.games.thirtyfive import ThirtyFiveState, geometry


def start(rows: int = 4, cols: int = 4) -> ThirtyFiveState:
    state = sansu.load_game("35", rows=rows, cols=cols).initial_state()
    assert isinstance(state, ThirtyFiveState)
    return state


def setup(moves: str, rows: int = 4, cols: int = 4) -> ThirtyFiveState:
    """Play ``moves``, checking that none of them triggers a square."""
    state = start(rows, cols)
    for move in moves.split():
        state = state.play(move)
        assert state.triggered_cells() == [], f"{move} triggered {state.to_dict()['triggered']}"
    return state


def picture(state: ThirtyFiveState) -> list[str]:
    rows = []
    for r in range(state.rows):
        tokens = []
        for c in range(state.cols):
            i = r * state.cols + c
            value, colour, highlight = state.value_at(i), state.colour_at(i), state.highlight_at(i)
            if value is not None:
                tokens.append(f"{'RB'[colour]}{value}")  # type: ignore[index]
            elif highlight is not None:
                tokens.append("rb"[highlight])
            else:
                tokens.append(".")
        rows.append(" ".join(tokens))
    return rows


def names(state: ThirtyFiveState, cells: list[int]) -> list[str]:
    return [f"r{i // state.cols + 1}c{i % state.cols + 1}" for i in cells]


# -- the rule text's examples ------------------------------------------------------

TEXT_EXAMPLE = "r2c2=1 r1c1=9 r4c4=1 r1c2=9 r4c3=1 r1c3=8 r4c2=1"
"""A red 1 at r2c2 surrounded by two 9s and an 8 (Blue's), Blue to move."""


def test_red_one_surrounded_by_nine_nine_eight_turns_everything_red() -> None:
    state = setup(TEXT_EXAMPLE)
    assert picture(state) == [
        "B9 B9 B8 .",
        ". R1 . .",
        ". . . .",
        ". R1 R1 R1",
    ]
    assert state.sum_at(5) == 26
    after = state.play("r2c1=9")  # Blue's 9 makes the 1's neighbours 9+9+8+9 = 35
    assert names(after, after.triggered_cells()) == ["r2c2"]
    assert picture(after) == [
        "R9 R9 R8 .",
        "R9 R1 r .",
        "r r r .",
        ". R1 R1 R1",
    ]
    assert names(after, after.converted_cells()) == [
        "r1c1", "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2", "r3c3",
    ]  # fmt: skip
    assert after.scores() == (8, 0)
    assert not after.cancelled
    assert after.to_move == 0


def test_the_placed_square_is_converted_by_the_square_it_triggers() -> None:
    after = setup(TEXT_EXAMPLE).play("r2c1=9")
    assert after.colour_at(4) == 0  # Blue placed it; the red 1 took it over
    assert 4 in after.converted_cells()


def test_a_number_on_a_highlighted_square_takes_the_highlight_colour() -> None:
    state = setup(TEXT_EXAMPLE).play("r2c1=9").play("r4c1=2")  # Red, elsewhere
    assert state.to_move == 1
    blue_on_red = state.play("r3c3=2")  # Blue plays on a red-highlighted square
    assert blue_on_red.colour_at(10) == 0
    assert blue_on_red.highlight_at(10) is None
    assert blue_on_red.scores() == (10, 0)
    plain = state.play("r3c4=2")  # the same Blue number on a plain square is blue
    assert plain.colour_at(11) == 1


def test_a_square_at_27_is_over_thwarted_by_a_nine() -> None:
    state = setup("r2c2=1 r1c1=9 r1c3=9 r4c4=1 r3c1=9")  # r2c2 (red) at 27, Blue to move
    assert state.sum_at(5) == 27
    assert "r2c2" not in state.to_dict()["over"]
    thwarted = state.play("r3c3=9")
    assert thwarted.sum_at(5) == 36
    assert "r2c2" in thwarted.to_dict()["over"]
    later = thwarted.play("r2c3=8").play("r1c2=1")
    assert later.triggered_cells() == [] and "r2c2" in later.to_dict()["over"]
    # Had Blue played elsewhere, Red's 8 would have reached 35.
    reached = state.play("r4c1=1").play("r3c3=8")
    assert names(reached, reached.triggered_cells()) == ["r2c2"]
    assert picture(reached) == [
        "R9 r R9 .",
        "r R1 r .",
        "R9 r R8 .",
        "B1 . . B1",
    ]


def test_a_square_at_23_with_three_empty_neighbours_is_under_thwarted() -> None:
    state = setup("r2c2=1 r1c1=5 r1c2=5 r1c3=5 r2c1=4 r3c1=4 r4c4=1")
    assert state.sum_at(5) == 23 and state.to_move == 1
    state = state.play("r2c3=1")  # 24, two empty neighbours left
    assert "r2c2" not in state.to_dict()["under"]
    state = state.play("r3c2=9")  # 33, one empty neighbour left: 9 would still reach 42
    assert "r2c2" not in state.to_dict()["under"]
    state = state.play("r3c3=1")  # 34 and no empty neighbour: stuck below 35
    assert state.sum_at(5) == 34
    assert "r2c2" in state.to_dict()["under"]
    assert state.triggered_cells() == []


def test_a_square_set_up_at_26_cannot_be_over_thwarted() -> None:
    state = setup("r2c2=1 r1c1=9 r1c3=9 r4c4=1 r3c1=8")  # r2c2 (red) at 26, Blue to move
    assert state.sum_at(5) == 26
    nine = state.play("r3c3=9")  # Blue's 9 puts Red's square at 35
    assert names(nine, nine.triggered_cells()) == ["r2c2"]
    assert picture(nine) == [
        "R9 r R9 .",
        "r R1 r .",
        "R8 r R9 .",
        ". . . B1",
    ]
    assert names(nine, nine.converted_cells()) == [
        "r1c1", "r1c2", "r2c1", "r2c3", "r3c2", "r3c3",
    ]  # fmt: skip
    four = state.play("r3c3=4").play("r2c3=5")  # 4 is answered by 5
    assert names(four, four.triggered_cells()) == ["r2c2"]
    assert four.colour_at(0) == 0 and four.colour_at(10) == 0


# -- triggers ----------------------------------------------------------------------

CANCEL_SETUP = "r2c2=1 r2c4=1 r1c3=9 r3c3=9 r1c1=8 r1c4=8"
"""Red r2c2 and Blue r2c4 both at 26, sharing the empty neighbour r2c3; Red to move."""


def test_triggers_of_both_colours_change_nothing() -> None:
    state = setup(CANCEL_SETUP)
    assert (state.sum_at(5), state.sum_at(7)) == (26, 26)
    after = state.play("r2c3=9")
    assert names(after, after.triggered_cells()) == ["r2c2", "r2c4"]
    assert after.cancelled
    assert after.converted_cells() == []
    assert picture(after) == [
        "R8 . R9 B8",
        ". R1 R9 B1",
        ". . B9 .",
        ". . . .",
    ]
    # Both squares have spent their trigger: growing past 35 makes them neither
    # over-thwarted nor able to trigger again.
    later = after.play("r3c2=1")
    assert later.triggered_cells() == []
    assert later.has_triggered(5) and later.has_triggered(7)
    data = later.to_dict()
    assert "r2c2" not in data["over"] and "r2c2" in data["triggered_before"]


def test_triggers_of_one_colour_all_convert() -> None:
    # The same shape with both squares red: one move triggers both, and both convert.
    state = setup("r2c2=1 r4c1=1 r2c4=1 r1c3=9 r3c3=9 r1c1=8 r1c4=8")
    assert (state.colour_at(5), state.colour_at(7)) == (0, 0)
    assert (state.sum_at(5), state.sum_at(7)) == (26, 26)
    after = state.play("r2c3=9")  # Blue's 9
    assert names(after, after.triggered_cells()) == ["r2c2", "r2c4"]
    assert not after.cancelled
    assert picture(after) == [
        "R8 r R9 R8",
        "r R1 R9 R1",
        "r r R9 r",
        "B1 . . .",
    ]


def test_a_placed_square_triggers_itself() -> None:
    state = setup("r1c1=9 r1c3=9 r3c1=9 r3c3=8")  # empty r2c2 at 35: nothing happens yet
    assert state.sum_at(5) == 35 and state.triggered_cells() == []
    red = state.play("r2c2=1")
    assert names(red, red.triggered_cells()) == ["r2c2"]
    assert picture(red) == [
        "R9 r R9 .",
        "r R1 r .",
        "R9 r R8 .",
        ". . . .",
    ]
    blue = state.play("r4c4=1").play("r2c2=1")  # Blue fills it instead: Blue's square
    assert names(blue, blue.triggered_cells()) == ["r2c2"]
    assert picture(blue) == [
        "B9 b B9 .",
        "b B1 b .",
        "B9 b B8 .",
        ". . . R1",
    ]


def test_a_later_highlight_overwrites_an_earlier_one() -> None:
    red_done = "r2c2=1 r1c1=9 r5c5=1 r1c2=9 r5c4=1 r1c3=8 r5c3=1 r2c1=9"
    state = start(5, 5)
    for move in red_done.split():
        state = state.play(move)
    assert [state.highlight_at(i) for i in (7, 10, 11, 12)] == [0, 0, 0, 0]
    for move in ["r1c5=1", "r4c4=1", "r3c5=9", "r4c5=9", "r3c4=9"]:
        state = state.play(move)
        assert state.triggered_cells() == []
    after = state.play("r4c3=5")  # Blue's r4c4 reaches 35
    assert names(after, after.triggered_cells()) == ["r4c4"]
    assert after.highlight_at(12) == 1  # r3c3: was red, now blue
    assert after.highlight_at(11) == 0  # r3c2: not a neighbour of r4c4, still red
    assert 12 in after.converted_cells() and 11 not in after.converted_cells()
    placed = after.play("r3c3=2")  # Red plays there: the number is blue
    assert placed.colour_at(12) == 1


def test_flips_cause_no_chain_reaction() -> None:
    # After r2c2 triggers, r1c2 (flipped to red) is at 35 too, but a flip
    # changes no sum, so it does not trigger on this move.
    state = setup("r2c2=1 r1c1=9 r1c3=9 r4c4=1 r3c1=9")
    assert state.sum_at(1) == 19
    after = state.play("r3c3=8")
    assert after.triggered_cells() == [5]


def test_corners_never_trigger() -> None:
    state = setup("r1c2=9 r2c1=9 r2c2=9 r1c1=5", rows=3, cols=3)  # the corner at 27
    assert state.sum_at(0) == 27
    assert {"r1c1", "r1c3", "r3c1", "r3c3"} <= set(start(3, 3).to_dict()["under"])
    assert "r1c1" in state.to_dict()["under"]


def test_a_square_triggers_at_most_once() -> None:
    state = setup(TEXT_EXAMPLE).play("r2c1=9")
    assert state.has_triggered(5)
    again = state.play("r3c2=1")  # r2c2 passes 35 and does not trigger again
    assert again.sum_at(5) == 36 and again.triggered_cells() == []


# -- end of the game ---------------------------------------------------------------


def ones(rows: int, cols: int) -> ThirtyFiveState:
    """Fill the board with 1s (sums stay at most 8, so nothing ever triggers)."""
    state = start(rows, cols)
    for i in range(rows * cols):
        state = state.play(f"r{i // cols + 1}c{i % cols + 1}=1")
    return state


def test_full_board_with_more_red_squares_is_a_red_win() -> None:
    state = ones(3, 3)
    assert state.result is not None and state.to_move is None
    assert state.result.winners == (0,) and not state.result.draw
    assert state.result.scores == (5, 4)
    assert state.result.reason == "board full, 5–4"
    assert state.legal_moves() == []


def test_full_board_with_equal_counts_is_a_draw() -> None:
    state = ones(4, 4)
    assert state.result is not None
    assert state.result.draw and state.result.winners == ()
    assert state.result.reason == "board full, 8–8"
    assert state.result.scores == (8, 8)


def test_blue_wins_with_more_squares() -> None:
    state = setup("r1c1=9 r2c2=1 r1c3=9 r3c1=9 r1c2=1", rows=3, cols=3)
    assert state.sum_at(4) == 28 and state.to_move == 1  # Blue's centre at 28
    state = state.play("r3c3=7")  # 35: the whole board turns blue
    assert state.triggered_cells() == [4]
    assert picture(state) == ["B9 B1 B9", "b B1 b", "B9 b B7"]
    for move in ("r2c1=1", "r2c3=1", "r3c2=1"):
        state = state.play(move)
    assert state.result is not None
    assert state.result.winners == (1,) and state.result.scores == (0, 9)
    assert state.result.reason == "board full, 0–9"


# -- moves and errors --------------------------------------------------------------


def test_moves_parse_forgivingly_and_print_canonically() -> None:
    game = sansu.load_game("35")
    assert str(game.parse_move("  R4C5 = 9 ")) == "r4c5=9"
    assert game.parse_move("r4c5=9") is game.parse_move("R4c5=9")
    state = game.initial_state().play(" r4 c5 =9")
    assert str(state.last_move) == "r4c5=9"
    assert state.value_at(28) == 9 and state.colour_at(28) == 0


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("r4c5", "places a number"),
        ("r4c5=0", "digit from 1 to 9"),
        ("r4c5=10", "digit from 1 to 9"),
        ("r4c5=x", "digit from 1 to 9"),
        ("r9c1=5", "no cell r9c1"),
        ("r1c9=5", "no cell r1c9"),
        ("hello", "not a move"),
    ],
)
def test_text_that_names_no_move_is_refused(text: str, words: str) -> None:
    game = sansu.load_game("35")
    with pytest.raises(sansu.IllegalMove, match=words):
        game.parse_move(text)
    with pytest.raises(sansu.IllegalMove, match=words):
        game.initial_state().play(text)


def test_an_occupied_square_is_refused() -> None:
    state = start().play("r2c2=4")
    with pytest.raises(sansu.IllegalMove) as error:
        state.play("r2c2=5")
    assert str(error.value) == "r2c2=5: the square already holds a 4"


def test_no_move_after_the_game_is_over() -> None:
    state = ones(3, 3)
    with pytest.raises(sansu.IllegalMove, match="the game is over"):
        state.play("r1c1=5")


def test_a_move_of_another_board_size_is_taken_by_its_text() -> None:
    small = sansu.load_game("35", rows=3, cols=3)
    big = sansu.load_game("35", rows=12, cols=12)
    state = small.initial_state().play(big.parse_move("r2c3=4"))
    assert state.value_at(5) == 4
    with pytest.raises(sansu.IllegalMove, match="no cell r12c12"):
        small.initial_state().play(big.parse_move("r12c12=4"))
    with pytest.raises(sansu.IllegalMove, match="not a move"):
        small.initial_state().play(42)  # type: ignore[arg-type]


def test_moves_are_interned_and_survive_pickling() -> None:
    moves = start(5, 7).legal_moves()
    assert len(moves) == 5 * 7 * 9
    assert len({str(m) for m in moves}) == len(moves)
    assert pickle.loads(pickle.dumps(moves[100])) is moves[100]
    assert geometry(5, 7) is geometry(5, 7)


# -- board sizes -------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 12), (12, 3), (12, 12), (8, 8)])
def test_board_sizes(rows: int, cols: int) -> None:
    state = start(rows, cols)
    assert len(state.legal_moves()) == 9 * rows * cols
    corner = f"r{rows}c{cols}"
    state = state.play(f"{corner}=7")
    assert state.value_at(rows * cols - 1) == 7
    assert len(state.to_dict()["sums"]) == rows * cols
    neighbours = {(rows - 2, cols - 2), (rows - 2, cols - 1), (rows - 1, cols - 2)}
    for r in range(rows):
        for c in range(cols):
            assert state.sum_at(r * cols + c) == (7 if (r, c) in neighbours else 0)


def test_neighbour_counts() -> None:
    geo = geometry(8, 8)
    counts = sorted({len(nb) for nb in geo.neighbours})
    assert counts == [3, 5, 8]
    assert len(geo.neighbours[0]) == 3 and len(geo.neighbours[1]) == 5
    assert len(geo.neighbours[9]) == 8
    assert [len(nb) for nb in geometry(3, 12).neighbours].count(8) == 10


def test_default_board_and_alias() -> None:
    game = sansu.load_game("thirtyfive")
    assert game.options == {"rows": 8, "cols": 8}
    assert type(sansu.load_game("35")) is type(game)
    assert game.id == "thirtyfive" and "35" in game.aliases


@pytest.mark.parametrize("options", [{"rows": 2}, {"cols": 13}, {"rows": "abc"}, {"size": 5}])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="option"):
        sansu.load_game("35", **options)


# -- what the state shows ----------------------------------------------------------


def test_json_fields() -> None:
    state = setup(TEXT_EXAMPLE).play("r2c1=9")
    data = state.to_dict()
    json.dumps(data)
    assert data["game"] == "thirtyfive" and data["to_move"] == 0 and data["ply"] == 8
    assert data["sums"] == state.sums() and data["sums"][5] == 35
    assert data["cells"][0] == {"player": 0, "value": 9}
    assert data["cells"][6] == {"player": 0, "value": None}  # highlighted r2c3
    assert data["cells"][3] is None
    assert data["highlights"][6] == 0 and data["highlights"][0] is None
    assert data["triggered"] == ["r2c2"]
    assert data["converted"][:4] == ["r1c1", "r1c2", "r1c3", "r2c1"]
    assert data["scores"] == [8, 0]
    assert data["result"] is None
    assert "r1c1" in data["under"] and data["over"] == []


def test_the_old_state_is_unchanged() -> None:
    state = setup(TEXT_EXAMPLE)
    before = state.to_dict()
    state.play("r2c1=9")
    assert state.to_dict() == before


def test_show_json_includes_sums(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["show", "thirtyfive", "--moves", "r1c1=5 r1c2=3", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sums"][:3] == [3, 5, 3]
    assert data["sums"][8:11] == [8, 8, 3]
    assert len(data["legal_moves"]) == 62 * 9


def test_show_board_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["show", "35", "-o", "rows=3", "-o", "cols=5", "--moves", "r2c2=9", "--color", "never"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "R9*" in out and "Blue to move" in out


@pytest.mark.parametrize("value", ["2", "13", "abc"])
def test_show_refuses_bad_options(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "35", "--option", f"rows={value}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "rows" in captured.err


def test_show_refuses_an_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "35", "--moves", "r1c1=5 r1c1=6"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "move 2, r1c1=6: the square already holds a 5"


# -- the rules page ----------------------------------------------------------------

RULES_PAGE = Path(__file__).parents[2] / "docs" / "rules" / "reference" / "thirtyfive.md"
_PAGE_ITEMS = re.compile(r"Moves `([^`]+)`|plays `([^`]+)`|```\n(.*?)```", re.DOTALL)


def test_the_rules_page_boards_are_what_the_engine_plays() -> None:
    """Every board drawn on the rules page follows from the moves written before it."""
    moves: list[str] = []
    boards = 0
    for match in _PAGE_ITEMS.finditer(RULES_PAGE.read_text(encoding="utf-8")):
        setup_moves, played, board = match.groups()
        if setup_moves is not None:
            moves = setup_moves.split()
        elif played is not None:
            moves.append(played)
        else:
            drawn = [line.split()[1:] for line in board.strip().splitlines()[1:]]
            state = start()
            for move in moves:
                state = state.play(move)
            expected = [row.replace(".", "·").split() for row in picture(state)]
            assert drawn == expected, f"after {' '.join(moves)}"
            boards += 1
    assert boards >= 7
