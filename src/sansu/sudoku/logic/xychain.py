"""XY-chains: a path of two-candidate cells, each seeing the next, that traps a digit.

Start with a cell ``{z, a}``: if it is not ``z`` it is ``a``, so the next
cell (which sees it and holds ``{a, b}``) is ``b``, and so on. When the path
ends on a cell forced to ``z``, one of its two ends is ``z``, so no cell
seeing both ends is. The shortest such path is taken (an xy-wing is the
three-cell case, found earlier on the ladder).
"""

from __future__ import annotations

from collections import deque

from sansu.sudoku.logic.board import BIT, COUNT, DIGITS, NAMES, PEER_BITS, PEERS, Board, cells_of
from sansu.sudoku.logic.step import Step, removals, step

_Found = tuple[int, tuple[int, ...], list[int]]


def _search(cands: list[int]) -> _Found | None:
    """``(digit, path, victims)`` of the shortest useful chain, ties to the first start."""
    pairs = [c for c in range(81) if COUNT[cands[c]] == 2]
    pair_set = set(pairs)
    links = {c: [p for p in PEERS[c] if p in pair_set] for c in pairs}
    best: _Found | None = None
    for start in pairs:
        for z in DIGITS[cands[start]]:
            zbit = BIT[z]
            first = (start, cands[start] & ~zbit)  # the cell and the digit it then holds
            parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
            length = {first: 1}
            queue = deque([first])
            while queue:
                node = queue.popleft()
                cell, holds = node
                if best is not None and length[node] + 1 >= len(best[1]):
                    break
                for other in links[cell]:
                    if not cands[other] & holds:
                        continue
                    nxt = (other, cands[other] & ~holds)
                    if nxt in parent:
                        continue
                    parent[nxt] = node
                    length[nxt] = length[node] + 1
                    queue.append(nxt)
                    if nxt[1] != zbit or length[nxt] < 3:
                        continue
                    path = []
                    back: tuple[int, int] | None = nxt
                    while back is not None:
                        path.append(back[0])
                        back = parent[back]
                    if len(set(path)) < len(path):
                        continue
                    sees = PEER_BITS[start] & PEER_BITS[other]
                    victims = [c for c in cells_of(sees) if cands[c] & zbit and c not in path]
                    if victims and (best is None or len(path) < len(best[1])):
                        best = (z, tuple(reversed(path)), victims)
    return best


def xy_chain(board: Board) -> Step | None:
    found = _search(board.cands)
    if found is None:
        return None
    digit, path, victims = found
    cands = board.cands
    links = []
    holds = cands[path[0]] & ~BIT[digit]
    for c in path[1:]:
        links.append(f"{NAMES[c]} is {DIGITS[cands[c] & ~holds][0]}")
        holds = cands[c] & ~holds
    elims = [(c, digit) for c in victims]
    first, last = NAMES[path[0]], NAMES[path[-1]]
    other = DIGITS[cands[path[0]] & ~BIT[digit]][0]
    return step(
        "xy-chain",
        f"XY-chain: if {first} is not {digit} it is {other}, then {', then '.join(links)}; so "
        f"{first} or {last} is {digit}: {removals(elims)}, which "
        f"{'sees' if len(elims) == 1 else 'see'} both.",
        eliminations=elims,
        pattern=path,
        nudge=f"Follow the two-candidate cells from {first}.",
    )
