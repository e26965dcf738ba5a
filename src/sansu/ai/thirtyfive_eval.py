"""35's fitted leaf evaluator as data: weights, the features in plain Python, the fit.

The compiled search values a leaf with :func:`sansu.ai.kernels.thirtyfive_eval.value`;
:func:`reference_features` computes the same features from an engine state's
public methods (the tests hold the compiled ones to it), and :func:`fit` finds
the weights by logistic regression in NumPy on positions labelled with the
result of the game they came from (see :mod:`sansu.ai.training.thirtyfive_data`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from sansu.ai.kernels.thirtyfive_eval import N_BASE, N_FEATURES, NAMES, PHASED

TARGET = 35


@dataclass
class LeafModel:
    """A logistic model: the mover's expected reward is ``sigmoid(weights · x + bias)``."""

    weights: np.ndarray
    """``N_FEATURES`` float64 weights, one per feature of :data:`NAMES`."""
    bias: np.ndarray
    """One number (an array of shape ``(1,)``, as the compiled code wants it)."""

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.weights, self.bias

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The mover's expected reward for each row of features ``x``."""
        return 1.0 / (1.0 + np.exp(-(x @ self.weights + self.bias[0])))

    def save(self, target: str | Path | BinaryIO) -> None:
        if isinstance(target, str | Path):
            with open(target, "wb") as out:
                self.save(out)
            return
        np.savez(target, weights=self.weights, bias=self.bias, names=np.array(NAMES))

    @classmethod
    def load(cls, path: str | Path) -> LeafModel:
        """The model saved at ``path``; ``ValueError`` if the file holds no such model."""
        try:
            with np.load(path) as data:
                weights = np.asarray(data["weights"], np.float64)
                bias = np.asarray(data["bias"], np.float64).reshape(1)
                names = tuple(str(n) for n in data["names"])
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a 35 leaf model ({error})") from None
        if names != NAMES or weights.shape != (N_FEATURES,):
            raise ValueError(f"{path}: features {names} are not this version's {NAMES}")
        return cls(weights, bias)


NO_EVALUATOR = (np.zeros(N_FEATURES, np.float64), np.zeros(1, np.float64))
"""Weights passed to a search without the evaluator (``mix`` 0 never reads them)."""


@cache
def shipped() -> LeafModel | None:
    """The model shipped in ``sansu/ai/weights/thirtyfive.npz``, or ``None``."""
    ref = resources.files("sansu.ai") / "weights" / "thirtyfive.npz"
    if not ref.is_file():
        return None
    with resources.as_file(ref) as path:
        return LeafModel.load(path)


def reference_features(state: Any) -> np.ndarray:
    """The features of an ongoing engine state, from its public methods, in plain Python
    (the definition the compiled :func:`~sansu.ai.kernels.thirtyfive_eval.features` follows)."""
    rows, cols = state.rows, state.cols
    me = state.to_move
    colour = [state.colour_at(i) for i in range(rows * cols)]
    highlight = [state.highlight_at(i) for i in range(rows * cols)]
    base = dict.fromkeys(NAMES[:N_BASE], 0.0)

    def neighbours(i: int) -> list[int]:
        r, c = divmod(i, cols)
        return [
            rr * cols + cc
            for rr in range(max(r - 1, 0), min(r + 2, rows))
            for cc in range(max(c - 1, 0), min(c + 2, cols))
            if (rr, cc) != (r, c)
        ]

    for i in range(rows * cols):
        s = state.sum_at(i)
        if colour[i] is None:
            hl = highlight[i]
            if hl is not None:
                base["highlights"] += 1.0 if hl == me else -1.0
            if s == TARGET:
                owner = me if hl is None else hl
                stake = sum(1.0 for m in neighbours(i) if colour[m] not in (None, owner))
                key = "hot_free" if hl is None else "hot_own" if hl == me else "hot_other"
                base[key] += stake
                best = "best_own" if owner == me else "best_other"
                base[best] = max(base[best], stake)
            continue
        own = colour[i] == me
        base["territory"] += 1.0 if own else -1.0
        need = TARGET - s
        empty = [m for m in neighbours(i) if colour[m] is None]
        if need <= 0 or not empty or need > 9 * len(empty):
            continue
        stake = sum(0.5 for m in empty if highlight[m] != colour[i])
        stake += sum(1.0 for m in neighbours(i) if colour[m] not in (None, colour[i]))
        side = "own" if own else "other"
        base[f"fire_{side}" if need <= 9 else f"reach_{side}"] += stake
        if need <= 9:
            base[f"best_{side}"] = max(base[f"best_{side}"], stake)
    n = rows * cols
    values = [v / n for v in base.values()]
    empties = len(state.empty_cells())
    values[NAMES.index("empty")] = empties / n
    values[NAMES.index("odd")] = float(empties % 2)
    late = 1.0 - empties / n
    values += [values[i] * late for i in PHASED]
    return np.array(values)


def fit(
    x: np.ndarray, y: np.ndarray, *, l2: float = 1e-3, steps: int = 50
) -> tuple[LeafModel, float]:
    """Logistic regression of rewards ``y`` in [0, 1] on features ``x`` by Newton's method
    (a convex problem: the answer does not depend on a seed); the model and its mean
    log-loss on ``x``. ``l2`` keeps rarely seen features' weights small."""
    if x.ndim != 2 or x.shape[1] != N_FEATURES or len(y) != len(x) or not len(x):
        raise ValueError(f"need rows of {N_FEATURES} features and one label each")
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    penalty = l2 * len(x) * np.eye(a.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + penalty @ w
        hess = (a * (p * (1.0 - p))[:, None]).T @ a + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    model = LeafModel(w[:-1].copy(), w[-1:].copy())
    return model, log_loss(model.predict(x), y)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of predictions ``p`` against rewards ``y``."""
    p = np.clip(p, 1e-9, 1.0 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))
