"""Sumodoku before the first move: its options, the deal and the variant layouts.

Kept apart from the rest of the engine (:mod:`sansu.games.sumodoku`) because none of it
runs during play: it turns option values into one fixed :class:`Deal` and
one :class:`~sansu.sudoku.constraints.Constraints`, checking that the rule
set still admits a completed grid, so that the engine can trust both.

Layout options (``parity``, ``consecutive``) take three kinds of value:
``False`` (off), ``True`` (generate from ``seed``) or the layout itself.

    >>> parse_deal(" 4321 / 8765 / 9 ")
    '1234/5678/9'
    >>> Deal.parse("1357/2468/9").owner_of(9)
    'shared'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sansu.core.options import Option
from sansu.sudoku.constraints import Constraints, format_consecutive, parse_consecutive
from sansu.sudoku.grid import EMPTY

DEFAULT_DEAL = "1234/5678/9"
DEFAULT_LAYOUT_SEED = 0
"""The seed of layouts set to ``true`` when no ``seed`` is given."""

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


# -- the deal ----------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """Which colours each player owns: four each, plus a ninth colour they share.

    Each owner holds all 9 pieces of their four colours and 4 pieces of the
    shared colour; the 81st piece (shared colour) is the spare.
    """

    colours: tuple[tuple[int, ...], tuple[int, ...]]
    shared: int

    @classmethod
    def parse(cls, text: str) -> Deal:
        canonical = parse_deal(text)
        first, second, shared = canonical.split("/")
        return cls((tuple(map(int, first)), tuple(map(int, second))), int(shared))

    @classmethod
    def from_seed(cls, seed: int) -> Deal:
        """The deal drawn from ``seed``: ``random.Random(seed)`` shuffles 1–9; the
        first four (sorted) go to player 0, the next four to player 1, the last is shared."""
        digits = list(range(1, 10))
        random.Random(seed).shuffle(digits)
        return cls((tuple(sorted(digits[:4])), tuple(sorted(digits[4:8]))), digits[8])

    @property
    def text(self) -> str:
        return "/".join(["".join(map(str, self.colours[0])), "".join(map(str, self.colours[1])),
                         str(self.shared)])  # fmt: skip

    def owner_of(self, colour: int) -> int | str:
        """0 or 1 for an owned colour, ``"shared"`` for the shared one."""
        if colour == self.shared:
            return "shared"
        return 0 if colour in self.colours[0] else 1

    def hand(self, player: int) -> tuple[int, ...]:
        """The pieces ``player`` starts with, indexed by colour (index 0 unused)."""
        counts = [0] * 10
        for colour in self.colours[player]:
            counts[colour] = 9
        counts[self.shared] = 4
        return tuple(counts)


def parse_deal(text: str) -> str:
    """A deal ``AAAA/BBBB/C`` checked and written canonically (each group sorted)."""
    if not isinstance(text, str):
        raise ValueError(f"a deal is text like {DEFAULT_DEAL}, not {type(text).__name__}")
    groups = [g.strip() for g in text.strip().split("/")]
    if len(groups) != 3 or not all(g.isdigit() for g in groups):
        raise ValueError(
            f"expected a deal like {DEFAULT_DEAL} (player 0's four colours / player 1's four"
            f" colours / the shared colour), got {text!r}"
        )
    sizes = [len(g) for g in groups]
    if sizes != [4, 4, 1]:
        raise ValueError(
            f"a deal gives 4 colours to each player and shares 1, got {sizes[0]}/{sizes[1]}/"
            f"{sizes[2]} in {text!r}"
        )
    digits = "".join(groups)
    if "0" in digits:
        raise ValueError(f"colours are the digits 1-9, and {text!r} contains 0")
    repeated = sorted({d for d in digits if digits.count(d) > 1})
    if repeated:
        raise ValueError(f"colour {repeated[0]} appears twice in the deal {text!r}")
    return "/".join(["".join(sorted(groups[0])), "".join(sorted(groups[1])), groups[2]])


# -- layout options ----------------------------------------------------------


def _parity_layout(text: str) -> str:
    layout = text.strip().lower()
    Constraints(parity=layout)  # raises ValueError with the position of a bad mark
    return layout


def _consecutive_layout(value: str | Iterable[Any]) -> str:
    pairs = (
        parse_consecutive(value)
        if isinstance(value, str)
        else Constraints(consecutive=frozenset(tuple(p) for p in value)).consecutive
    )
    if not pairs:
        raise ValueError("a consecutive layout needs at least one pair like r1c1-r1c2")
    return format_consecutive(pairs)


@dataclass(frozen=True)
class LayoutOption(Option):
    """An option that is off (``False``), generated from the seed (``True``) or a layout.

    ``layout`` checks a layout and returns its canonical text, so the stored
    value replays identically from a record.
    """

    layout: Callable[[Any], str] | None = None
    example: str = ""

    def describe(self) -> str:
        return f"true (generated from seed), false, or a layout like {self.example}"

    def convert(self, value: Any) -> Any:
        if value is None:
            return self.default
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        if not isinstance(value, str) and not (
            self.name == "consecutive" and isinstance(value, (list, tuple, set, frozenset))
        ):
            raise ValueError(f"option {self.name!r}: expected {self.describe()}, got {value!r}")
        assert self.layout is not None
        try:
            return self.layout(value)
        except ValueError as error:
            raise ValueError(f"option {self.name!r}: {error}") from None


OPTIONS: tuple[Option, ...] = (
    Option("deal", str, None,
           f"colours of player 0 / player 1 / shared, e.g. {DEFAULT_DEAL} (the default unless"
           " a seed is given, which then draws the deal)", check=parse_deal),
    Option("seed", int, None, "draws the deal (unless given) and generates layouts set to true",
           low=0),
    Option("any_colour", bool, False, "one shared pool: each turn, any colour with pieces left"),
    Option("diagonals", bool, False, "Sudoku X: no colour twice on either long diagonal"),
    LayoutOption("parity", str, False,
                 "cells marked odd or even: true (from seed) or 81 marks o/e/.",
                 layout=_parity_layout, example="o.e...(81 marks)"),
    LayoutOption("consecutive", str, False,
                 "neighbour pairs whose digits differ by 1: true (from seed) or r1c1-r1c2,...",
                 layout=_consecutive_layout, example="r1c1-r1c2,r3c4-r4c4"),
    Option("strict_consecutive", bool, False,
           "every unmarked neighbour pair must not differ by 1"),
    Option("honour", bool, False,
           "rule-breaking placements stand until challenged or reported"),
    Option("aids", bool, False,
           "hints on request (which colours fit a cell) and highlighting of legal colours;"
           " changes no rule"),
)  # fmt: skip


# -- building the rule set ---------------------------------------------------


def _layout_text(options: dict[str, Any]) -> str:
    parts = []
    if options["diagonals"]:
        parts.append("diagonals")
    if isinstance(options["parity"], str):
        parts.append("the parity layout")
    if isinstance(options["consecutive"], str):
        parts.append("the consecutive layout")
    if options["strict_consecutive"]:
        parts.append("strict_consecutive")
    return ", ".join(parts)


@lru_cache(maxsize=64)
def build_constraints(
    diagonals: bool,
    parity: bool | str,
    consecutive: bool | str,
    strict_consecutive: bool,
    seed: int,
) -> Constraints:
    """The rule set of these options; ``ValueError`` if no completed grid obeys it.

    Generated layouts (``True``) come from one random solved grid that obeys
    every rule given explicitly, so the result always admits that grid.
    """
    from sansu.sudoku.solver import is_solvable

    given = Constraints(
        diagonals=diagonals,
        parity=parity if isinstance(parity, str) else None,
        consecutive=parse_consecutive(consecutive) if isinstance(consecutive, str) else (),
        strict_consecutive=strict_consecutive and consecutive is not True,
    )
    options = {"diagonals": diagonals, "parity": parity, "consecutive": consecutive,
               "strict_consecutive": strict_consecutive}  # fmt: skip
    if parity is not True and consecutive is not True:
        if not given.is_classic and not is_solvable(EMPTY, given):
            raise ValueError(f"no completed grid obeys {_layout_text(options)}; change the layout")
        return given
    try:
        solution = _random_solution(seed, given)
    except ValueError:
        raise ValueError(
            f"no completed grid obeys {_layout_text(options)}; change the layout"
        ) from None
    parity_layout = given.parity
    pairs = given.consecutive
    if parity is True:
        parity_layout = _generate_parity(seed, solution)
    if consecutive is True:
        pairs = _generate_consecutive(seed, solution, strict_consecutive)
    rules = Constraints(
        diagonals=diagonals,
        parity=parity_layout,
        consecutive=pairs,
        strict_consecutive=strict_consecutive,
    )
    assert rules.is_satisfied_by(solution), "a generated layout must admit its solution"
    return rules


def _random_solution(seed: int, rules: Constraints) -> tuple[int, ...]:
    from sansu.sudoku.generator import random_solution

    return random_solution(seed, rules)


def _generate_parity(seed: int, solution: tuple[int, ...]) -> str:
    from sansu.sudoku.generator import random_parity_layout

    layout, _ = random_parity_layout(seed, solution)
    return layout


def _generate_consecutive(
    seed: int, solution: tuple[int, ...], strict: bool
) -> frozenset[tuple[int, int]]:
    from sansu.sudoku.generator import random_consecutive_layout

    pairs, _ = random_consecutive_layout(seed, solution, strict=strict)
    return frozenset(pairs)
