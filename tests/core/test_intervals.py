"""``clustered_mean``: the interval of a mean over clustered values."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from ttr_lab.core.intervals import clustered_mean


def test_values_each_their_own_cluster_give_the_usual_interval():
    rng = random.Random(1)
    values = [rng.gauss(3.0, 2.0) for _ in range(50)]
    mean, half = clustered_mean(values, range(50))
    assert mean == pytest.approx(statistics.fmean(values))
    assert half == pytest.approx(1.96 * statistics.stdev(values) / math.sqrt(50))


def test_correlated_values_in_a_cluster_widen_the_interval():
    rng = random.Random(2)
    shifts = [rng.gauss(0.0, 5.0) for _ in range(10)]  # each game's own luck, shared by its decisions
    values = [shifts[g] + rng.gauss(0.0, 1.0) for g in range(10) for _ in range(20)]
    clusters = [g for g in range(10) for _ in range(20)]
    _, naive = clustered_mean(values, range(len(values)))
    _, robust = clustered_mean(values, clusters)
    assert robust > 3 * naive
    assert clustered_mean(values, [0] * len(values))[1] == math.inf
    assert clustered_mean([], [])[1] == math.inf
