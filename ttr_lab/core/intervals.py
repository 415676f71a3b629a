"""Wilson's score interval for a proportion: the 95% interval of every win rate and share the
project reports (tables, the tournament's summary, a game's own report, the training judge)."""

from __future__ import annotations

from typing import Any


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
