"""Statistics shared by the analysis, the tournament summary, tuning and the benchmarks."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ttr_lab.core.intervals import wilson
from ttr_lab.core.outcome import SummaryMetric


def signed_rank_p(differences: Any) -> float:
    """Two-sided p-value of Wilcoxon's signed-rank test that ``differences`` (none zero) centre
    on zero, as ``scipy.stats.wilcoxon`` gives it, to the last bit. Up to 13 values scipy's
    answer is exact: every one of the 2**n sign flips counted (with ties it calls the statistic
    once per flip, about a second a test). Here that enumeration is one numpy array, without
    importing ``scipy.stats`` (about a second of a small tournament's report); the counts over a
    power-of-two total are exact in floating point, so the p-value is scipy's bit for bit.
    Larger samples go to scipy."""
    import numpy as np

    d = np.asarray(differences, dtype=np.float64)
    n = len(d)
    if n < 2:
        return 1.0
    if n > _ENUMERATED:
        from scipy import stats

        return float(stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)
    ranks = _average_ranks(np.abs(d))
    observed = float(ranks[d > 0].sum())
    # Row i of ``flips`` is the binary digits of i: which values are positive in that flip.
    flips = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
    null = flips @ ranks
    gamma = abs(observed) * np.finfo(np.float64).eps * 100  # scipy's tolerance for equal statistics
    at_most = np.count_nonzero(null <= observed + gamma) / 2 ** n
    at_least = np.count_nonzero(null >= observed - gamma) / 2 ** n
    return float(min(1.0, 2 * min(at_most, at_least)))


def _average_ranks(values: Any) -> Any:
    """Ranks from 1, tied values sharing the mean of their ranks (``scipy.stats.rankdata``): a
    group of ``c`` equal values ending at rank ``e`` shares ``e - (c - 1) / 2``."""
    import numpy as np

    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    return (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]


# scipy counts the sign flips exactly up to this many values (2**13 is within its default
# 9,999 resamples of a permutation test) and approximates above it.
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
