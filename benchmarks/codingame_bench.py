"""Ultimate Tic-Tac-Toe: a sansu player against any bot speaking CodinGame's protocol.

The public Ultimate Tic-Tac-Toe bots (CodinGame's arena holds hundreds, the strongest in
C and C++) read the opponent's move and the valid actions on stdin and answer ``row
col``. This bench starts one as a program (``--bot CMD``) for each game and plays it
against a sansu player (``--player``, ``max`` by default, settings allowed), colours
alternating, sansu's player at ``--time-ms`` a move (the bot keeps its own clock). Games
are scored by sansu's rules: a full board with no line of three sections is a draw
(CodinGame gives it to whoever won more sections).

It prints the score with its 95% interval and the Elo, the score by colour, and each
side's mean and slowest move. Without ``--bot`` the opponent is sansu's own ``max``
through the protocol (``sansu codingame uttt``): a check of the harness, expected near
50%. docs/ai.md gives the figures against the strongest bot obtained.

With ``--engine`` sansu's player is itself a program, ``sansu engine uttt --level
PLAYER``, as a user would run it, told the moves so far and ``go time_ms T`` each turn.

Usage: ``python benchmarks/codingame_bench.py [--bot CMD] [--player NAME] [--games N]
[--time-ms T] [--first-ms F] [--varied V] [--engine] [--jobs J] [--seed S]`` (``F``: sansu's first
move, as the 1,000 ms CodinGame gives a first turn; by default ``T`` like the others.
``V``: sansu's first ``V`` moves are drawn among its search's candidates with odds ∝
visits, so that a player that searches without chance, against a bot that answers alike
every time, does not replay one game per colour).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import shlex
import subprocess
import sys
import types
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import sansu
from sansu.ai.arena import Outcome, make_player, play_game, summarise, wilson
from sansu.cli.codingame import from_cell, to_cell

OWN = f"{shlex.quote(sys.executable)} -m sansu codingame uttt --level max --time-ms 90"
"""The opponent without ``--bot``: sansu's ``max`` itself, through the protocol."""


class Bot:
    """A CodinGame bot as a player of :func:`play_game`: one process a game."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def warm_up(self) -> None:
        """Nothing to load: the bot's own first turn is its warm-up."""

    def choose(self, state: Any, time_ms: Any = None, simulations: Any = None) -> Any:
        last = getattr(state, "last_move", None)
        moves = [str(m) for m in state.legal_moves()]
        lines = [to_cell(last) if last is not None else "-1 -1", str(len(moves))]
        lines += [to_cell(m) for m in moves]
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\n".join(lines) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        move = from_cell(" ".join(answer.split()[:2]))  # a bot may add a message after
        if move not in moves:
            raise RuntimeError(f"the bot played {answer.strip()!r}, not a valid action")
        return types.SimpleNamespace(move=move)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


class FirstLonger:
    """sansu's player with ``first_ms`` for its first move, as CodinGame gives every bot
    1,000 ms for its first turn (the public bot thinks ten times its 90 ms then)."""

    def __init__(self, player: Any, first_ms: int) -> None:
        self.player = player
        self.first_ms = first_ms
        self.moved = False

    def warm_up(self) -> None:
        if hasattr(self.player, "warm_up"):
            self.player.warm_up()

    def choose(self, state: Any, time_ms: Any = None, simulations: Any = None) -> Any:
        if not self.moved:
            self.moved, time_ms = True, self.first_ms
        return self.player.choose(state, time_ms=time_ms, simulations=simulations)


class Varied:
    """sansu's player whose first ``plies`` moves are drawn among its search's candidates
    with odds ∝ visits (seeded by the game), so that games against a bot that always
    answers alike are not one game replayed."""

    def __init__(self, player: Any, plies: int, seed: int) -> None:
        self.player = player
        self.plies = plies
        self.rng = random.Random(seed)

    def warm_up(self) -> None:
        if hasattr(self.player, "warm_up"):
            self.player.warm_up()

    def choose(self, state: Any, time_ms: Any = None, simulations: Any = None) -> Any:
        analysis = self.player.choose(state, time_ms=time_ms, simulations=simulations)
        if self.plies <= 0:
            return analysis
        self.plies -= 1
        pool = [c for c in analysis.candidates if c.visits > 0]
        if len(pool) < 2 or analysis.proven is not None:
            return analysis
        move = self.rng.choices(pool, weights=[c.visits for c in pool])[0].move
        return dataclasses.replace(analysis, move=move)


class Engine:
    """sansu's player as any program would use it: ``sansu engine uttt --level PLAYER``,
    one process a game, told the moves so far and ``go time_ms T`` each turn. Its first
    ``plies`` moves, when varied, are drawn as :class:`Varied` draws them, by the same
    player in this process (the engine prints no candidates); it plays the rest."""

    def __init__(self, level: str, opening: Any, plies: int, seed: int, first_ms: Any) -> None:
        command = [sys.executable, "-m", "sansu", "engine", "uttt", "--level", level]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.opening = Varied(opening, plies, seed) if plies else None
        self.plies = plies
        self.first_ms = first_ms
        self.moved = False
        self.moves: list[str] = []

    def _ask(self, line: str, until: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        while True:
            answer = self.process.stdout.readline()
            if not answer:
                raise RuntimeError(f"sansu engine ended at {line!r}")
            if answer.startswith("error"):
                raise RuntimeError(f"sansu engine answered {answer.strip()!r} to {line!r}")
            if answer.startswith(until):
                return answer

    def warm_up(self) -> None:
        """Wait until the engine has loaded its compiled code (it answers once it has)."""
        self._ask("moves", "ok")
        if self.opening is not None:
            self.opening.warm_up()

    def choose(self, state: Any, time_ms: Any = None, simulations: Any = None) -> Any:
        if state.last_move is not None:
            self.moves.append(str(state.last_move))
        if self.first_ms is not None and not self.moved:
            time_ms = self.first_ms
        self.moved = True
        if self.plies > 0 and self.opening is not None:
            self.plies -= 1
            move = self.opening.choose(state, time_ms=time_ms, simulations=simulations).move
        else:
            self._ask("moves " + " ".join(self.moves), "ok")
            move = self._ask(f"go time_ms {time_ms}", "bestmove").split()[1]
        self.moves.append(str(move))
        return types.SimpleNamespace(move=state.game.parse_move(str(move)))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def one_game(task: dict[str, Any]) -> Outcome:
    game = sansu.load_game("uttt")
    bots: list[Any] = []

    def factory(g: Any, name: str, seed: int) -> Any:
        if name == "bot":
            bots.append(Bot(task["bot"]))
            return bots[-1]
        player = make_player(g, name, seed=seed)
        first_ms, varied = task.get("first_ms"), task.get("varied", 0)
        if task.get("engine"):
            bots.append(Engine(name, player, varied, seed, first_ms))
            return bots[-1]
        player = player if first_ms is None else FirstLonger(player, first_ms)
        return Varied(player, varied, seed) if varied else player

    first = task["index"] % 2
    seats = (task["player"], "bot") if first == 0 else ("bot", task["player"])
    try:
        return play_game(
            game, seats, seed=task["seed"] * 1000 + task["index"],
            time_ms={task["player"]: task["time_ms"]}, first_seat=first,
            index=task["index"], factory=factory,
        )  # fmt: skip
    finally:
        for bot in bots:
            bot.close()


def report(player: str, outcomes: Sequence[Outcome]) -> list[str]:
    """The lines the bench prints (the score is ``player``'s)."""
    summary = summarise(player, "bot", outcomes)
    lines = [summary.line()]
    for first, label in ((0, "moving first"), (1, "moving second")):
        mine = [o for o in outcomes if o.first_seat == first]
        if mine:
            score = sum(o.score for o in mine)
            low, high = wilson(score, len(mine))
            lines.append(
                f"  {label}: {100 * score / len(mine):.1f}% over {len(mine)}"
                f" (95% CI {100 * low:.1f}–{100 * high:.1f}%)"
            )
    for name in (player, "bot"):
        times = [t for o in outcomes for t in o.times_ms.get(name, [])]
        if times:
            lines.append(
                f"  {name}: mean move {sum(times) / len(times):.1f} ms,"
                f" slowest {max(times):.0f} ms"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default=OWN, help="the bot's command line")
    parser.add_argument("--player", default="max", help="sansu's player (max:c_uct=0.5 …)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time-ms", type=int, default=100, help="sansu's time a move")
    parser.add_argument(
        "--first-ms", type=int, default=None,
        help="sansu's time for its first move (default: --time-ms; CodinGame gives 1,000)",
    )  # fmt: skip
    parser.add_argument(
        "--varied", type=int, default=0,
        help="sansu's first N moves drawn among its candidates with odds ∝ visits",
    )  # fmt: skip
    parser.add_argument(
        "--engine", action="store_true",
        help="sansu's player through `sansu engine`, a program of its own, as users run it",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv if argv is not None else [])
    todo = [
        {"bot": args.bot, "player": args.player, "time_ms": args.time_ms,
         "first_ms": args.first_ms, "seed": args.seed, "varied": args.varied, "index": i,
         "engine": args.engine}
        for i in range(args.games)
    ]  # fmt: skip
    first = "" if args.first_ms is None else f", its first move {args.first_ms} ms"
    first += f", its first {args.varied} moves drawn ∝ visits" if args.varied else ""
    first += ", through `sansu engine`" if args.engine else ""
    print(f"== {args.player} against {args.bot} ({args.games} games{first})")
    if args.jobs <= 1:
        outcomes = [one_game(t) for t in todo]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(one_game, todo))
    print("\n".join(report(args.player, outcomes)))


if __name__ == "__main__":
    main(sys.argv[1:])
