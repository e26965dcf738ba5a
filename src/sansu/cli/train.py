"""``sansu train GAME``: self-play, fit a network, promote it if it beats the champion.

A run lives in a checkpoint directory and resumes from it after an
interruption (the same command again). Self-play games and match games run
on ``--jobs`` local processes, or on a Ray cluster with ``--ray ADDRESS``
(``--ray local`` starts one on this machine). The same ``--seed`` gives the
same weights.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields

from sansu.cli.main import UsageError

HELP = {
    "target": "value (a value network) or policy (max's policy network, over max's search)",
    "prior": "a policy run: weight of the policy's priors in max's search",
    "fpu": "a policy run: an unvisited move's value below its parent's mean",
    "generations": "generations of self-play, fitting and a match",
    "games": "self-play games per generation",
    "simulations": "simulations per self-play move",
    "children": "root moves searched this often (not the best) add their positions too; 0: none",
    "match_games": "games of the candidate against the champion",
    "match_simulations": "simulations per match move",
    "hidden": "hidden units of the network",
    "epochs": "passes over the data when fitting",
    "q_weight": "the search value's share of the target, the result's the rest",
    "c_uct": "exploration of the network's search (playouts' search: 0.5)",
    "search": "a value run's search: uct, or bestfirst (on the shipped network at first)",
    "mix": "the network's share of a leaf's value, 0 < MIX ≤ 1 (1: no playouts)",
}
"""What each setting is; its default comes from :class:`~sansu.ai.training.TrainConfig`."""


def register(sub: argparse._SubParsersAction) -> None:
    from sansu.ai.training import TrainConfig

    parser = sub.add_parser(
        "train", help="train a game's value or policy network by self-play", description=__doc__
    )
    parser.add_argument("game", metavar="GAME", help="uttt or sansumoku")
    parser.add_argument("--dir", default=None, help="checkpoint directory (default train-GAME)")
    parser.add_argument("--out", default=None, help="write the final champion's weights here")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="local worker processes")
    parser.add_argument("--ray", metavar="ADDRESS", default=None, help="run workers on Ray")
    for f in fields(TrainConfig):
        if f.name == "game":
            continue
        flag = "--" + f.name.replace("_", "-")
        text = f"{HELP[f.name]} " if f.name in HELP else ""
        parser.add_argument(
            flag, type=type(f.default), default=f.default, help=f"{text}(default {f.default})"
        )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sansu.ai.training import Mapper, TrainConfig, train

    names = [f.name for f in fields(TrainConfig) if f.name != "game"]
    try:
        config = TrainConfig(args.game, **{n: getattr(args, n) for n in names})
        mapper = Mapper(args.jobs, args.ray)
    except ValueError as error:
        raise UsageError(f"sansu train: {error}") from None
    with mapper:
        try:
            train(config, args.dir or f"train-{args.game}", mapper=mapper, out=args.out,
                  say=lambda line: print(line, flush=True))  # fmt: skip
        except ValueError as error:
            print(f"sansu train: {error}", file=sys.stderr)
            return 2
    return 0
