"""The report's answer up front: who is first, by how much, how sure the data is, and what
explains it; and the games that went against the odds (upsets), to replay.

Every number comes from the analysis' own tables: the order is ``entrant_order`` (win rate),
the test the paired Wilcoxon of ``pairwise_tests`` (Holm-corrected over every pair), the win
rate interval Wilson's. The metrics that explain the lead are compared *by deal*: every seating
of a deal shares its cards, so the per-deal difference between the leader's and the runner-up's
means cancels the luck of the deal, and its spread over deals gives the interval.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from reference.readers.tables import entrant_order, pairwise_tests, summarised_metrics
from ttr_lab.core.outcome import Metric

EXPLAINING = 4  # metrics named in the verdict's words (the table beside them lists every one)


def metric_differences(frame: pd.DataFrame, a: str, b: str, metrics: Sequence[Metric] = ()) -> pd.DataFrame:
    """For the score and each summarised metric of ``metrics`` recorded here: ``a``'s mean per
    game minus ``b``'s, paired by deal (per deal, a's mean over its games played out there minus
    b's; then the mean over the deals where both played), with a normal 95% interval from the
    spread of the per-deal differences (Student's t, so a handful of deals gives an honestly wide
    interval; none with fewer than two deals). Columns ``metric``,
    ``description``, ``a_mean``, ``b_mean``, ``difference``, ``difference_low``,
    ``difference_high``, ``deals``; rows clearest first (largest difference over its standard
    error), so the metrics whose interval leaves out zero lead."""
    from scipy.stats import t as t_dist

    scored = frame[frame["score"].notna()]
    shown = [Metric("score", "final score (points)"), *summarised_metrics(scored, [m for m in metrics if m.name != "score"])]
    columns = [m.name for m in shown]
    mine = scored[scored["entrant"].isin([a, b])]
    per = mine[["deal", "entrant", *columns]].astype({c: float for c in columns}).groupby(["entrant", "deal"]).mean()
    rows = []
    per_deal: dict[str, pd.Series] = {}
    if a in per.index.get_level_values(0) and b in per.index.get_level_values(0):
        da, db = per.loc[a], per.loc[b]
        deals = da.index.intersection(db.index)
        for m in shown:
            diff = (da.loc[deals, m.name] - db.loc[deals, m.name]).dropna()
            per_deal[m.name] = diff
            n = len(diff)
            mean = float(diff.mean()) if n else math.nan
            se = float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
            half = float(t_dist.ppf(0.975, n - 1)) * se if n > 1 else math.nan
            rows.append({"metric": m.name, "description": m.description,
                         "a_mean": float(da.loc[deals, m.name].mean()) if n else math.nan,
                         "b_mean": float(db.loc[deals, m.name].mean()) if n else math.nan,
                         "difference": mean, "difference_low": mean - half, "difference_high": mean + half,
                         "deals": n, "_clarity": abs(mean) / se if se and not math.isnan(se) else
                         (math.inf if n > 1 and mean else 0.0)})
    out = pd.DataFrame(rows, columns=["metric", "description", "a_mean", "b_mean", "difference", "difference_low",
                                      "difference_high", "deals", "_clarity"])
    out = out.sort_values("_clarity", ascending=False, kind="stable").drop(columns="_clarity").reset_index(drop=True)
    out.attrs["labels"] = {"a_mean": f"{a} (mean)", "b_mean": f"{b} (mean)", "difference": f"{a} − {b}"}
    out.attrs["same_as"] = _mirrors(list(out["metric"]), per_deal)
    return out


def _mirrors(order: Sequence[str], per_deal: dict[str, pd.Series]) -> dict[str, str]:
    """Metric -> an earlier one (in ``order``) whose per-deal differences it repeats, the same or
    negated deal by deal (trains left and trains placed add up to the trains a player starts
    with): one finding, not two. Constant differences are not matched (two unrelated bonuses
    may both be +10 in every deal)."""
    same: dict[str, str] = {}
    for i, name in enumerate(order):
        x = per_deal.get(name)
        if x is None or len(x) < 2 or float(x.std(ddof=0)) == 0:
            continue
        for earlier in order[:i]:
            y = per_deal.get(earlier)
            if earlier in same or y is None or not x.index.equals(y.index):
                continue
            if np.allclose(x.to_numpy(), y.to_numpy()) or np.allclose(x.to_numpy(), -y.to_numpy()):
                same[name] = earlier
                break
    return same


def upsets(frame: pd.DataFrame, ratings: pd.DataFrame, top: int = 5) -> pd.DataFrame:
    """The games won most against the odds: a winner (rank 1) that beat an entrant rated above
    it (``ratings``: ``bradley_terry(frame)``), by how far the best entrant it beat is rated above
    it, largest first, and among equal gaps (the same two entrants, game after game) by how many
    points the winner beat it by (forfeited games left out: a forfeit is no upset of play).
    Columns ``game_id``, ``deal``, ``winner``, ``beaten``, ``gap`` (Elo points), ``margin``
    (points)."""
    rating = dict(zip(ratings["entrant"], ratings["rating"]))
    played = frame[frame["termination"] != "forfeit"][["game_id", "deal", "entrant", "rank", "score"]].copy()
    played["rating"] = played["entrant"].map(rating).astype(float)
    # One pass over all games (a loop over games took most of a 10,000-game report): per game,
    # the lowest-rated winner and the highest-rated loser, the first seat among equals.
    winner = played[played["rank"] == 1].sort_values("rating", kind="stable").drop_duplicates("game_id")
    best = played[played["rank"] > 1].sort_values("rating", ascending=False, kind="stable").drop_duplicates("game_id")
    both = winner.merge(best[["game_id", "entrant", "rating", "score"]], on="game_id", suffixes=("", "_beaten"))
    both["gap"] = both["rating_beaten"] - both["rating"]
    both = both[both["gap"] > 0]
    out = pd.DataFrame({"game_id": both["game_id"].astype(str), "deal": both["deal"].astype(int),
                        "winner": both["entrant"], "beaten": both["entrant_beaten"], "gap": both["gap"].astype(float),
                        "margin": (both["score"] - both["score_beaten"]).astype(float)},
                       columns=["game_id", "deal", "winner", "beaten", "gap", "margin"])
    out = out.sort_values(["gap", "margin", "game_id"], ascending=[False, False, True], kind="stable")
    # One row per pairing: its widest win, and how many upsets it counts.
    counts = out.groupby(["winner", "beaten"]).size()
    out = out.drop_duplicates(["winner", "beaten"]).head(top).reset_index(drop=True)
    out.insert(4, "games", [int(counts[(w, b)]) for w, b in zip(out["winner"], out["beaten"])])
    out.attrs["labels"] = {"game_id": "widest win", "beaten": "best entrant it beat", "games": "upsets",
                           "gap": "rating gap (Elo)", "margin": "won by (pts)"}
    return out


__all__ = ["Verdict", "biggest_upset", "differences_view", "explaining", "metric_differences", "upsets", "verdict"]
