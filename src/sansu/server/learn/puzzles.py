"""Rated puzzles: which puzzle a learner gets, whether their moves solve it, and the ratings.

The puzzles are :mod:`sansu.puzzles`'s shipped ones, or those of a folder of
``<game>.json`` files named by ``$SANSU_PUZZLE_DATA`` (tests and trials serve
their own). A learner's moves are judged with the engine: each must be the
solution's move, except that a move that wins the game at once is a win too
(as lichess takes any mate on the last move). An account's first attempt at a
puzzle rates it and the account's puzzle rating with Glicko-2 (the puzzle is the
opponent; solving is a win), in the transaction that stores the attempt, whose
key makes a second rating impossible; later attempts are judged and change
nothing. An anonymous learner's rating lives in the browser: it sends it and
gets the new one back, computed here, so that there is one implementation.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from limits import parse_many
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import FixedWindowRateLimiter
from sqlalchemy import Connection, insert, select, update

import sansu
from sansu.core.protocol import IllegalMove, State
from sansu.puzzles import Puzzle, shipped
from sansu.server.base import ApiError, Store, count
from sansu.server.learn.tables import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow
from sansu.server.ratings import Rating, glicko2_pair

DATA_ENV = "SANSU_PUZZLE_DATA"
"""A folder of ``<game>.json`` puzzle files served instead of the package's."""
PUZZLE_DEVIATION = 150.0
"""A puzzle's starting deviation: its shipped rating is an estimate from the mining's
search, surer than a new player's 350 but still to be learnt from the players."""
RECENT = 20
"""Attempts listed on an account's dashboard."""
ATTEMPTS = "30/minute;2000/day"
"""Attempts judged per client address, rated or not (each replays a position)."""

ratings_table = PuzzleRatingRow.__table__
players_table = PuzzlePlayerRow.__table__
attempts_table = PuzzleAttemptRow.__table__


def position(puzzle: Puzzle) -> State:
    """The position the learner faces."""
    state = sansu.load_game(puzzle.game, **puzzle.options).initial_state()
    for move in puzzle.moves:
        state = state.play(move)
    return state


class PuzzleBook:
    """The puzzles served, by game and by id."""

    def __init__(self, folder: str | Path | None = None) -> None:
        named = folder if folder is not None else os.environ.get(DATA_ENV) or None
        self.folder = Path(named) if named is not None else None
        self._seats: dict[str, int] = {}

    def _read(self, game: str) -> list[Puzzle]:
        if self.folder is None:
            return shipped(game)
        path = self.folder / f"{game}.json"
        if not path.is_file():
            return []
        return [Puzzle.from_dict(d) for d in json.loads(path.read_text(encoding="utf-8"))]

    @cached_property
    def by_game(self) -> dict[str, list[Puzzle]]:
        """The puzzles of each game that has some, in id order (read once: the files are
        small; the positions are replayed only when a puzzle is asked for)."""
        out = {game: sorted(self._read(game), key=lambda p: p.id) for game in sansu.game_ids()}
        return {game: puzzles for game, puzzles in out.items() if puzzles}

    @cached_property
    def by_id(self) -> dict[str, Puzzle]:
        return {p.id: p for puzzles in self.by_game.values() for p in puzzles}

    def games(self) -> list[str]:
        return list(self.by_game)

    def of(self, game: str) -> list[Puzzle]:
        """The puzzles of ``game``; refused (404) when it has none."""
        canonical = sansu.load_game(game).id if game in sansu.game_ids() else game
        puzzles = self.by_game.get(canonical)
        if not puzzles:
            have = ", ".join(self.games()) or "none yet"
            raise ApiError(
                404, "no_puzzles", f"no puzzles of {game!r} (games with puzzles: {have})"
            )
        return puzzles

    def get(self, puzzle_id: str) -> Puzzle:
        puzzle = self.by_id.get(puzzle_id)
        if puzzle is None:
            raise ApiError(404, "no_puzzle", f"no puzzle {puzzle_id!r}")
        return puzzle

    def daily(self, game: str, day: date) -> Puzzle:
        """The puzzle of ``day`` (UTC) for ``game``: the same for everyone, computed from the
        date alone. Days step through every puzzle by a stride prime to their number, so
        two days in a row never share a puzzle (when there are two or more)."""
        puzzles = self.of(game)
        n = len(puzzles)
        salt = int.from_bytes(hashlib.sha256(game.encode()).digest()[:4], "big")
        stride = max(1, round(n * 0.618))
        while math.gcd(stride, n) != 1:
            stride += 1
        return puzzles[(day.toordinal() * stride + salt) % n]

    def nearest(
        self, game: str, rating: float, seen: set[str], current: dict[str, float]
    ) -> Puzzle:
        """The unseen puzzle whose rating (``current``, else its shipped one) is nearest
        ``rating``; refused (404) when every puzzle was seen."""
        left = [p for p in self.of(game) if p.id not in seen]
        if not left:
            message = f"you have tried every puzzle of {game}: more come with new releases"
            raise ApiError(404, "no_more_puzzles", message)
        return min(left, key=lambda p: (abs(current.get(p.id, p.rating) - rating), p.id))

    def seat(self, puzzle: Puzzle) -> int:
        """The learner's seat: the one to move in the puzzle's position (a replay, which
        takes a Python engine up to a tenth of a second: call it off the event loop)."""
        if puzzle.id not in self._seats:
            self._seats[puzzle.id] = position(puzzle).to_move
        return self._seats[puzzle.id]

    def describe(self, puzzle: Puzzle, rating: float | None = None) -> dict[str, Any]:
        """What a page needs to set a puzzle: the position's moves, the learner's seat, the
        solution (the page plays the replies from it), the rating and themes."""
        data = puzzle.to_dict()
        data["rating"] = round(rating if rating is not None else puzzle.rating)
        data["seat"] = self.seat(puzzle)
        return data


# -- judging ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    solved: bool
    failed_at: int | None
    """The index in the learner's moves of the move that failed (``None`` when solved)."""
    reason: str
    line: list[str]
    """The learner's line as played (with the replies), up to where it was decided."""


def wins_at_once(state: State, after: State) -> bool:
    result = after.result
    return result is not None and not result.draw and tuple(result.winners) == (state.to_move,)


def judge(puzzle: Puzzle, moves: list[str]) -> Verdict:
    """Whether ``moves`` (the learner's moves only) solve ``puzzle``. An illegal move, and a
    line that stops before it is decided or goes on after, are refused (422): a page checks
    each move first (``POST /api/positions``), so only a wrong legal move fails a puzzle."""
    state = position(puzzle)
    line: list[str] = []
    for k, move in enumerate(moves):
        expected = str(state.play(puzzle.solution[2 * k]).last_move)
        try:
            after = state.play(move)
        except (IllegalMove, ValueError) as error:
            raise ApiError(
                422,
                "illegal_move",
                f"move {k + 1}, {error}",
                move=move,
                number=k + 1,
                reason=str(error),
            ) from None
        text = str(after.last_move)
        line.append(text)
        if text != expected and wins_at_once(state, after):
            decided = Verdict(True, None, f"{text} wins at once", line)
        elif text != expected:
            decided = Verdict(False, k, f"the solution plays {expected} here", line)
        elif 2 * k == len(puzzle.solution) - 1:
            decided = Verdict(True, None, "solved", line)
        else:
            state = after.play(puzzle.solution[2 * k + 1])
            line.append(str(state.last_move))
            continue
        if len(moves) > k + 1:
            raise ApiError(
                422,
                "too_many_moves",
                f"the attempt was decided at its move {k + 1}; send the moves up to there",
            )
        return decided
    raise ApiError(
        422,
        "incomplete",
        f"the attempt stops after {len(moves)} move(s); the puzzle needs "
        f"{(len(puzzle.solution) + 1) // 2}",
    )


# -- ratings ----------------------------------------------------------------------------


def rated(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (the puzzle as opponent)."""
    return glicko2_pair(player, puzzle, 1.0 if solved else 0.0)


def rating_json(before: Rating, after: Rating) -> dict[str, Any]:
    return {
        "before": round(before.rating, 1),
        "after": round(after.rating, 1),
        "change": round(after.rating - before.rating),
        "deviation": round(after.deviation, 1),
        "volatility": round(after.volatility, 6),
        "provisional": after.provisional,
    }


def _rating_of(row: Any) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


class PuzzleRatings:
    """The puzzles' and the accounts' puzzle ratings, attempts and streaks in the store."""

    def __init__(
        self,
        store: Store,
        book: PuzzleBook,
        clock: Callable[[], float] = time.time,
        attempts: str | None = ATTEMPTS,
    ) -> None:
        self.store = store
        self.book = book
        self.clock = clock
        self._limits = (
            [("puzzle attempts", item) for item in parse_many(attempts)] if attempts else []
        )
        self._limiter = FixedWindowRateLimiter(MemoryStorage())

    async def admit(self, client: str) -> None:
        """Counts one attempt of ``client``; refused (429) past :data:`ATTEMPTS`."""
        await count(self._limiter, self._limits, client, "this address")

    async def current(self, game: str) -> dict[str, float]:
        """The puzzles of ``game`` rated since they shipped: id to rating."""

        def read(c: Connection) -> dict[str, float]:
            rows = c.execute(
                select(ratings_table.c.puzzle_id, ratings_table.c.rating).where(
                    ratings_table.c.game == game
                )
            )
            return {row.puzzle_id: row.rating for row in rows}

        return await self.store.read(read)

    async def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        def read(c: Connection) -> Any:
            return c.execute(
                select(ratings_table).where(ratings_table.c.puzzle_id == puzzle.id)
            ).first()

        row = await self.store.read(read)
        return Rating(puzzle.rating, PUZZLE_DEVIATION) if row is None else _rating_of(row)

    async def player(self, user_id: int, game: str) -> dict[str, Any]:
        """An account's puzzle rating, counts and streaks in ``game``."""
        return (await self.dashboard(user_id, games=[game]))["games"][game]

    async def attempted(self, user_id: int, game: str) -> set[str]:
        def read(c: Connection) -> set[str]:
            rows = c.execute(
                select(attempts_table.c.puzzle_id).where(
                    attempts_table.c.user_id == user_id, attempts_table.c.game == game
                )
            )
            return {row.puzzle_id for row in rows}

        return await self.store.read(read)

    async def attempt(self, user_id: int, puzzle: Puzzle, solved: bool) -> dict[str, Any]:
        """Rates the account's first attempt at ``puzzle`` (and its streak); a later attempt
        changes nothing and says so (``rated: false``)."""
        now = self.clock()

        def write(c: Connection) -> dict[str, Any]:
            earlier = c.execute(
                select(attempts_table).where(
                    attempts_table.c.user_id == user_id,
                    attempts_table.c.puzzle_id == puzzle.id,
                )
            ).first()
            prow = c.execute(
                select(players_table).where(
                    players_table.c.user_id == user_id, players_table.c.game == puzzle.game
                )
            ).first()
            if earlier is not None:
                shown = _player_json(prow)
                return {
                    "rated": False,
                    "first_solved": earlier.solved,
                    "streak": shown["streak"],
                    "best_streak": shown["best_streak"],
                }
            qrow = c.execute(
                select(ratings_table).where(ratings_table.c.puzzle_id == puzzle.id)
            ).first()
            me = Rating() if prow is None else _rating_of(prow)
            it = Rating(puzzle.rating, PUZZLE_DEVIATION) if qrow is None else _rating_of(qrow)
            me_after, it_after = rated(me, it, solved)
            streak = (0 if prow is None else prow.streak) + 1 if solved else 0
            mine = {
                **_counted(prow, me_after, solved, now),
                "streak": streak,
                "best_streak": max(streak, 0 if prow is None else prow.best_streak),
            }
            where = (players_table.c.user_id == user_id) & (players_table.c.game == puzzle.game)
            if prow is None:
                c.execute(insert(players_table).values(user_id=user_id, game=puzzle.game, **mine))
            else:
                c.execute(update(players_table).where(where).values(**mine))
            its = _counted(qrow, it_after, solved, now)
            if qrow is None:
                c.execute(
                    insert(ratings_table).values(puzzle_id=puzzle.id, game=puzzle.game, **its)
                )
            else:
                key = ratings_table.c.puzzle_id == puzzle.id
                c.execute(update(ratings_table).where(key).values(**its))
            c.execute(
                insert(attempts_table).values(
                    user_id=user_id,
                    puzzle_id=puzzle.id,
                    game=puzzle.game,
                    solved=solved,
                    at=now,
                    rating_before=me.rating,
                    rating_after=me_after.rating,
                )
            )
            return {
                "rated": True,
                "rating": rating_json(me, me_after),
                "puzzle_rating": rating_json(it, it_after),
                "streak": mine["streak"],
                "best_streak": mine["best_streak"],
            }

        return await self.store.write(write)

    async def dashboard(self, user_id: int, games: list[str] | None = None) -> dict[str, Any]:
        """An account's puzzle rating per game, solved counts, streaks and recent attempts."""
        names = games if games is not None else self.book.games()

        def read(c: Connection) -> dict[str, Any]:
            rows = {
                row.game: row
                for row in c.execute(
                    select(players_table).where(players_table.c.user_id == user_id)
                )
            }
            recent = c.execute(
                select(attempts_table)
                .where(attempts_table.c.user_id == user_id)
                .order_by(attempts_table.c.at.desc())
                .limit(RECENT)
            ).all()
            return {
                "games": {game: _player_json(rows.get(game)) for game in names},
                "recent": [
                    {
                        "puzzle_id": r.puzzle_id,
                        "game": r.game,
                        "solved": r.solved,
                        "at": r.at,
                        "rating_before": round(r.rating_before, 1),
                        "rating_after": round(r.rating_after, 1),
                        "change": round(r.rating_after - r.rating_before),
                    }
                    for r in recent
                ],
            }

        return await self.store.read(read)


def _counted(row: Any, after: Rating, solved: bool, now: float) -> dict[str, Any]:
    """A rating row's new values after one attempt (``row``: its values before, or none)."""
    return {
        "rating": after.rating,
        "deviation": after.deviation,
        "volatility": after.volatility,
        "attempts": (0 if row is None else row.attempts) + 1,
        "solved": (0 if row is None else row.solved) + int(solved),
        "updated_at": now,
    }


def _player_json(row: Any) -> dict[str, Any]:
    rating = Rating() if row is None else _rating_of(row)
    return {
        "rating": round(rating.rating, 1),
        "deviation": round(rating.deviation, 1),
        "volatility": round(rating.volatility, 6),
        "provisional": rating.provisional,
        "shown": rating.shown(),
        "attempts": 0 if row is None else row.attempts,
        "solved": 0 if row is None else row.solved,
        "streak": 0 if row is None else row.streak,
        "best_streak": 0 if row is None else row.best_streak,
    }
