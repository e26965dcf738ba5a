"""Sumodoku: two players build one Sudoku out of coloured pieces.

Rules as implemented (see ``docs/rules/sumodoku.md``): colours are the
digits 1–9, nine pieces each. Each player owns four colours and four pieces
of a shared ninth colour; the last piece is the spare. A turn places one of
the mover's pieces (``r5c5=7``) on an empty cell, never repeating a colour in
a row, column or box, nor breaking an active variant's rule. A player wins by
placing all 40 pieces, or when the opponent has no legal move; on their own
turns 16–35 a player may claim ``sudoku``, take every remaining piece and the
spare, and win by completing a valid grid (``erase`` undoes a claim-phase
piece; ``timeout``, applied by the host or chosen by the claimant, loses). In
the ``honour`` variant rule-breaking placements stand until a player's
``challenge`` or a spectator's ``report``.

For speed, every colour keeps an 81-bit mask of the cells it may not go to
(same unit, parity mark, consecutive marks), so the legal placements of a
colour are ``empty & ~blocked[colour]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.protocol import Game, IllegalMove, Move, Player, Result, State
from sansu.games.sumodoku_setup import (
    DEFAULT_DEAL,
    DEFAULT_LAYOUT_SEED,
    OPTIONS,
    Deal,
    build_constraints,
)
from sansu.sudoku.constraints import Constraints
from sansu.sudoku.grid import ANTI_DIAGONAL, MAIN_DIAGONAL, NEIGHBOURS, PEERS

FULL = (1 << 81) - 1
PIECES_PER_COLOUR = 9
OWN_PIECES = 40
"""Pieces a player is dealt: 4 colours × 9 plus 4 of the shared colour."""
CLAIM_FIRST, CLAIM_LAST = 16, 35
"""The player's own turns on which a ``sudoku`` claim may be made."""
CLAIM_LIMITS = ((20, 16), (25, 12), (30, 8), (35, 4))
"""(last turn, minutes): a claim on turns 16–20 has 16 minutes, 21–25 12, 26–30 8, 31–35 4."""
PLAY, CLAIM = "play", "claim"
NOBODY = -1
ZERO_HAND = (0,) * 10


def claim_minutes(turn: int) -> int | None:
    """The time limit of a claim made on the player's own turn ``turn`` (``None``: no claim)."""
    if turn < CLAIM_FIRST:
        return None
    for last, minutes in CLAIM_LIMITS:
        if turn <= last:
            return minutes
    return None


def player_name(player: int) -> str:
    return f"player {player}"


# -- moves -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """``r5c5=7``: a piece of colour 7 on r5c5."""

    cell: int
    colour: int
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{cell_name(self.cell)}={self.colour}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Erase:
    """``erase r5c5``: a claimant takes back a piece placed during the claim."""

    cell: int

    def __str__(self) -> str:
        return f"erase {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Report:
    """``report r5c5``: a spectator points out a rule-breaking piece (honour variant)."""

    cell: int

    def __str__(self) -> str:
        return f"report {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Action:
    """A one-word move: ``sudoku`` (claim), ``challenge`` or ``timeout`` (applied by a host)."""

    word: str

    def __str__(self) -> str:
        return self.word


SUDOKU = Action("sudoku")
CHALLENGE = Action("challenge")
TIMEOUT = Action("timeout")
ACTIONS = {a.word: a for a in (SUDOKU, CHALLENGE, TIMEOUT)}
PLACEMENTS: tuple[tuple[Placement | None, ...], ...] = tuple(
    (None, *(Placement(cell, colour) for colour in range(1, 10))) for cell in range(81)
)
"""``PLACEMENTS[cell][colour]``: one shared instance per placement."""


@cache
def _row_moves() -> tuple[tuple[tuple[tuple[Placement, ...], ...], ...], ...]:
    """``_row_moves()[colour][row][mask]``: the placements of ``colour`` on the columns
    of ``row`` set in the 9-bit ``mask``, so move lists are built nine cells at a time."""
    columns = [[col for col in range(9) if mask >> col & 1] for mask in range(512)]
    return tuple(
        tuple(
            tuple(
                tuple(PLACEMENTS[9 * row + col][colour] for col in columns[mask])  # type: ignore[misc]
                for mask in range(512)
            )
            for row in range(9)
        )
        for colour in range(10)
    )


ERASES = tuple(Erase(cell) for cell in range(81))
REPORTS = tuple(Report(cell) for cell in range(81))
_SYNTAX = "expected a placement like r5c5=7, or sudoku, challenge, erase r5c5, report r5c5, timeout"


def parse_move(text: str) -> Move:
    """The move ``text`` names; case, spaces and a trailing ``!`` on ``sudoku`` are forgiven."""
    if not isinstance(text, str):
        raise IllegalMove(f"expected a move as text, got {type(text).__name__}")
    words = text.strip().lower().split(None, 1)
    if not words:
        raise IllegalMove(f"an empty move: {_SYNTAX}")
    head = words[0].rstrip("!")
    if head in ACTIONS:
        if len(words) > 1:
            raise IllegalMove(f"{head!r} takes nothing after it", text.strip())
        return ACTIONS[head]
    if head in ("erase", "report"):
        if len(words) < 2:
            raise IllegalMove(f"{head} needs a cell, e.g. {head} r5c5", text.strip())
        cell, value = parse_placement(words[1])
        if value is not None:
            raise IllegalMove(f"{head} names a cell only, e.g. {head} r5c5", text.strip())
        return (ERASES if head == "erase" else REPORTS)[cell]
    try:
        cell, value = parse_placement(text)
    except IllegalMove as error:
        if "is not a move" in str(error):
            raise IllegalMove(f"{text.strip()!r} is not a move: {_SYNTAX}") from None
        raise
    if value is None:
        raise IllegalMove("a placement names its colour, e.g. r5c5=7", text.strip())
    return PLACEMENTS[cell][parse_digit(value, text.strip())]


# -- the rule set as bit masks -------------------------------------------------


@dataclass(frozen=True)
class Masks:
    """A rule set as bit masks: what each placement forbids, for fast move generation."""

    start: tuple[int, ...]
    """``start[colour]``: cells the colour may never take (parity marks)."""
    forbids: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """``forbids[cell][colour]``: ``(colour, cells)`` pairs a piece there forbids."""


@lru_cache(maxsize=64)
def masks_of(rules: Constraints) -> Masks:
    """The masks of ``rules``, built once per rule set (games with equal options share them)."""
    peer_masks = []
    for cell in range(81):
        peers = set(PEERS[cell])
        if rules.diagonals:
            for diagonal in (MAIN_DIAGONAL, ANTI_DIAGONAL):
                if cell in diagonal:
                    peers.update(d for d in diagonal if d != cell)
        peer_masks.append(sum(1 << p for p in peers))
    start = [0] * 10
    if rules.parity is not None:
        for cell, mark in enumerate(rules.parity):
            if mark != ".":
                for colour in range(1, 10):
                    if (colour % 2 == 1) != (mark == "o"):
                        start[colour] |= 1 << cell
    marked = {cell: set() for cell in range(81)}
    for a, b in rules.consecutive:
        marked[a].add(b)
        marked[b].add(a)
    related = rules.consecutive or rules.strict_consecutive
    forbids = []
    for cell in range(81):
        per_colour: list[tuple[tuple[int, int], ...]] = [()]
        for colour in range(1, 10):
            blocked = [0] * 10
            blocked[colour] |= peer_masks[cell]
            if related:
                for other in NEIGHBOURS[cell]:
                    for c in range(1, 10):
                        near = abs(c - colour) == 1
                        if (other in marked[cell] and not near) or (
                            other not in marked[cell] and rules.strict_consecutive and near
                        ):
                            blocked[c] |= 1 << other
            per_colour.append(tuple((c, m) for c, m in enumerate(blocked) if m))
        forbids.append(tuple(per_colour))
    return Masks(tuple(start), tuple(forbids))


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``values`` with one entry replaced."""
    return (*values[:index], value, *values[index + 1 :])


def _bits(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


# -- the game ------------------------------------------------------------------


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


class SumodokuState(State):
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
        return _bits(self._holes)

    def claim_cells(self) -> list[int]:
        """Cells the claimant filled during the claim (the ones ``erase`` may take back)."""
        return _bits(self._claim_cells)

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
        hand = self._hands[player]
        empty = ~self._filled & FULL
        blocked = self._blocked
        return any(hand[c] and empty & ~blocked[c] for c in range(1, 10))

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
        hand = self._hands[player]
        empty = ~self._filled & FULL
        blocked = self._blocked
        table = _row_moves()
        moves: list[Any] = []
        for c in range(1, 10):
            if hand[c]:
                free = empty & ~blocked[c]
                rows = table[c]
                row = 0
                while free:
                    chunk = free & 511
                    if chunk:
                        moves += rows[row][chunk]
                    free >>= 9
                    row += 1
        if self._phase == CLAIM:
            moves += [ERASES[cell] for cell in _bits(self._claim_cells)]
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

    # placements

    def _place(self, move: Placement) -> SumodokuState:
        cell, colour = move.cell, move.colour
        player = self.to_move
        assert player is not None
        bit = 1 << cell
        if self._filled & bit:
            raise IllegalMove(f"{cell_name(cell)} already holds a {self._grid[cell]}", str(move))
        hand = self._hands[player]
        if not hand[colour]:
            raise IllegalMove(self._no_piece_reason(player, colour), str(move))
        claiming = self._phase == CLAIM
        if self._blocked[colour] & bit and (claiming or not self.game.honour):
            reason = self.game.rules.placement_error(self._grid, cell, colour)
            raise IllegalMove(reason or "that placement breaks a rule", str(move))
        new = self._copy()
        new.last_move = move
        new._grid = _set(self._grid, cell, colour)
        new._owner = _set(self._owner, cell, player)
        if self.game.honour:
            new._order = _set(self._order, cell, self.ply + 1)
        new._filled = self._filled | bit
        new._holes = self._holes & ~bit
        blocked = list(self._blocked)
        for c, m in self.game.masks.forbids[cell][colour]:
            blocked[c] |= m
        new._blocked = tuple(blocked)
        left = _set(hand, colour, hand[colour] - 1)
        if self._pooled():
            new._hands = (left, left)
        elif player == 0:
            new._hands = (left, self._hands[1])
        else:
            new._hands = (self._hands[0], left)
        if claiming:
            new._claim_cells = self._claim_cells | bit
            if new._filled == FULL:
                return new._finish_claim()
            return new
        turns = list(self._turns)
        turns[player] += 1
        new._turns = (turns[0], turns[1])
        opponent = 1 - player
        new.to_move = opponent
        if not self.game.any_colour and not any(left) and new._clean_for(player):
            new.to_move = None
            new.result = Result.win(player, reason=f"all {OWN_PIECES} pieces placed")
        elif not self.game.honour and not new.can_place(opponent) and not new.claim_open():
            new.to_move = None
            new.result = Result.win(player, reason=f"{player_name(opponent)} has no legal move")
        return new

    def _clean_for(self, player: Player) -> bool:
        """True unless (honour variant) a piece of ``player`` broke a rule and still stands."""
        if not self.game.honour:
            return True
        return not any(self._owner[c] == player for c in self.offending_cells())

    def _no_piece_reason(self, player: Player, colour: int) -> str:
        if self._phase == CLAIM:
            return f"no {colour} is left to place"
        if self.game.any_colour:
            return f"the pool has no {colour} left"
        mine = self.game.colours_of(player)
        if colour not in mine:
            names = ", ".join(map(str, mine[:-1])) + f" and {mine[-1]}"
            return f"{colour} is not one of your colours (yours: {names})"
        return f"you have no {colour} left"

    # the claim

    def _claim(self) -> SumodokuState:
        player = self.to_move
        assert player is not None
        if self._phase == CLAIM:
            raise IllegalMove("the claim is already under way", "sudoku")
        turn = self._turns[player] + 1
        if turn < CLAIM_FIRST:
            raise IllegalMove(
                f"a claim is allowed on your turns {CLAIM_FIRST} to {CLAIM_LAST};"
                f" this is your turn {turn}",
                "sudoku",
            )
        if turn > CLAIM_LAST:
            raise IllegalMove(
                f"a claim is allowed only up to your turn {CLAIM_LAST}; this is your turn {turn}",
                "sudoku",
            )
        new = self._copy()
        new.last_move = SUDOKU
        turns = list(self._turns)
        turns[player] += 1
        new._turns = (turns[0], turns[1])
        h0, h1 = self._hands
        if self._pooled():
            pool = h0
        else:
            pool = tuple(a + b for a, b in zip(h0, h1, strict=True))
            if self._spare and self.game.deal is not None:
                shared = self.game.deal.shared
                pool = _set(pool, shared, pool[shared] + 1)
        new._hands = (pool, ZERO_HAND) if player == 0 else (ZERO_HAND, pool)
        new._spare = 0
        new._phase = CLAIM
        new._claimant = player
        new._claim_turn = turn
        why = self._why_uncompletable(pool)
        if why is not None:
            new.to_move = None
            new.result = Result.win(1 - player, reason=f"claimed Sudoku, but {why}")
        return new

    def _why_uncompletable(self, pool: tuple[int, ...]) -> str | None:
        from sansu.sudoku.solver import is_solvable

        if self.game.rules.violations(self._grid):
            return "the grid breaks a rule"
        for colour in range(1, 10):
            if pool[colour] + self._grid.count(colour) < PIECES_PER_COLOUR:
                return f"a {colour} is out of the game, so the pieces cannot fill the grid"
        if not is_solvable(self._grid, self.game.rules):
            return "the grid has no valid completion"
        return None

    def _finish_claim(self) -> SumodokuState:
        """Settle the claim on this fresh copy, whose grid is now full."""
        player = self._claimant
        assert player is not None
        problems = self.game.rules.violations(self._grid)
        self.to_move = None
        if problems:  # cannot happen: every claim placement was checked
            self.result = Result.win(
                1 - player, reason=f"the claimed grid breaks a rule: {problems[0]}"
            )
        else:
            self.result = Result.win(player, reason="Sudoku! the claimant completed a valid grid")
        return self

    def _erase(self, move: Erase) -> SumodokuState:
        cell = move.cell
        if self._phase != CLAIM:
            raise IllegalMove("erase is only for pieces placed during a Sudoku claim", str(move))
        if not self._claim_cells >> cell & 1:
            what = (
                f"the {self._grid[cell]} there was placed before the claim"
                if self._grid[cell]
                else "it is empty"
            )
            raise IllegalMove(f"you may erase only your claim's pieces, and {what}", str(move))
        colour = self._grid[cell]
        player = self._claimant
        assert player is not None
        new = self._copy()
        new.last_move = move
        new._remove(cell)
        hand = self._hands[player]
        hand = _set(hand, colour, hand[colour] + 1)
        new._hands = (hand, ZERO_HAND) if player == 0 else (ZERO_HAND, hand)
        new._claim_cells = self._claim_cells & ~(1 << cell)
        return new

    def _remove(self, cell: int) -> None:
        """Empty ``cell`` of this fresh copy and rebuild the blocked masks."""
        bit = 1 << cell
        self._grid = _set(self._grid, cell, 0)
        self._owner = _set(self._owner, cell, NOBODY)
        self._order = _set(self._order, cell, 0)
        self._filled &= ~bit
        blocked = list(self.game.masks.start)
        forbids = self.game.masks.forbids
        for c, colour in enumerate(self._grid):
            if colour:
                for other, m in forbids[c][colour]:
                    blocked[other] |= m
        self._blocked = tuple(blocked)

    def _timeout(self) -> SumodokuState:
        if self._phase != CLAIM:
            raise IllegalMove("no clock runs outside a Sudoku claim", "timeout")
        player = self._claimant
        assert player is not None
        new = self._copy()
        new.last_move = TIMEOUT
        new.to_move = None
        minutes = claim_minutes(self._claim_turn or CLAIM_FIRST)
        new.result = Result.win(1 - player, reason=f"the claim's {minutes} minutes ran out")
        return new

    # the honour variant

    def _challenge(self) -> SumodokuState:
        player = self.to_move
        assert player is not None
        if not self.game.honour:
            raise IllegalMove(
                "challenge belongs to the honour variant; here no rule-breaking piece can stand",
                "challenge",
            )
        if self._phase == CLAIM:
            raise IllegalMove("no challenge during a Sudoku claim", "challenge")
        new = self._copy()
        new.last_move = CHALLENGE
        new.to_move = None
        problems = self.game.rules.violations(self._grid)
        if problems:
            new.result = Result.win(player, reason=f"successful challenge: {problems[0]}")
        else:
            new.result = Result.win(1 - player, reason="failed challenge: the board breaks no rule")
        return new

    def _report(self, move: Report) -> SumodokuState:
        cell = move.cell
        if not self.game.honour:
            raise IllegalMove(
                "reports belong to the honour variant; here no rule-breaking piece can stand",
                str(move),
            )
        if not self._grid[cell]:
            raise IllegalMove(f"{cell_name(cell)} is empty", str(move))
        if self.offence(cell) is None:
            later = self.game.rules.placement_error(
                _set(self._grid, cell, 0), cell, self._grid[cell]
            )
            if later is not None:
                raise IllegalMove(
                    f"the {self._grid[cell]} on {cell_name(cell)} came first ({later});"
                    " report the later piece",
                    str(move),
                )
            raise IllegalMove(
                f"the {self._grid[cell]} on {cell_name(cell)} breaks no rule", str(move)
            )
        colour = self._grid[cell]
        new = self._copy()
        new.last_move = move
        new._remove(cell)
        new._holes = self._holes | 1 << cell
        new._removed = _set(self._removed, colour, self._removed[colour] + 1)
        return new

    # -- JSON ------------------------------------------------------------------

    def cells_json(self) -> list[dict[str, Any] | None]:
        return [
            {"player": self._owner[cell], "value": colour} if colour else None
            for cell, colour in enumerate(self._grid)
        ]

    def without_aids(self, data: dict[str, Any]) -> dict[str, Any]:
        """With ``aids`` off the placements that fit are not listed: which cells and
        colours fit is the aid the text forbids, and that list is what would draw it.
        The other moves (``sudoku``, ``challenge``, a claim's ``erase`` and ``timeout``)
        stay: the board offers them as buttons."""
        if not self.game.options.get("aids", False):
            data["legal_moves"] = [m for m in data["legal_moves"] if "=" not in m]
        return data

    def extra_json(self) -> dict[str, Any]:
        game = self.game
        deal = game.deal
        rules = game.rules
        to_move = self.to_move
        return {
            "deal": None if deal is None else deal.text,
            "colours": None if deal is None else [list(c) for c in deal.colours],
            "shared_colour": None if deal is None else deal.shared,
            "pieces_left": [list(self._hands[p][1:]) for p in (0, 1)],
            "pieces_left_total": [self.pieces_left(p) for p in (0, 1)],
            "pool": list(self._hands[0][1:]) if game.any_colour and self._phase == PLAY else None,
            "spare": self.spare,
            "turns": list(self._turns),
            "turn_number": None if to_move is None else self._turns[to_move] + 1,
            "phase": self._phase,
            "claim_open": self.claim_open(),
            "claim_minutes": self.claim_minutes(),
            "claim_turns": [CLAIM_FIRST, CLAIM_LAST],
            "claimant": self._claimant,
            "claim_turn": self._claim_turn,
            "claim_cells": [cell_name(c) for c in self.claim_cells()],
            "variants": {
                "any_colour": game.any_colour,
                "diagonals": rules.diagonals,
                "parity": rules.parity,
                "consecutive": [[cell_name(a), cell_name(b)] for a, b in sorted(rules.consecutive)],
                "strict_consecutive": rules.strict_consecutive,
                "honour": game.honour,
            },
            "holes": [cell_name(c) for c in self.holes()],
            "removed": list(self._removed[1:]),
        }


GAME = Sumodoku
