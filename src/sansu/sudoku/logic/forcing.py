"""Forcing chains: follow each choice of a cell (or a digit in a unit) with singles.

When the ladder's patterns run out, a solver takes a cell with few
candidates and follows each one through naked and hidden singles. If one
choice runs into a dead end (a cell with nothing left, a digit with no place
in a unit), it is false (a contradiction chain). If every choice leads to
the same digit somewhere, or removes the same candidate, that follows
whatever the cell holds (a verity chain). The same works for the places of a
digit in a unit. Only singles are followed, so each chain is something a
person can trace with a pencil.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import (
    ALL,
    BIT,
    DIGIT_OF,
    DIGITS,
    NAMES,
    PEERS,
    UNIT_NAMES,
    UNITS,
    Board,
)
from sansu.sudoku.logic.step import Step, join, removals, step

_State = tuple[list[int], list[int]]


def propagate(values: list[int], cands: list[int], cell: int, digit: int) -> _State | None:
    """The position after placing ``digit`` on ``cell`` and every single that follows.

    ``None`` when that runs into a contradiction. The inputs are not changed.
    """
    return follow(values, cands, cell, digit)[0]


def follow(values: list[int], cands: list[int], cell: int, digit: int) -> tuple[_State | None, str]:
    """:func:`propagate`, with the dead end in words when there is one (else ``""``)."""
    values, cands = values[:], cands[:]
    todo = [(cell, digit)]
    while todo:
        while todo:
            c, d = todo.pop()
            bit = BIT[d]
            if values[c]:
                if values[c] != d:
                    return None, f"{NAMES[c]} needing both {values[c]} and {d}"
                continue
            if not cands[c] & bit:
                return None, f"{NAMES[c]} needing a {d} it cannot hold"
            values[c], cands[c] = d, 0
            for p in PEERS[c]:
                m = cands[p]
                if m & bit:
                    m &= ~bit
                    cands[p] = m
                    if not m:
                        return None, f"{NAMES[p]} with no digit"
                    if not m & (m - 1):
                        todo.append((p, DIGIT_OF[m]))
        for u, unit in enumerate(UNITS):
            once = twice = placed = 0
            for c in unit:
                if values[c]:
                    placed |= BIT[values[c]]
                else:
                    m = cands[c]
                    twice |= once & m
                    once |= m
            missing = ALL & ~placed
            if missing & ~once:
                return None, f"no place for a {DIGITS[missing & ~once][0]} in {UNIT_NAMES[u]}"
            only = once & ~twice & missing
            for d in DIGITS[only]:
                todo.append((next(c for c in unit if cands[c] & BIT[d]), d))
    return (values, cands), ""


def _common(board: Board, outcomes: list[_State]) -> tuple[list, list]:
    """Placements and eliminations that every outcome shares and the board lacks."""
    values, cands = board.values, board.cands
    placements, eliminations = [], []
    for c in range(81):
        if values[c]:
            continue
        first = outcomes[0][0][c]
        if first and all(v[c] == first for v, _ in outcomes[1:]):
            placements.append((c, first))
            continue
        gone = cands[c]
        for v, m in outcomes:
            gone &= ~(m[c] | BIT[v[c]])
        eliminations += [(c, d) for d in DIGITS[gone]]
    return placements, eliminations


def _choices() -> list[tuple[str, int, int]]:
    """Every choice set: ``("cell", cell, 0)`` and ``("unit", unit, digit)``."""
    return [("cell", c, 0) for c in range(81)] + [
        ("unit", u, d) for u in range(27) for d in range(1, 10)
    ]


_CHOICES = _choices()


def _options(board: Board, kind: str, where: int, digit: int) -> list[tuple[int, int]]:
    values, cands = board.values, board.cands
    if kind == "cell":
        return [] if values[where] else [(where, d) for d in DIGITS[cands[where]]]
    return [(c, digit) for c in UNITS[where] if cands[c] & BIT[digit]]


def forcing_chain(board: Board) -> Step | None:
    """The first contradiction or verity chain, from choice sets with the fewest options."""
    results: dict[tuple[int, int], tuple[_State | None, str]] = {}

    def outcome(option: tuple[int, int]) -> tuple[_State | None, str]:
        if option not in results:
            results[option] = follow(board.values, board.cands, *option)
        return results[option]

    for size in range(2, 10):
        for kind, where, digit in _CHOICES:
            options = _options(board, kind, where, digit)
            if len(options) != size:
                continue
            outcomes = [outcome(o) for o in options]
            for option, (state, why) in zip(options, outcomes, strict=True):
                if state is None:
                    return _contradiction(option, why)
            states = [state for state, _ in outcomes if state is not None]
            placements, eliminations = _common(board, states)
            if placements or eliminations:
                return _verity(kind, where, digit, options, placements, eliminations)
    return None


def _contradiction(option: tuple[int, int], why: str) -> Step:
    cell, digit = option
    return step(
        "forcing chain",
        f"Forcing chain: if {NAMES[cell]} were {digit}, the singles that follow would leave "
        f"{why}, so remove {digit} from {NAMES[cell]}.",
        eliminations=[option],
        pattern=[cell],
        nudge=f"Try {digit} in {NAMES[cell]} and follow the singles.",
    )


def _verity(
    kind: str,
    where: int,
    digit: int,
    options: list[tuple[int, int]],
    placements: list[tuple[int, int]],
    eliminations: list[tuple[int, int]],
) -> Step:
    if kind == "cell":
        choice = f"{NAMES[where]} is {' or '.join(str(d) for _, d in options)}"
        look = f"the candidates of {NAMES[where]}"
    else:
        places = " or ".join(NAMES[c] for c, _ in options)
        choice = f"the {digit} of {UNIT_NAMES[where]} is in {places}"
        look = f"the places of {digit} in {UNIT_NAMES[where]}"
    if placements:
        result = join(f"{NAMES[c]} is {d}" for c, d in placements)
        return step(
            "forcing chain",
            f"Forcing chain: {choice}; following each with singles, {result} every time, "
            f"so {'that holds' if len(placements) == 1 else 'these hold'}.",
            placements=placements,
            pattern=[c for c, _ in options],
            nudge=f"Follow each of {look} with singles.",
        )
    return step(
        "forcing chain",
        f"Forcing chain: {choice}; following each with singles removes the same candidates "
        f"every time, so {removals(eliminations)}.",
        eliminations=eliminations,
        pattern=[c for c, _ in options],
        nudge=f"Follow each of {look} with singles.",
    )
