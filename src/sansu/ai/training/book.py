"""Building an opening book: long searches of the positions a game reaches in its first moves.

For each side the builder walks the game from its start: where that side is to move it
searches the position (a level's search at ``simulations`` a move, seeded by the position,
so the same settings make the same book) and follows the move chosen; where another side
moves it follows every legal move. Positions up to ``plies`` moves deep are searched.

Games whose moves are cells of a square board (``r1c1``…) are searched once per position up
to the board's 8 symmetries: a line of play is mapped cell by cell, and a symmetry is used
only where it maps the legal moves of every position along the line onto the legal moves
of its image, so a game whose rules are not symmetric is simply searched in full.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from sansu.ai.book import Book, Entry, position_key
from sansu.core.protocol import Game, State
from sansu.core.registry import load_game

Line = tuple[str, ...]
"""A line of play from the start: the moves' texts."""

CELL = re.compile(r"r(\d+)c(\d+)")


@dataclass(frozen=True)
class BookConfig:
    """What a book is made of (kept in the book's ``about``)."""

    game: str
    plies: int = 4
    """The deepest ply searched (0: the first move only)."""
    simulations: int = 1_000_000
    """Simulations of each position's search."""
    level: str = "max"
    settings: str = ""
    """Changes to the level's settings (``"c_uct=0.5"``), as ``sansu match`` takes them."""
    seed: int = 1

    def __post_init__(self) -> None:
        if self.plies < 0 or self.simulations <= 0:
            raise ValueError("plies must be at least 0 and simulations positive")


def _symmetries(size: int) -> list[Callable[[int, int], tuple[int, int]]]:
    """The 8 symmetries of a ``size`` × ``size`` board, acting on (row, column)."""
    last = size - 1

    def make(turns: int, flip: bool) -> Callable[[int, int], tuple[int, int]]:
        def act(r: int, c: int) -> tuple[int, int]:
            for _ in range(turns):
                r, c = c, last - r
            return (r, last - c) if flip else (r, c)

        return act

    return [make(k % 4, k >= 4) for k in range(8)]


def _map_line(line: Line, act: Callable[[int, int], tuple[int, int]]) -> Line | None:
    """``line`` with every cell moved by ``act``; ``None`` if a move is not a plain cell."""
    out = []
    for text in line:
        m = CELL.fullmatch(text)
        if m is None:
            return None
        r, c = act(int(m[1]) - 1, int(m[2]) - 1)
        out.append(f"r{r + 1}c{c + 1}")
    return tuple(out)


class Walker:
    """The positions of one game by line, and the symmetric lines that stand for them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        cells = len(game.initial_state().cells_json())
        side = round(cells**0.5)
        self.acts = _symmetries(side) if side * side == cells and cells > 1 else []
        self._states: dict[Line, State] = {(): game.initial_state()}

    def state(self, line: Line) -> State:
        if line not in self._states:
            self._states[line] = self.state(line[:-1]).play(line[-1])
        return self._states[line]

    def _maps(self, line: Line, act: Callable[[int, int], tuple[int, int]]) -> Line | None:
        """``line``'s image under ``act`` if ``act`` maps the legal moves of every position
        along it onto those of the image's, else ``None``."""
        image = _map_line(line, act)
        if image is None:
            return None
        try:
            for n in range(len(line) + 1):
                moves = tuple(str(m) for m in self.state(line[:n]).legal_moves())
                mapped = _map_line(moves, act)
                there = self.state(image[:n]).legal_moves()
                if mapped is None or sorted(mapped) != sorted(str(m) for m in there):
                    return None
        except ValueError:  # the image is not a legal line
            return None
        return image

    def canonical(self, line: Line) -> tuple[Line, Callable[[int, int], tuple[int, int]] | None]:
        """The least image of ``line`` under the symmetries that hold along it, and the
        symmetry taking ``line`` to it (``None``: the line itself)."""
        best: Line = line
        chosen = None
        for act in self.acts:
            image = self._maps(line, act)
            if image is not None and image < best:
                best, chosen = image, act
        return best, chosen

    def back(self, move: str, line: Line, act: Callable[[int, int], tuple[int, int]]) -> str:
        """The move of ``line`` whose image under ``act`` is ``move``."""
        for candidate in self.state(line).legal_moves():
            if _map_line((str(candidate),), act) == (move,):
                return str(candidate)
        raise ValueError(f"no move of the line maps onto {move!r}")  # pragma: no cover


def _seed(config: BookConfig, line: Line) -> int:
    digest = hashlib.blake2b(f"{config.seed}:{' '.join(line)}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def search_line(task: dict[str, Any]) -> tuple[str, float, int]:
    """One position's long search (a worker's task): the move, its value, the simulations."""
    from sansu.ai.levels import level_for, with_settings
    from sansu.ai.player import ComputerPlayer

    game = load_game(task["game"])
    settings = with_settings(level_for(game.id, task["level"]), task["settings"])
    player = ComputerPlayer(game, settings, seed=task["seed"])
    analysis = player.choose(game.play_moves(task["line"]), simulations=task["simulations"])
    return str(analysis.move), analysis.value, analysis.simulations


def build_book(
    config: BookConfig, mapper: Any, say: Callable[[str], None] = lambda line: None
) -> Book:
    """The book that ``config`` describes, its searches run by ``mapper`` (a
    :class:`~sansu.ai.training.Mapper`)."""
    game = load_game(config.game)
    walker = Walker(game)
    players = range(game.num_players)
    frontier: dict[int, list[Line]] = {side: [()] for side in players}
    entries: dict[str, Entry] = {}
    searched = 0
    for ply in range(config.plies + 1):
        todo: dict[Line, dict[str, Any]] = {}
        plan: dict[Line, tuple[Line, Any]] = {}
        for side in players:
            for line in frontier[side]:
                if walker.state(line).to_move == side:
                    canon, act = walker.canonical(line)
                    plan[line] = (canon, act)
                    todo.setdefault(canon, {
                        "game": config.game, "line": list(canon), "level": config.level,
                        "settings": config.settings, "simulations": config.simulations,
                        "seed": _seed(config, canon),
                    })  # fmt: skip
        found = dict(mapper.map(search_line, list(todo.items()), f"ply {ply}"))
        searched += len(found)
        say(f"ply {ply}: {len(plan)} positions, {len(found)} searched")
        for side in players:
            following: list[Line] = []
            for line in frontier[side]:
                state = walker.state(line)
                if state.result is not None:
                    continue
                if state.to_move == side:
                    canon, act = plan[line]
                    move, value, simulations = found[canon]
                    if act is not None:
                        move = walker.back(move, line, act)
                    entries[position_key(state)] = Entry(move, value, simulations)
                    following.append((*line, move))
                elif ply < config.plies:
                    following.extend((*line, str(m)) for m in state.legal_moves())
            frontier[side] = following
    about = {**asdict(config), "searched": searched}
    return Book(config.game, entries, config.plies, about)
