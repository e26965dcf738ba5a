"""AlphaZero on Ultimate Tic-Tac-Toe: the JAX environment, ``mctx`` and ``optax``.

A recipe, small enough to read in one go: a policy-value network (a plain
JAX multilayer perceptron on the environment's observation), batched
self-play in which Gumbel MuZero's search (``mctx.gumbel_muzero_policy``)
steps copies of the environment itself as its model, value targets from
the games' results, and Adam. Everything in self-play and training is
``jit``-compiled and runs wherever JAX does (a GPU too). Then the trained
network, searching, plays the sansu computer levels through the engine.

Run it (``--tiny`` is the budget the tests use)::

    python -m sansu.envs.jax.alphazero --cpu-seconds 1500 --dir runs/az
    python -m sansu.envs.jax.alphazero --tiny

Training stops after ``--cpu-seconds`` of the process's CPU time, saves a
checkpoint after every iteration and starts from it again when run with the
same ``--dir``, so a budget can be spent in several sittings.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax

from sansu.envs.jax.core import select
from sansu.envs.jax.uttt import UltimateTicTacToe

ENV = UltimateTicTacToe()
Params = dict[str, jax.Array]


@dataclass(frozen=True)
class Config:
    """The recipe's sizes: ``Config()`` is the documented run, :data:`TINY` the tests'."""

    batch: int = 128
    """Games played side by side in self-play."""
    steps: int = 96
    """Moves each game makes per iteration (a game lasts at most 81; unfinished games go on
    in the next iteration, and only moves whose game ended count as samples)."""
    simulations: int = 16
    hidden: int = 128
    minibatch: int = 256
    learning_rate: float = 1e-3
    eval_simulations: int = 32
    seed: int = 0


TINY = Config(batch=8, steps=81, simulations=4, hidden=32, minibatch=32, eval_simulations=4)
"""Every game of the first iteration ends (none lasts more than 81 moves), so it trains."""


# -- the network ---------------------------------------------------------------------


def init_params(key: jax.Array, hidden: int) -> Params:
    """A two-layer perceptron with a policy head (81 logits) and a value head (tanh)."""
    inputs = math.prod(ENV.observation_shape)
    sizes = {"h1": (inputs, hidden), "h2": (hidden, hidden), "pi": (hidden, 81), "v": (hidden, 1)}
    params: Params = {}
    for (name, shape), k in zip(sizes.items(), jax.random.split(key, len(sizes)), strict=True):
        params[name] = jax.random.normal(k, shape) * math.sqrt(2.0 / shape[0])
        params[name + "_b"] = jnp.zeros(shape[1])
    return params


def forward(params: Params, observation: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Policy logits and value (for the player to move) of a batch of observations."""
    x = observation.reshape(observation.shape[0], -1).astype(jnp.float32)
    x = jax.nn.relu(x @ params["h1"] + params["h1_b"])
    x = jax.nn.relu(x @ params["h2"] + params["h2_b"])
    value = jnp.tanh(x @ params["v"] + params["v_b"])[:, 0]
    return x @ params["pi"] + params["pi_b"], value


# -- search and self-play ------------------------------------------------------------


def recurrent_fn(params: Params, key: jax.Array, action: jax.Array, state: Any) -> tuple:
    """The search's model: the environment's own step, the network at the new state.

    The reward is the mover's; the discount −1 turns the next state's value
    (the opponent's) into the mover's, and 0 ends a finished game.
    """
    mover = state.current_player
    state = jax.vmap(ENV.step)(state, action)
    logits, value = forward(params, state.observation)
    logits = jnp.where(state.legal_action_mask, logits, jnp.finfo(logits.dtype).min)
    reward = jnp.take_along_axis(state.rewards, mover[:, None], axis=1)[:, 0]
    value = jnp.where(state.terminated, 0.0, value)
    discount = jnp.where(state.terminated, 0.0, -1.0)
    out = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value)
    return out, state


def search(params: Params, key: jax.Array, state: Any, simulations: int) -> Any:
    """Gumbel MuZero's policy at every game of the batch ``state``."""
    logits, value = forward(params, state.observation)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
    return mctx.gumbel_muzero_policy(
        params,
        key,
        root,
        recurrent_fn,
        num_simulations=simulations,
        invalid_actions=~state.legal_action_mask,
        qtransform=mctx.qtransform_completed_by_mix_value,
        gumbel_scale=1.0,
    )


class Samples(NamedTuple):
    """One self-play iteration, ``[step, game]``: what the network learns from."""

    observation: jax.Array
    policy: jax.Array
    value: jax.Array
    valid: jax.Array


def selfplay(params: Params, state: Any, key: jax.Array, cfg: Config) -> tuple[Any, Samples]:
    """``cfg.steps`` moves of every game; a finished game starts again at once."""
    init, step = jax.vmap(ENV.init), jax.vmap(ENV.step)

    def one(state: Any, key: jax.Array) -> tuple[Any, tuple]:
        pick, fresh = jax.random.split(key)
        out = search(params, pick, state, cfg.simulations)
        mover = state.current_player
        after = step(state, out.action)
        reward = jnp.take_along_axis(after.rewards, mover[:, None], axis=1)[:, 0]
        done = after.terminated
        new = init(jax.random.split(fresh, done.shape[0]))
        after = select(done, new, after)
        return after, (state.observation, out.action_weights, reward, done)

    state, (obs, policy, reward, done) = jax.lax.scan(one, state, jax.random.split(key, cfg.steps))
    return state, Samples(obs, policy, *value_targets(reward, done))


def value_targets(reward: jax.Array, done: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each move's target value for its mover, ``[step, game]``, and whether it has one.

    ``reward`` is the mover's reward for the move, ``done`` whether it ended
    the game (the next move then starts a new one). A move's value is the
    result its game ended with, for its mover; a move whose game had not
    ended when the segment stopped has none.
    """

    def back(later: jax.Array, now: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        reward, done = now
        value = jnp.where(done, reward, -later)  # the next move's mover is the opponent
        return value, value

    _, value = jax.lax.scan(back, jnp.zeros(done.shape[1]), (reward, done), reverse=True)
    valid = jnp.flip(jnp.cumsum(jnp.flip(done, 0), 0), 0) > 0  # a game ended after it
    return value, valid


# -- training ------------------------------------------------------------------------


def loss_fn(params: Params, batch: Samples) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    logits, value = forward(params, batch.observation)
    policy = optax.softmax_cross_entropy(logits, batch.policy).mean()
    weight = batch.valid.astype(jnp.float32)
    value_loss = (weight * (value - batch.value) ** 2).sum() / jnp.maximum(weight.sum(), 1.0)
    return policy + value_loss, (policy, value_loss)


def make_train_step(optimizer: optax.GradientTransformation):
    @jax.jit
    def train_step(params: Params, opt_state: Any, batch: Samples) -> tuple:
        grads, losses = jax.grad(loss_fn, has_aux=True)(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, losses

    return train_step


def minibatches(samples: Samples, size: int, key: jax.Array) -> list[Samples]:
    """The iteration's samples (a move counts if its game ended), shuffled, in batches."""
    flat = Samples(*(x.reshape(-1, *x.shape[2:]) for x in samples))
    keep = np.flatnonzero(np.asarray(flat.valid))
    keep = np.asarray(jax.random.permutation(key, keep))
    return [
        Samples(*(x[keep[i : i + size]] for x in flat))
        for i in range(0, len(keep) - size + 1, size)
    ]


class Trainer:
    """Self-play and training, resumable from a checkpoint in ``directory``."""

    def __init__(self, cfg: Config, directory: Path | None = None) -> None:
        self.cfg, self.directory = cfg, directory
        self.optimizer = optax.adam(cfg.learning_rate)
        key = jax.random.PRNGKey(cfg.seed)
        self.key, init_key, games = jax.random.split(key, 3)
        self.params = init_params(init_key, cfg.hidden)
        self.opt_state = self.optimizer.init(self.params)
        self.state = jax.vmap(ENV.init)(jax.random.split(games, cfg.batch))
        self.iteration, self.cpu_seconds, self.frames = 0, 0.0, 0
        self._selfplay = jax.jit(selfplay, static_argnums=3)
        self._train_step = make_train_step(self.optimizer)
        if directory is not None and (directory / CHECKPOINT).exists():
            self._load(directory / CHECKPOINT)

    def run(self, cpu_seconds: float, iterations: int | None = None, log: Any = print) -> None:
        """Iterate until the process has spent ``cpu_seconds`` in all (or ``iterations``)."""
        done = 0
        while self.cpu_seconds < cpu_seconds and (iterations is None or done < iterations):
            start = time.process_time()
            self.key, play, shuffle = jax.random.split(self.key, 3)
            self.state, samples = self._selfplay(self.params, self.state, play, self.cfg)
            losses = []
            for batch in minibatches(samples, self.cfg.minibatch, shuffle):
                self.params, self.opt_state, loss = self._train_step(
                    self.params, self.opt_state, batch
                )
                losses.append([float(x) for x in loss])
            self.iteration += 1
            done += 1
            self.frames += self.cfg.batch * self.cfg.steps
            self.cpu_seconds += time.process_time() - start
            policy, value = np.mean(losses, axis=0) if losses else (math.nan, math.nan)
            log(
                f"iteration {self.iteration:4}  cpu {self.cpu_seconds:7.0f} s"
                f"  positions {self.frames:9,}  policy loss {policy:.3f}  value loss {value:.3f}"
            )
            if self.directory is not None:
                self._save(self.directory / CHECKPOINT)

    def _save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        leaves = jax.tree_util.tree_leaves((self.params, self.opt_state, self.key))
        counters = [self.iteration, self.cpu_seconds, self.frames]
        np.savez(path.with_suffix(".tmp.npz"), counters, *leaves)
        path.with_suffix(".tmp.npz").replace(path)

    def _load(self, path: Path) -> None:
        with np.load(path) as data:
            arrays = [data[f"arr_{i}"] for i in range(len(data.files))]
        counters, leaves = arrays[0], arrays[1:]
        tree = (self.params, self.opt_state, self.key)
        flat, treedef = jax.tree_util.tree_flatten(tree)
        shapes = [a.shape for a in flat], [b.shape for b in leaves]
        if shapes[0] != shapes[1]:
            raise ValueError(f"{path} was saved with another configuration")
        self.params, self.opt_state, self.key = jax.tree_util.tree_unflatten(
            treedef, [jnp.asarray(x) for x in leaves]
        )
        self.iteration, self.cpu_seconds, self.frames = (
            int(counters[0]),
            counters[1],
            int(counters[2]),
        )


CHECKPOINT = Path("alphazero-uttt.npz")


# -- playing the computer levels -----------------------------------------------------


def play_levels(
    params: Params, levels: list[str], games: int, simulations: int, seed: int = 0
) -> dict[str, tuple[float, float, float]]:
    """Score (wins + draws/2, per game) and its 95% Wilson interval against each level.

    The network searches ``simulations`` a move; it plays X in half the games.
    All games of a level go on side by side: one batched search a move.
    """
    import sansu
    from sansu.ai import player_for
    from sansu.ai.arena import wilson
    from sansu.ai.levels import level_for
    from sansu.envs.encoding import encoding_for, returns

    game = sansu.load_game("uttt")
    enc = encoding_for(game)
    choose = jax.jit(lambda p, k, s: search(p, k, s, simulations).action)
    step = jax.jit(jax.vmap(ENV.step))
    results = {}
    for level in levels:
        budget = level_for("uttt", level).simulations
        players = [player_for(game, level, seed=seed + i) for i in range(games)]
        engines = [game.initial_state() for _ in range(games)]
        seats = np.arange(games) % 2  # the network's seat in each game
        key = jax.random.PRNGKey(seed)
        state = jax.vmap(ENV.init)(jax.random.split(key, games))
        while any(e.result is None for e in engines):
            key, sub = jax.random.split(key)
            ours = np.asarray(choose(params, sub, state))
            actions = np.zeros(games, np.int32)
            for i, engine in enumerate(engines):
                if engine.result is not None:
                    continue
                if engine.to_move == seats[i]:
                    actions[i] = ours[i]
                else:
                    move = players[i].choose(engine, simulations=budget).move
                    actions[i] = enc.action_of(move)
                engines[i] = engine.play(enc.move_of(engine, int(actions[i])))
            state = step(state, jnp.asarray(actions))
        score = sum((returns(e)[seats[i]] + 1) / 2 for i, e in enumerate(engines))
        results[level] = (score / games, *wilson(score, games))
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="the tests' budget: seconds")
    parser.add_argument("--cpu-seconds", type=float, default=1500.0)
    parser.add_argument("--iterations", type=int, help="stop after this many (this sitting)")
    parser.add_argument("--dir", type=Path, help="checkpoint here, and resume from it")
    parser.add_argument("--levels", default="beginner,easy", help="computer levels to play")
    parser.add_argument("--games", type=int, default=100, help="games against each level")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.cpu_seconds <= 0 or args.games < 0:
        parser.error("--cpu-seconds must be positive and --games not negative")
    cfg = replace(TINY if args.tiny else Config(), seed=args.seed)
    iterations = 1 if args.tiny else args.iterations
    games = 2 if args.tiny else args.games
    print("devices:", jax.devices(), " config:", asdict(cfg))
    trainer = Trainer(cfg, args.dir)
    trainer.run(args.cpu_seconds, iterations)
    levels = [level for level in args.levels.split(",") if level]
    if games:
        results = play_levels(trainer.params, levels, games, cfg.eval_simulations, args.seed)
        for level, (score, low, high) in results.items():
            print(
                f"against {level:8}: {score:.1%} of {games} games (95% {low:.1%}–{high:.1%})"
                f" after {trainer.cpu_seconds:.0f} s of CPU, {trainer.frames:,} positions"
            )


if __name__ == "__main__":
    main()
