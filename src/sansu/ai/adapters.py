"""What the generic search needs to know about a game beyond the protocol.

An :class:`Adapter` answers: which moves are worth searching, how a playout
picks moves, how to judge a position where a playout stops early, and which
positions can be settled exactly without playing on. The base class uses
only the protocol; games whose protocol alone would mislead the search
(moves only a host makes, hidden information, a claim decided by a solver)
get a subclass here. :func:`adapter_for` picks it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sansu.ai.rewards import Rewards, rewards_of
from sansu.core.protocol import Game, Move, State

HOST_MOVES = frozenset({"timeout"})
"""Moves that only the host applies (a clock running out): never chosen by a player."""


def score_rewards(scores: Sequence[float], teams: Sequence[Sequence[int]] | None) -> Rewards:
    """Rewards of a position judged by its scores: the leaders share the win."""
    players = len(scores)
    if teams is not None:
        team_scores = [sum(scores[p] for p in team) for team in teams]
        best = max(team_scores)
        leaders = [t for t, s in enumerate(team_scores) if s == best]
        if len(leaders) == len(teams):
            return (1.0 / players,) * players
        rewards = [0.0] * players
        for t in leaders:
            for p in teams[t]:
                rewards[p] = 1.0
        return tuple(rewards)
    best = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    if len(leaders) == players:
        return (1.0 / players,) * players
    return tuple(1.0 / len(leaders) if p in leaders else 0.0 for p in range(players))


class Adapter:
    """The protocol as it is: every legal move but the host's, uniform random playouts."""

    def __init__(self, game: Game, *, vision: str = "solve") -> None:
        self.game = game
        self.players = game.num_players
        self.teams = getattr(game, "teams", None)
        self.vision = vision

    def prepare(self, state: State, rng: random.Random) -> State:
        """Called once before each search from ``state``; the state to search from."""
        return state

    def warm_up(self) -> None:
        """Load any compiled code the adapter uses (the Sudoku solver), ahead of a search."""

    def candidates(self, state: State) -> Sequence[Move]:
        """The moves the search considers at ``state``."""
        return [m for m in state.legal_moves() if str(m) not in HOST_MOVES]

    def forced(self, state: State, rng: random.Random) -> Move | None:
        """A move to play at the root without searching, or ``None`` to search."""
        moves = self.candidates(state)
        if len(moves) == 1:
            return moves[0]
        if not moves:
            legal = [m for m in state.legal_moves() if str(m) not in HOST_MOVES]
            return rng.choice(legal) if legal else None
        return None

    def playout_move(self, state: State, rng: random.Random) -> Move | None:
        """The next move of a playout, or ``None`` to stop and :meth:`evaluate`."""
        moves = self.candidates(state)
        return rng.choice(moves) if moves else None

    def playout(self, state: State, rng: random.Random, limit: int) -> Rewards:
        """Play ``state`` out (at most ``limit`` moves) and return everyone's reward."""
        for _ in range(limit):
            if state.result is not None:
                return rewards_of(state.result, self.players, self.teams)
            move = self.playout_move(state, rng)
            if move is None:
                break
            state = state.play(move)
        if state.result is not None:
            return rewards_of(state.result, self.players, self.teams)
        exact = self.exact(state)
        return exact if exact is not None else self.evaluate(state)

    def evaluate(self, state: State) -> Rewards:
        """Everyone's reward at a position where a playout stopped early."""
        scores = getattr(state, "scores", None)
        if callable(scores):
            scores = scores()
        if isinstance(scores, tuple | list) and len(scores) == self.players:
            return score_rewards(scores, self.teams)
        return (1.0 / self.players,) * self.players

    def exact(self, state: State) -> Rewards | None:
        """Everyone's reward when it is already certain at ``state`` (not finished), else None."""
        return None


class SumodokuAdapter(Adapter):
    """Sumodoku with the "Sudoku!" claim decided by the solver.

    A claim wins exactly when the grid can still be completed (the claimant
    then fills in the solution), so a position where the mover may claim and
    the grid is completable is a proven win for the mover, and a claim on a
    grid that is not completable is never considered. During a claim the
    claimant places the solution, cell by cell. Completability is all the
    search needs to steer the grid towards or away from it.
    """

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self._completable: dict[tuple[int, ...], bool] = {}

    def completable(self, state: Any) -> bool:
        """Whether the pieces on the board can be completed to a valid grid."""
        # Only the honour variant lets a rule-breaking piece stand.
        if self.game.honour and self.game.rules.violations(state.grid):  # type: ignore[attr-defined]
            return False
        return self._grid_completable(state.grid, any(state.removed))

    def _grid_completable(self, grid: tuple[int, ...], removed: bool) -> bool:
        """Completability of a rule-abiding ``grid``; a removed piece leaves it short a piece."""
        if removed:
            return False
        known = self._completable.get(grid)
        if known is None:
            from sansu.sudoku.solver import is_solvable

            known = is_solvable(grid, self.game.rules)  # type: ignore[attr-defined]
            if len(self._completable) > 50_000:
                self._completable.clear()
            self._completable[grid] = known
        return known

    def warm_up(self) -> None:
        from sansu.sudoku.solver import is_solvable, solve

        is_solvable(self.game.initial_state().grid, self.game.rules)  # type: ignore[attr-defined]
        solve(self.game.initial_state().grid, self.game.rules)  # type: ignore[attr-defined]

    def _solution_move(self, state: Any) -> Move | None:
        from sansu.sudoku.solver import solve

        solution = solve(state.grid, self.game.rules)  # type: ignore[attr-defined]
        if solution is None:
            return None
        hand = state.hand(state.to_move)
        for cell, colour in enumerate(state.grid):
            if not colour and hand[solution[cell]]:
                return self.game.parse_move(f"r{cell // 9 + 1}c{cell % 9 + 1}={solution[cell]}")
        return None

    def candidates(self, state: State) -> Sequence[Move]:
        s: Any = state
        if s.phase == "claim":
            move = self._solution_move(s)
            return [move] if move is not None else []
        moves = [m for m in state.legal_moves() if str(m) not in HOST_MOVES]
        if s.claim_open():
            if self.completable(s):
                return [m for m in moves if str(m) == "sudoku"]
            moves = [m for m in moves if str(m) != "sudoku"]
        return moves

    def forced(self, state: State, rng: random.Random) -> Move | None:
        s: Any = state
        if s.phase == "claim":
            move = self._solution_move(s)
            if move is not None:
                return move
            erasable = [m for m in state.legal_moves() if str(m).startswith("erase")]
            return erasable[0] if erasable else super().forced(state, rng)
        return super().forced(state, rng)

    def playout(self, state: State, rng: random.Random, limit: int) -> Rewards:
        s: Any = state
        if s.result is None and s.phase == "play" and not self.game.honour:  # type: ignore[attr-defined]
            winner = self.placements_playout(s, rng, limit)[0]
            return self._win(winner) if winner >= 0 else self.evaluate(s)
        return self._engine_playout(state, rng, limit)

    def placements_playout(
        self, state: Any, rng: random.Random, limit: int
    ) -> tuple[int, list[tuple[int, int]]]:
        """The winner of a uniform random playout of placements, and its ``(cell, colour)`` list.

        The play phase without the honour variant, on bit masks rather than
        states (ten times the speed): a placement is legal where the colour
        is not blocked, placing a player's last piece wins (but with
        ``any_colour``), a player with no placement loses (a claim would
        lose too, since the grid is checked first: a player to move whose
        claim is open on a completable grid wins). The engine is the rule
        book; a test replays these playouts on it.
        """
        from sansu.games.sumodoku import CLAIM_FIRST, CLAIM_LAST, FULL

        game: Any = self.game
        forbids = game.masks.forbids
        pooled = game.any_colour
        grid = list(state.grid)
        filled = ~sum(1 << c for c, d in enumerate(grid) if not d) & FULL
        blocked = list(state._blocked)
        hands = [list(state.hand(0)), list(state.hand(1))]
        if pooled:
            hands[1] = hands[0]
        left = [sum(hands[0]), sum(hands[1])]
        turns = [state.turns_taken(0), state.turns_taken(1)]
        removed = any(state.removed)
        mover = state.to_move
        dead = removed
        moves: list[tuple[int, int]] = []
        randrange = rng.randrange
        for _ in range(limit):
            turn = turns[mover] + 1
            if not dead and CLAIM_FIRST <= turn <= CLAIM_LAST:
                if self._grid_completable(tuple(grid), removed):
                    return mover, moves
                dead = True  # pieces only ever get added: it stays so
            hand = hands[mover]
            empty = ~filled & FULL
            options = []
            total = 0
            for colour in range(1, 10):
                if hand[colour]:
                    free = empty & ~blocked[colour]
                    if free:
                        total += free.bit_count()
                        options.append((total, colour, free))
            if not total:
                return 1 - mover, moves
            pick = randrange(total)
            for upto, colour, free in options:  # noqa: B007 - the one picked is used below
                if pick < upto:
                    for _ in range(pick - upto + free.bit_count()):  # its index among them
                        free &= free - 1
                    break
            cell = (free & -free).bit_length() - 1
            moves.append((cell, colour))
            grid[cell] = colour
            filled |= 1 << cell
            for other, mask in forbids[cell][colour]:
                blocked[other] |= mask
            hand[colour] -= 1
            turns[mover] += 1
            if not pooled:
                left[mover] -= 1
                if not left[mover]:
                    return mover, moves
            mover = 1 - mover
        return -1, moves

    def _engine_playout(self, state: State, rng: random.Random, limit: int) -> Rewards:
        dead = False  # once the grid cannot be completed it never can again
        s: Any = state
        for _ in range(limit):
            if s.result is not None:
                return rewards_of(s.result, self.players, self.teams)
            exact = self.exact(s)
            if exact is not None:
                return exact
            if not dead and s.claim_open():
                if self.completable(s):
                    return self._win(s.to_move)
                dead = True
            moves = [m for m in s.legal_moves() if str(m) not in ("sudoku", "timeout", "challenge")]
            if not moves:
                moves = [m for m in s.legal_moves() if str(m) not in HOST_MOVES]
                if not moves:
                    break
            s = s.play(rng.choice(moves))
        if s.result is not None:
            return rewards_of(s.result, self.players, self.teams)
        return self.evaluate(s)

    def exact(self, state: State) -> Rewards | None:
        s: Any = state
        if s.result is not None:
            return None
        if s.phase == "claim":
            return self._win(s.claimant)
        if s.claim_open() and self.completable(s):
            return self._win(s.to_move)
        return None

    def _win(self, player: int) -> Rewards:
        return tuple(1.0 if p == player else 0.0 for p in range(self.players))


class ChallengeAdapter(Adapter):
    """Sudoku Challenge played from what the player can see.

    The solution is hidden, so the computer enters only digits it has
    deduced from the public grid (the givens, the correct entries, the
    digits already found wrong). How far it deduces is its ``vision``:
    ``glance`` (naked singles and hidden singles in boxes, one look),
    ``singles`` (every single, one look), ``chain`` (singles repeated until
    none is left) or ``solve`` (everything: the puzzle has one solution).
    The search then decides which of the known cells to fill, for the
    points and the +10 bonuses, and the opponents are assumed to see what
    it sees. When it sees nothing it guesses, like a person: the candidate
    of a cell with the fewest candidates; after an error it finds the
    cell's digit before entering another.

    The search never plays on the real state, which holds the solution: it
    plays on a twin whose solution is replaced by what the player knows
    (the unknown cells hold 0, so an entry there would count as an error).
    What it concludes therefore depends on public information only.
    """

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self.known: dict[int, int] = {}
        self._moves: dict[tuple[int, int], Move] = {}

    def warm_up(self) -> None:
        from sansu.ai.sight import known_digits

        known_digits(self.game.initial_state().grid, [0] * 81, "solve")  # type: ignore[attr-defined]

    def _entry(self, cell: int, digit: int) -> Move:
        key = (cell, digit)
        move = self._moves.get(key)
        if move is None:
            move = self.game.parse_move(f"r{cell // 9 + 1}c{cell % 9 + 1}={digit}")
            self._moves[key] = move
        return move

    def prepare(self, state: State, rng: random.Random) -> State:
        import copy

        from sansu.ai.sight import known_digits

        s: Any = state
        wrong = [sum(1 << (d - 1) for d in s.wrong_digits(c)) for c in range(81)]
        self.known = known_digits(s.grid, wrong, self.vision)
        required = s.required_cell
        if required is not None and required not in self.known:
            # Told that a digit is wrong there, a person studies that one cell until
            # sure rather than try the digits in turn (which cost easy 5-7 errors).
            studied = known_digits(s.grid, wrong, "solve")
            if required in studied:
                self.known[required] = studied[required]
        belief = [d or self.known.get(c, 0) for c, d in enumerate(s.grid)]
        twin = copy.copy(state)
        if hasattr(twin, "_solution"):
            twin._solution = tuple(belief)  # type: ignore[attr-defined]
        return twin

    def candidates(self, state: State) -> Sequence[Move]:
        s: Any = state
        grid = s.grid
        required = s.required_cell
        if required is not None:
            digit = self.known.get(required)
            return [self._entry(required, digit)] if digit else []
        return [self._entry(c, d) for c, d in self.known.items() if not grid[c]]

    def forced(self, state: State, rng: random.Random) -> Move | None:
        moves = self.candidates(state)
        if len(moves) == 1:
            return moves[0]
        if moves:
            return None
        return self._guess(state, rng)

    def _guess(self, state: State, rng: random.Random) -> Move | None:
        from sansu.ai.sight import candidate_masks

        s: Any = state
        wrong = [sum(1 << (d - 1) for d in s.wrong_digits(c)) for c in range(81)]
        masks = candidate_masks(s.grid, wrong)
        cells = (
            [s.required_cell]
            if s.required_cell is not None
            else [c for c in range(81) if not s.grid[c]]
        )
        if not cells:
            return None
        fewest = min(bin(masks[c]).count("1") or 10 for c in cells)
        pool = [c for c in cells if (bin(masks[c]).count("1") or 10) == fewest]
        cell = rng.choice(pool)
        digits = [d for d in range(1, 10) if masks[cell] >> (d - 1) & 1]
        if not digits:
            digits = [d for d in range(1, 10) if d not in s.wrong_digits(cell)]
        return self._entry(cell, rng.choice(digits))


def adapter_for(game: Game, *, vision: str = "solve") -> Adapter:
    """The adapter of ``game``."""
    kinds: dict[str, type[Adapter]] = {"sumodoku": SumodokuAdapter, "challenge": ChallengeAdapter}
    return kinds.get(game.id, Adapter)(game, vision=vision)
