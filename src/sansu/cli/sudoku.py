"""``sansu sudoku``: solve, count, generate, rate and hint from the command line.

Puzzles come from arguments, ``--file`` or stdin, one per line (blank lines
and ``#`` comments skipped). Every puzzle is read and checked before any
answer is printed, so bad input yields one line on stderr naming the line
and the problem, exit status 2, and nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from sansu.cli.main import UsageError
from sansu.sudoku.constraints import CLASSIC, Constraints, parse_consecutive
from sansu.sudoku.grid import Grid, format_grid, parse_grid

T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """One puzzle of the input and where it came from (``"line 3"``, ``"argument 2"``)."""

    number: int
    where: str
    grid: Grid


def _progress(items: list[T], what: str) -> Iterable[T]:
    """``items`` with a progress bar on stderr when there are several and stderr is a terminal."""
    if len(items) > 1 and sys.stderr.isatty():
        from tqdm import tqdm

        return tqdm(items, desc=what, unit="puzzle", file=sys.stderr, leave=False)
    return items


def _lines(args: argparse.Namespace) -> Iterator[tuple[int, str, str]]:
    if args.puzzles:
        if args.file:
            raise UsageError(f"{args.prog}: give puzzles as arguments or with --file, not both")
        for number, text in enumerate(args.puzzles, 1):
            yield number, f"argument {number}", text
        return
    if args.file:
        try:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise UsageError(f"{args.prog}: cannot read {args.file!r}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{args.prog}: {args.file!r} is not a text file") from None
    else:
        text = sys.stdin.read()
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, f"line {number}", stripped


def _entries(args: argparse.Namespace, constraints: Constraints = CLASSIC) -> list[Entry]:
    """Every puzzle of the input, checked; the first bad one is a :class:`UsageError`."""
    entries = []
    for number, where, text in _lines(args):
        try:
            grid = parse_grid(text)
        except ValueError as error:
            raise UsageError(f"{args.prog}: {where}: {error}") from None
        broken = constraints.violations(grid)
        if broken:
            raise UsageError(f"{args.prog}: {where}: {broken[0]}")
        entries.append(Entry(number, where, grid))
    if not entries:
        raise UsageError(f"{args.prog}: no puzzle given (arguments, --file or stdin)")
    return entries


def _constraints(args: argparse.Namespace) -> Constraints:
    try:
        consecutive = parse_consecutive(args.consecutive) if args.consecutive else frozenset()
    except ValueError as error:
        raise UsageError(f"{args.prog}: --consecutive: {error}") from None
    try:
        return Constraints(
            diagonals=args.diagonals,
            parity=args.parity,
            consecutive=consecutive,
            strict_consecutive=args.strict_consecutive,
        )
    except ValueError as error:
        raise UsageError(f"{args.prog}: --parity: {error}") from None


def _emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data, ensure_ascii=False) if args.json else text, flush=True)


def _solve(args: argparse.Namespace) -> int:
    from sansu.sudoku.solver import solve

    constraints = _constraints(args)
    entries = _entries(args, constraints)
    status = 0
    for entry in _progress(entries, "solving"):
        solution = solve(entry.grid, constraints)
        if solution is None:
            status = 1
        _emit(
            args,
            {
                "line": entry.number,
                "puzzle": format_grid(entry.grid),
                "solvable": solution is not None,
                "solution": None if solution is None else format_grid(solution),
            },
            "no solution" if solution is None else format_grid(solution),
        )
    return status


def _count(args: argparse.Namespace) -> int:
    from sansu.sudoku.solver import count_solutions

    constraints = _constraints(args)
    if args.limit < 1:
        raise UsageError(f"{args.prog}: --limit must be at least 1, not {args.limit}")
    entries = _entries(args, constraints)
    for entry in _progress(entries, "counting"):
        count = count_solutions(entry.grid, constraints, args.limit)
        _emit(
            args,
            {
                "line": entry.number,
                "puzzle": format_grid(entry.grid),
                "count": count,
                "limit": args.limit,
                "unique": count == 1 and args.limit > 1,
            },
            f"{count}+" if count >= args.limit else str(count),
        )
    return 0


def _generate(args: argparse.Namespace) -> int:
    from sansu.sudoku.generator import generate

    constraints = _constraints(args)
    if args.count < 1:
        raise UsageError(f"{args.prog}: --count must be at least 1, not {args.count}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    if seed < 0:
        raise UsageError(f"{args.prog}: --seed must be 0 or more, not {seed}")
    if args.difficulty is not None:
        from sansu.sudoku.rater import LEVELS

        if args.difficulty not in LEVELS:
            raise UsageError(
                f"{args.prog}: unknown difficulty {args.difficulty!r} (levels: {', '.join(LEVELS)})"
            )
        if not constraints.is_classic:
            raise UsageError(f"{args.prog}: --difficulty rates classic puzzles only")
    for offset in _progress(list(range(args.count)), "generating"):
        try:
            puzzle = generate(seed + offset, args.difficulty, not args.no_symmetry, constraints)
        except ValueError as error:
            raise UsageError(f"{args.prog}: {error}") from None
        data = {"seed": seed + offset, **puzzle.to_dict()}
        if puzzle.level is None and constraints.is_classic:
            from sansu.sudoku.rater import rate

            rating = rate(puzzle.puzzle)
            data.update(level=rating.level, score=rating.score)
        text = format_grid(puzzle.puzzle)
        if data["level"] is not None:
            text += f" {data['level']} {data['score']}"
        _emit(args, data, text)
    return 0


def _single_solution(args: argparse.Namespace, entries: list[Entry]) -> None:
    """A :class:`UsageError` naming the first puzzle without exactly one solution.

    Rating and hints describe how a person reaches *the* solution; a grid with
    none or several has no such path, so saying "extreme" or "no logical step"
    would mislead.
    """
    from sansu.sudoku.solver import count_solutions

    for entry in entries:
        count = count_solutions(entry.grid, CLASSIC, 2)
        if count == 0:
            raise UsageError(f"{args.prog}: {entry.where}: the grid has no solution")
        if count > 1:
            raise UsageError(
                f"{args.prog}: {entry.where}: the grid has many solutions"
                " (a puzzle needs exactly one)"
            )


def _rate(args: argparse.Namespace) -> int:
    from sansu.sudoku.rater import rate

    entries = _entries(args)
    _single_solution(args, entries)
    for entry in _progress(entries, "rating"):
        try:
            rating = rate(entry.grid)
        except ValueError as error:
            raise UsageError(f"{args.prog}: {entry.where}: {error}") from None
        techniques = ", ".join(f"{name} ×{n}" for name, n in rating.techniques.items())
        _emit(
            args,
            {"line": entry.number, "puzzle": format_grid(entry.grid), **rating.to_dict()},
            f"{rating.level} {rating.score}" + (f" ({techniques})" if techniques else ""),
        )
    return 0


def _hint(args: argparse.Namespace) -> int:
    from sansu.sudoku.rater import next_step

    entries = _entries(args)
    _single_solution(args, entries)
    for entry in _progress(entries, "hinting"):
        try:
            step = next_step(entry.grid)
        except ValueError as error:
            raise UsageError(f"{args.prog}: {entry.where}: {error}") from None
        if step is not None:
            text = step.description
        elif all(entry.grid):
            text = "the grid is already solved"
        else:
            text = "no logical step found"
        _emit(
            args,
            {
                "line": entry.number,
                "puzzle": format_grid(entry.grid),
                "step": None if step is None else step.to_dict(),
            },
            text,
        )
    return 0


def _add_input(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "puzzles", nargs="*", metavar="PUZZLE", help="81 characters, '.' or '0' for a blank"
    )
    parser.add_argument("--file", metavar="PATH", help="read puzzles from a file, one per line")
    parser.add_argument("--json", action="store_true", help="print one JSON object per puzzle")


def _add_rules(parser: argparse.ArgumentParser) -> None:
    rules = parser.add_argument_group("variant rules")
    rules.add_argument(
        "--diagonals", action="store_true", help="no repeated digit on either long diagonal"
    )
    rules.add_argument(
        "--parity", metavar="LAYOUT", help="81 marks: 'o' odd cell, 'e' even cell, '.' unmarked"
    )
    rules.add_argument(
        "--consecutive",
        metavar="PAIRS",
        help="neighbours whose digits differ by 1, e.g. r1c1-r1c2,r3c4-r4c4",
    )
    rules.add_argument(
        "--strict-consecutive",
        action="store_true",
        help="every unmarked neighbour pair must not differ by 1",
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sudoku",
        help="solve, count, generate, rate and hint Sudoku puzzles",
        description="The Sudoku toolkit: puzzles from arguments, --file or stdin, one per line.",
    )
    parser.set_defaults(func=lambda args: parser.print_help() or 0)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")

    def action(name: str, func: Any, help: str) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help, description=help)
        sub.set_defaults(func=func, prog=sub.prog)
        return sub

    solve = action("solve", _solve, "print the solution of each puzzle (exit 1 if one has none)")
    _add_input(solve)
    _add_rules(solve)

    count = action("count", _count, "count the solutions of each puzzle, up to a limit")
    _add_input(count)
    _add_rules(count)
    count.add_argument(
        "--limit", type=int, default=2, help="stop counting here (default 2: none, unique, several)"
    )

    gen = action(
        "generate", _generate,
        "make puzzles with exactly one solution; each is printed with its rating (level and"
        " score; classic puzzles: the rater grades classic rules only)",
    )  # fmt: skip
    gen.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
    gen.add_argument("--seed", type=int, help="seed of the first puzzle (the next ones +1, +2…)")
    gen.add_argument("--difficulty", metavar="LEVEL", help="easy, medium, hard, expert or extreme")
    gen.add_argument("--no-symmetry", action="store_true", help="givens need not be symmetric")
    gen.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    _add_rules(gen)

    rate = action("rate", _rate, "grade each puzzle by the techniques a person needs")
    _add_input(rate)

    hint = action("hint", _hint, "describe the next logical step of each puzzle")
    _add_input(hint)
