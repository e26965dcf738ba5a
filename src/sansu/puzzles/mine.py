"""Mining: replay games, prove every candidate position, keep the puzzles.

Like lichess's generator: a position is a puzzle when the side to move wins
by force within the depth, its first move (and every later learner move
after the opponent's best defence) is the only one winning within the
moves left, and the opponent's last move was the mistake (before it, the
opponent had a move after which no such win exists). Every one of these is
proved by :class:`~sansu.puzzles.prove.Prover`; the same position is the
same puzzle, whatever led there.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Hashable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from sansu.core.protocol import IllegalMove, State
from sansu.core.registry import load_game
from sansu.puzzles import Puzzle
from sansu.puzzles.games import Kit, kit, prover
from sansu.puzzles.prove import SearchLimit
from sansu.puzzles.rating import difficulty
from sansu.puzzles.sources import StoredGame, guided_play, self_play, sideline
from sansu.puzzles.themes import themes

SIDELINES = {"thirtyfive": 120}
"""Random endings tried from near the end of each game: in 35 the puzzles are all in the last
few moves, so one game gives many more of them this way."""

PER_GAME = {"sumodoku": 3}
"""At most this many puzzles with the same solution from one game: in Sumodoku every position
after the first completable one in the claim window is won by a claim, alike."""

MOST_PER_GAME = {"thirtyfive": 8}
"""At most this many puzzles from one game and its endings (the first found), so that a set
is not many endings of a few games."""

SELF_PLAY = {"sumodoku": guided_play}
"""Self-play other than :func:`~sansu.puzzles.sources.self_play`."""


@dataclass
class Tally:
    """What a mining run did, for its progress lines and the benchmark."""

    games: int = 0
    candidates: int = 0
    proved: int = 0
    puzzles: int = 0
    unproved: int = 0
    seconds: float = 0.0
    by_depth: dict[int, int] = field(default_factory=dict)


class Miner:
    """Finds the puzzles of one game; ``known`` positions (already shipped) are skipped."""

    def __init__(
        self,
        game_id: str,
        *,
        depth: int | None = None,
        known: Iterable[Puzzle] = (),
        node_limit: int = 400_000,
        rate: bool = True,
    ) -> None:
        self.kit: Kit = kit(game_id)
        self.game_id = game_id
        self.depth = depth or self.kit.depth
        if self.depth < 1:
            raise ValueError(f"depth must be at least 1, not {self.depth}")
        self.prover = prover(game_id, node_limit=node_limit)
        self.rate = rate
        self.seen: set[Hashable] = set()
        self.tally = Tally()
        for puzzle in known:
            state = load_game(puzzle.game, **puzzle.options).play_moves(puzzle.moves)
            self.seen.add(self.kit.key(state))

    def decided(self, state: State) -> bool:
        return self.kit.verdict(state) is not None

    def admit(self, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` (found by another miner) is at a position not seen yet; it is
        seen from now on."""
        state = load_game(puzzle.game, **puzzle.options).play_moves(puzzle.moves)
        key = self.kit.key(state)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def mine_game(
        self, options: dict[str, Any], moves: Sequence[str], source: str, seed: int = 0
    ) -> list[Puzzle]:
        """The new puzzles along one game (and its random sidelines, where the game has them)."""
        game = load_game(self.game_id, **options)
        positions = [game.initial_state()]
        for move in moves:
            if self.decided(positions[-1]):
                break
            positions.append(positions[-1].play(move))
        found = self._along(positions, list(moves), options, source, seed)
        count = SIDELINES.get(self.game_id, 0)
        if count:
            rng = random.Random(seed)
            start = next(
                (i for i, s in enumerate(positions) if self.kit.worth_trying(s, self.depth)), None
            )
            if start is not None:
                base = max(0, start - 2)
                for _ in range(count):
                    more = sideline(positions[base], rng, self.decided)
                    line = [positions[base]]
                    for move in more:
                        line.append(line[-1].play(move))
                    found += self._along(
                        line, [*moves[:base], *more], options, source, seed, offset=base
                    )
        self.tally.games += 1
        self.prover.clear()
        most = MOST_PER_GAME.get(self.game_id)
        if most is not None and len(found) > most:
            self.tally.puzzles -= len(found) - most
            for dropped in found[most:]:
                depth = dropped.extra["depth"]
                self.tally.by_depth[depth] -= 1
            found = found[:most]
        return found

    def _along(
        self,
        positions: list[State],
        moves: list[str],
        options: dict[str, Any],
        source: str,
        seed: int,
        offset: int = 0,
    ) -> list[Puzzle]:
        found: list[Puzzle] = []
        cap = PER_GAME.get(self.game_id)
        for i in range(1, len(positions)):
            state = positions[i]
            if self.decided(state) or not self.kit.worth_trying(state, self.depth):
                continue
            key = self.kit.key(state)
            if key in self.seen:
                continue
            self.tally.candidates += 1
            puzzle = self._prove(
                positions[i - 1], state, moves[: offset + i], options, source, seed + i
            )
            if puzzle is not None:
                self.seen.add(key)
                alike = sum(p.solution == puzzle.solution for p in found)
                if cap is None or alike < cap:
                    found.append(puzzle)
                    depth = puzzle.extra["depth"]
                    self.tally.puzzles += 1
                    self.tally.by_depth[depth] = self.tally.by_depth.get(depth, 0) + 1
        return found

    def _prove(
        self,
        before: State,
        state: State,
        moves: list[str],
        options: dict[str, Any],
        source: str,
        seed: int,
    ) -> Puzzle | None:
        prover = self.prover
        prover.nodes = 0
        try:
            depth = prover.shortest(state, self.depth)
            if depth is None:
                return None
            self.tally.proved += 1
            line = prover.line(state, depth)  # most wins fail here: more than one way
            if line is None or not prover.avoidable(before, depth):
                return None
        except SearchLimit:
            self.tally.unproved += 1
            return None
        rating = 1500.0
        if self.rate:
            rating = difficulty(state, line.moves[0], line.depth, self.kit.verdict, seed).rating()
        return Puzzle(
            id="",
            game=self.game_id,
            options=dict(options),
            moves=tuple(moves),
            solution=tuple(str(m) for m in line.moves),
            rating=rating,
            themes=themes(state, line.moves, line.depth),
            source=source,
            extra={"depth": line.depth},
        )


# -- files -------------------------------------------------------------------------


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles in a data file (none when it does not exist yet)."""
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise ValueError("expected a JSON array of puzzles")
        return [Puzzle.from_dict(d) for d in data]
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a puzzle file ({error})") from None


def write_puzzles(path: Path, puzzles: Sequence[Puzzle]) -> None:
    """Write ``puzzles`` one per line (readable diffs), atomically."""
    text = "[\n" + ",\n".join(json.dumps(p.to_dict(), ensure_ascii=False) for p in puzzles)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".partial")
    partial.write_text(text + "\n]\n", encoding="utf-8")
    os.replace(partial, path)


def numbered(game_id: str, existing: Sequence[Puzzle], new: Iterable[Puzzle]) -> list[Puzzle]:
    """``existing`` then ``new`` with the next ids (``<game>-0001`` ...): ids never change."""
    out = list(existing)
    last = max((int(p.id.rsplit("-", 1)[1]) for p in existing), default=0)
    for puzzle in new:
        last += 1
        out.append(
            Puzzle(
                f"{game_id}-{last:04d}",
                puzzle.game,
                puzzle.options,
                puzzle.moves,
                puzzle.solution,
                puzzle.rating,
                puzzle.themes,
                puzzle.source,
                puzzle.extra,
            )
        )
    return out


Job = tuple[dict[str, Any], "list[str] | None", str, int]
"""One game to mine: options, moves (``None``: play it from the seed), source, seed."""

_WORKER: list[Miner] = []
"""A worker process's miner (``--jobs`` above 1)."""


def _start_worker(game_id: str, depth: int | None) -> None:
    _WORKER.append(Miner(game_id, depth=depth))


def _mine_job(job: Job, miner: Miner | None = None) -> tuple[list[Puzzle], tuple[int, int, int]]:
    """The puzzles of one game, and its candidates, wins and unproved candidates."""
    miner = miner or _WORKER[0]
    options, moves, source, seed = job
    if moves is None:
        play = SELF_PLAY.get(miner.game_id, self_play)
        moves = play(load_game(miner.game_id, **options), seed, miner.decided)
    t = miner.tally
    before = (t.candidates, t.proved, t.unproved)
    try:
        found = miner.mine_game(options, moves, source, seed)
    except IllegalMove as error:  # a stored game the engine refuses: skipped, not fatal
        print(f"{miner.game_id}: a stored game skipped: {error}", file=sys.stderr)
        found = []
    return found, (t.candidates - before[0], t.proved - before[1], t.unproved - before[2])


def run(
    game_id: str,
    out: Path,
    *,
    games: int,
    seed: int,
    depth: int | None = None,
    stored: Iterable[StoredGame] | None = None,
    until: int | None = None,
    jobs: int = 1,
    log: TextIO | None = None,
) -> Tally:
    """Mine ``games`` games (self-play from ``seed``, or ``stored`` ones) into ``out``, appending
    after each game so that a stopped run keeps what it found and the next one goes on.

    With ``jobs`` above 1 the games are mined in that many processes, and this one keeps
    the puzzles whose positions are new, in the games' order.
    """
    log = log or sys.stderr
    existing = read_puzzles(out)
    miner = Miner(game_id, depth=depth, known=existing)
    start = time.perf_counter()
    if stored is None:  # self-play uses the default options, stored as {}
        work: Iterable[Job] = (({}, None, "self-play", seed + i) for i in range(games))
    else:
        work = (
            (options, moves, "game", seed + i)
            for i, (options, moves) in zip(range(games), stored, strict=False)
        )
    pool = None
    if jobs > 1:
        pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(game_id, depth))
        results: Iterable[tuple[list[Puzzle], tuple[int, int, int]]] = pool.map(_mine_job, work)
    else:
        results = (_mine_job(job, miner) for job in work)
    counts = [0, 0, 0]
    try:
        for number, (found, seen) in enumerate(results, 1):
            new = found if pool is None else [p for p in found if miner.admit(p)]
            if new:
                existing = numbered(game_id, existing, new)
                write_puzzles(out, existing)
            t = miner.tally
            if pool is not None:
                counts = [c + s for c, s in zip(counts, seen, strict=True)]
                t.games, (t.candidates, t.proved, t.unproved) = number, counts
                t.puzzles += len(new)
            t.seconds = time.perf_counter() - start
            print(
                f"{game_id} game {number}: +{len(new)}, {len(existing)} in {out.name}; "
                f"{t.candidates} candidates, {t.proved} wins, {t.unproved} unproved, "
                f"{t.seconds:.0f} s",
                file=log,
                flush=True,
            )
            if until is not None and len(existing) >= until:
                break
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return miner.tally


def retheme(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """``puzzles`` with their themes computed again (after the themes' rules changed)."""
    out = []
    for p in puzzles:
        state = load_game(p.game, **p.options).play_moves(p.moves)
        depth = int(p.extra.get("depth", (len(p.solution) + 1) // 2))
        out.append(replace(p, themes=themes(state, p.solution, depth)))
    return out


def puzzles_in(
    game_id: str, options: dict[str, Any], moves: Sequence[str], *, depth: int | None = None
) -> list[Puzzle]:
    """The puzzles along one game, without ids: a player's own mistakes turned into puzzles
    (``source`` is ``game``). ``ValueError`` for a game without puzzles, ``IllegalMove`` for a
    move the game refuses."""
    return Miner(game_id, depth=depth).mine_game(dict(options), list(moves), "game")
