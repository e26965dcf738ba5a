"""Value and policy networks as data: weights in a small ``.npz``, NumPy forward passes,
the shipped ones.

The compiled search evaluates a network with
:func:`sansu.ai.kernels.valuenet.forward`; :meth:`ValueNet.predict` is the same
network in plain NumPy, over many positions at once, for training and as the
reference the compiled one is tested against. Trained weights ship in
``sansu/ai/weights/GAME.npz`` (see ``sansu train``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from sansu.ai.kernels.valuenet import LEGAL_AT, N_FEATURES

NET_GAMES = ("uttt", "sansumoku")
"""Games whose compiled search can use a value network."""
MOVES = 81
"""Move codes of both games (``9 * section + position``): a policy network's outputs."""


def kernel_weights(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A network's layers as the compiled search reads them: the first layer's weights as
    int16 and its biases as int32, both times a power of two as large as int16 allows, and
    the output weights divided by it (ReLU commutes with a positive factor).

    The first layer is where an evaluation spends its time, adding one row per active
    feature: half the bytes of float32, about a quarter off
    :func:`~sansu.ai.kernels.valuenet.forward`.
    A weight moves by at most half a step, ``0.5 / scale`` (about 10⁻⁴ for the shipped
    networks), and the sums are exact in int32.
    """
    top = max(float(np.abs(w1).max(initial=0.0)), float(np.abs(b1).max(initial=0.0)), 1e-30)
    scale = np.float32(2.0 ** np.floor(np.log2(32767.0 / top)))
    return (
        np.rint(w1 * scale).astype(np.int16),
        np.rint(b1 * scale).astype(np.int32),
        (w2 / scale).astype(np.float32),
    )


@dataclass
class OneHiddenLayer:
    """The weights both networks share: a first layer over the features (one row per
    feature), ReLU, and an output layer; what they mean is the subclass's."""

    w1: np.ndarray
    """``N_FEATURES × hidden``: the first layer, one row per feature."""
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    game: str = ""

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    @property
    def parameters(self) -> int:
        return sum(a.size for a in self.arrays())

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.w1, self.b1, self.w2, self.b2

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The weights as the compiled search reads them (see :func:`kernel_weights`)."""
        return (*kernel_weights(self.w1, self.b1, self.w2), self.b2)

    def _hidden_layer(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x.astype(np.float32) @ self.w1 + self.b1, 0.0)

    @classmethod
    def _read(
        cls, path: str | Path, what: str, *, kind: str | None = None, b2_size: int | None = None
    ) -> Any:
        """The weights saved at ``path`` (with ``kind`` marked, ``b2`` reshaped to ``b2_size``
        numbers when given); ``ValueError`` naming ``what`` if the file holds none."""
        try:
            with np.load(path) as data:
                if kind is not None and str(data["kind"]) != kind:
                    raise ValueError(f"not marked as a {what}")
                w1, b1, w2, b2 = (
                    np.ascontiguousarray(data[k], np.float32) for k in ("w1", "b1", "w2", "b2")
                )
                if b2_size is not None:
                    b2 = b2.reshape(b2_size)
                return cls(w1, b1, w2, b2, str(data["game"]))
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a {what} ({error})") from None

    def _write(self, target: str | Path | BinaryIO, **marks: str) -> None:
        if isinstance(target, str | Path):
            # Through a file object: np.savez would add ".npz" to a name without it.
            with open(target, "wb") as out:
                self._write(out, **marks)
            return
        np.savez(target, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, game=self.game, **marks)


@dataclass
class ValueNet(OneHiddenLayer):
    """One hidden layer of ReLU units and a tanh output over the features of a position.

    ``w2`` has one weight per hidden unit; ``b2`` is one number (an array of shape
    ``(1,)``, as the compiled code wants it).
    """

    @classmethod
    def initial(cls, game: str, hidden: int, seed: int) -> ValueNet:
        """Small random weights (He initialisation), reproducible from ``seed``."""
        rng = np.random.default_rng(seed)
        # About 60 features are active at once: scale for that many inputs.
        w1 = rng.normal(0.0, np.sqrt(2.0 / 60), (N_FEATURES, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), hidden).astype(np.float32)
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(1, np.float32), game)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Values in [-1, 1] of the dense feature rows ``x`` (``positions × N_FEATURES``)."""
        return np.tanh(self._hidden_layer(x) @ self.w2 + self.b2[0])

    def save(self, target: str | Path | BinaryIO) -> None:
        """Write the weights to a path or an open binary file."""
        self._write(target)

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """The network saved at ``path``; ``ValueError`` if the file holds no such network."""
        net = cls._read(path, "value network", b2_size=1)
        h = net.hidden
        if net.w1.shape != (N_FEATURES, h) or net.w2.shape != (h,):
            raise ValueError(f"{path}: weights of the wrong shape {net.w1.shape}, {net.w2.shape}")
        return net


def shipped(game_id: str) -> Any:
    """The leaf evaluator shipped with the package for ``game_id``, or ``None``: a
    :class:`ValueNet`, or 35's fitted :class:`~sansu.ai.thirtyfive_eval.LeafModel`.

    Read once per process (levels use it): callers must not change its arrays.
    """
    if game_id == "thirtyfive":
        from sansu.ai import thirtyfive_eval

        return thirtyfive_eval.shipped()
    return _shipped_file(f"{game_id}.npz", game_id, ValueNet)


@cache
def _shipped_file(name: str, game_id: str, kind: Any) -> Any:
    """``kind`` loaded from the package's ``weights/name``; ``None`` if none ships."""
    if game_id not in NET_GAMES:
        return None
    ref = resources.files("sansu.ai") / "weights" / name
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return kind.load(path)


NO_NET = (
    np.zeros((N_FEATURES, 1), np.int16),
    np.zeros(1, np.int32),
    np.zeros(1, np.float32),
    np.zeros(1, np.float32),
)
"""Weights passed to a kernel searching without a network (``mix`` 0 never reads them)."""


@dataclass
class PolicyNet(OneHiddenLayer):
    """One hidden layer of ReLU units and a logit per move: the odds of the legal moves
    (a softmax over them), which the compiled search uses as PUCT's priors.

    ``w2`` is ``MOVES × hidden`` (one row per move code, read whole by the compiled
    code) and ``b2`` has ``MOVES`` numbers.
    """

    @classmethod
    def initial(cls, game: str, hidden: int, seed: int) -> PolicyNet:
        """Random first layer (He initialisation) and a zero output: even odds at first."""
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0.0, np.sqrt(2.0 / 60), (N_FEATURES, hidden)).astype(np.float32)
        zeros = np.zeros((MOVES, hidden), np.float32)
        return cls(w1, np.zeros(hidden, np.float32), zeros, np.zeros(MOVES, np.float32), game)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The odds of every move at the dense feature rows ``x`` (0 for illegal ones), and
        the hidden layer (which fitting needs)."""
        h = self._hidden_layer(x)
        legal = x[:, LEGAL_AT : LEGAL_AT + MOVES] > 0
        z = np.where(legal, h @ self.w2.T + self.b2, -np.inf)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True), h

    def odds(self, x: np.ndarray) -> np.ndarray:
        """The odds of every move at the dense feature rows ``x`` (0 for illegal ones)."""
        return self.forward(x)[0]

    def save(self, target: str | Path | BinaryIO) -> None:
        """Write the weights to a path or an open binary file."""
        self._write(target, kind="policy")

    @classmethod
    def load(cls, path: str | Path) -> PolicyNet:
        """The network saved at ``path``; ``ValueError`` if the file holds no such network."""
        net = cls._read(path, "policy network", kind="policy")
        h = net.hidden
        if (
            net.w1.shape != (N_FEATURES, h)
            or net.w2.shape != (MOVES, h)
            or net.b2.shape != (MOVES,)
        ):
            raise ValueError(f"{path}: weights of the wrong shape {net.w1.shape}, {net.w2.shape}")
        return net


def shipped_policy(game_id: str) -> PolicyNet | None:
    """The policy network shipped for ``game_id`` (``GAME-policy.npz``), or ``None``.

    Read once per process: callers must not change its arrays.
    """
    return _shipped_file(f"{game_id}-policy.npz", game_id, PolicyNet)


NO_POLICY = (
    np.zeros((N_FEATURES, 1), np.int16),
    np.zeros(1, np.int32),
    np.zeros((MOVES, 1), np.float32),
    np.zeros(MOVES, np.float32),
)
"""Weights passed to a kernel searching without a policy network (``c_prior`` 0 never
reads them)."""
