"""The technique trainer: a position whose next logical step is one chosen technique.

A learner picks a technique of the rater's :data:`~sansu.sudoku.rater.LADDER`
(from the naked single to ALS-XZ) and gets a grid where every simpler rung
finds nothing and that technique applies, so the only way on is the
technique itself. The learner points at a cell and a digit (the digit a
single places, or a candidate an eliminating technique removes) and
:func:`check` judges it and explains the step with the rater's own words.

Positions come from the toolkit's generator: a puzzle is made from a seed
and solved step by step as the rater would, until the technique is next
(so the exercise may be part-way through a solve, with the candidates the
earlier steps left). Common techniques are searched for on demand; rare ones
start from puzzle seeds known to reach them (:mod:`sansu.sudoku.trainer_seeds`,
written by ``tools/trainer_seeds.py``). Either way the position is then
relabelled by a symmetry of Sudoku chosen by the seed (digits, bands, rows,
stacks, columns, a transpose), which keeps every technique where it was, so
one puzzle gives many different-looking exercises.

    >>> drill = exercise("hidden-single-box", 3)
    >>> drill.technique.name, drill.exercise_kind
    ('hidden single (box)', 'place')
    >>> (cell, digit), = drill.step.placements
    >>> check(drill, cell, digit).right
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from sansu.sudoku.generator import generate
from sansu.sudoku.grid import BOXES, COLUMNS, ROWS, Grid
from sansu.sudoku.logic.board import BIT, DIGITS, NAMES, Board
from sansu.sudoku.logic.step import Step
from sansu.sudoku.rater import LADDER, Rung, apply_step, level_of, logical_steps
from sansu.sudoku.trainer_seeds import ON_DEMAND, SEEDS

__all__ = [
    "MAX_PUZZLES",
    "Exercise",
    "Technique",
    "Verdict",
    "check",
    "exercise",
    "parse_cell",
    "technique",
    "techniques",
]

MAX_PUZZLES: Final = 500
"""Puzzles an on-demand search makes before it gives up (a few seconds): the techniques
searched for on demand are the next step in one puzzle out of eight or more."""
MAX_SEED: Final = 2**31 - 1


def slug(name: str) -> str:
    """A rung's name as an id for addresses: ``"bug+1"`` → ``"bug-plus-1"``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("+", " plus ")).strip("-")


_ABOUT: Final = {
    "naked single": "A cell that can hold only one digit: every other digit already sits in "
    "its row, column or box.",
    "hidden single (box)": "A digit that has only one place left in a box, though the cell "
    "itself may have other candidates.",
    "hidden single (row or column)": "A digit that has only one place left in a row or a column.",
    "locked candidates (pointing)": "Inside a box a digit can only go in one row (or column), "
    "so it cannot go anywhere else in that row.",
    "locked candidates (claiming)": "Inside a row (or column) a digit can only go in one box, "
    "so it cannot go anywhere else in that box.",
    "naked pair": "Two cells of a unit with the same two candidates: those two digits go "
    "there, so no other cell of the unit can have them.",
    "hidden pair": "Two digits that fit in only the same two cells of a unit: those cells hold "
    "them, so their other candidates go.",
    "naked triple": "Three cells of a unit whose candidates together are only three digits: "
    "the rest of the unit loses those digits.",
    "hidden triple": "Three digits that fit in only the same three cells of a unit: those "
    "cells lose their other candidates.",
    "x-wing": "In two rows a digit fits only in the same two columns: it takes one corner in "
    "each, so the rest of those columns lose it (or rows and columns swapped).",
    "xy-wing": "A cell with candidates XY sees a cell XZ and a cell YZ: one of the two wings "
    "is Z, so a cell that sees both wings cannot be Z.",
    "unique rectangle": "Four cells in two rows, two columns and two boxes that would hold "
    "the same two digits either way: a puzzle with one solution avoids that.",
    "bug+1": "Every empty cell has two candidates except one: that cell takes the digit that "
    "would otherwise leave two solutions.",
    "xyz-wing": "A cell XYZ sees wings XZ and YZ: a cell that sees all three cannot be Z.",
    "w-wing": "Two cells with the same two candidates, joined by a digit that has only two "
    "places in a unit: cells that see both lose the other digit.",
    "swordfish": "An X-wing with three rows and three columns.",
    "empty rectangle": "A digit in a box fits only in one row and one column of it; with a "
    "strong link on that digit elsewhere, one cell can be cleared.",
    "turbot fish": "Two strong links on one digit joined end to end: a cell that sees both "
    "far ends cannot hold the digit.",
    "finned x-wing": "An X-wing with a few extra places (the fin) in one box: cells that see "
    "the fin and lie in the X-wing's columns lose the digit.",
    "naked quad": "Four cells of a unit whose candidates together are only four digits.",
    "simple colouring": "Colour a digit's strong links in two colours: one colour is true, "
    "so a cell that sees both colours loses the digit.",
    "jellyfish": "A fish with four rows and four columns.",
    "finned swordfish": "A swordfish with a fin: the cells that see the fin lose the digit.",
    "hidden quad": "Four digits that fit in only the same four cells of a unit.",
    "finned jellyfish": "A jellyfish with a fin.",
    "x-chain": "A chain of strong and weak links on one digit: a cell that sees both ends of "
    "the chain cannot hold it.",
    "xy-chain": "A chain of two-candidate cells: whichever way it starts, one end holds the "
    "digit, so cells that see both ends lose it.",
    "als-xz": "Two almost locked sets (n cells, n + 1 digits) that share a restricted digit "
    "X: a digit Z of both is in one of them, so cells that see all its places lose it.",
}
_ACRONYMS: Final = {
    "x": "X",
    "w": "W",
    "xy": "XY",
    "xyz": "XYZ",
    "bug+1": "BUG+1",
    "als": "ALS",
    "xz": "XZ",
}


def _title(name: str) -> str:
    """How a rung's name is written in a sentence: ``"xy-wing"`` → ``"XY-wing"``."""
    return re.sub(r"[a-z+0-9]+", lambda m: _ACRONYMS.get(m[0], m[0]), name)


_PLACING: Final = frozenset(
    {"naked single", "hidden single (box)", "hidden single (row or column)", "bug+1"}
)


@dataclass(frozen=True)
class Technique:
    """A rung the trainer offers: its id (for addresses), name, level and plain description.

    ``name`` is the rung's (:data:`~sansu.sudoku.rater.LADDER`); ``title`` is how a
    sentence writes it (``"XY-wing"``, ``"naked single"``).
    """

    id: str
    name: str
    title: str
    level: str
    weight: float
    description: str
    kind: str
    """``"place"``: the answer is a digit to place; ``"remove"``: a candidate to remove."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "level": self.level,
            "weight": self.weight,
            "description": self.description,
            "kind": self.kind,
        }


_TECHNIQUES: Final = tuple(
    Technique(
        slug(rung.name),
        rung.name,
        _title(rung.name),
        level_of(rung.weight),
        rung.weight,
        _ABOUT[rung.name],
        "place" if rung.name in _PLACING else "remove",
    )
    for rung in LADDER
    if rung.name in _ABOUT and (rung.name in ON_DEMAND or SEEDS.get(rung.name))
)
_BY_ID: Final = {t.id: t for t in _TECHNIQUES}
_RUNG: Final = {rung.name: rung for rung in LADDER}
_BY_WEIGHT: Final = {rung.weight: rung for rung in LADDER}


def techniques() -> tuple[Technique, ...]:
    """The techniques offered, in ladder order (easiest first)."""
    return _TECHNIQUES


def technique(key: str) -> Technique:
    """The technique with this id or rung name; ``ValueError`` names the offered ones."""
    found = _BY_ID.get(key) or _BY_ID.get(slug(key))
    if found is None:
        offered = ", ".join(t.id for t in _TECHNIQUES)
        raise ValueError(f"unknown technique {key!r} (techniques: {offered})")
    return found


@dataclass(frozen=True)
class Exercise:
    """A position whose next step is ``technique``: what the learner sees, and the step.

    ``values`` are the digits placed (``givens`` among them, the rest filled
    by the earlier steps of the solve), ``candidates`` a 9-bit mask per cell
    (bit ``d - 1`` for digit ``d``) as the earlier steps left them.
    """

    technique: Technique
    seed: int
    givens: Grid
    values: Grid
    candidates: tuple[int, ...]
    solution: Grid
    step: Step
    source: int
    """The generator seed of the puzzle the position comes from."""
    ply: int
    """How many logical steps of the solve came before this position."""

    @property
    def exercise_kind(self) -> str:
        return self.technique.kind

    @property
    def answers(self) -> tuple[tuple[int, int], ...]:
        """The ``(cell, digit)`` pairs the step places, or else removes."""
        return self.step.placements or self.step.eliminations

    def to_dict(self) -> dict[str, Any]:
        """What a page shows: no answer and no solution."""
        return {
            "technique": self.technique.to_dict(),
            "seed": self.seed,
            "givens": list(self.givens),
            "values": list(self.values),
            "candidates": [list(DIGITS[m]) for m in self.candidates],
            "ply": self.ply,
        }


@dataclass(frozen=True)
class Verdict:
    """The judgement of an answer: ``right``, a sentence saying why, and the step explained."""

    right: bool
    message: str
    cell: int
    digit: int
    step: Step

    def to_dict(self) -> dict[str, Any]:
        step = self.step
        return {
            "right": self.right,
            "message": self.message,
            "answer": {"cell": NAMES[self.cell], "index": self.cell, "digit": self.digit},
            "explanation": step.description,
            "pattern": list(step.pattern),
            "placements": [{"index": c, "digit": d} for c, d in step.placements],
            "eliminations": [{"index": c, "digit": d} for c, d in step.eliminations],
        }


def _first_rung(board: Board, upto: Rung) -> Step | None:
    """The step of ``upto`` if every rung below it finds nothing and it finds something."""
    for rung in LADDER:
        found = rung.find(board)
        if rung is upto:
            return found
        if found is not None:
            return None
    return None


def _position(source: int, rung: Rung) -> tuple[Grid, Board, Grid, int] | None:
    """``(givens, board, solution, ply)`` at the first point of the solve of puzzle
    ``source`` where ``rung`` is the next step, or ``None`` if it never is."""
    puzzle = generate(source)
    board = Board.from_grid(puzzle.puzzle)
    for ply, step in enumerate(logical_steps(puzzle.puzzle)):
        if _BY_WEIGHT[step.weight] is rung:
            return puzzle.puzzle, board, puzzle.solution, ply
        apply_step(board, step)
    return None


def _symmetry(rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A random symmetry of Sudoku: ``(cells, digits)`` where new cell ``i`` is old cell
    ``cells[i]`` and old digit ``d`` becomes ``digits[d]``."""
    rows = [
        3 * band + r for band in rng.permutation(3).tolist() for r in rng.permutation(3).tolist()
    ]
    cols = [
        3 * stack + c for stack in rng.permutation(3).tolist() for c in rng.permutation(3).tolist()
    ]
    if rng.random() < 0.5:
        cells = [9 * rows[i // 9] + cols[i % 9] for i in range(81)]
    else:
        cells = [9 * rows[i % 9] + cols[i // 9] for i in range(81)]
    return cells, [0, *(rng.permutation(9) + 1).tolist()]


def _relabel(grid: Grid, cells: list[int], digits: list[int]) -> Grid:
    return tuple(digits[grid[old]] for old in cells)


def _remask(mask: int, digits: list[int]) -> int:
    return sum(BIT[digits[d]] for d in DIGITS[mask])


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return seed


def _sources(tech: Technique, seed: int) -> list[int]:
    """The puzzle seeds to try, in order: a shipped one chosen by ``seed``, or else
    puzzles derived from ``seed`` for an on-demand search."""
    shipped = SEEDS.get(tech.name)
    if shipped and tech.name not in ON_DEMAND:
        start = seed % len(shipped)
        return [shipped[(start + i) % len(shipped)] for i in range(len(shipped))]
    rng = np.random.default_rng([seed, 7])
    return rng.integers(0, MAX_SEED, size=MAX_PUZZLES).tolist()


def exercise(technique_id: str, seed: int) -> Exercise:
    """The exercise for ``technique_id`` (an id or rung name) and ``seed``; the same seed
    gives the same exercise. ``ValueError`` for an unknown technique, a bad seed, or when
    no puzzle tried reaches the technique (``MAX_PUZZLES`` of them)."""
    tech = technique(technique_id)
    _check_seed(seed)
    rung = _RUNG[tech.name]
    for source in _sources(tech, seed):
        found = _position(source, rung)
        if found is None:
            continue
        givens, board, solution, ply = found
        cells, digits = _symmetry(np.random.default_rng([seed, source]))
        moved = Board(
            list(_relabel(tuple(board.values), cells, digits)),
            [_remask(board.cands[old], digits) for old in cells],
        )
        step = _first_rung(moved, rung)
        if step is None:  # a finder that is not symmetric: keep the position as it was
            moved = Board(list(board.values), list(board.cands))
            cells, digits = list(range(81)), list(range(10))
            step = _first_rung(moved, rung)
        if step is None:
            continue
        return Exercise(
            tech,
            seed,
            _relabel(givens, cells, digits),
            tuple(moved.values),
            tuple(moved.cands),
            _relabel(solution, cells, digits),
            step,
            source,
            ply,
        )
    raise ValueError(f"no {tech.name} found from seed {seed}: try another seed")


def parse_cell(cell: int | str) -> int:
    """A cell as its index 0-80 or its name (``"r5c5"``); ``ValueError`` otherwise."""
    if isinstance(cell, str):
        text = cell.strip().lower()
        if text in NAMES:
            return NAMES.index(text)
        raise ValueError(f"a cell is named r1c1 to r9c9, not {cell!r}")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 80:
        raise ValueError(f"a cell is 0 to 80 or r1c1 to r9c9, not {cell!r}")
    return cell


def _single_fits(drill: Exercise, cell: int, digit: int) -> bool:
    """Whether placing ``digit`` on ``cell`` is a single of the exercise's own kind
    (a position often has several; any of them is the technique)."""
    cands, bit = drill.candidates, BIT[digit]
    name = drill.technique.name
    if name == "naked single":
        return cands[cell] == bit
    if name == "hidden single (box)":
        units = [b for b in BOXES if cell in b]
    elif name == "hidden single (row or column)":
        units = [u for u in (*ROWS, *COLUMNS) if cell in u]
    else:
        return False
    return any(all(c == cell or not cands[c] & bit for c in unit) for unit in units)


def check(drill: Exercise, cell: int | str, digit: int) -> Verdict:
    """Judges ``digit`` on ``cell``: placed, for a placing technique; removed, for an
    eliminating one. ``ValueError`` if the cell is filled or the digit is not one of its
    candidates (nothing to judge)."""
    index = parse_cell(cell)
    if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= 9:
        raise ValueError(f"a digit is 1 to 9, not {digit!r}")
    name = NAMES[index]
    if drill.values[index]:
        raise ValueError(f"{name} is already filled")
    if not drill.candidates[index] & BIT[digit]:
        raise ValueError(f"{digit} is not a candidate of {name}")
    tech, step = drill.technique, drill.step
    truth = drill.solution[index]
    right = (index, digit) in drill.answers or _single_fits(drill, index, digit)
    if right:
        verb = "goes on" if tech.kind == "place" else "comes off"
        message = f"Right: {digit} {verb} {name}."
    elif tech.kind == "place" and truth != digit:
        message = f"Not so: {name} is not {digit}."
    elif tech.kind == "place":
        message = f"{name} is {digit} in the end, but the {tech.title} does not show it yet."
    elif truth == digit:
        message = f"Not so: {digit} belongs on {name}, so it cannot be removed."
    else:
        message = f"{digit} does leave {name} in the end, but not by this {tech.title}."
    return Verdict(right, message, index, digit, step)
