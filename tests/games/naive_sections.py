"""A deliberately plain model of the sectioned games, written from the rule texts.

It keeps a 9×9 grid of lists and recomputes everything from scratch on every
question, so it shares no code or tricks with the engines; tests play the
two side by side on many random games and require identical answers.
"""

from __future__ import annotations

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def section_cells(s: int) -> list[tuple[int, int]]:
    r0, c0 = 3 * (s // 3), 3 * (s % 3)
    return [(r0 + i, c0 + j) for i in range(3) for j in range(3)]


def has_line(cells: list[bool]) -> bool:
    return any(all(cells[p] for p in line) for line in LINES)


class NaiveBoard:
    """Ultimate Tic-Tac-Toe (``digits=False``) or Sansumoku (``digits=True``)."""

    def __init__(self, digits: bool) -> None:
        self.digits = digits
        self.player = [[None] * 9 for _ in range(9)]
        self.digit = [[0] * 9 for _ in range(9)]
        self.won: list[int | None] = [None] * 9
        self.by_constraint = [False] * 9
        self.target: int | None = None
        self.to_move: int | None = 0
        self.winner: int | None = None
        self.draw = False

    def full(self, s: int) -> bool:
        return all(self.player[r][c] is not None for r, c in section_cells(s))

    def closed(self, s: int) -> bool:
        return self.won[s] is not None or self.full(s)

    def open_sections(self) -> list[int]:
        return [s for s in range(9) if not self.closed(s)]

    def allowed(self) -> list[int]:
        if self.target is not None and not self.closed(self.target):
            return [self.target]
        return self.open_sections()

    def next_digit(self, s: int) -> int:
        return 1 + sum(self.player[r][c] is not None for r, c in section_cells(s))

    def blocked(self, r: int, c: int, d: int) -> bool:
        """Whether digit ``d`` is in row ``r`` or column ``c`` outside won sections."""
        for i in range(9):
            for rr, cc in ((r, i), (i, c)):
                if self.digit[rr][cc] == d and self.won[3 * (rr // 3) + cc // 3] is None:
                    return True
        return False

    def legal_in(self, sections: list[int]) -> set[tuple[int, int]]:
        out = set()
        for s in sections:
            d = self.next_digit(s)
            for r, c in section_cells(s):
                if self.player[r][c] is None and not (self.digits and self.blocked(r, c, d)):
                    out.add((r, c))
        return out

    def legal(self) -> set[tuple[int, int]]:
        if self.to_move is None:
            return set()
        return self.legal_in(self.allowed())

    def line_of(self, player: int) -> bool:
        return has_line([self.won[s] == player for s in range(9)])

    def play(self, r: int, c: int) -> None:
        assert (r, c) in self.legal()
        mover = self.to_move
        s = 3 * (r // 3) + c // 3
        if self.digits:
            self.digit[r][c] = self.next_digit(s)
        self.player[r][c] = mover
        if has_line([self.player[rr][cc] == mover for rr, cc in section_cells(s)]):
            self.won[s] = mover
        self.target = (r % 3) * 3 + c % 3
        while True:
            if self.line_of(mover):
                self.winner, self.to_move = mover, None
                return
            if not self.open_sections():
                self.draw, self.to_move = True, None
                return
            sections = self.allowed()
            if self.legal_in(sections):
                break
            for t in sections:
                self.won[t] = mover
                self.by_constraint[t] = True
            self.target = None
        self.to_move = 1 - mover
