"""Wilson's score interval for a proportion: the 95% interval of every win rate and share the
project reports (tables, the tournament's summary, a game's own report, the training judge); and
the interval of a mean over values that come in clusters (the decisions of one game share its
deal, so they are not independent draws)."""

from __future__ import annotations

import math
from typing import Any, Hashable, Sequence


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (ties count as fractional successes)."""
    low, high = wilson_arrays(successes, trials, z)
    return (float(low), float(high))


def wilson_arrays(successes: Any, trials: Any, z: float = 1.96) -> tuple[Any, Any]:
    """``wilson`` over arrays of successes and trials at once (a running win rate's every step):
    the lows and the highs; (0, 1) where there are no trials."""
    import numpy as np

    s, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    p = s / safe
    denominator = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denominator
    half = z * np.sqrt(np.maximum(p * (1 - p) / safe + z * z / (4 * safe * safe), 0.0)) / denominator
    return (np.where(n > 0, np.maximum(0.0, centre - half), 0.0), np.where(n > 0, np.minimum(1.0, centre + half), 1.0))


def clustered_mean(values: Sequence[float], clusters: Sequence[Hashable], z: float = 1.96) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its interval when values sharing a cluster
    (``clusters[i]`` is ``values[i]``'s) may be correlated: the cluster-robust standard error of
    a mean (sums per cluster about the mean, with the D/(D-1) small-sample factor). With every
    value its own cluster it is the usual ``z * stdev / sqrt(n)``; with one cluster, infinite."""
    if not values:
        return math.nan, math.inf
    mean = sum(values) / len(values)
    residual: dict[Hashable, float] = {}
    for value, cluster in zip(values, clusters):
        residual[cluster] = residual.get(cluster, 0.0) + value - mean
    d = len(residual)
    if d < 2:
        return mean, math.inf
    variance = d / (d - 1) * sum(r * r for r in residual.values()) / (len(values) ** 2)
    return mean, z * math.sqrt(variance)
