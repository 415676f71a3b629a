"""Two results compared, entrant by entrant: what changed in win rate, score and each metric
when a rule, a map or a strategy changed between run A and run B (``ttr-lab compare``, and a
study's every cell against its baseline cell), and a balance measure of one run.

Runs are compared only when they describe the same games (``ttr_lab.analysis.runs``): one game,
one player count, one variant and the same deals (same seed, same schedule: the game ids match
and carry the same deal seeds), unless the caller asks otherwise: paired across rule variants
(a study's cells), or as two samples across variants and deals. Paired, every seat is compared
with itself on the same cards: a difference is the mean of per-game differences, its interval
and test are taken over *deals* (every seating of a deal shares its cards, so the deal is the
independent unit, as in ``pairwise_tests``), and the games whose winner changed are counted.
As two samples: Welch's t on per-game values. Wins are shares (ties split), as everywhere else.
Entrants in one run only are in no table: ``only_a`` and ``only_b`` name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.runs import RunIdentity, check_comparable, deal_difference, entrants_apart, identity
from reference.readers.tables import _holm, summarised_metrics
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.outcome import Metric

_KEY = ["game_id", "seat", "entrant"]
DELTA_COLUMNS = ("entrant", "games", "deals", "a", "b", "delta", "low", "high", "p_value")


@dataclass(frozen=True)
class Comparison:
    """What ``compare`` found. ``wins``: per entrant, the win rate in A and B, its change with a
    95% interval, the games it won only in B (``gained``) or only in A (``lost``), the paired
    test's p-value (Holm-corrected over the entrants in ``p_holm``); ``scores``: the same for
    the mean score; ``metrics``: one row per entrant and metric; ``changed_winner``: games
    whose winner (the set of first-ranked entrants) differs; ``changed_games``: their ids."""

    paired: bool
    games: int  # games compared: common to both when paired, else A's + B's
    deals: int
    changed_winner: int | None
    changed_games: tuple[str, ...]
    wins: pd.DataFrame
    scores: pd.DataFrame
    metrics: pd.DataFrame
    only_a: tuple[str, ...] = ()  # entrants in A only: compared with nobody
    only_b: tuple[str, ...] = ()

    def delta(self, entrant: str, what: str = "win") -> float:
        """One entrant's change in win rate (``"win"``), mean score (``"score"``) or a metric."""
        table = self.wins if what == "win" else self.scores if what == "score" else \
            self.metrics[self.metrics["metric"] == what]
        row = table[table["entrant"] == entrant]
        if row.empty:
            raise KeyError(f"no {what!r} difference for entrant {entrant!r}")
        return float(row["delta"].iloc[0])


def paired_delta(a: np.ndarray, b: np.ndarray, deals: np.ndarray) -> tuple[float, float, float, float, int]:
    """``b - a`` seat by seat, as (mean, low, high, p_value, deals): the mean of the per-deal
    mean differences, a Student t 95% interval over deals, and a Wilcoxon signed-rank test of
    the per-deal differences (zeros dropped). Rows where either side is missing are left out."""
    from scipy import stats

    keep = ~(np.isnan(a) | np.isnan(b))
    if not keep.any():
        return (np.nan, np.nan, np.nan, np.nan, 0)
    per_deal = pd.Series(b[keep] - a[keep]).groupby(deals[keep]).mean().to_numpy()
    d = len(per_deal)
    mean = float(per_deal.mean())
    if d < 2:
        return (mean, np.nan, np.nan, np.nan, d)
    half = float(stats.t.ppf(0.975, d - 1) * per_deal.std(ddof=1) / np.sqrt(d))
    nonzero = per_deal[per_deal != 0]
    p = float(stats.wilcoxon(nonzero).pvalue) if len(nonzero) > 1 else 1.0
    return (mean, mean - half, mean + half, p, d)


def unpaired_delta(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """``mean(b) - mean(a)`` of two independent samples: Welch's 95% interval and t-test."""
    from scipy import stats

    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if len(a) < 2 or len(b) < 2:
        return (float(b.mean() - a.mean()) if len(a) and len(b) else np.nan, np.nan, np.nan, np.nan)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    mean, se = float(b.mean() - a.mean()), float(np.sqrt(va + vb))
    if se == 0:
        return (mean, mean, mean, 1.0 if mean == 0 else 0.0)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(stats.t.ppf(0.975, df) * se)
    return (mean, mean - half, mean + half, float(stats.ttest_ind(b, a, equal_var=False).pvalue))


def winners(frame: pd.DataFrame) -> pd.Series:
    """Per game id, its winner(s): the first-ranked entrants, joined by '+' in name order."""
    best = frame.groupby("game_id")["rank"].transform("min")
    return frame[frame["rank"] == best].groupby("game_id")["entrant"].agg(lambda s: "+".join(sorted(set(s))))


def _column(frame: pd.DataFrame, name: str) -> np.ndarray:
    values = frame[name].astype(float).to_numpy()
    if name != "win" and "forfeit" in frame:  # a forfeited game has no score or metrics
        values = np.where(frame["forfeit"].fillna(False).to_numpy(dtype=bool), np.nan, values)
    return values


def _table(frame_a: pd.DataFrame, frame_b: pd.DataFrame, name: str, paired: bool, order: Sequence[str]) -> pd.DataFrame:
    rows = []
    if paired:
        m = frame_a.merge(frame_b, on=_KEY, suffixes=("_a", "_b"))
    for entrant in order:
        if paired:
            g = m[m["entrant"] == entrant]
            a, b = _column(g, f"{name}_a"), _column(g, f"{name}_b")
            mean, low, high, p, deals = paired_delta(a, b, g["deal_a"].to_numpy())
            games = int((~(np.isnan(a) | np.isnan(b))).sum())
        else:
            a = _column(frame_a[frame_a["entrant"] == entrant], name)
            b = _column(frame_b[frame_b["entrant"] == entrant], name)
            mean, low, high, p = unpaired_delta(a, b)
            games, deals = int((~np.isnan(a)).sum() + (~np.isnan(b)).sum()), 0
        rows.append({"entrant": entrant, "games": games, "deals": deals, "a": float(np.nanmean(a)) if len(a) else np.nan,
                     "b": float(np.nanmean(b)) if len(b) else np.nan, "delta": mean, "low": low, "high": high,
                     "p_value": p})
    out = pd.DataFrame(rows, columns=list(DELTA_COLUMNS))
    tested = out["p_value"].notna()
    out["p_holm"] = np.nan
    if tested.any():
        out.loc[tested, "p_holm"] = _holm(out.loc[tested, "p_value"].to_numpy())
    return out


def compare(frame_a: pd.DataFrame, frame_b: pd.DataFrame, metrics: Sequence[Metric] = (),
            paired: bool | None = None, across_variants: bool = False,
            identities: tuple[RunIdentity, RunIdentity] | None = None) -> Comparison:
    """Run B against run A (results frames as ``read_results`` gives them), per entrant of both.
    ``paired``: None pairs by deal and refuses (``ConfigError``, one line) runs of another game,
    player count, variant or deals; True pairs across variants of one game too (the same deals
    under a rule change); False compares two samples of one game and player count, whatever
    their variants and deals. ``across_variants``: pair across variants without being asked (a
    study's cells differ in their factors by design). ``identities``: the runs' identities when
    their folders are known (``runs.identity``). ``metrics``: the game's, each one summarised
    in both runs gets a row per entrant."""
    a_id, b_id = identities or (identity(frame_a, "A"), identity(frame_b, "B"))
    check_comparable(a_id, b_id, across_variants=across_variants or paired is not None)
    if paired is not False:
        differ = deal_difference(frame_a, frame_b, a_id.label, b_id.label)
        if differ:
            raise ConfigError(f"{differ}: the runs played different deals, so they cannot be paired; --unpaired "
                              "compares them as two samples")
        paired = True
        # Only the games both hold: a run cut short compares on what it played.
        common = set(frame_a["game_id"]) & set(frame_b["game_id"])
        frame_a, frame_b = frame_a[frame_a["game_id"].isin(common)], frame_b[frame_b["game_id"].isin(common)]
    only_a, only_b = entrants_apart(frame_a, frame_b)
    order = sorted(set(frame_a["entrant"]) & set(frame_b["entrant"]))
    wins = _table(frame_a, frame_b, "win", paired, order)
    scores = _table(frame_a, frame_b, "score", paired, order)
    names_b = {m.name for m in summarised_metrics(frame_b, metrics)}
    shown = [m for m in summarised_metrics(frame_a, metrics) if m.name in names_b]
    pieces = [_table(frame_a, frame_b, m.name, paired, order).assign(metric=m.name) for m in shown]
    table = pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame(columns=[*DELTA_COLUMNS, "p_holm", "metric"])
    table = table[["entrant", "metric", *[c for c in table.columns if c not in ("entrant", "metric")]]]
    changed: tuple[str, ...] = ()
    count: int | None = None
    if paired:
        wa, wb = winners(frame_a), winners(frame_b).reindex(winners(frame_a).index)
        changed = tuple(sorted(wa.index[wa != wb]))
        count = len(changed)
        won_a = frame_a.set_index(_KEY)["win"] > 0
        won_b = frame_b.set_index(_KEY)["win"].reindex(won_a.index) > 0
        gained = (won_b & ~won_a).groupby(level="entrant").sum()
        lost = (won_a & ~won_b).groupby(level="entrant").sum()
        wins["gained"] = wins["entrant"].map(gained).fillna(0).astype(int)
        wins["lost"] = wins["entrant"].map(lost).fillna(0).astype(int)
        games, deals = int(frame_a["game_id"].nunique()), int(frame_a["deal"].nunique())
    else:
        games = int(frame_a["game_id"].nunique() + frame_b["game_id"].nunique())
        deals = int(frame_a["deal"].nunique() + frame_b["deal"].nunique())
    return Comparison(paired, games, deals, count, changed, wins, scores, table, only_a, only_b)


@dataclass(frozen=True)
class Balance:
    """How evenly one run's wins are spread over its entrants: the range (``spread``: best win
    rate minus worst) and standard deviation of the win rates, and a chi-square test of "every
    entrant wins its fair share" (``p_value``; small: they are not all equal)."""

    win_rates: dict[str, float]
    spread: float
    sd: float
    chi2: float
    p_value: float
    games: int


def balance(frame: pd.DataFrame) -> Balance:
    """The balance of one results frame. The fair share of an entrant is one over the players
    of each game it sat in; the chi-square test takes games as independent (at a fixed table
    the seatings of a deal are not quite, so read its p-value as a guide)."""
    from scipy import stats

    g = frame.assign(_fair=1.0 / frame["num_players"]).groupby("entrant").agg(
        wins=("win", "sum"), fair=("_fair", "sum"), games=("win", "size"))
    rates = (g["wins"] / g["games"]).to_dict()
    values = np.array(list(rates.values()), dtype=float)
    chi2 = float((((g["wins"] - g["fair"]) ** 2) / g["fair"]).sum())
    p = float(stats.chi2.sf(chi2, len(g) - 1)) if len(g) > 1 else 1.0
    return Balance({str(k): float(v) for k, v in rates.items()}, float(values.max() - values.min()),
                   float(values.std(ddof=0)), chi2, p, int(frame["game_id"].nunique()))


