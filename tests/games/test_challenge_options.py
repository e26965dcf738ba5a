"""Sudoku Challenge: the final round's order, teams, chrono, moves, options and hidden
information, as exact scenarios (helpers and puzzles: ``test_challenge.py``)."""

from __future__ import annotations

import pytest

import sansu
from sansu.games.challenge import (
    TIMEOUT,
    ChallengeState,
    Entry,
    alternate_teams,
    parse_entry,
)

from .test_challenge import MAIN, NINE, SOLUTION, cont, game, play, sheet

# -- the final round ---------------------------------------------------------------------

THREE = "r1c2=3  r5c5=1 r5c5=5  r9c9=1 r9c9=9"
"""Three players without handicap: after round 1 the scores are 3, 0, 0 and six cells
remain, so round 2 (2 entries each) is the final round."""


def test_increasing_final_order_keeps_the_initial_order_between_ties() -> None:
    state = play(THREE, players=3, handicap=False)
    assert state.final_round and state.order == (1, 2, 0) and state.to_move == 1
    state = cont(state, "r1c1=5 r2c2=7  r4c5=6 r5c6=3  r8c9=5 r9c8=7")
    assert sheet(state) == [
        (1, 0, "r1c2=3", "", 3, 0, 0, 0, 0, 3),
        (1, 1, "r5c5=5", "r5c5=1", 0, 0, 0, 0, 0, 0),
        (1, 2, "r9c9=9", "r9c9=1", 0, 0, 0, 0, 0, 0),
        (2, 1, "r1c1=5 r2c2=7", "", 12, 10, 0, 0, 0, 22),
        (2, 2, "r4c5=6 r5c6=3", "", 9, 10, 0, 0, 0, 19),
        (2, 0, "r8c9=5 r9c8=7", "", 12, 10, 0, 0, 0, 22),
    ]
    assert state.result == sansu.Result((0,), False, (25, 22, 19), "grid complete, 25–22–19")


def test_status_quo_final_order() -> None:
    state = play(THREE, players=3, handicap=False, final_order="status_quo")
    assert state.final_round and state.order == (0, 1, 2) and state.to_move == 0
    state = cont(state, "r8c9=5 r9c8=7  r1c1=5 r2c2=7  r4c5=6 r5c6=3")
    assert [row[:2] for row in sheet(state)[3:]] == [(2, 0), (2, 1), (2, 2)]
    assert state.scores == (25, 22, 19)


def test_round_one_can_be_the_final_round() -> None:
    # Nine blanks: more than 5 × 1 entries, but at most 5 × 3.
    assert not game(players=5).initial_state().final_round
    state = game(players=5, sequence="express").initial_state()
    assert state.final_round and state.order == (0, 1, 2, 3, 4)  # by handicap, lowest first
    state = cont(state, "r1c1=5 r1c2=3 r2c2=7  r4c5=6 r5c5=5 r5c6=3  r8c9=5 r9c8=7 r9c9=9")
    assert [(row.player, row.handicap, row.grid_full, row.status) for row in state.sheet] == [
        (0, 0, 0, "played"), (1, 4, 0, "played"), (2, 6, 0, "played"),
        (3, 8, 10, "grid full"), (4, 10, 10, "grid full"),
    ]  # fmt: skip
    assert state.scores == (25, 28, 37, 18, 20)
    assert state.result is not None and state.result.winners == (2,)


# -- teams ----------------------------------------------------------------------------------


def test_teams_game() -> None:
    moves = "r9c9=9 r1c2=3 r5c5=5 r4c5=6  r1c1=5 r2c2=7  r8c9=5 r9c8=7  r5c6=3"
    state = play(moves, players=4, teams=True)
    assert sheet(state) == [
        (1, 0, "r9c9=9", "", 9, 0, 0, 0, 0, 9),
        (1, 1, "r1c2=3", "", 3, 0, 4, 0, 0, 7),
        (1, 2, "r5c5=5", "", 5, 0, 6, 0, 0, 11),
        (1, 3, "r4c5=6", "", 6, 10, 8, 0, 0, 24),
        # Final round. By score (7, 9, 11, 24) player 1 would open it, but their team-mate
        # (player 3) made the last turn: team A opens, the teams alternate, each team's
        # members in score order.
        (2, 0, "r1c1=5 r2c2=7", "", 12, 10, 0, 0, 0, 22),
        (2, 1, "r8c9=5 r9c8=7", "", 12, 10, 0, 0, 0, 22),
        (2, 2, "r5c6=3", "", 3, 10, 0, 0, 0, 13),  # one cell left of its two
        (2, 3, "", "", 0, 0, 0, 0, 10, 10),
    ]
    assert state.scores == (31, 29, 24, 34)
    assert state.team_scores == (55, 63)
    data = state.to_dict()
    assert data["teams"] == [[0, 2], [1, 3]] and data["team_scores"] == [55, 63]
    assert state.result == sansu.Result(
        (1, 3), False, (55, 63), "grid complete, team A 55, team B 63"
    )


def test_teams_final_round_opens_with_the_other_team_when_the_first_ones_just_played() -> None:
    # Round 1 without handicap: 0 scores 9, 1 scores 3, 2 scores 5, 3 scores 6 (+10: box done).
    state = play("r9c9=9 r1c2=3 r5c5=5 r4c5=6", players=4, teams=True, handicap=False)
    assert state.final_round and state.scores == (9, 3, 5, 16)
    # By score: 1, 2, 0, 3. Player 1's team-mate (3) made the last turn: team A opens,
    # 2 before 0 (their scores), then team B 1 before 3.
    assert state.order == (2, 1, 0, 3)
    state = play("r9c9=9 r1c2=3 r5c5=5 r4c5=6", players=4, teams=True, handicap=False,
                 final_order="status_quo")  # fmt: skip
    assert state.order == (0, 1, 2, 3)


def test_teams_final_round_opens_with_the_lowest_score_when_its_team_did_not_just_play() -> None:
    state = play("r1c2=3 r9c9=9 r5c5=5 r4c5=6", players=4, teams=True, handicap=False)
    assert state.final_round and state.scores == (3, 9, 5, 16)
    assert state.order == (0, 1, 2, 3)  # by score 0, 2, 1, 3; team B (3) played last


def test_teams_final_round_after_a_final_round_cut_short_by_time() -> None:
    g = game(players=4, teams=True, handicap=False, turn_seconds=30)
    state = g.play_moves(["r9c9=9", "r1c2=3", "r5c5=5", "r4c5=6"])
    assert state.order == (2, 1, 0, 3)
    for _ in range(4):  # everyone lets the time run out: another final round follows
        state = state.play("timeout")
    assert state.round == 3 and state.final_round
    # Scores unchanged (3, 5, 9, 16 by player 1, 2, 0, 3); player 3 made the last turn,
    # so team A opens again.
    assert state.order == (2, 1, 0, 3)


def test_alternate_teams() -> None:
    assert alternate_teams((1, 0, 2, 3), last=3) == (0, 1, 2, 3)
    assert alternate_teams((2, 0, 3, 1), last=3) == (2, 3, 0, 1)
    assert alternate_teams((3, 2, 1, 0), last=1) == (2, 3, 0, 1)  # the first's own team played
    assert alternate_teams((3, 2, 1, 0), last=None) == (3, 2, 1, 0)


def test_teams_need_four_players() -> None:
    with pytest.raises(ValueError, match="option 'teams': teams need exactly 4 players"):
        game(players=3, teams=True)
    with pytest.raises(ValueError, match="not 2"):
        game(teams=True)
    assert "team_scores" not in game(players=4).initial_state().to_dict()


# -- chrono -----------------------------------------------------------------------------------


def test_timeouts_end_turns_and_keep_the_entries_made() -> None:
    moves = (
        "r1c2=3 timeout  r5c5=4 timeout r5c5=5 r4c5=6  r1c1=5 timeout r2c2=7 r5c6=3 r8c9=5"
        "  r9c9=9 r9c8=7"
    )
    state = play(moves, turn_seconds=30)
    assert sheet(state) == [
        (1, 0, "r1c2=3", "", 3, 0, 0, 0, 0, 3),
        (1, 1, "", "", 0, 0, 4, 0, 0, 4),
        (2, 0, "", "r5c5=4", 0, 0, 0, 0, 0, 0),
        (2, 1, "r5c5=5 r4c5=6", "", 11, 10, 0, 0, 0, 21),  # r5c5 is not a correction of P1's
        (3, 0, "r1c1=5", "", 5, 10, 0, 0, 0, 15),  # final round, cut short by time
        (3, 1, "r2c2=7 r5c6=3 r8c9=5", "", 15, 10, 0, 0, 0, 25),
        (4, 0, "r9c9=9", "", 9, 10, 0, 0, 0, 19),  # the grid is not full: another final round
        (4, 1, "r9c8=7", "", 7, 10, 0, 0, 0, 17),
    ]
    assert [row.timeout for row in state.sheet] == [False, True, True, False, True, False,
                                                    False, False]  # fmt: skip
    assert state.result is not None and state.result.reason == "grid complete, 37–67"


def test_chrono_is_carried_by_the_state_and_timeout_is_legal_only_with_it() -> None:
    state = game(turn_seconds=45).initial_state()
    assert state.turn_seconds == 45 and state.to_dict()["turn_seconds"] == 45
    assert state.legal_moves()[-1] is TIMEOUT
    plain = game().initial_state()
    assert plain.to_dict()["turn_seconds"] == 0 and TIMEOUT not in plain.legal_moves()
    with pytest.raises(sansu.IllegalMove, match="there is no time limit"):
        plain.play("timeout")
    after_error = state.play("r5c5=1")
    assert [str(m) for m in after_error.legal_moves()][-1] == "timeout"


# -- moves and illegal moves ------------------------------------------------------------------


def test_parse_moves() -> None:
    assert parse_entry(" R5C5 = 7 ") == Entry(40, 7)
    assert str(parse_entry("r5c5=7")) == "r5c5=7"
    assert parse_entry("TimeOut") is TIMEOUT
    with pytest.raises(sansu.IllegalMove, match="r5c5: an entry needs a digit"):
        parse_entry("r5c5")
    with pytest.raises(sansu.IllegalMove, match="a digit from 1 to 9, not '0'"):
        parse_entry("r5c5=0")
    with pytest.raises(sansu.IllegalMove, match="there is no cell r10c1"):
        parse_entry("r10c1=1")


def test_illegal_entries_say_why() -> None:
    state = play("r9c9=9")
    with pytest.raises(sansu.IllegalMove, match=r"^r1c3=4: r1c3 is a given \(4\)$"):
        state.play("r1c3=4")
    with pytest.raises(sansu.IllegalMove, match=r"r9c9 is already filled \(a 9 by player 0\)"):
        state.play("r9c9=9")
    with pytest.raises(sansu.IllegalMove, match="not a move of this game"):
        state.play(42)  # type: ignore[arg-type]
    over = play(MAIN)
    with pytest.raises(sansu.IllegalMove, match="the game is over"):
        over.play("r1c1=5")
    with pytest.raises(sansu.IllegalMove, match=r"^move 3, r1c3=4: r1c3 is a given"):
        game().play_moves(["r9c9=9", "r1c2=3", "r1c3=4"])


def test_play_leaves_the_old_state_unchanged() -> None:
    state = play("r9c9=9 r1c2=3 r9c8=7")
    before = state.to_dict()
    state.play("r5c5=1")
    state.play("r8c9=5")
    assert state.to_dict() == before


def test_legal_moves_are_every_digit_on_every_empty_cell() -> None:
    state = game().initial_state()
    moves = [str(m) for m in state.legal_moves()]
    assert len(moves) == 9 * 9
    assert moves[:3] == ["r1c1=1", "r1c1=2", "r1c1=3"]


# -- options -----------------------------------------------------------------------------------


def test_option_values() -> None:
    g = game(players="3", sequence="Express", final_order="status-quo", errors="simplified",
             handicap="false", turn_seconds="20")  # fmt: skip
    assert g.options["players"] == 3 and g.num_players == 3
    assert g.options["final_order"] == "status_quo" and g.options["handicap"] is False
    for bad, match in [
        ({"players": 6}, "option 'players': expected a whole number from 2 to 5, got 6"),
        ({"players": 1}, "option 'players'"),
        ({"sequence": "fast"}, "option 'sequence': expected one of regular, shortened, express"),
        ({"errors": "none"}, "option 'errors'"),
        ({"final_order": "random"}, "option 'final_order'"),
        ({"turn_seconds": -1}, "option 'turn_seconds'"),
        ({"difficulty": "trivial"}, "option 'difficulty'"),
    ]:
        with pytest.raises(ValueError, match=match):
            sansu.load_game("challenge", puzzle=NINE, **bad)


def test_puzzle_option_needs_exactly_one_solution() -> None:
    two = "." * 81
    with pytest.raises(ValueError, match="option 'puzzle': the puzzle has more than one solution"):
        game(two)
    clash = "55" + NINE[2:]
    with pytest.raises(ValueError, match=r"option 'puzzle': r1c1: a 5 is already in row 1"):
        game(clash)
    with pytest.raises(ValueError, match="option 'puzzle': a grid has 81 cells"):
        game(NINE[:80])
    with pytest.raises(ValueError, match="option 'puzzle': the puzzle has no empty cell"):
        game(SOLUTION)
    no_solution = "12345678." + "......9.." + "." * 63  # r1c9 can only be 9, as is r2c7
    with pytest.raises(ValueError, match="option 'puzzle': the puzzle has no solution"):
        game(no_solution)
    assert game(NINE.replace(".", "0")).options["puzzle"] == NINE


def test_givens_score_for_nobody_and_show_as_neutral_cells() -> None:
    state = game().initial_state()
    cells = state.to_dict()["cells"]
    assert cells[2] == {"player": None, "value": 4}
    assert cells[0] is None
    after = state.play("r1c1=5")
    assert after.to_dict()["cells"][0] == {"player": 0, "value": 5}
    assert after.owner(0) == 0 and after.owner(2) is None


# -- hidden information and generated puzzles ---------------------------------------------------


def test_the_solution_is_only_in_hidden_json() -> None:
    state = play("r9c9=9 r1c2=3 r5c5=1")
    assert state.hidden_json() == {"solution": SOLUTION}
    assert state.view(0) == state.view(1) == state.view(None) == state.to_dict()
    assert "solution" not in state.to_dict()


def test_the_options_shown_reload_the_same_game() -> None:
    shown = game().initial_state().to_dict()["options"]
    assert shown["puzzle"] == NINE and shown["seed"] is None
    assert (
        sansu.load_game("challenge", **shown).initial_state().to_dict()
        == game().initial_state().to_dict()
    )


def test_generated_puzzles_come_from_the_seed_and_hide_it() -> None:
    from sansu.sudoku.solver import count_solutions

    state = sansu.load_game("challenge", seed=11).initial_state()
    assert isinstance(state, ChallengeState)
    givens = state.to_dict()["givens"]
    assert count_solutions(givens, limit=2) == 1
    solution = state.hidden_json()["solution"]
    assert all(g in (".", s) for g, s in zip(givens, solution, strict=True))
    assert sansu.load_game("challenge", seed=11).initial_state().to_dict()["givens"] == givens
    assert sansu.load_game("challenge", seed=12).initial_state().to_dict()["givens"] != givens
    options = state.to_dict()["options"]
    assert options["seed"] is None and options["puzzle"] == givens
    assert options["difficulty"] == "easy"
    again = sansu.load_game("challenge", **options).initial_state()
    assert again.hidden_json()["solution"] == solution


def test_states_and_moves_pickle() -> None:
    import pickle

    state = play("r9c9=9 r1c2=3 r5c5=1", turn_seconds=5)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.to_dict() == state.to_dict()
    assert copy.hidden_json() == state.hidden_json()
    assert pickle.loads(pickle.dumps(TIMEOUT)) is TIMEOUT
    assert copy.play("timeout").to_move == 1
