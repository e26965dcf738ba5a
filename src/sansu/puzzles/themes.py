"""Themes: what a puzzle teaches, read off its position and its proved solution.

Every theme is a fact checked on the moves, never a guess: ``docs/puzzles.md``
lists each with what it means. Every puzzle also gets ``win in N`` (N its
depth in the learner's moves).
"""

from __future__ import annotations

from collections.abc import Sequence

from sansu.core.protocol import Move, State
from sansu.core.sections import FULL, LINE_MASKS

THEMES: dict[str, tuple[str, ...]] = {
    "uttt": ("win in 1", "win in 2", "win in 3", "free move", "send to a full board",
             "two sections at once", "quiet move"),
    "sansumoku": ("win in 1", "win in 2", "win in 3", "wildcard", "send to a full board",
                  "two sections at once", "quiet move", "win by constraint",
                  *(f"digit {d}" for d in range(1, 10))),
    "thirtyfive": ("win in 1", "win in 2", "a 35 that converts", "double conversion",
                   "big conversion", "on a highlight", "cancelling 35"),
    "sumodoku": ("win in 1", "win in 2", "Sudoku! claim", "all 40 pieces placed",
                 "no legal move"),
}  # fmt: skip
"""Every theme of each game, in the order they are listed."""

BIG = 4
"""35: a conversion of this many squares or more is a big one."""


def themes(state: State, solution: Sequence[Move], depth: int) -> tuple[str, ...]:
    """The themes of the puzzle starting at ``state`` with ``solution`` (learner first)."""
    found = {f"win in {depth}"}
    solution = [state.game.parse_move(str(m)) for m in solution]
    positions = [state]
    for move in solution:
        positions.append(positions[-1].play(move))
    learner_turns = list(range(0, len(solution), 2))
    game = state.game.id
    if game in ("uttt", "sansumoku"):
        found |= _sections(positions, solution, learner_turns)
    elif game == "thirtyfive":
        found |= _thirtyfive(positions, learner_turns)
    elif game == "sumodoku":
        found |= _sumodoku(positions, solution)
    order = THEMES.get(game, ())
    return tuple(sorted(found, key=lambda t: order.index(t) if t in order else len(order)))


def _threats(state: State, player: int) -> int:
    """How many open sections ``player`` could win with one more mark where winning that section
    would complete a line of three sections (a threat to win the game)."""
    bitboards = state.bitboards()  # type: ignore[attr-defined]
    marks, other = bitboards[player], bitboards[1 - player]
    won = bitboards[2 + player]
    closed = bitboards[4]
    count = 0
    for section in range(9):
        if closed >> section & 1:
            continue
        with_it = won | 1 << section
        if not any(with_it & m == m and m >> section & 1 for m in LINE_MASKS):
            continue
        mine = marks >> 9 * section & FULL
        empty = ~(mine | other >> 9 * section) & FULL
        if any((m & mine).bit_count() == 2 and (m & empty).bit_count() == 1 for m in LINE_MASKS):
            count += 1
    return count


def _sections(positions: list[State], solution: Sequence[Move], turns: list[int]) -> set[str]:
    found: set[str] = set()
    wildcard = "wildcard" if positions[0].game.id == "sansumoku" else "free move"
    learner = positions[0].to_move
    assert learner is not None
    for i in turns:
        before, after = positions[i], positions[i + 1]
        if len(before.allowed_sections()) > 1:  # type: ignore[attr-defined]
            found.add(wildcard)
        if wildcard == "wildcard" and _by_constraint(after, learner) > _by_constraint(
            before, learner
        ):
            found.add("win by constraint")
        if after.result is not None:
            continue
        if len(after.allowed_sections()) > 1:  # type: ignore[attr-defined]
            found.add("send to a full board")
        if _threats(after, learner) >= 2:
            found.add("two sections at once")
    first, after_first = positions[0], positions[1]
    if after_first.result is None and _owned(after_first, learner) == _owned(first, learner):
        found.add("quiet move")
    if wildcard == "wildcard":
        place = solution[0]
        digit = first.next_digit(place.section)  # type: ignore[attr-defined]
        found.add(f"digit {digit}")
    return found


def _owned(state: State, player: int) -> int:
    return sum(1 for s in range(9) if state.section_owner(s) == player)  # type: ignore[attr-defined]


def _by_constraint(state: State, player: int) -> int:
    return sum(
        1
        for s in range(9)
        if state.section_owner(s) == player and state.won_by_constraint(s)  # type: ignore[attr-defined]
    )


def _thirtyfive(positions: list[State], turns: list[int]) -> set[str]:
    found: set[str] = set()
    learner = positions[0].to_move
    for i in turns:
        before, after = positions[i], positions[i + 1]
        if before.highlight_at(positions[i + 1].last_move.cell) is not None:  # type: ignore[attr-defined]
            found.add("on a highlight")
        triggered = after.triggered_cells()  # type: ignore[attr-defined]
        if not triggered:
            continue
        if after.cancelled:  # type: ignore[attr-defined]
            found.add("cancelling 35")
            continue
        colour = after.colour_at(triggered[0])  # type: ignore[attr-defined]
        if colour == learner and after.converted_cells():  # type: ignore[attr-defined]
            found.add("a 35 that converts")
            if len(triggered) >= 2:
                found.add("double conversion")
            if len(after.converted_cells()) >= BIG:  # type: ignore[attr-defined]
                found.add("big conversion")
    return found


def _sumodoku(positions: list[State], solution: Sequence[Move]) -> set[str]:
    found: set[str] = set()
    if str(solution[-1]) == "sudoku":
        found.add("Sudoku! claim")
    result = positions[-1].result
    if result is not None:
        if "40" in result.reason:
            found.add("all 40 pieces placed")
        elif "no legal move" in result.reason:
            found.add("no legal move")
    return found
