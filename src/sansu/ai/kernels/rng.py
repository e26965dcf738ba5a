"""The compiled random numbers of the kernels: a xorshift64* generator in one uint64 slot.

The search tree keeps its state in the first slot of its ``meta`` array, the
batched environments in a one-slot array of their own: both draw through
these functions, so a module that needs random numbers need not import the
search tree for them.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def seed_state(seed: int) -> int:
    """A non-zero 64-bit xorshift state from any integer seed (splitmix64 of it)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return z or 0x2545F4914F6CDD1D


@njit(cache=True, inline="always")
def next_random(state):
    """xorshift64*: the next 32 random bits (as int64); the state lives in ``state[0]``."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.int64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32))


@njit(cache=True, inline="always")
def below(state, n):
    """A random integer in ``0 .. n - 1`` (``n`` ≥ 1)."""
    return (next_random(state) * n) >> 32
