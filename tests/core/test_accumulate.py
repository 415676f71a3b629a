"""The sufficient statistics of the out-of-core readers: exact quantiles of values that do
not repeat (think times), without a sorted copy of ten million of them."""

from __future__ import annotations

import tracemalloc

import numpy as np

from ttr_lab.core.accumulate import Distribution


def _times(n: int, seed: int = 3) -> Distribution:
    rng = np.random.default_rng(seed)
    dist = Distribution()
    for piece in np.array_split(rng.random(n) * 1e-3, 40):
        dist.add(piece)
    return dist


def test_quantiles_of_values_that_do_not_repeat_are_numpy_s():
    values = np.random.default_rng(3).random(300_000) * 1e-3
    dist = _times(300_000)
    qs = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]
    assert dist.quantiles(qs) == np.quantile(values, qs).tolist()
    assert dist.size() == 300_000 and sorted(dist.values()) == sorted(values)
    assert dist.quantiles([0.5, 0.25]) == np.quantile(values, [0.5, 0.25]).tolist()  # asked again


def test_quantiles_of_a_million_times_take_at_most_one_more_copy_of_them():
    dist = _times(1_000_000)
    tracemalloc.start()
    try:
        dist.quantiles([0.5, 0.9])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.25 * 8 * 1_000_000  # the pieces joined once; no sorted copy, no table of distinct values
