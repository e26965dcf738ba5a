"""Wings: two or three cells with few candidates that trap a digit between them.

XY-wing: a pivot ``{x, y}`` sees pincers ``{x, z}`` and ``{y, z}``; one
pincer is ``z``, so no cell seeing both pincers is. XYZ-wing: the pivot is
``{x, y, z}``, so the pivot joins the pincers. W-wing: two ``{x, y}`` cells
joined by a strong link on ``x`` cannot both be ``x``, so one is ``y``.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import (
    BIT,
    COUNT,
    DIGIT_OF,
    DIGITS,
    NAMES,
    PEER_BITS,
    PEERS,
    UNIT_NAMES,
    UNITS,
    Board,
    cells_of,
)
from sansu.sudoku.logic.step import Step, cells_text, removals, step


def _candidates_text(mask: int) -> str:
    digits = [str(d) for d in DIGITS[mask]]
    return ", ".join(digits[:-1]) + f" or {digits[-1]}"


def _victims(board: Board, digit: int, sees: int) -> list[tuple[int, int]]:
    """``(cell, digit)`` for every cell in the 81-bit mask ``sees`` that has ``digit``."""
    bit, cands = BIT[digit], board.cands
    return [(c, digit) for c in cells_of(sees) if cands[c] & bit]


def xy_wing(board: Board) -> Step | None:
    cands = board.cands
    for pivot in range(81):
        pm = cands[pivot]
        if COUNT[pm] != 2:
            continue
        wings = [p for p in PEERS[pivot] if COUNT[cands[p]] == 2 and cands[p] != pm]
        for i, a in enumerate(wings):
            am = cands[a]
            if not am & pm:
                continue
            for b in wings[i + 1 :]:
                bm = cands[b]
                z = am & bm
                if COUNT[z] != 1 or z & pm or (am | bm) & ~z != pm:
                    continue
                digit = DIGIT_OF[z]
                elims = _victims(board, digit, PEER_BITS[a] & PEER_BITS[b] & ~(1 << pivot))
                if not elims:
                    continue
                x, y = DIGITS[pm]
                first, second = (a, b) if am & BIT[x] else (b, a)
                return step(
                    "xy-wing",
                    f"XY-wing: {NAMES[pivot]} is {x} or {y}; if {x}, {NAMES[first]} "
                    f"({_candidates_text(cands[first])}) is {digit}, if {y}, {NAMES[second]} "
                    f"({_candidates_text(cands[second])}) is {digit}. Either way one of them "
                    f"is {digit}, so {removals(elims)}.",
                    eliminations=elims,
                    pattern=(pivot, a, b),
                    nudge=f"Look for an xy-wing: three cells with two candidates each, around "
                    f"{NAMES[pivot]}.",
                )
    return None


def xyz_wing(board: Board) -> Step | None:
    cands = board.cands
    for pivot in range(81):
        pm = cands[pivot]
        if COUNT[pm] != 3:
            continue
        wings = [p for p in PEERS[pivot] if COUNT[cands[p]] == 2 and cands[p] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                am, bm = cands[a], cands[b]
                z = am & bm
                if am == bm or am | bm != pm:
                    continue
                digit = DIGIT_OF[z]
                sees = PEER_BITS[pivot] & PEER_BITS[a] & PEER_BITS[b]
                elims = _victims(board, digit, sees)
                if not elims:
                    continue
                return step(
                    "xyz-wing",
                    f"XYZ-wing: {NAMES[pivot]} is {_candidates_text(pm)}, {NAMES[a]} is "
                    f"{_candidates_text(am)} and {NAMES[b]} is {_candidates_text(bm)}; whatever "
                    f"{NAMES[pivot]} is, one of the three is {digit}, so {removals(elims)}, "
                    f"which {'sees' if len(elims) == 1 else 'see'} all three.",
                    eliminations=elims,
                    pattern=(pivot, a, b),
                    nudge=f"Look for an xyz-wing around {NAMES[pivot]}.",
                )
    return None


def _strong_links(board: Board, digit: int) -> list[tuple[int, int, int]]:
    """``(unit, a, b)`` for every unit where ``digit`` has exactly two places."""
    bit, cands, links = BIT[digit], board.cands, []
    for u, unit in enumerate(UNITS):
        cells = [c for c in unit if cands[c] & bit]
        if len(cells) == 2:
            links.append((u, cells[0], cells[1]))
    return links


def w_wing(board: Board) -> Step | None:
    cands = board.cands
    pairs = [c for c in range(81) if COUNT[cands[c]] == 2]
    links = {d: _strong_links(board, d) for d in range(1, 10)}
    for i, p in enumerate(pairs):
        for q in pairs[i + 1 :]:
            mask = cands[p]
            if cands[q] != mask or PEER_BITS[p] >> q & 1:
                continue
            for x in DIGITS[mask]:
                y = DIGIT_OF[mask & ~BIT[x]]
                elims = _victims(board, y, PEER_BITS[p] & PEER_BITS[q])
                if not elims:
                    continue
                for u, a, b in links[x]:
                    if {a, b} & {p, q}:
                        continue
                    if not (PEER_BITS[p] >> a & 1 and PEER_BITS[q] >> b & 1):
                        if not (PEER_BITS[p] >> b & 1 and PEER_BITS[q] >> a & 1):
                            continue
                        a, b = b, a
                    link = (
                        f"the {x} of {UNIT_NAMES[u]} is in {NAMES[a]} (which sees {NAMES[p]}) "
                        f"or {NAMES[b]} (which sees {NAMES[q]})"
                    )
                    return step(
                        "w-wing",
                        f"W-wing: {cells_text((p, q))} both hold {_candidates_text(mask)}, and "
                        f"{link}; so they cannot both be {x}, one of them is {y}: "
                        f"{removals(elims)}.",
                        eliminations=elims,
                        pattern=(p, q, a, b),
                        nudge=f"Look for two cells that both hold {_candidates_text(mask)}.",
                    )
    return None
