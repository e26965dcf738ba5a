"""Sumodoku: the deal, strict placements, wins 1 and 2, and the claim, as exact scenarios.

Most games follow one solved grid, :data:`SOLUTION`: each player places
their own colours where the solution has them, so nobody is ever stuck and
a claim always succeeds. Deviations from it build the other situations. The
honour variant, the other variants, JSON, records and the picture are in
``test_sumodoku_variants.py``.
"""

from __future__ import annotations

import pytest

import sansu
from sansu.core.cells import cell_name
from sansu.games.sumodoku import (
    SUDOKU,
    Deal,
    Erase,
    Placement,
    Report,
    SumodokuState,
    claim_minutes,
)

SOLUTION = tuple(
    int(d)
    for d in "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
NINES = [c for c in range(81) if SOLUTION[c] == 9]


def load(**options) -> sansu.Game:
    return sansu.load_game("sumodoku", **options)


def start(**options) -> SumodokuState:
    state = load(**options).initial_state()
    assert isinstance(state, SumodokuState)
    return state


def own_cells(deal: Deal, player: int) -> list[int]:
    """The solution's cells of ``player``'s colours, plus four of the shared colour.

    Player 0 takes the first four cells of the shared colour, player 1 the
    next four; the last one is the spare's.
    """
    shared = [c for c in range(81) if SOLUTION[c] == deal.shared]
    mine = [c for c in range(81) if SOLUTION[c] in deal.colours[player]]
    return sorted(mine + shared[4 * player : 4 * player + 4])


def following(deal: Deal | None = None) -> list[str]:
    """Both players placing their pieces where the solution has them, alternately."""
    deal = deal or Deal.parse("1234/5678/9")
    first, second = own_cells(deal, 0), own_cells(deal, 1)
    moves = []
    for a, b in zip(first, second, strict=True):
        moves += [f"{cell_name(a)}={SOLUTION[a]}", f"{cell_name(b)}={SOLUTION[b]}"]
    return moves


FOLLOW = following()


def play(state: SumodokuState, moves: list[str] | str) -> SumodokuState:
    if isinstance(moves, str):
        moves = moves.split()
    for move in moves:
        state = state.play(move)
    return state


def texts(state: SumodokuState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def refusal(state: SumodokuState, move: str) -> str:
    """The referee's remark on an illegal ``move``."""
    with pytest.raises(sansu.IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


# -- moves as text -----------------------------------------------------------------------------


def test_move_texts_are_parsed_forgivingly_and_printed_canonically() -> None:
    game = load()
    assert game.parse_move(" R5C5 = 7 ") == Placement(40, 7)
    assert str(game.parse_move("r5c5=7")) == "r5c5=7"
    assert game.parse_move("ERASE r3 c4") == Erase(21)
    assert str(game.parse_move("erase R3C4")) == "erase r3c4"
    assert game.parse_move("report r1c2") == Report(1)
    assert game.parse_move("Sudoku!") is SUDOKU
    assert str(game.parse_move(" challenge ")) == "challenge"
    assert str(game.parse_move("timeout")) == "timeout"
    for bad, why in [
        ("r5c5", "names its colour"),
        ("r5c5=0", "digit from 1 to 9"),
        ("r10c1=1", "no cell r10c1"),
        ("erase", "needs a cell"),
        ("erase r1c1=3", "names a cell only"),
        ("sudoku now", "takes nothing"),
        ("pass", "not a move"),
    ]:
        with pytest.raises(sansu.IllegalMove, match=why):
            game.parse_move(bad)


# -- the deal ----------------------------------------------------------------------------------


def test_default_deal_pieces_and_spare() -> None:
    state = start()
    assert state.hand(0) == (0, 9, 9, 9, 9, 0, 0, 0, 0, 4)
    assert state.hand(1) == (0, 0, 0, 0, 0, 9, 9, 9, 9, 4)
    assert state.pieces_left(0) == state.pieces_left(1) == 40
    assert state.spare == 9
    assert state.inventory() == 81
    data = state.to_dict()
    assert data["deal"] == "1234/5678/9" and data["shared_colour"] == 9 and data["spare"] == 9
    assert data["pieces_left"] == [[9, 9, 9, 9, 0, 0, 0, 0, 4], [0, 0, 0, 0, 9, 9, 9, 9, 4]]
    # 81 cells × the five colours player 0 holds.
    assert len(state.legal_moves()) == 81 * 5


def test_an_explicit_deal_decides_who_owns_what() -> None:
    state = start(deal="2468/1357/9")
    assert state.hand(0)[1:] == (0, 9, 0, 9, 0, 9, 0, 9, 4)
    assert "r1c1=1: 1 is not one of your colours (yours: 2, 4, 6, 8 and 9)" in refusal(
        state, "r1c1=1"
    )
    state = state.play("r1c1=2")
    assert state.play("r9c9=1").owner_of(80) == 1


def test_a_seed_draws_the_deal_unless_a_deal_is_given() -> None:
    deals = {load(seed=s).deal for s in range(20)}
    assert len(deals) > 10
    assert load(seed=5).deal == load(seed=5).deal == Deal.from_seed(5)
    assert load(seed=5, deal="1234/5678/9").deal == Deal.parse("1234/5678/9")
    assert load().deal == Deal.parse("1234/5678/9")
    for seed in range(20):
        deal = load(seed=seed).deal
        assert deal is not None
        assert sorted((*deal.colours[0], *deal.colours[1], deal.shared)) == list(range(1, 10))


@pytest.mark.parametrize(
    ("deal", "why"),
    [
        ("1234/5678", "expected a deal like 1234/5678/9"),
        ("12345/678/9", "4 colours to each player"),
        ("1234/5678/1", "colour 1 appears twice"),
        ("1234/5670/9", "contains 0"),
        ("abcd/efgh/i", "expected a deal"),
    ],
)
def test_bad_deals_are_explained(deal: str, why: str) -> None:
    with pytest.raises(ValueError, match=f"option 'deal'.*{why}"):
        load(deal=deal)


# -- strict placements -------------------------------------------------------------------------


def test_a_repeated_colour_is_rejected_naming_the_unit_and_the_cell() -> None:
    state = play(start(), "r3c7=1 r9c9=5")
    for move, why in [
        ("r3c2=1", r"a 1 is already in row 3 \(r3c7\)"),
        ("r8c7=1", r"a 1 is already in column 7 \(r3c7\)"),
        ("r1c9=1", r"a 1 is already in the top-right box \(r3c7\)"),
        ("r3c7=2", "r3c7 already holds a 1"),
        ("r1c1=5", "5 is not one of your colours"),
    ]:
        with pytest.raises(sansu.IllegalMove, match=why):
            state.play(move)
    assert "r3c2=1" not in texts(state) and "r3c2=2" in texts(state)


def test_turn_numbers_count_each_players_own_turns() -> None:
    state = play(start(), FOLLOW[:5])
    assert (state.turns_taken(0), state.turns_taken(1)) == (3, 2)
    assert state.to_move == 1 and state.turn_number() == 3
    assert state.to_dict()["turns"] == [3, 2] and state.to_dict()["turn_number"] == 3


def test_running_out_of_a_colour() -> None:
    # Player 0 places all four of their 9s; a fifth is refused.
    state = play(start(), "r1c7=9 r9c1=5 r2c4=9 r9c2=6 r4c1=9 r9c3=7 r5c6=9 r9c4=8")
    assert state.hand(0)[9] == 0
    with pytest.raises(sansu.IllegalMove, match="you have no 9 left"):
        state.play("r7c8=9")
    assert not any(t.endswith("=9") for t in texts(state))


# -- win 1: all 40 pieces ----------------------------------------------------------------------


def test_win_1_the_first_to_place_all_40_pieces_wins() -> None:
    state = play(start(), FOLLOW[:78])
    assert state.result is None and state.pieces_left(0) == 1
    state = state.play(FOLLOW[78])
    assert state.result is not None
    assert state.result.winners == (0,) and state.result.reason == "all 40 pieces placed"
    assert state.to_move is None and state.legal_moves() == []
    assert state.pieces_left(1) == 1 and state.spare == 9 and state.inventory() == 81


# -- win 2: no legal move ----------------------------------------------------------------------

STUCK = str.split(
    "r8c4=3 r6c5=5 r9c6=9 r4c3=7 r4c5=4 r3c4=7 r1c9=1 r1c8=9 r5c5=2 r7c1=7 r3c3=2 r4c7=8 "
    "r9c7=3 r9c3=6 r5c8=4 r2c8=6 r4c1=9 r4c6=6 r7c8=1 r2c1=5 r9c4=4 r2c4=8 r7c9=4 r8c8=5 "
    "r4c8=3 r8c9=8 r1c4=2 r9c1=8 r5c6=3 r6c2=8 r1c1=4 r8c5=6 r4c4=1 r3c7=5 r6c3=4 r6c9=9 "
    "r4c2=2 r8c7=7 r8c3=9 r7c7=6 r2c5=3 r2c9=7 r6c1=3 r7c6=5 r5c2=1 r1c2=7 r8c6=1 r9c2=5 "
    "r2c3=1 r3c5=9 r8c1=2 r6c6=7 r2c7=4 r3c8=8 r6c8=2 r1c3=8 r3c6=4 r9c5=7 r2c2=9 r5c9=6 "
    "r9c9=2 r3c2=6 r7c2=3 r7c5=8 r3c9=3 r5c3=5 r8c2=4 r5c4=9 r6c7=1 r4c9=5"
)
"""70 placements after which player 0, on turn 36 (no claim any more), has no legal placement."""


def test_win_2_a_player_without_a_legal_move_on_their_turn_loses() -> None:
    before = play(start(), STUCK[:-1])
    assert before.result is None
    state = before.play(STUCK[-1])
    assert state.result is not None
    assert state.result.winners == (1,) and state.result.reason == "player 0 has no legal move"
    # Player 0 still holds pieces: 1, 1, 2, 2, 3; each empty cell already sees all of them.
    assert state.hand(0)[1:4] == (2, 2, 1) and state.turn_number(0) == 36
    assert not state.can_place(0)


STUCK_IN_WINDOW = str.split(
    "r1c9=1 r4c6=5 r9c2=9 r1c7=8 r7c3=1 r8c3=8 r1c5=3 r5c5=6 r7c4=4 r7c8=7 r5c4=9 r3c3=9 "
    "r8c1=4 r3c2=5 r2c8=2 r7c5=5 r1c8=9 r6c5=7 r7c6=9 r2c7=6 r6c3=4 r6c1=8 r6c7=3 r5c8=5 "
    "r4c2=3 r4c3=7 r9c3=2 r3c9=7 r2c2=4 r9c4=6 r5c1=1 r2c1=7 r9c6=3 r4c4=8 r8c9=3 r6c2=6 "
    "r9c8=1 r4c7=9 r3c4=2 r4c8=6 r1c1=2 r3c1=6 r5c7=4 r7c9=8 r7c1=3 r9c9=5 r2c6=1 r8c4=7 "
    "r4c9=2 r1c6=6 r3c5=4 r2c5=8 r6c4=1 r2c4=5 r8c5=1"
)
"""55 placements after which player 1, on turn 28, has no placement left."""


def test_a_player_without_placements_inside_the_claim_window_must_claim() -> None:
    state = play(start(), STUCK_IN_WINDOW)
    assert state.result is None and state.to_move == 1 and state.turn_number() == 28
    assert not state.can_place(1)
    assert texts(state) == ["sudoku"]
    assert state.play("sudoku").result is not None


# -- win 5: the Sudoku claim -------------------------------------------------------------------


@pytest.mark.parametrize(("plies", "turn", "minutes"), [
    (28, 15, None), (29, 15, None), (30, 16, 16), (31, 16, 16), (38, 20, 16), (40, 21, 12),
    (48, 25, 12), (50, 26, 8), (58, 30, 8), (60, 31, 4), (68, 35, 4), (69, 35, 4),
    (70, 36, None), (71, 36, None),
])  # fmt: skip
def test_claims_are_open_on_turns_16_to_35_with_their_time_limits(
    plies: int, turn: int, minutes: int | None
) -> None:
    state = play(start(), FOLLOW[:plies])
    assert state.turn_number() == turn
    assert state.claim_open() is (minutes is not None)
    assert state.claim_minutes() == minutes
    assert ("sudoku" in texts(state)) is (minutes is not None)
    assert "timeout" not in texts(state) and "challenge" not in texts(state)
    data = state.to_dict()
    assert data["claim_open"] is (minutes is not None) and data["claim_minutes"] == minutes
    assert data["phase"] == "play"
    if minutes is None:
        when = "allowed on your turns 16 to 35" if turn < 16 else "allowed only up to your turn 35"
        assert f"sudoku: a claim is {when}; this is your turn {turn}" in refusal(state, "sudoku")


def test_claim_minutes_by_turn() -> None:
    assert [claim_minutes(t) for t in (15, 16, 20, 21, 25, 26, 30, 31, 35, 36)] == [
        None, 16, 16, 12, 12, 8, 8, 4, 4, None,
    ]  # fmt: skip


def test_a_successful_claim_with_an_erased_mistake() -> None:
    before = play(start(), FOLLOW[:30])
    state = before.play("sudoku")
    assert state.result is None and state.phase == "claim"
    assert state.claimant == 0 and state.to_move == 0 and state.claim_turn == 16
    assert state.claim_minutes() == 16 and state.to_dict()["claim_minutes"] == 16
    # The claimant holds every remaining piece and the spare: exactly what the grid lacks.
    assert state.pieces_left(0) == 51 and state.pieces_left(1) == 0 and state.spare is None
    assert state.inventory() == 81
    assert all(state.hand(0)[d] == 9 - state.grid.count(d) for d in range(1, 10))
    assert "sudoku" not in texts(state) and "challenge" not in texts(state)
    assert texts(state)[-1] == "timeout", "the claimant may always let the time run out"
    remaining = [c for c in range(81) if state.grid[c] == 0]
    # A placement that breaks no rule but is not the solution's; then erased.
    wrong = next(
        m for m in state.legal_moves()
        if isinstance(m, Placement) and SOLUTION[m.cell] != m.colour
    )  # fmt: skip
    mistaken = state.play(wrong)
    assert f"erase {cell_name(wrong.cell)}" in texts(mistaken)
    assert mistaken.hand(0)[wrong.colour] == state.hand(0)[wrong.colour] - 1
    assert "erase only your claim's pieces, and the 5 there was placed before the claim" in refusal(
        mistaken, "erase r1c1"
    )
    with pytest.raises(sansu.IllegalMove, match="it is empty"):
        mistaken.play(f"erase {cell_name(remaining[-1])}")
    state = mistaken.play(f"ERASE {cell_name(wrong.cell)}")
    assert state.grid == before.grid and state.hand(0) == play(before, "sudoku").hand(0)
    # Claim placements obey the rules: r4c3 cannot take the 7 of r4c4.
    with pytest.raises(sansu.IllegalMove, match=r"^r4c3=7: a 7 is already in row 4 \(r4c4\)$"):
        state.play("r4c3=7")
    for cell in remaining[:-1]:
        state = state.play(f"{cell_name(cell)}={SOLUTION[cell]}")
        assert state.result is None
    state = state.play(f"{cell_name(remaining[-1])}={SOLUTION[remaining[-1]]}")
    assert state.result is not None and state.result.winners == (0,)
    assert state.result.reason == "Sudoku! the claimant completed a valid grid"
    assert state.grid == SOLUTION and state.inventory() == 81
    assert state.to_dict()["claim_cells"] == [cell_name(c) for c in remaining]


def test_player_1_can_claim_too_and_the_limit_follows_their_turn() -> None:
    state = play(start(), FOLLOW[:51]).play("sudoku")  # player 1's turn 26
    assert state.claimant == 1 and state.claim_turn == 26 and state.claim_minutes() == 8
    assert state.pieces_left(1) == 30 and state.pieces_left(0) == 0


def test_timeout_during_a_claim_loses() -> None:
    state = play(start(), FOLLOW[:62]).play("sudoku")  # player 0's turn 32
    assert state.claim_minutes() == 4
    state = state.play(FOLLOW[62]).play("timeout")
    assert state.result is not None and state.result.winners == (1,)
    assert state.result.reason == "the claim's 4 minutes ran out"
    with pytest.raises(sansu.IllegalMove, match="no clock runs outside a Sudoku claim"):
        play(start(), FOLLOW[:4]).play("timeout")


def test_a_claim_on_a_grid_without_valid_completion_loses_at_once() -> None:
    # r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box: no colour fits it,
    # although every placement obeyed the rules.
    state = play(start(), "r1c4=1 r4c1=5 r1c5=2 r5c1=6 r1c6=3 r6c1=7 r1c7=4 r7c1=8 r2c2=9")
    # Then quiet placements in the lower right until player 0's turn 16.
    while state.turn_number(0) < 16 or state.to_move != 0:
        state = state.play(
            next(m for m in state.legal_moves() if m.cell // 9 >= 4 and m.cell % 9 >= 3)  # type: ignore[attr-defined]
        )
    assert state.claim_open() and not state.game.rules.violations(state.grid)
    lost = state.play("sudoku")
    assert lost.result is not None and lost.result.winners == (1,)
    assert lost.result.reason == (
        "claimed Sudoku, but the grid has no valid completion: no colour fits r1c1"
    )
    assert lost.phase == "claim" and lost.to_move is None
    assert lost.view(None)["dead_cells"] == ["r1c1"]
    assert state.view(None)["dead_cells"] == []  # nothing is named before a claim


def claim_after(opening: str) -> SumodokuState:
    """The claim of player 0 at their turn 16, after ``opening`` and quiet placements in the
    lower right."""
    state = play(start(), opening)
    while state.turn_number(0) < 16 or state.to_move != 0:
        state = state.play(
            next(m for m in state.legal_moves() if m.cell // 9 >= 4 and m.cell % 9 >= 3)  # type: ignore[attr-defined]
        )
    assert state.claim_open() and not state.game.rules.violations(state.grid)
    return state.play("sudoku")


def test_a_lost_claim_names_a_row_without_room_for_a_colour() -> None:
    # 1s in rows 1 and 2, in columns 1 and 2 and in the top-centre and top-right boxes, a 2
    # on r3c3: row 3 has no room for a 1, although each of its empty cells takes some colour.
    lost = claim_after("r1c4=1 r5c5=5 r2c8=1 r5c6=6 r4c1=1 r5c4=7 r7c2=1 r6c5=8 r3c3=2")
    assert lost.result is not None and lost.result.winners == (1,)
    assert lost.result.reason == (
        "claimed Sudoku, but the grid has no valid completion: no empty cell of row 3 takes a 1"
    )
    assert lost.view(None)["dead_cells"] == [f"r3c{c}" for c in (1, 2, 4, 5, 6, 7, 8, 9)]


def test_a_lost_claim_names_the_cell_left_without_a_colour_once_forced_cells_are_filled() -> None:
    # r1c1 and r1c2 each take only an 8 (row 1 holds 1-4, their columns 5-7, the box a 9):
    # once r1c1 has it, no colour fits r1c2.
    lost = claim_after(
        "r1c4=1 r4c1=5 r1c5=2 r5c1=6 r1c6=3 r6c1=7 r1c7=4 r7c2=5 r2c2=9 r8c2=6 r2c9=1 r9c2=7"
    )
    assert lost.result is not None and lost.result.winners == (1,)
    assert lost.result.reason == (
        "claimed Sudoku, but the grid has no valid completion:"
        " no colour fits r1c2 once r1c1 takes the one colour that fits it, 8"
    )
    assert lost.view(None)["dead_cells"] == ["r1c2"]


def test_a_mover_without_placement_is_told_to_claim() -> None:
    from tests.web.positions import SUMODOKU_STUCK

    state = play(start(), SUMODOKU_STUCK)
    assert state.result is None and state.to_move == 1 and state.turn_number() == 34
    assert [str(m) for m in state.legal_moves()] == ["sudoku"]
    assert state.view(1)["mover_can_place"] is False
    before = play(start(), SUMODOKU_STUCK.split()[:-1])
    assert before.view(0)["mover_can_place"] is True


def test_a_lost_claim_without_a_cell_or_unit_to_blame_names_the_tightest_cell() -> None:
    # No cell is left without a colour, no row, column or box without room for one, and
    # filling the forced cells shows none either: the cell with fewest choices is named.
    state = play(
        start(),
        "r1c7=1 r1c1=8 r9c6=1 r6c3=7 r4c8=2 r3c7=5 r7c1=2 r1c4=6 r7c8=9 r2c8=7 r9c7=2 r7c9=5 "
        "r5c1=1 r8c9=8 r7c2=1 r9c1=5 r3c3=3 r9c2=8 r6c5=9 r4c7=8 r8c4=4 r5c3=8 r5c2=3 r8c6=5 "
        "r5c6=2 r1c5=5 r2c1=9 r3c2=7 r7c5=3 r5c8=6",
    )
    lost = state.play("sudoku")
    assert lost.result is not None and lost.result.winners == (1,)
    assert lost.result.reason == (
        "claimed Sudoku, but the grid has no valid completion:"
        " every colour that fits r1c2 (2 or 4) leads to a dead end"
    )
    assert lost.view(None)["dead_cells"] == ["r1c2"]
