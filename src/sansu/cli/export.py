"""``sansu export``: games as Parquet training data, one row per position.

``sansu export server --db URL OUT.parquet`` writes a server's finished games
(read only: the database is never written, nor created); ``sansu export
selfplay GAME OUT.parquet`` has the search play itself and keeps its values and
visit counts. The columns are in ``docs/dataset.md`` (:mod:`sansu.envs.dataset`).
A bad game, database or path is one line on stderr, and no file is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sansu.cli.gameargs import add_game_arguments, game_from_args, load_game_id
from sansu.cli.main import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("export", help="games as Parquet training data", description=__doc__)
    commands = parser.add_subparsers(dest="export_command", metavar="SOURCE", required=True,
                                     parser_class=type(parser))  # fmt: skip

    server = commands.add_parser("server", help="a server's finished games (read only)")
    server.add_argument("--db", required=True, metavar="URL",
                        help="the server's database: sqlite:///FILE, a file path, "
                             "or postgresql://...")  # fmt: skip
    server.add_argument("out", metavar="OUT", help="the Parquet file to write")
    server.add_argument("--game", default=None, metavar="GAME", help="only this game's games")
    server.add_argument("--limit", type=int, default=None, metavar="N", help="at most N games")
    server.set_defaults(func=run_server)

    play = commands.add_parser("selfplay", help="games of the search against itself")
    add_game_arguments(play, positions=False)
    play.add_argument("out", metavar="OUT", help="the Parquet file to write")
    play.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    play.add_argument("--simulations", type=int, default=200,
                      help="simulations a move (default 200)")  # fmt: skip
    play.add_argument("--seed", type=int, default=0, help="seeds the whole run (default 0)")
    play.add_argument("--explore", type=int, default=8, metavar="PLIES",
                      help="plies drawn by visit counts before the most visited is played "
                           "(default 8)")  # fmt: skip
    play.set_defaults(func=run_selfplay)


def _dataset() -> Any:
    try:
        import pyarrow  # noqa: F401

        from sansu.envs import dataset
    except ImportError:
        raise UsageError('export needs pyarrow: pip install "sansu[envs]"') from None
    return dataset


def _write(games: Iterator[list[dict[str, Any]]], out: str) -> int:
    try:
        count = _dataset().write_parquet(games, out)
    except ValueError as error:
        raise UsageError(f"export: {error}") from None
    print(f"{count} positions written to {out}", file=sys.stderr)
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    game = game_from_args(args)
    dataset = _dataset()
    if args.games < 1 or args.simulations < 1 or args.explore < 0:
        raise UsageError("--games and --simulations must be positive, --explore 0 or more")
    games = dataset.self_play(
        game.id,
        args.games,
        simulations=args.simulations,
        seed=args.seed,
        explore=args.explore,
        **game.options,
    )
    return _write(games, args.out)


def run_server(args: argparse.Namespace) -> int:
    game_id = None if args.game is None else load_game_id(args.game)
    if args.limit is not None and args.limit < 1:
        raise UsageError("--limit must be positive")
    dataset = _dataset()
    try:
        import sqlalchemy  # noqa: F401
    except ImportError:
        raise UsageError('export server needs SQLAlchemy: pip install "sansu[server]"') from None
    _check_out(args.out)
    return _write(server_games(dataset, args.db, game_id, args.limit), args.out)


def _check_out(out: str) -> None:
    """Refuses an output path that cannot be written before reading any game."""
    path = Path(out)
    if path.is_dir() or not path.parent.is_dir():
        raise UsageError(f"export: cannot write {out}: no such directory or a directory")


def read_only_engine(url: str) -> Any:
    """A SQLAlchemy engine that cannot write: SQLite opened read-only (a missing file is
    an error, never created), PostgreSQL in read-only transactions."""
    import sqlalchemy as sa
    from sqlalchemy.exc import ArgumentError

    if "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    try:
        parsed = sa.make_url(url)
    except ArgumentError:
        raise UsageError(f"export: {url!r} is no database URL") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database or ""
        if not database or database == ":memory:" or not Path(database).is_file():
            raise UsageError(f"export: no SQLite database at {database or url!r}")
        uri = f"sqlite:///file:{Path(database).resolve()}?mode=ro&uri=true"
        return sa.create_engine(uri)
    if backend == "postgresql":
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        options = {"options": "-c default_transaction_read_only=on"}
        try:
            return sa.create_engine(parsed, connect_args=options)
        except ImportError as error:
            raise UsageError(f"export: {error}") from None
    raise UsageError(f"export: a server database is SQLite or PostgreSQL, not {backend!r}")


def server_games(
    dataset: Any, url: str, game_id: str | None, limit: int | None
) -> Iterator[list[dict[str, Any]]]:
    """The rows of the finished games a server stores: public ones only (never a private
    game, nor one whose creator closed it to watchers), without any player's identity."""
    import sqlalchemy as sa
    from sqlalchemy.exc import SQLAlchemyError

    from sansu.core.protocol import IllegalMove, Result
    from sansu.core.registry import load_game

    engine = read_only_engine(url)
    try:
        with engine.connect() as connection:
            meta = sa.MetaData()
            games = sa.Table("games", meta, autoload_with=connection)
            moves = sa.Table("moves", meta, autoload_with=connection)
            query = sa.select(
                games.c.id, games.c.game, games.c.options, games.c.result, games.c.termination
            ).where(games.c.status == "finished")
            if "private" in games.c:
                query = query.where(games.c.private.is_(False))
            if "watchable" in games.c:
                query = query.where(games.c.watchable.is_(True))
            if game_id is not None:
                query = query.where(games.c.game == game_id)
            query = query.order_by(games.c.finished_at, games.c.id).limit(limit)
            for key, game, options, result, termination in connection.execute(query).all():
                texts = connection.execute(
                    sa.select(moves.c.text).where(moves.c.game_id == key).order_by(moves.c.ply)
                ).scalars()
                options = json.loads(options) if isinstance(options, str) else options
                result = json.loads(result) if isinstance(result, str) else result
                ended = None
                if result:
                    ended = Result.from_dict(result)
                    if termination and termination != "rules":
                        ended = Result(ended.winners, ended.draw, ended.scores, termination)
                try:
                    yield dataset.game_rows(
                        load_game(game, **(options or {})),
                        list(texts),
                        source="server",
                        game_key=key,
                        result=ended,
                    )
                except (IllegalMove, ValueError) as error:
                    print(f"export: game {key} skipped: {error}", file=sys.stderr)
    except SQLAlchemyError as error:
        first = str(error).splitlines()[0]  # SQLAlchemy adds a line pointing to its docs
        raise ValueError(f"{error.__class__.__name__}: {first}") from None
    finally:
        engine.dispose()
