"""Statistics shared by the analysis, the tournament summary, tuning and the benchmarks."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ttr_lab.core.outcome import SummaryMetric


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


def signed_rank_p(differences: Any) -> float:
    """Two-sided p-value of Wilcoxon's signed-rank test that ``differences`` (none zero) centre
    on zero, as ``scipy.stats.wilcoxon`` gives it. With ties among 13 or fewer values scipy's
    exact answer enumerates all 2**n sign flips, calling the statistic once per flip (about a
    second a test: most of a small tournament's report); here the same enumeration is one
    vectorised statistic, the same p-value to the last bit. Larger or tie-free samples go to scipy."""
    import numpy as np

    d = np.asarray(differences, dtype=np.float64)
    if len(d) < 2:
        return 1.0
    from scipy import stats

    magnitudes = np.abs(d)
    if len(d) > _ENUMERATED or len(np.unique(magnitudes)) == len(d):
        return float(stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)

    def positive_rank_sum(sample: Any, axis: int) -> Any:
        ranks = stats.rankdata(np.abs(sample), axis=axis)
        return np.sum(ranks * (sample > 0), axis=axis)

    return float(stats.permutation_test((d,), positive_rank_sum, permutation_type="samples", vectorized=True,
                                        alternative="two-sided", axis=-1).pvalue)


# scipy enumerates the sign flips exactly up to this many values (2**13 is within its default
# 9,999 resamples) and uses the normal approximation above it.
_ENUMERATED = 13


@dataclass(frozen=True)
class EntrantSummary:
    entrant: str
    games: int
    win_rate: float  # wins shared between tied winners
    low: float  # Wilson 95% interval of the win rate
    high: float
    mean_score: float  # over the games played out (a forfeited game has no scores)
    seconds_per_decision: float
    # The game's summary metrics (its views' ``summary_metrics``) over the games played out, by name.
    metrics: Mapping[str, float]


def declared_summary_metrics(rows: Sequence[Mapping[str, Any]]) -> tuple[SummaryMetric, ...]:
    """The summary metrics the game of ``rows`` (their ``game`` column) declares; none without rows."""
    from ttr_lab.core.game import load_game

    names = {r["game"] for r in rows if r.get("game")}
    out: dict[str, SummaryMetric] = {}
    for name in sorted(names):
        for metric in load_game(name).views.summary_metrics:
            out.setdefault(metric.name, metric)
    return tuple(out.values())


def summarize(rows: Iterable[Mapping[str, Any]], entrants: Sequence[str],
              metrics: Sequence[SummaryMetric] | None = None) -> list[EntrantSummary]:
    """Per entrant, in the order given, over result rows (one per player per game, as the
    tournament's game player makes them), with the summary ``metrics`` (None: those the rows'
    game declares)."""
    rows = list(rows)
    if metrics is None:
        metrics = declared_summary_metrics(rows)
    out = []
    for entrant in entrants:
        mine = [r for r in rows if r["entrant"] == entrant]
        played = [r for r in mine if r["score"] is not None]
        games, wins = len(mine), sum(r["win"] for r in mine)
        decisions = sum(r["decisions"] for r in mine)
        low, high = wilson(wins, games)
        out.append(EntrantSummary(
            entrant, games, wins / games if games else 0.0, low, high,
            sum(r["score"] for r in played) / len(played) if played else 0.0,
            sum(r["think_seconds"] for r in mine) / decisions if decisions else 0.0,
            {m.name: m.of(played) for m in metrics},
        ))
    return out
