"""The proof search: does the side to move win by force within ``n`` of its own moves?

An AND-OR search over the game protocol, depth-limited and exhaustive: the
learner needs one move that wins, the opponent is beaten only when every
reply loses. A transposition table keeps, per position, the shortest depth
known to win and the longest known not to, so the same position reached in
another order, or asked again at another depth, costs one look-up. Nothing
is sampled: a ``True`` is a proof over every opponent reply, a ``False`` a
proof that no learner move wins within the depth.

What counts as a win is the game's (:func:`sansu.puzzles.games.verdict`):
the result, and for Sumodoku an accepted Sudoku claim.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from sansu.core.protocol import Move, Player, State

Verdict = Callable[[State], "tuple[Player, ...] | None"]
"""The winners once a position is decided (empty for a draw), ``None`` while it is open."""

UNKNOWN = (1 << 30, 0)


class SearchLimit(Exception):
    """The proof search went past its node budget: the candidate is left unproved."""


@dataclass
class Line:
    """A proved puzzle line: the depth, the learner's moves and the opponent's defence."""

    depth: int
    moves: list[Move]
    """Learner, opponent, ..., learner."""
    alternatives: list[int]
    """For each opponent reply in ``moves``, how many replies held out as long."""


class Prover:
    """Proves forced wins of one game; keep one per game to share its transposition table."""

    def __init__(
        self,
        key: Callable[[State], Hashable],
        verdict: Verdict,
        *,
        node_limit: int = 2_000_000,
        possible: Callable[[State, int], bool] | None = None,
        at_once: Callable[[State], bool] | None = None,
    ) -> None:
        self.key = key
        self.verdict = verdict
        self.possible = possible
        """``possible(state, n)`` false: the mover cannot win within ``n`` (a game's exact
        shortcut, such as counting the sections still needed)."""
        self.at_once = at_once
        """``at_once(state)``: whether the mover wins with one move, read off the position."""
        self.node_limit = node_limit
        self.nodes = 0
        self._killers: dict[int, Move] = {}
        """Per depth, the reply that last refuted a learner move there: tried first."""
        self._table: dict[Hashable, tuple[int, int]] = {}
        """key -> (shortest depth known to win, longest depth known not to win)."""

    def clear(self) -> None:
        """Forget the table (it grows with every position searched)."""
        self._table.clear()

    # -- the search ------------------------------------------------------------

    def wins(self, state: State, n: int) -> bool:
        """Whether the player to move in ``state`` wins by force within ``n`` of its moves."""
        if n <= 0 or self.verdict(state) is not None:
            return False
        if self.possible is not None and not self.possible(state, n):
            return False
        me = state.to_move
        if n == 1:  # a look at every move is cheaper than the table
            if self.at_once is not None:
                return self.at_once(state)
            for move in state.legal_moves():
                winners = self.verdict(state.play(move))
                if winners is not None and me in winners:
                    return True
            return False
        key = self.key(state)
        won, lost = self._table.get(key, UNKNOWN)
        if won <= n:
            return True
        if lost >= n:
            return False
        self._count()
        open_children = []
        for move in state.legal_moves():
            child = state.play(move)
            winners = self.verdict(child)
            if winners is None:
                open_children.append(child)
            elif me in winners:
                self._store(key, won=1)
                return True
        for child in open_children:
            if self._holds(child, me, n - 1):
                self._store(key, won=n)
                return True
        self._store(key, lost=n)
        return False

    def _holds(self, state: State, me: Player | None, n: int) -> bool:
        """Whether ``me`` wins within ``n`` more of its moves after every move of ``state``'s mover.

        ``state`` is open; when ``me`` is to move again (a claim keeps the move) it is ``wins``.
        """
        if state.to_move == me:
            return self.wins(state, n)
        replies = state.legal_moves()
        killer = self._killers.get(n)
        if killer is not None and killer in replies:  # the last refutation first
            replies.remove(killer)
            replies.insert(0, killer)
        for reply in replies:
            after = state.play(reply)
            winners = self.verdict(after)
            if (me not in winners) if winners is not None else not self._holds(after, me, n):
                self._killers[n] = reply  # the opponent won or drew, or holds
                return False
        return True

    def shortest(self, state: State, most: int) -> int | None:
        """The fewest moves within which the player to move wins by force (``None``: not within
        ``most``)."""
        for n in range(1, most + 1):
            if self.wins(state, n):
                return n
        return None

    def winning_moves(self, state: State, n: int, most: int | None = None) -> list[Move]:
        """Every move of the player to move that wins within ``n`` of its moves (the first
        ``most`` of them: two say that the winning move is not the only one)."""
        me = state.to_move
        out: list[Move] = []
        for move in state.legal_moves():
            child = state.play(move)
            winners = self.verdict(child)
            if winners is not None:
                if me in winners:
                    out.append(move)
            elif n > 1 and self._holds(child, me, n - 1):
                out.append(move)
            if len(out) == most:
                break
        return out

    def avoidable(self, before: State, n: int) -> bool:
        """Whether the player to move in ``before`` had a move after which the other player does
        *not* win within ``n``: the move played instead was a mistake."""
        me = before.to_move
        for move in before.legal_moves():
            child = before.play(move)
            winners = self.verdict(child)
            if winners is not None:
                if winners == () or me in winners:
                    return True
                continue
            if child.to_move == me:
                return True  # still this player's move: not the other's forced win
            if not self.wins(child, n):
                return True
        return False

    # -- the puzzle's line -----------------------------------------------------

    def line(self, state: State, most: int) -> Line | None:
        """The puzzle line from ``state``, or ``None`` when it is no puzzle.

        A puzzle needs a forced win within ``most`` moves whose first move is the
        only one winning at the shortest depth, and after the opponent's best
        defence (the reply holding out longest; ties to the reply leaving the learner
        a single winning move, then the most learner moves, then the move text) the
        same again, down to the winning move.
        """
        depth = self.shortest(state, most)
        if depth is None:
            return None
        moves: list[Move] = []
        alternatives: list[int] = []
        me = state.to_move
        n = depth
        while True:
            winning = self.winning_moves(state, n, most=2)
            if len(winning) != 1:
                return None
            moves.append(winning[0])
            state = state.play(winning[0])
            if self.verdict(state) is not None:
                return Line(depth, moves, alternatives)
            if state.to_move == me:
                return None  # a move that keeps the turn without deciding: no puzzle line
            n -= 1
            reply = self._defence(state, me, n)
            if reply is None:
                return None
            move, ties = reply
            moves.append(move)
            alternatives.append(ties)
            state = state.play(move)

    def _defence(self, state: State, me: Player | None, n: int) -> tuple[Move, int] | None:
        """The opponent's best defence in ``state`` and how many replies hold out as long."""
        scored = []
        for reply in state.legal_moves():
            after = state.play(reply)
            if self.verdict(after) is not None:
                continue  # loses at once
            hold = self.shortest(after, n)
            if hold is None:
                return None  # not forced after all: cannot happen below a proved depth
            unique = len(self.winning_moves(after, hold, most=2)) == 1
            scored.append((-hold, not unique, -len(after.legal_moves()), str(reply), reply))
        if not scored:
            return None
        scored.sort(key=lambda s: s[:4])
        best = scored[0]
        ties = sum(1 for s in scored if s[0] == best[0])
        return best[4], ties

    # -- the table -------------------------------------------------------------

    def _store(self, key: Hashable, *, won: int | None = None, lost: int | None = None) -> None:
        old_won, old_lost = self._table.get(key, UNKNOWN)
        self._table[key] = (
            old_won if won is None else min(old_won, won),
            old_lost if lost is None else max(old_lost, lost),
        )

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchLimit(f"more than {self.node_limit} positions searched")
