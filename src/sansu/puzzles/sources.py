"""Where candidate positions come from: engine self-play, game records, a server's database.

Each source yields games as ``(options, moves)``; the miner replays them and
looks for puzzles along the way. Self-play is made to blunder (weak levels
with random moves mixed in), since a puzzle starts at a mistake.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sansu.core.protocol import Game, Player, State
from sansu.core.record import GameRecord

StoredGame = tuple[dict[str, Any], list[str]]

SELF_PLAY_LEVELS = ("beginner", "easy")
LEVELS_OF = {"thirtyfive": ("beginner",)}
"""35's endings are decided by the count: between players of one level they are closer, and
so more often won by one move only (and ``easy``'s 6,000 simulations a move cost most of a
game's mining)."""
RANDOM_SHARE = (0.05, 0.3)
"""Each self-play game draws, per side, its share of random moves from this range."""


def self_play(
    game: Game,
    seed: int,
    stop: Callable[[State], bool],
) -> list[str]:
    """One game of two weak players that sometimes play at random, from ``seed``; it stops
    when ``stop`` says the game is decided (an accepted claim need not be played out).

    The players search a number of simulations, never a time, so that the same seed gives
    the same game on any machine, however busy."""
    from sansu.ai import player_for

    rng = random.Random(seed)
    players = [
        player_for(
            game, rng.choice(LEVELS_OF.get(game.id, SELF_PLAY_LEVELS)), seed=rng.getrandbits(32)
        )
        for _ in range(2)
    ]
    shares = [rng.uniform(*RANDOM_SHARE) for _ in range(2)]
    state = game.initial_state()
    moves: list[str] = []
    while not stop(state):
        mover: Player = state.to_move  # type: ignore[assignment]
        if rng.random() < shares[mover]:
            move = rng.choice(state.legal_moves())
        else:
            player = players[mover]
            move = player.choose(state, simulations=player.settings.simulations).move
        moves.append(str(move))
        state = state.play(move)
    return moves


def sideline(state: State, rng: random.Random, stop: Callable[[State], bool]) -> list[str]:
    """Random moves from ``state`` until ``stop``: another ending of the same game."""
    moves = []
    while not stop(state):
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return moves


def stored_games(source: str, game_id: str) -> Iterator[StoredGame]:
    """The games of ``game_id`` in ``source``: a record file, a folder of them, or a database
    URL (``sqlite:///sansu.db``, ``postgresql://...``) read through SQLAlchemy Core.

    Raises ``ValueError`` for a source that is neither.
    """
    if "://" in source:
        yield from _database_games(source, game_id)
        return
    path = Path(source)
    if path.is_dir():
        files = sorted(path.glob("*.json"))
    elif path.is_file():
        files = [path]
    else:
        raise ValueError(f"{source}: no such file, folder or database URL")
    for file in files:
        try:
            record = GameRecord.read(file)
        except (ValueError, OSError, json.JSONDecodeError) as error:
            raise ValueError(f"{file}: {error}") from None
        if record.game == game_id:
            yield dict(record.options), list(record.moves)


def _database_games(url: str, game_id: str) -> Iterator[StoredGame]:
    """Finished games' moves from a server's ``games`` and ``moves`` tables (read only)."""
    import sqlalchemy as sa
    from sqlalchemy.exc import SQLAlchemyError

    try:
        engine = sa.create_engine(url)
    except (SQLAlchemyError, ValueError, ImportError) as error:
        raise ValueError(f"{url}: {str(error).splitlines()[0]}") from None
    meta = sa.MetaData()
    try:
        with engine.connect() as connection:
            games = sa.Table("games", meta, autoload_with=connection)
            moves = sa.Table("moves", meta, autoload_with=connection)
            rows = connection.execute(
                sa.select(games.c.id, games.c.options)
                .where(games.c.game == game_id, games.c.status == "finished")
                .order_by(games.c.id)
            ).all()
            for game_row_id, options in rows:
                texts = connection.execute(
                    sa.select(moves.c.text)
                    .where(moves.c.game_id == game_row_id)
                    .order_by(moves.c.ply)
                ).scalars()
                if isinstance(options, str):
                    options = json.loads(options)
                yield dict(options or {}), list(texts)
    except SQLAlchemyError as error:
        first = str(error).splitlines()[0]  # SQLAlchemy adds a line pointing to its docs
        raise ValueError(f"{url}: {error.__class__.__name__}: {first}") from None
    finally:
        engine.dispose()


def guided_play(game: Game, seed: int, stop: Callable[[State], bool]) -> list[str]:
    """A Sumodoku game whose players mostly place pieces where one solved grid (drawn from
    ``seed``) has their colour, and now and then anywhere legal, and never claim.

    Weak search players break the grid long before the claim window opens, so
    they leave nothing to claim; these keep it completable for a while, until a
    stray piece breaks it, which is where claims are won and lost.
    """
    from sansu.sudoku.generator import random_solution

    rng = random.Random(seed)
    solution = list(random_solution(seed))
    stray = rng.uniform(0.01, 0.08)
    state = game.initial_state()
    moves: list[str] = []
    while not stop(state):
        placements = [m for m in state.legal_moves() if hasattr(m, "cell")]
        if not placements:
            break
        fitting = [m for m in placements if solution[m.cell] == m.colour]  # type: ignore[attr-defined]
        move = rng.choice(fitting if fitting and rng.random() > stray else placements)
        moves.append(str(move))
        state = state.play(move)
    return moves
