"""Sumodoku: the honour variant (wins 3 and 4), the other variants, and the game's JSON,
records, command line and picture, as exact scenarios (helpers: ``test_sumodoku.py``)."""

from __future__ import annotations

import json

import pytest

import sansu
from sansu.cli.main import main
from sansu.core.cells import cell_name
from sansu.games.sumodoku import CHALLENGE, Deal, Placement
from sansu.render import render
from sansu.sudoku.constraints import Constraints

from .test_sumodoku import (
    FOLLOW,
    SOLUTION,
    load,
    own_cells,
    play,
    refusal,
    start,
    texts,
)

# -- the honour variant: wins 3 and 4 ----------------------------------------------------------


def test_honour_accepts_a_duplicate_and_a_challenge_then_wins() -> None:
    state = play(start(honour=True), "r1c1=1 r9c9=5")
    assert "r1c5=1" not in texts(state), "listed moves obey the rules even in honour mode"
    state = state.play("r1c5=1")  # a 1 twice in row 1, accepted
    assert state.grid[4] == 1 and state.to_move == 1 and state.result is None
    assert texts(state)[-1] == "challenge"
    won = state.play("challenge")
    assert won.result is not None and won.result.winners == (1,)
    assert won.result.reason == "successful challenge: r1c5: a 1 is already in row 1 (r1c1)"


def test_honour_a_wrong_challenge_loses() -> None:
    state = play(start(honour=True), "r1c1=1 r9c9=5 r2c5=1").play(CHALLENGE)
    assert state.result is not None and state.result.winners == (0,)
    assert state.result.reason == "failed challenge: the board breaks no rule"


def test_honour_a_report_removes_the_offending_piece_and_the_hole_can_be_filled() -> None:
    state = play(start(honour=True), "r1c1=1 r9c9=5 r1c5=1")
    assert refusal(state, "report r1c1") == (
        "report r1c1: the 1 on r1c1 came first (a 1 is already in row 1 (r1c5));"
        " report the later piece"
    )
    with pytest.raises(sansu.IllegalMove, match="the 5 on r9c9 breaks no rule"):
        state.play("report r9c9")
    with pytest.raises(sansu.IllegalMove, match="r2c2 is empty"):
        state.play("report r2c2")
    reported = state.play("report r1c5")
    assert reported.grid[4] == 0 and reported.holes() == [4]
    assert reported.to_move == 1 and reported.turns_taken(1) == 1, "a report uses no turn"
    assert reported.removed[1] == 1 and reported.hand(0)[1] == 7 and reported.inventory() == 81
    assert reported.to_dict()["holes"] == ["r1c5"] and reported.to_dict()["removed"][0] == 1
    assert not reported.game.rules.violations(reported.grid)
    assert "r1c5=5" in texts(reported)
    filled = reported.play("r1c5=5")
    assert filled.holes() == [] and filled.owner_of(4) == 1
    assert state.grid[4] == 1 and reported.grid[4] == 0, "earlier states are unchanged"


def honour_report_then_follow(plies: int) -> list[str]:
    """Player 0 places a second 3 in row 1, a spectator reports it, and play follows the
    solution again (player 0 is one 3 short from then on)."""
    moves = [FOLLOW[0], FOLLOW[1], "r1c3=3", "report r1c3"]
    for k in range(1, 40):
        moves += [FOLLOW[2 * k + 1], FOLLOW[2 * k]]
    return moves[:plies]


def test_honour_after_a_report_a_claim_lacks_a_piece() -> None:
    state = play(start(honour=True), honour_report_then_follow(31))
    assert state.to_move == 0 and state.turn_number() == 16 and state.removed[3] == 1
    assert not state.game.rules.violations(state.grid)
    lost = state.play("sudoku")
    assert lost.result is not None and lost.result.winners == (1,)
    assert lost.result.reason == (
        "claimed Sudoku, but a 3 is out of the game, so the pieces cannot fill the grid"
    )


def test_honour_the_40th_piece_does_not_win_while_its_owner_broke_a_rule() -> None:
    # Player 0 puts a 1 on r1c1 (the solution's 5, player 1's cell) and never places the
    # solution's last 1; row 1 then holds two 1s (r1c1 and r1c8).
    deal = Deal.parse("1234/5678/9")
    ones = [c for c in range(81) if SOLUTION[c] == 1]
    first = [c for c in own_cells(deal, 0) if c != ones[-1]]
    second = [c for c in own_cells(deal, 1) if c != 0]
    moves = []
    for i in range(40):
        moves.append("r1c1=1" if i == 0 else f"{cell_name(first[i - 1])}={SOLUTION[first[i - 1]]}")
        if i < 39:
            moves.append(f"{cell_name(second[i])}={SOLUTION[second[i]]}")
    state = play(start(honour=True), moves)
    assert state.pieces_left(0) == 0 and state.result is None and state.to_move == 1
    # The later 1s of row 1 and column 1 (r1c8, r3c1) are the offending pieces.
    assert state.offending_cells() == [7, 18] and state.owner_of(7) == state.owner_of(18) == 0
    won = state.play("challenge")
    assert won.result is not None and won.result.winners == (1,)
    # The same final placement without the broken rule wins outright.
    clean = play(start(honour=True), FOLLOW[:79])
    assert clean.result is not None and clean.result.winners == (0,)


def test_without_honour_there_is_no_challenge_or_report() -> None:
    state = play(start(), "r1c1=1 r9c9=5")
    assert "challenge" not in texts(state)
    with pytest.raises(sansu.IllegalMove, match="challenge belongs to the honour variant"):
        state.play("challenge")
    with pytest.raises(sansu.IllegalMove, match="reports belong to the honour variant"):
        state.play("report r1c1")
    assert "erase is only for pieces placed during a Sudoku claim" in refusal(state, "erase r1c1")


# -- variants ----------------------------------------------------------------------------------


def test_any_colour_shares_one_pool_and_has_no_win_1() -> None:
    state = start(any_colour=True)
    assert state.game.deal is None and state.spare is None
    assert len(state.legal_moves()) == 81 * 9
    state = state.play("r1c1=5")
    assert state.hand(1)[5] == 8 and state.hand(0)[5] == 8 and state.inventory() == 81
    with pytest.raises(sansu.IllegalMove, match="a 5 is already in row 1"):
        state.play("r1c2=5")
    moves = [f"{cell_name(c)}={SOLUTION[c]}" for c in range(81)]
    full = play(start(any_colour=True), moves[:79])
    assert full.result is None, "40 pieces do not win with any_colour"
    full = play(full, moves[79:])
    assert full.result is not None and full.result.winners == (0,)
    assert full.result.reason == "player 1 has no legal move"
    assert full.to_dict()["pool"] == [0] * 9 and full.grid == SOLUTION
    with pytest.raises(ValueError, match="option 'deal': with any_colour there is no deal"):
        load(any_colour=True, deal="1234/5678/9")


def test_pool_runs_out_with_any_colour() -> None:
    moves = [f"{cell_name(c)}={SOLUTION[c]}" for c in range(81) if SOLUTION[c] == 7]
    state = play(start(any_colour=True), moves)
    assert state.hand(0)[7] == 0
    with pytest.raises(sansu.IllegalMove, match="the pool has no 7 left"):
        state.play("r1c1=7")
    assert state.to_dict()["pool"][6] == 0


def test_diagonals() -> None:
    state = play(start(diagonals=True), "r1c1=1 r9c8=5")
    assert "a 1 is already on the r1c1-r9c9 diagonal (r1c1)" in refusal(state, "r9c9=1")
    state = play(state, "r1c9=2 r9c7=6")
    assert "a 2 is already on the r1c9-r9c1 diagonal (r1c9)" in refusal(state, "r5c5=2")
    assert "r9c9=1" not in texts(state) and "r9c9=3" in texts(state)
    assert play(start(), "r1c1=1 r9c8=5 r9c9=1").grid[80] == 1
    assert state.to_dict()["variants"]["diagonals"] is True


PARITY = "".join("o" if d % 2 else "e" for d in SOLUTION[:27]) + "." * 54


def test_parity_layout_given() -> None:
    state = start(parity=PARITY)
    with pytest.raises(sansu.IllegalMove, match="r1c1 is marked odd"):
        state.play("r1c1=2")
    with pytest.raises(sansu.IllegalMove, match="r1c2 is marked odd"):
        state.play("r1c2=4")
    state = state.play("r1c1=1")
    assert "r1c3=5" not in texts(state) and "r1c3=6" in texts(state)
    assert state.to_dict()["variants"]["parity"] == PARITY
    assert "r9c9=5" in texts(state) and "r9c9=6" in texts(state)


def test_consecutive_and_strict_consecutive() -> None:
    state = start(consecutive="r1c2-r1c3, r2c1:r1c1")
    assert state.game.rules.consecutive == {(1, 2), (0, 9)}
    stored = load(consecutive="r1c2-r1c3, r2c1:r1c1").options["consecutive"]
    assert stored == "r1c1-r2c1,r1c2-r1c3"
    state = state.play("r1c2=3")
    assert "r1c2 and r1c3 are marked consecutive but 3 and 6 differ by 3" in refusal(
        state, "r1c3=6"
    )
    assert not any(t.startswith("r1c3=") for t in texts(state)[:-1]), "only 2 or 4 fit r1c3"
    assert "r1c4=5" in texts(state), "without strict, unmarked neighbours may differ by 1"
    strict = play(start(strict_consecutive=True, consecutive="r1c2-r1c3"), ["r1c1=4"])
    assert "r1c1 and r1c2 are not marked consecutive but 4 and 5 differ by 1" in refusal(
        strict, "r1c2=5"
    )
    assert "r1c2=6" in texts(strict) and "r2c1=5" not in texts(strict)
    assert strict.to_dict()["variants"]["consecutive"] == [["r1c2", "r1c3"]]


def test_layouts_true_are_generated_from_the_seed() -> None:
    game = load(parity=True, consecutive="true", seed=3)
    rules = game.rules
    assert rules.parity is not None and len(rules.parity) == 81 and rules.consecutive
    assert game.options["parity"] is True
    again = load(parity="yes", consecutive=True, seed=3)
    assert again.rules == rules
    assert load(parity=True).rules == load(parity=True, seed=0).rules, "seed defaults to 0"
    assert load(parity=True, seed=1).rules.parity != load(parity=True, seed=2).rules.parity
    assert load(parity=False).rules.parity is None


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"parity": "x" * 81}, "option 'parity': bad parity mark 'x' at position 1"),
        ({"parity": "e" * 80}, "option 'parity': a parity layout has 81 marks"),
        ({"parity": "e" * 9 + "." * 72}, "no completed grid obeys the parity layout"),
        ({"consecutive": "r1c1-r3c3"}, "r1c1 and r3c3 are not orthogonally adjacent"),
        ({"consecutive": "r1c1"}, "option 'consecutive': consecutive mark 'r1c1'"),
        ({"consecutive": 5}, "option 'consecutive': expected true"),
        ({"any_colour": "maybe"}, "option 'any_colour': expected true or false"),
        ({"seed": -1}, "option 'seed'"),
    ],
)
def test_bad_options_are_explained(options: dict, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        load(**options)


def test_variants_combine() -> None:
    game = load(diagonals=True, parity=True, consecutive=True, strict_consecutive=True, seed=11)
    rules = game.rules
    assert rules.diagonals and rules.parity and rules.consecutive and rules.strict_consecutive
    state = game.initial_state()
    for move in state.legal_moves()[:50]:
        assert isinstance(move, Placement)
        assert rules.placement_error(state.grid, move.cell, move.colour) is None


# -- JSON, records, the command line, the picture ----------------------------------------------


def test_json_fields(capsys) -> None:
    code = main(["show", "sumodoku", "--moves", " ".join(FOLLOW[:31]), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "sumodoku" and data["to_move"] == 1 and data["ply"] == 31
    assert data["cells"][0] == {"player": 1, "value": 5}
    assert data["cells"][2] == {"player": 0, "value": 4}
    assert data["cells"][80] is None
    assert data["phase"] == "play" and data["claim_open"] is True and data["claim_minutes"] == 16
    assert data["turns"] == [16, 15] and data["turn_number"] == 16
    assert data["pieces_left_total"] == [24, 25]
    assert sum(data["pieces_left_total"]) + 31 + 1 == 81
    assert "sudoku" in data["legal_moves"] and data["result"] is None
    assert data["spare"] == 9 and data["holes"] == []


def test_bad_options_and_moves_exit_2_with_one_line(capsys) -> None:
    for args in (
        ["--option", "deal=123/456/7"],
        ["--option", "parity=eeeeeeeee" + "." * 72],
        ["--option", "honour=perhaps"],
        ["--moves", "r1c1=1 r1c2=1"],
    ):
        code = main(["show", "sumodoku", *args])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.count("\n") == 1, (args, err)
    assert "move 2, r1c2=1: 1 is not one of your colours" in err


@pytest.mark.parametrize(
    "moves",
    [
        [*honour_report_then_follow(32), "sudoku"],
        [*FOLLOW[:31], "sudoku", "r9c8=7", "erase r9c8", "r9c8=7", "timeout"],
        ["r1c1=1", "r9c9=5", "r1c5=1", "challenge"],
    ],
)
def test_records_replay_claims_erasures_reports_and_challenges(moves: list[str]) -> None:
    game = load(honour=True)
    state = game.play_moves(moves)
    assert state.result is not None
    record = sansu.GameRecord.start(game)
    for move in moves:
        record.append(move)
    loaded = sansu.GameRecord.from_json(record.to_json())
    assert loaded.moves == moves and loaded.options["honour"] is True
    assert json.dumps(loaded.replay().to_dict(), sort_keys=True) == json.dumps(
        state.to_dict(), sort_keys=True
    )


def test_render_reads_without_colour() -> None:
    state = play(start(honour=True, diagonals=True), ["r1c1=1", "r9c8=5", "r1c5=1", "report r1c5"])
    text = render(state, color=False)
    assert "\x1b[" not in text
    assert "┃ 1 │" in text and "(5)" in text and " # " in text
    assert "variants: diagonals, honour" in text and "holes: r1c5" in text
    assert "Orange to move (turn 2); claims open on turn 16" in text
    coloured = render(state, color=True)
    assert "\x1b[" in coloured
    claim = play(start(consecutive="r9c8-r9c9"), FOLLOW[:30]).play("sudoku")
    text = render(claim, color=False)
    assert "SUDOKU CLAIM by Blue (made on turn 16): 16 minutes" in text
    assert "•" in text
    over = play(start(), FOLLOW[:79])
    assert "BLUE WINS: all 40 pieces placed" in render(over, color=False)


def test_constraints_object_is_shared() -> None:
    assert load(diagonals=True).rules == Constraints(diagonals=True)
