"""The game Sumodoku (its deal, rule set and variants) and its positions: the board,
every hand, the turn counts and the phase.

A position answers the protocol's questions and dispatches its moves:
placements, the move of both phases, are in
:mod:`~sansu.games.sumodoku.placements`, the claim's other moves in
:mod:`~sansu.games.sumodoku.claim`, the honour variant's in
:mod:`~sansu.games.sumodoku.honour`, its JSON in
:mod:`~sansu.games.sumodoku.view`. For speed, every colour keeps an
81-bit mask of the cells it may not go to (:mod:`~sansu.games.sumodoku.masks`).
"""

from __future__ import annotations

from typing import Any

from sansu.core.protocol import Game, IllegalMove, Move, Player, Result, State
from sansu.core.sections import bits_of
from sansu.games.sumodoku.claim import ClaimMoves
from sansu.games.sumodoku.honour import HonourMoves
from sansu.games.sumodoku.masks import masks_of
from sansu.games.sumodoku.moves import (
    CHALLENGE,
    ERASES,
    SUDOKU,
    TIMEOUT,
    Action,
    Erase,
    Placement,
    Report,
    parse_move,
    row_moves,
)
from sansu.games.sumodoku.numbers import (
    CLAIM,
    CLAIM_FIRST,
    CLAIM_LAST,
    FULL,
    NOBODY,
    PIECES_PER_COLOUR,
    PLAY,
    ZERO_HAND,
    claim_minutes,
)
from sansu.games.sumodoku.placements import PlacementMoves
from sansu.games.sumodoku.setup import (
    DEFAULT_DEAL,
    DEFAULT_LAYOUT_SEED,
    OPTIONS,
    Deal,
    build_constraints,
)
from sansu.games.sumodoku.view import SumodokuView
from sansu.sudoku.constraints import Constraints


class Sumodoku(Game):
    """Sumodoku with its options fixed: the deal, the rule set and the variants."""

    id = "sumodoku"
    title = "Sumodoku"
    aliases = ()
    option_specs = OPTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        self.any_colour: bool = o["any_colour"]
        self.honour: bool = o["honour"]
        if self.any_colour and o["deal"] is not None:
            raise ValueError(
                "option 'deal': with any_colour there is no deal (both players draw from one pool)"
            )
        self.deal: Deal | None
        if self.any_colour:
            self.deal = None
        elif o["deal"] is not None:
            self.deal = Deal.parse(o["deal"])
        elif o["seed"] is not None:
            self.deal = Deal.from_seed(o["seed"])
        else:
            self.deal = Deal.parse(DEFAULT_DEAL)
        generated = o["parity"] is True or o["consecutive"] is True
        seed = DEFAULT_LAYOUT_SEED if o["seed"] is None or not generated else o["seed"]
        try:
            self.rules: Constraints = build_constraints(
                o["diagonals"], o["parity"], o["consecutive"], o["strict_consecutive"], seed
            )
        except ValueError as error:
            raise ValueError(f"game 'sumodoku': {error}") from None
        self.masks = masks_of(self.rules)

    def colours_of(self, player: Player) -> tuple[int, ...]:
        """The colours ``player`` may ever place in the play phase."""
        if self.deal is None:
            return tuple(range(1, 10))
        return tuple(sorted((*self.deal.colours[player], self.deal.shared)))

    def initial_state(self) -> SumodokuState:
        if self.deal is None:
            pool = (0,) + (PIECES_PER_COLOUR,) * 9
            hands = (pool, pool)
            spare = 0
        else:
            hands = (self.deal.hand(0), self.deal.hand(1))
            spare = 1
        return SumodokuState(
            self,
            to_move=0,
            result=None,
            last_move=None,
            ply=0,
            grid=(0,) * 81,
            owner=(NOBODY,) * 81,
            order=(0,) * 81,
            filled=0,
            blocked=self.masks.start,
            hands=hands,
            spare=spare,
            removed=ZERO_HAND,
            holes=0,
            turns=(0, 0),
            phase=PLAY,
            claimant=None,
            claim_turn=None,
            claim_cells=0,
        )

    def parse_move(self, text: str) -> Move:
        return parse_move(text)


class SumodokuState(PlacementMoves, ClaimMoves, HonourMoves, SumodokuView, State):
    """A Sumodoku position: the board, every hand, the turn counts and the phase."""

    __slots__ = (
        "_blocked",
        "_claim_cells",
        "_claim_turn",
        "_claimant",
        "_filled",
        "_grid",
        "_hands",
        "_holes",
        "_order",
        "_owner",
        "_phase",
        "_removed",
        "_spare",
        "_turns",
        "game",
        "last_move",
        "ply",
        "result",
        "to_move",
    )

    game: Sumodoku

    def __init__(
        self,
        game: Sumodoku,
        *,
        to_move: Player | None,
        result: Result | None,
        last_move: Move | None,
        ply: int,
        grid: tuple[int, ...],
        owner: tuple[int, ...],
        order: tuple[int, ...],
        filled: int,
        blocked: tuple[int, ...],
        hands: tuple[tuple[int, ...], tuple[int, ...]],
        spare: int,
        removed: tuple[int, ...],
        holes: int,
        turns: tuple[int, int],
        phase: str,
        claimant: Player | None,
        claim_turn: int | None,
        claim_cells: int,
    ) -> None:
        self.game = game
        self.to_move = to_move
        self.result = result
        self.last_move = last_move
        self.ply = ply
        self._grid = grid
        self._owner = owner
        self._order = order
        self._filled = filled
        self._blocked = blocked
        self._hands = hands
        self._spare = spare
        self._removed = removed
        self._holes = holes
        self._turns = turns
        self._phase = phase
        self._claimant = claimant
        self._claim_turn = claim_turn
        self._claim_cells = claim_cells

    def _copy(self) -> SumodokuState:
        new = SumodokuState.__new__(SumodokuState)
        new.game = self.game
        new.to_move = self.to_move
        new.result = self.result
        new.last_move = self.last_move
        new.ply = self.ply + 1
        new._grid = self._grid
        new._owner = self._owner
        new._order = self._order
        new._filled = self._filled
        new._blocked = self._blocked
        new._hands = self._hands
        new._spare = self._spare
        new._removed = self._removed
        new._holes = self._holes
        new._turns = self._turns
        new._phase = self._phase
        new._claimant = self._claimant
        new._claim_turn = self._claim_turn
        new._claim_cells = self._claim_cells
        return new

    # -- what the position is --------------------------------------------------

    @property
    def grid(self) -> tuple[int, ...]:
        """The colour on each cell, row-major; 0 for an empty cell (or a hole)."""
        return self._grid

    def owner_of(self, cell: int) -> Player | None:
        """The player who placed the piece on ``cell`` (``None`` when empty)."""
        owner = self._owner[cell]
        return None if owner == NOBODY else owner

    @property
    def phase(self) -> str:
        """``"play"`` or ``"claim"`` (a player is completing the grid alone)."""
        return self._phase

    @property
    def claimant(self) -> Player | None:
        return self._claimant

    @property
    def claim_turn(self) -> int | None:
        """The claimant's own turn number on which the claim was made."""
        return self._claim_turn

    def hand(self, player: Player) -> tuple[int, ...]:
        """The pieces ``player`` may still place, indexed by colour (index 0 unused).

        With ``any_colour`` both players see the one shared pool.
        """
        return self._hands[player]

    def pieces_left(self, player: Player) -> int:
        return sum(self._hands[player])

    @property
    def spare(self) -> int | None:
        """The colour of the spare piece while it is set aside, else ``None``."""
        if self._spare and self.game.deal is not None:
            return self.game.deal.shared
        return None

    @property
    def removed(self) -> tuple[int, ...]:
        """Pieces taken out of the game by reports, indexed by colour."""
        return self._removed

    def holes(self) -> list[int]:
        """Cells emptied by a report and not filled since."""
        return bits_of(self._holes)

    def claim_cells(self) -> list[int]:
        """Cells the claimant filled during the claim (the ones ``erase`` may take back)."""
        return bits_of(self._claim_cells)

    def turns_taken(self, player: Player) -> int:
        return self._turns[player]

    def turn_number(self, player: Player | None = None) -> int | None:
        """The own-turn number ("move N") that ``player`` (default: the mover) is on."""
        if player is None:
            player = self.to_move
        if player is None:
            return None
        return self._turns[player] + 1

    def claim_open(self) -> bool:
        """True when the player to move may claim ``sudoku`` now."""
        if self.result is not None or self._phase != PLAY or self.to_move is None:
            return False
        return CLAIM_FIRST <= self._turns[self.to_move] + 1 <= CLAIM_LAST

    def claim_minutes(self) -> int | None:
        """The time limit of the running claim, or of a claim the mover could make now."""
        if self._phase == CLAIM and self._claim_turn is not None:
            return claim_minutes(self._claim_turn)
        if self.claim_open():
            return claim_minutes(self._turns[self.to_move or 0] + 1)
        return None

    def inventory(self) -> int:
        """Every piece accounted for: on the board, in hand, spare, removed (always 81)."""
        hands = self._hands
        in_hand = sum(hands[0]) if self._pooled() else sum(hands[0]) + sum(hands[1])
        return bin(self._filled).count("1") + in_hand + self._spare + sum(self._removed)

    def _pooled(self) -> bool:
        """True while both players draw from the one pool (``any_colour``, play phase)."""
        return self.game.any_colour and self._phase == PLAY

    def can_place(self, player: Player) -> bool:
        """True when ``player`` has at least one rule-abiding placement."""
        return any(self._placeable(player))

    def placement_masks(self) -> tuple[int, ...]:
        """The mover's rule-abiding placements as bit masks, for programs that read them in bulk.

        Entry ``c - 1`` for colour ``c``: bit ``cell`` set where :meth:`legal_moves`
        lists that colour on that cell (0 for a colour not in hand; all 0 when over).
        """
        if self.result is not None or self.to_move is None:
            return (0,) * 9
        return self._placeable(self.to_move)

    def _placeable(self, player: Player) -> tuple[int, ...]:
        """For colours 1–9, the empty cells where ``player`` may place one (0: none in hand)."""
        hand = self._hands[player]
        empty = ~self._filled & FULL
        blocked = self._blocked
        return tuple(empty & ~blocked[c] if hand[c] else 0 for c in range(1, 10))

    def offence(self, cell: int) -> str | None:
        """Why the piece on ``cell`` breaks a rule against the pieces placed before it.

        ``None`` for an empty cell or a piece that broke no rule when it came.
        """
        digit = self._grid[cell]
        if not digit:
            return None
        when = self._order[cell]
        order = self._order
        earlier = tuple(d if 0 < order[i] < when else 0 for i, d in enumerate(self._grid))
        return self.game.rules.placement_error(earlier, cell, digit)

    def offending_cells(self) -> list[int]:
        return [cell for cell in range(81) if self.offence(cell) is not None]

    # -- moves -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every rule-abiding placement of the mover (by colour, then cell), then
        the other moves open to them: in a claim ``erase`` and ``timeout``,
        otherwise ``sudoku`` and (honour variant) ``challenge``.

        In the ``honour`` variant :meth:`play` also accepts rule-breaking
        placements; they are not listed here, nor are spectators' reports.
        """
        if self.result is not None:
            return []
        player = self.to_move
        assert player is not None
        table = row_moves()
        moves: list[Any] = []
        for c, free in enumerate(self._placeable(player), 1):
            rows = table[c]
            row = 0
            while free:
                chunk = free & 511
                if chunk:
                    moves += rows[row][chunk]
                free >>= 9
                row += 1
        if self._phase == CLAIM:
            moves += [ERASES[cell] for cell in bits_of(self._claim_cells)]
            # The claimant may always let the time run out; listing it also lets
            # programs that play without a clock give up a hopeless claim.
            moves.append(TIMEOUT)
            return moves
        if self.claim_open():
            moves.append(SUDOKU)
        if self.game.honour:
            moves.append(CHALLENGE)
        return moves

    def play(self, move: Move | str) -> SumodokuState:
        if isinstance(move, str):
            move = parse_move(move)
        kind = move.__class__
        if self.result is not None:
            raise IllegalMove("the game is over", str(move))
        if kind is Placement:
            return self._place(move)  # type: ignore[arg-type]
        if kind is Action:
            word = move.word  # type: ignore[attr-defined]
            if word == "sudoku":
                return self._claim()
            if word == "challenge":
                return self._challenge()
            if word == "timeout":
                return self._timeout()
        if kind is Erase:
            return self._erase(move)  # type: ignore[arg-type]
        if kind is Report:
            return self._report(move)  # type: ignore[arg-type]
        raise IllegalMove(f"not a move of Sumodoku: {move!r}")
