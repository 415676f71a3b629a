"""The engine's SplitMix64 shuffle as a kernel: bit for bit ``ttr_lab.core.rng.shuffle``, so a
seed deals in a kernel what it deals in Python. ``mix64`` and ``derive_seed`` are the core's own
(compiled as they are), and ``DEAL_KEY`` the salt of a game's deal.

Python's ``(z * (i + 1)) >> 64`` takes the high half of a 128-bit product; a kernel has 64-bit
integers only, so ``_high_product`` builds it from 32-bit halves (exact while ``i + 1 < 2**32``).
"""

from __future__ import annotations

import warnings
from typing import Callable, cast

import numpy as np
from numba import config

from ttr_lab.core import rng
from ttr_lab.core.compiled import njit_no_refcount

__all__ = ["DEAL_KEY", "derive_seed", "mix64", "next_below", "next_u64", "shuffle"]

if getattr(config, "DISABLE_JIT", 0):  # interpreted, numpy warns where the compiled code wraps around, as meant
    for _module in (__name__, rng.__name__):
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, _module)

# The core's own functions, typed as kernels call them (numba sees the same objects).
mix64 = cast(Callable[[np.uint64], np.uint64], rng.mix64)
derive_seed = cast(Callable[..., np.uint64], rng.derive_seed)

DEAL_KEY = 0x7772  # derive_seed(game seed, DEAL_KEY) seeds the engine's shuffles of a new game

_GOLDEN = np.uint64(rng.GOLDEN)
_LOW = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@njit_no_refcount(inline=True)
def _high_product(z: np.uint64, m: np.uint64) -> np.uint64:
    """``(z * m) >> 64`` for ``m < 2**32``."""
    return (((z >> _S32) * m) + (((z & _LOW) * m) >> _S32)) >> _S32


@njit_no_refcount(inline=True)
def next_below(state: np.uint64, bound: int) -> tuple[np.uint64, np.int64]:
    """Advance the generator; a draw in ``range(bound)`` by multiply-shift (as ``shuffle``)."""
    state = state + _GOLDEN
    return state, np.int64(_high_product(mix64(state), np.uint64(bound)))


@njit_no_refcount()
def shuffle(a: np.ndarray, start: int, count: int, state: np.uint64) -> np.uint64:
    """Fisher-Yates over ``a[start:start + count]`` in place; returns the advanced state."""
    for i in range(count - 1, 0, -1):
        state, j = next_below(state, i + 1)
        x = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = x
    return state


@njit_no_refcount()
def next_u64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Advance the generator; its 64-bit output (``ttr_lab.core.rng.next_u64``)."""
    state = state + _GOLDEN
    return state, mix64(state)
