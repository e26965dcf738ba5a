"""``sansu bot``: puts any program that speaks the ``sansu engine`` line protocol on a
server as a bot.

The bridge follows the bot's event stream, accepts the challenges that pass
its filters (and declines the others, saying why), and plays each game it
gets: it follows the game's stream, and on its turn sets the position
(``moves ...``) and asks for a move within its clock (``go time_ms N``).
With ``--tournament ID`` it enters the tournament at start, plays every
pairing it is given (they come as ``gameStart`` like a challenge's game),
and exits once the tournament is over.
Each game runs its own engine process: the command given, plus the game's
id and ``--option KEY=VALUE`` for each of its options. When the network or
the server goes away it reconnects, and the game streams' full state
(``gameFull``) resumes every game where it stands. Every game is logged;
with ``--log-dir`` its record is saved there as ``GAME_ID.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shlex
import sys
from pathlib import Path

from sansu.cli.bot_bridge import STREAM_TIMEOUT, Bridge, Filters
from sansu.cli.main import UsageError

__all__ = ["Bridge", "Filters", "engine_command", "register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bot",
        help="run a program speaking the engine protocol as a bot on a server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--server", required=True, metavar="URL", help="e.g. https://sansu.example")
    parser.add_argument(
        "--token-file", required=True, metavar="F", help="file holding the bot's API token"
    )
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument(
        "--engine",
        metavar='"CMD ARGS"',
        help="the program to run for each game (it gets GAME and --option KEY=VALUE appended)",
    )
    engine.add_argument(
        "--level",
        metavar="NAME",
        help="a built-in level: short for --engine 'sansu engine --level NAME'",
    )
    parser.add_argument(
        "--games", metavar="IDS", help="accept only these games, comma-separated (default: all)"
    )
    parser.add_argument(
        "--rated", choices=("any", "rated", "casual"), default="any", help="(default: any)"
    )
    parser.add_argument(
        "--timed", choices=("any", "timed", "untimed"), default="any", help="(default: any)"
    )
    parser.add_argument(
        "--min-seconds", type=float, default=None, help="least initial time accepted"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="most initial time accepted"
    )
    parser.add_argument(
        "--max-games", type=int, default=4, help="games at once; more are declined (default 4)"
    )
    parser.add_argument(
        "--move-ms", type=int, default=1000, help="thinking time per move of an untimed game"
    )
    parser.add_argument("--challenge", metavar="NAME", help="challenge this account once at start")
    parser.add_argument("--challenge-game", default="uttt", metavar="GAME", help="(default uttt)")
    parser.add_argument(
        "--challenge-time",
        default=None,
        metavar="INITIAL+INCREMENT",
        help="the challenge's time control in seconds, e.g. 60+1 (default: untimed)",
    )
    parser.add_argument("--challenge-rated", action="store_true", help="a rated challenge")
    parser.add_argument(
        "--tournament",
        action="append",
        default=[],
        metavar="ID",
        help="enter this tournament at start (repeatable), play all its games and exit "
        "when every one entered is over",
    )
    parser.add_argument(
        "--quit-after", type=int, default=None, metavar="N", help="exit after N games ended"
    )
    parser.add_argument("--log-dir", metavar="DIR", help="save each finished game's record here")
    parser.set_defaults(func=run)


def engine_command(args: argparse.Namespace) -> list[str]:
    """The program to run for each game: ``--engine``, or a built-in ``--level``."""
    if args.engine:
        argv = shlex.split(args.engine)
        if not argv:
            raise UsageError("sansu bot: --engine is empty")
        return argv
    return [sys.executable, "-m", "sansu", "engine", "--level", args.level or "medium"]


def run(args: argparse.Namespace) -> int:
    try:
        import httpx
    except ImportError:
        raise UsageError("sansu bot needs an HTTP client: pip install 'sansu[bot]'") from None

    try:
        token = Path(args.token_file).read_text().strip()
    except OSError as error:
        raise UsageError(f"sansu bot: cannot read the token file: {error.strerror}") from None
    if not token:
        raise UsageError("sansu bot: the token file is empty")
    if args.max_games < 1 or args.move_ms < 1:
        raise UsageError("sansu bot: --max-games and --move-ms must be positive")
    games = None
    if args.games:
        from sansu.core.registry import game_class

        try:
            games = frozenset(game_class(g.strip()).id for g in args.games.split(","))
        except ValueError as error:
            raise UsageError(f"sansu bot: --games: {error}") from None
    challenge = None
    if args.challenge:
        challenge = {
            "name": args.challenge,
            "game": args.challenge_game,
            "rated": args.challenge_rated,
        }
        if args.challenge_time:
            initial, _, increment = args.challenge_time.partition("+")
            try:
                challenge["time_control"] = {
                    "initial_seconds": float(initial),
                    "increment_seconds": float(increment or 0),
                }
            except ValueError:
                raise UsageError(
                    "sansu bot: --challenge-time is INITIAL+INCREMENT seconds"
                ) from None
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s sansu bot: %(message)s", stream=sys.stderr
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    timeout = httpx.Timeout(10.0, read=STREAM_TIMEOUT)

    async def main() -> int:
        async with httpx.AsyncClient(
            base_url=args.server.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        ) as client:
            bridge = Bridge(
                client,
                engine_command(args),
                Filters(games, args.rated, args.timed, args.min_seconds, args.max_seconds),
                max_games=args.max_games,
                move_ms=args.move_ms,
                quit_after=args.quit_after,
                tournaments=list(dict.fromkeys(args.tournament)),
                log_dir=None if args.log_dir is None else Path(args.log_dir),
            )
            return await bridge.run(challenge)

    return asyncio.run(main())
