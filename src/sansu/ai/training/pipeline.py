"""The training pipeline of the networks: self-play, fitting, a match, promotion.

A run trains a value network (``target="value"``) or the policy network of
``max``'s search (``target="policy"``: its self-play and matches are ``max``'s
search with the shipped value network, and the network learns the share of
the root's visits each move got).

One generation: the champion (at first, the search with playouts alone)
plays games against itself; a candidate network is fitted to the results of
the latest generations' positions; the candidate plays the champion and
replaces it only if it wins significantly (the lower end of the 95% Wilson
interval of its score above ½). Everything is seeded from one seed, so a run
gives the same weights wherever its workers run.

A run lives in a checkpoint directory: its settings (``run.json``), each
generation's self-play chunks, candidate and match, and ``state.json`` (the
generation reached and the champion). Every file is written whole (a
temporary file renamed), so a run stopped at any point resumes where it was,
redoing at most the chunk or step it was in.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from sansu.ai.arena import elo, wilson
from sansu.ai.network import NET_GAMES, PolicyNet, ValueNet
from sansu.ai.training.workers import Mapper

SAMPLE = 50_000
"""Positions on which a run reports the fitted network's loss."""


@dataclass(frozen=True)
class TrainConfig:
    """The settings of a run; a run resumes only with the same ones."""

    game: str
    target: str = "value"
    """What to train: ``value`` (a value network) or ``policy`` (``max``'s policy network)."""
    seed: int = 0
    generations: int = 2
    games: int = 8_000
    """Self-play games per generation."""
    simulations: int = 1_500
    """Simulations per self-play move."""
    explore: int = 12
    """Self-play plies drawn with odds ∝ visits (the others: the most searched move)."""
    children: int = 0
    """Root moves searched at least this many times (other than the best) also become
    positions, valued by the search: the network then sees siblings ranked as a search ranks
    them, which is how ``hard`` and ``max`` use it (0: none; tried for UTTT's ``max``, it did
    not make it stronger: docs/ai.md)."""
    chunk: int = 50
    """Self-play games per task (the unit of work that a resumed run may redo)."""
    hidden: int = 128
    epochs: int = 2
    batch: int = 1_024
    learning_rate: float = 3e-3
    q_weight: float = 0.85
    """The target is ``(1 - q_weight) * result + q_weight * search value``."""
    window: int = 3
    """Generations of self-play data that a candidate is fitted to."""
    mix: float = 1.0
    """The network's share of a leaf's value in the search (1: no playouts)."""
    c_uct: float = 0.15
    """The exploration of a network's search: its values are smoother than playouts' results,
    so it explores less (the playout search keeps 0.5)."""
    match_games: int = 100
    match_simulations: int = 1_000
    opening: int = 2
    """Uniformly random plies that start each match game."""
    prior: float = 1.0
    """A policy run: the weight of the policy's priors in ``max``'s search (PUCT)."""
    fpu: float = 0.0
    """A policy run: how far below its parent's mean an unvisited move is taken to be."""
    search: str = "uct"
    """A value run's search: ``uct`` (the network's UCT search, or playouts alone while there
    is no champion) or ``bestfirst`` (:class:`~sansu.ai.bestfirst.BestFirstSearch` at its
    defaults, on the champion or, while there is none, the shipped network)."""

    def __post_init__(self) -> None:
        if self.game not in NET_GAMES:
            raise ValueError(f"no value network for {self.game!r} (games: {', '.join(NET_GAMES)})")
        if self.target not in ("value", "policy"):
            raise ValueError(f"target must be value or policy, not {self.target!r}")
        if self.search not in ("uct", "bestfirst"):
            raise ValueError(f"search must be uct or bestfirst, not {self.search!r}")
        if self.search == "bestfirst" and self.target != "value":
            raise ValueError("a best-first run trains a value network")
        if self.target == "policy" and self.children:
            raise ValueError("children adds positions without visits: a policy run has none")
        if self.prior <= 0 or not 0.0 <= self.fpu <= 1.0:
            raise ValueError("prior must be positive and fpu in [0, 1]")
        for name in ("generations", "games", "simulations", "chunk", "hidden", "epochs", "batch"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        if self.children < 0:
            raise ValueError(f"children must be 0 or more, not {self.children}")
        if self.match_games < 2 or self.match_simulations <= 0 or self.window <= 0:
            raise ValueError("a match needs at least 2 games and a positive simulation budget")
        if not 0.0 < self.mix <= 1.0 or not 0.0 <= self.q_weight <= 1.0 or self.c_uct <= 0:
            raise ValueError("mix must be in (0, 1], q_weight in [0, 1] and c_uct above 0")
        if self.explore < 0 or self.opening < 0 or self.learning_rate <= 0:
            raise ValueError("explore and opening must be ≥ 0, learning_rate > 0")


@dataclass
class MatchReport:
    """A candidate's match against the champion."""

    games: int
    wins: int
    draws: int
    losses: int
    score: float
    promoted: bool

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def line(self) -> str:
        low, high = self.interval
        rate = self.score / self.games
        verdict = "promoted" if self.promoted else "not promoted"
        return (
            f"candidate vs champion: +{self.wins} ={self.draws} -{self.losses}, score"
            f" {100 * rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%), Elo"
            f" {elo(rate):+.0f} ({elo(low):+.0f} to {elo(high):+.0f}): {verdict}"
        )


def _write_atomic(path: Path, write: Callable[[Any], None], mode: str = "wb") -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, mode) as out:
        write(out)
    os.replace(tmp, path)


def _write_json(path: Path, data: Any) -> None:
    _write_atomic(path, lambda out: json.dump(data, out, indent=1), "w")


class Run:
    """A training run in its checkpoint directory."""

    def __init__(self, config: TrainConfig, directory: str | Path) -> None:
        self.config = config
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        settings = self.dir / "run.json"
        if settings.exists():
            # A setting added since the run began was at its default then.
            defaults = {f.name: f.default for f in fields(config) if f.default is not MISSING}
            saved = {**defaults, **json.loads(settings.read_text())}
            if saved != asdict(config):
                changed = sorted(k for k in saved if saved[k] != asdict(config).get(k))
                raise ValueError(
                    f"{self.dir} holds a run with other settings ({', '.join(changed)}): "
                    "resume it with the same ones or use another directory"
                )
        else:
            _write_json(settings, asdict(config))
        state = self.dir / "state.json"
        self.state = (
            json.loads(state.read_text())
            if state.exists()
            else {"generation": 0, "champion": None, "history": []}
        )

    @property
    def champion(self) -> Any:
        """The champion network (a :class:`ValueNet` or :class:`PolicyNet`), or ``None``."""
        path = self.state["champion"]
        if path is None:
            return None
        return (PolicyNet if self.policy else ValueNet).load(self.dir / path)

    @property
    def policy(self) -> bool:
        return self.config.target == "policy"

    def level(self) -> dict[str, Any] | None:
        """The strongest playout search's settings (``max``'s, or Sansumoku's
        :data:`~sansu.ai.levels.SANSUMOKU_PUCT` now that its ``max`` searches best-first),
        which a policy run's games use; ``None`` otherwise."""
        if not self.policy:
            return None
        from sansu.ai.levels import playout_max

        m = playout_max(self.config.game)
        return {
            "c_uct": m.c_uct, "playout": m.playout, "net": m.net, "net_visits": m.net_visits,
            "prior": self.config.prior, "fpu": self.config.fpu,
        }  # fmt: skip

    def gen_dir(self, generation: int) -> Path:
        path = self.dir / f"gen-{generation:03d}"
        path.mkdir(exist_ok=True)
        return path

    # -- one generation, step by step (each step skipped when its files exist) ---------

    def self_play(self, generation: int, mapper: Mapper) -> None:
        from sansu.ai.training.selfplay import self_play

        c = self.config
        out = self.gen_dir(generation)
        champion = self.champion
        level = self.level()
        todo = []
        for first in range(0, c.games, c.chunk):
            path = out / f"selfplay-{first:05d}.npz"
            if not path.exists():
                task = {
                    "game": c.game, "seed": c.seed * 7919 + generation * 104_729 + first,
                    "count": min(c.chunk, c.games - first), "simulations": c.simulations,
                    "explore": c.explore, "children": c.children, "net": champion, "mix": c.mix,
                    "c_uct": c.c_uct, "level": level, "bestfirst": c.search == "bestfirst",
                }  # fmt: skip
                todo.append((path, task))
        for path, data in mapper.map(self_play, todo, f"generation {generation}: self-play"):
            _write_atomic(path, lambda f, d=data: np.savez_compressed(f, **d))

    def dataset(self, generation: int) -> tuple[np.ndarray, np.ndarray]:
        """Features and targets of the last ``window`` generations up to ``generation``:
        values, or (a policy run) visit shares."""
        xs, ts = [], []
        q = self.config.q_weight
        for g in range(max(0, generation - self.config.window + 1), generation + 1):
            for path in sorted(self.gen_dir(g).glob("selfplay-*.npz")):
                with np.load(path) as data:
                    xs.append(data["x"])
                    ts.append(data["v"] if self.policy else (1.0 - q) * data["z"] + q * data["q"])
        return np.concatenate(xs), np.concatenate(ts).astype(np.float32)

    def fit(self, generation: int, progress: Callable[[Any, int], Any] | None = None) -> Any:
        kind = PolicyNet if self.policy else ValueNet
        path = self.gen_dir(generation) / "candidate.npz"
        if path.exists():
            return kind.load(path)
        c = self.config
        seed = c.seed * 7919 + generation
        start = self.champion
        if start is None or start.hidden != c.hidden:
            start = kind.initial(c.game, c.hidden, seed)
        x, t = self.dataset(generation)
        net = fit(start, x, t, epochs=c.epochs, batch=c.batch, rate=c.learning_rate, seed=seed,
                  progress=progress)  # fmt: skip
        _write_atomic(path, net.save)
        return net

    def match(self, generation: int, candidate: ValueNet, mapper: Mapper) -> MatchReport:
        from sansu.ai.training.selfplay import match_game

        path = self.gen_dir(generation) / "match.json"
        if path.exists():
            return MatchReport(**json.loads(path.read_text()))
        c = self.config
        champion, level = self.champion, self.level()
        todo = [
            (i, {"game": c.game, "seed": c.seed * 7919 + generation, "index": i,
                 "a": candidate, "b": champion, "mix": c.mix, "c_uct": c.c_uct,
                 "simulations": c.match_simulations, "opening": c.opening, "level": level,
                 "bestfirst": c.search == "bestfirst"})
            for i in range(c.match_games)
        ]  # fmt: skip
        scores = [s for _, s in mapper.map(match_game, todo, f"generation {generation}: match")]
        wins = sum(1 for s in scores if s == 1.0)
        losses = sum(1 for s in scores if s == 0.0)
        score = float(sum(scores))
        low, _ = wilson(score, len(scores))
        report = MatchReport(
            len(scores), wins, len(scores) - wins - losses, losses, score, low > 0.5
        )
        _write_json(path, asdict(report))
        return report

    def finish_generation(self, generation: int, report: MatchReport) -> None:
        if report.promoted:
            self.state["champion"] = f"gen-{generation:03d}/candidate.npz"
        self.state["history"].append({"generation": generation, **asdict(report)})
        self.state["generation"] = generation + 1
        _write_json(self.dir / "state.json", self.state)


def fit(
    net: Any,
    x: np.ndarray,
    target: np.ndarray,
    *,
    epochs: int,
    batch: int,
    rate: float,
    seed: int,
    progress: Callable[[Any, int], Any] | None = None,
) -> Any:
    """``net`` fitted by Adam: a :class:`ValueNet` to values in [-1, 1] (squared error),
    a :class:`PolicyNet` to visit shares (cross-entropy of its odds of the legal moves).

    Plain NumPy: a network of one small hidden layer trains in seconds on a
    core, so no deep-learning framework is needed. Returns a new network.
    """
    gradients = _policy_gradients if isinstance(net, PolicyNet) else _gradients
    rng = np.random.default_rng(seed)
    params = [a.astype(np.float32).copy() for a in net.arrays()]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, decay = 0.9, 0.999, 1e-8, 1e-5
    n = x.shape[0]
    per_epoch = max(1, -(-n // batch))
    steps = epochs * per_epoch
    wrap = progress or (lambda it, total: it)
    order = rng.permutation(n)
    for step in wrap(range(steps), steps):
        if step and step % per_epoch == 0:
            order = rng.permutation(n)
        at = (step % per_epoch) * batch
        rows = order[at : at + batch]
        grads = gradients(params, x[rows], target[rows])
        done = step + 1
        for p, g, m, v in zip(params, grads, moments, squares, strict=True):
            g = g + decay * p
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= rate * (m / (1 - beta1**done)) / (np.sqrt(v / (1 - beta2**done)) + eps)
    return type(net)(*params, game=net.game)


def _gradients(params: Sequence[np.ndarray], x: np.ndarray, t: np.ndarray) -> list[np.ndarray]:
    w1, b1, w2, b2 = params
    x = x.astype(np.float32)
    pre = x @ w1 + b1
    h = np.maximum(pre, 0.0)
    y = np.tanh(h @ w2 + b2[0])
    dout = (2.0 / len(t)) * (y - t) * (1.0 - y * y)
    dh = np.outer(dout, w2) * (pre > 0)
    return [x.T @ dh, dh.sum(axis=0), h.T @ dout, np.array([dout.sum()], np.float32)]


def _policy_gradients(
    params: Sequence[np.ndarray], x: np.ndarray, t: np.ndarray
) -> list[np.ndarray]:
    odds, h = PolicyNet(*params).forward(x)
    dz = (odds - t) / len(t)
    dh = (dz @ params[2]) * (h > 0)
    xf = x.astype(np.float32)
    return [xf.T @ dh, dh.sum(axis=0), dz.T @ h, dz.sum(axis=0)]


def loss(net: Any, x: np.ndarray, target: np.ndarray) -> float:
    """The mean squared error of a :class:`ValueNet` on ``x``; for a :class:`PolicyNet`, the
    mean cross-entropy of its odds against the visit shares ``target``."""
    if isinstance(net, PolicyNet):
        odds = net.odds(x)
        return float(-np.mean(np.sum(target * np.log(np.maximum(odds, 1e-12)), axis=1)))
    return float(np.mean((net.predict(x) - target) ** 2))


def train(
    config: TrainConfig,
    directory: str | Path,
    *,
    mapper: Mapper,
    say: Callable[[str], None] = print,
    out: str | Path | None = None,
) -> Run:
    """Run (or resume) the generations of ``config`` in ``directory``.

    ``out``: where to write the final champion's weights (nothing is written
    when no candidate was ever promoted).
    """
    import time

    from sansu.ai.training.workers import progress_bar

    def bar(iterable: Any, total: int) -> Any:
        progress = progress_bar("fitting", total)
        for item in iterable:
            yield item
            progress.update(1)
        progress.close()

    run = Run(config, directory)
    for generation in range(run.state["generation"], config.generations):
        start = time.perf_counter()
        run.self_play(generation, mapper)
        candidate = run.fit(generation, progress=bar)
        x, t = run.dataset(generation)
        report = run.match(generation, candidate, mapper)
        run.finish_generation(generation, report)
        say(
            f"generation {generation}: {x.shape[0]} positions (with symmetries), fit loss"
            f" {loss(candidate, x[:SAMPLE], t[:SAMPLE]):.4f}; {report.line()}"
            f" [{time.perf_counter() - start:.0f} s]"
        )
    champion = run.champion
    if out is not None and champion is not None:
        _write_atomic(Path(out), champion.save)
        say(f"champion written to {out} ({champion.parameters} parameters)")
    elif out is not None:
        say("no candidate was promoted: nothing written")
    return run
