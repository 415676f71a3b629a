"""The sufficient statistics of the out-of-core readers: exact quantiles of values that do
not repeat (think times), without a sorted copy of ten million of them."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

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


def test_a_box_of_times_is_the_box_of_their_table():
    raw = _times(200_000)
    raw.add(np.linspace(0.01, 0.02, 500))  # slow games: fliers
    values = raw.values().copy()
    assert raw._raw  # told apart from the first values: no table of them was made
    counted = Distribution()
    counted.add(np.repeat(np.unique(values)[:5], 3))  # a few values, counted
    for dist, flat in ((raw, values), (counted, np.repeat(np.unique(values)[:5], 3))):
        box = dist.box()
        q1, med, q3 = np.quantile(flat, [0.25, 0.5, 0.75])
        low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
        inside = flat[(flat >= low) & (flat <= high)]
        assert (box["q1"], box["med"], box["q3"]) == pytest.approx((q1, med, q3), rel=1e-12)
        assert (box["whislo"], box["whishi"]) == (inside.min(), inside.max())
        assert box["fliers"].tolist() == np.unique(flat[(flat < low) | (flat > high)]).tolist()
        assert dist is counted or len(box["fliers"]) == 500


def test_the_box_of_a_million_times_takes_no_sorted_copy_of_them():
    dist = _times(1_000_000)
    dist.quantiles([0.5])  # the pieces joined
    tracemalloc.start()
    try:
        dist.box()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * 8 * 1_000_000  # masks and the few values outside the whiskers
