"""Single-digit chains: turbot fish, empty rectangles, simple colouring and x-chains.

A *strong link* joins the only two places of a digit in a unit (one of them
holds it); a *weak link* joins two places that see each other (not both
hold it). A chain alternating strong and weak links, starting and ending
strong, proves one of its two ends holds the digit, so no cell seeing both
ends does. With three links that is a turbot fish (skyscraper, two-string
kite); longer ones are x-chains. Simple colouring gives alternate colours
along strong links only: one colour is the digit, so a colour that sees
itself is false and a cell seeing both colours loses the digit.

Everything here depends only on where one digit can go, an 81-bit mask, so
the searches are cached on it.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from sansu.sudoku.logic.board import BIT, NAMES, PEER_BITS, UNIT_NAMES, UNITS, Board, cells_of
from sansu.sudoku.logic.step import Step, cells_text, removals, step

_Links = tuple[tuple[int, ...], dict[int, dict[int, int]], dict[int, list[int]]]


@lru_cache(maxsize=4096)
def _links(bits: int) -> _Links:
    """The cells of ``bits``, their strong links (other cell → unit) and weak links."""
    cells = tuple(cells_of(bits))
    strong: dict[int, dict[int, int]] = {c: {} for c in cells}
    for u, unit in enumerate(UNITS):
        pair = [c for c in unit if bits >> c & 1]
        if len(pair) == 2:
            a, b = pair
            strong[a].setdefault(b, u)
            strong[b].setdefault(a, u)
    weak = {c: cells_of(PEER_BITS[c] & bits) for c in cells}
    return cells, strong, weak


@lru_cache(maxsize=4096)
def _chain(bits: int, shortest: int, longest: int) -> tuple[tuple[int, ...], int] | None:
    """The shortest useful chain of ``shortest``..``longest`` links: ``(cells, victims)``."""
    cells, strong, weak = _links(bits)
    best: tuple[int, int, tuple[int, ...], int] | None = None
    for start in cells:
        if not strong[start]:
            continue
        parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
        depth = {(start, False): 0}
        queue = deque([(start, False)])
        while queue:
            node = queue.popleft()
            cell, on = node
            links = depth[node] + 1
            if links > longest or (best is not None and links > best[0]):
                break
            for other in weak[cell] if on else strong[cell]:
                nxt = (other, not on)
                if nxt in depth:
                    continue
                depth[nxt] = links
                parent[nxt] = node
                queue.append(nxt)
                if on or links < shortest or other == start:
                    continue
                victims = PEER_BITS[start] & PEER_BITS[other] & bits
                if not victims:
                    continue
                path = []
                back: tuple[int, bool] | None = nxt
                while back is not None:
                    path.append(back[0])
                    back = parent[back]
                if len(set(path)) < len(path):
                    continue
                for c in path:
                    victims &= ~(1 << c)
                key = (links, -victims.bit_count())
                if victims and (best is None or key < best[:2]):
                    best = (*key, tuple(reversed(path)), victims)
    return None if best is None else (best[2], best[3])


def _notation(path: tuple[int, ...]) -> str:
    """``r1c1=r1c5-r4c5=r4c9``: ``=`` a strong link, ``-`` a weak one."""
    text = NAMES[path[0]]
    for i, c in enumerate(path[1:]):
        text += ("=" if i % 2 == 0 else "-") + NAMES[c]
    return text


def _chain_step(board: Board, shortest: int, longest: int, name: str) -> Step | None:
    for digit in range(1, 10):
        bits = board.digit_cells(digit)
        found = _chain(bits, shortest, longest)
        if found is None:
            continue
        path, victims = found
        elims = [(c, digit) for c in cells_of(victims)]
        first, last = path[0], path[-1]
        _, strong, _ = _links(bits)
        if len(path) == 4:
            unit_a, unit_b = strong[path[0]][path[1]], strong[path[2]][path[3]]
            why = (
                f"{UNIT_NAMES[unit_a]} has its {digit} in {NAMES[path[0]]} or {NAMES[path[1]]}, "
                f"{UNIT_NAMES[unit_b]} in {NAMES[path[2]]} or {NAMES[path[3]]}, and "
                f"{NAMES[path[1]]} sees {NAMES[path[2]]}"
            )
        else:
            why = (
                f"along {_notation(path)} (= joins the only two places for {digit} in a unit, "
                f"- two cells that see each other) the {digit} alternates"
            )
        return step(
            name,
            f"{name.capitalize()} on {digit}: {why}, so {NAMES[first]} or {NAMES[last]} holds "
            f"{digit}: {removals(elims)}, which {'sees' if len(elims) == 1 else 'see'} both.",
            eliminations=elims,
            pattern=path,
            nudge=f"Follow the strong links of the {digit}s.",
        )
    return None


def turbot_fish(board: Board) -> Step | None:
    return _chain_step(board, 3, 3, "turbot fish")


def x_chain(board: Board) -> Step | None:
    return _chain_step(board, 5, 81, "x-chain")


@lru_cache(maxsize=4096)
def _colouring(bits: int) -> tuple[str, int, int, int] | None:
    """``(kind, colour A, colour B, victims)``: the first wrap or trap, colours as masks."""
    cells, strong, _ = _links(bits)
    done = 0
    for start in cells:
        if done >> start & 1 or not strong[start]:
            continue
        sides = [1 << start, 0]
        queue = deque([(start, 0)])
        while queue:
            cell, colour = queue.popleft()
            for other in strong[cell]:
                if not (sides[0] | sides[1]) >> other & 1:
                    sides[1 - colour] |= 1 << other
                    queue.append((other, 1 - colour))
        component = sides[0] | sides[1]
        done |= component
        for colour in (0, 1):
            if any(PEER_BITS[c] & sides[colour] for c in cells_of(sides[colour])):
                return "wrap", sides[colour], sides[1 - colour], sides[colour]
        victims = sum(
            1 << c
            for c in cells_of(bits & ~component)
            if PEER_BITS[c] & sides[0] and PEER_BITS[c] & sides[1]
        )
        if victims:
            return "trap", sides[0], sides[1], victims
    return None


def simple_colouring(board: Board) -> Step | None:
    for digit in range(1, 10):
        found = _colouring(board.digit_cells(digit))
        if found is None:
            continue
        kind, one, other, victims = found
        elims = [(c, digit) for c in cells_of(victims)]
        colours = (
            f"colouring the conjugate pairs of {digit} gives one colour to "
            f"{cells_text(cells_of(one))} and the other to {cells_text(cells_of(other))}, "
            f"and exactly one colour is {digit}"
        )
        if kind == "wrap":
            clash = next(c for c in cells_of(one) if PEER_BITS[c] & one)
            mate = cells_of(PEER_BITS[clash] & one)[0]
            why = (
                f"{NAMES[clash]} and {NAMES[mate]} have the same colour yet see each other, so "
                f"that colour is not {digit}: {removals(elims)}"
            )
        else:
            seer = "sees" if len(elims) == 1 else "see"
            why = f"{cells_text(cells_of(victims))} {seer} both colours, so {removals(elims)}"
        return step(
            "simple colouring",
            f"Simple colouring on {digit}: {colours}; {why}.",
            eliminations=elims,
            pattern=cells_of(one | other),
            nudge=f"Colour the conjugate pairs of the {digit}s.",
        )
    return None


def empty_rectangle(board: Board) -> Step | None:
    """A box whose places for a digit lie in one row and one column, and a strong link.

    With the box's places in row ``r`` and column ``k``, and the digit's only
    two places in a column outside the box's stack at ``(r, C)`` and
    ``(x, C)``: if ``(x, C)`` holds it, ``(x, k)`` does not; if ``(r, C)``
    holds it, the box's digit is off row ``r``, so in column ``k``, and again
    ``(x, k)`` does not. The same with rows and columns swapped.
    """
    cands = board.cands
    for digit in range(1, 10):
        bit = BIT[digit]
        for b in range(9):
            cells = [c for c in UNITS[18 + b] if cands[c] & bit]
            if len(cells) < 2:
                continue
            for r in range(b // 3 * 3, b // 3 * 3 + 3):
                for k in range(b % 3 * 3, b % 3 * 3 + 3):
                    if any(c // 9 != r and c % 9 != k for c in cells):
                        continue
                    if all(c // 9 == r for c in cells) or all(c % 9 == k for c in cells):
                        continue
                    found = _empty_rectangle_link(cands, bit, r, k)
                    if found is not None:
                        link, victim = found
                        return _empty_rectangle_step(digit, b, r, k, cells, link, victim)
    return None


def _empty_rectangle_link(
    cands: list[int], bit: int, r: int, k: int
) -> tuple[tuple[int, int, int], int] | None:
    """``((unit, near end, far end), victim)`` for the first strong link that works."""
    for col in range(9):
        if col // 3 == k // 3:
            continue
        places = [9 * i + col for i in range(9) if cands[9 * i + col] & bit]
        if len(places) != 2 or 9 * r + col not in places:
            continue
        far = places[0] if places[1] == 9 * r + col else places[1]
        x = far // 9
        if x // 3 != r // 3 and cands[9 * x + k] & bit:
            return (9 + col, 9 * r + col, far), 9 * x + k
    for row in range(9):
        if row // 3 == r // 3:
            continue
        places = [9 * row + j for j in range(9) if cands[9 * row + j] & bit]
        if len(places) != 2 or 9 * row + k not in places:
            continue
        far = places[0] if places[1] == 9 * row + k else places[1]
        y = far % 9
        if y // 3 != k // 3 and cands[9 * r + y] & bit:
            return (row, 9 * row + k, far), 9 * r + y
    return None


def _empty_rectangle_step(
    digit: int,
    box: int,
    r: int,
    k: int,
    cells: list[int],
    link: tuple[int, int, int],
    victim: int,
) -> Step:
    unit, near, far = link
    elims = [(victim, digit)]
    return step(
        "empty rectangle",
        f"Empty rectangle on {digit}: in box {box + 1} the {digit} lies in row {r + 1} or "
        f"column {k + 1}, and {UNIT_NAMES[unit]} has its {digit} in {NAMES[near]} or "
        f"{NAMES[far]}. If {NAMES[far]} holds it, {NAMES[victim]} shares its line; if "
        f"{NAMES[near]} does, box {box + 1} has its {digit} on the other line through the "
        f"corner, which {NAMES[victim]} shares too: {removals(elims)}.",
        eliminations=elims,
        pattern=[*cells, near, far],
        nudge=f"Look at where the {digit} can go in box {box + 1}, and at a strong link nearby.",
    )
