"""The tables of a report, each a pure function of the results frame (one row per player per
game, as ``ttr_lab.core.results.read_results`` gives it) and, where the game's own numbers
come in, of the metrics it declares: nothing here knows which game was played.

Wins are *shares*: a sole winner scores 1, each of k tied winners 1/k, so the win rates of a
game add up to one. Intervals are Wilson 95% intervals on those shares. Forfeited games count
for wins (the forfeiter lost) but not for score statistics (they have no scores).
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ttr_lab.core.intervals import wilson
from ttr_lab.core.outcome import Metric

ENTRANT_COLUMNS = ("entrant", "strategy", "games", "win_rate", "win_low", "win_high", "mean_score", "score_sd",
                   "turns", "forfeits", "stalled_games")
_NUMERIC_KINDS = ("int", "float", "bool")


def _scored(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of games that were played out (not forfeited)."""
    return frame[frame["score"].notna()]


def _recorded(frame: pd.DataFrame, name: str) -> bool:
    """Whether the results hold any value in column ``name`` (a game may leave a metric empty
    in variants that do not use it)."""
    return name in frame and bool(frame[name].notna().any())


def summarised_metrics(frame: pd.DataFrame, metrics: Sequence[Metric]) -> list[Metric]:
    """The declared metrics shown as a mean per entrant: ``summarise`` set, a number or a flag
    (not a list), and recorded in these results."""
    return [m for m in metrics if m.summarise and m.kind in _NUMERIC_KINDS and _recorded(frame, m.name)]


def _metric_means(scored: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Per entrant (index), the mean of each metric over the games played out."""
    columns = [m.name for m in metrics]
    return scored[["entrant", *columns]].astype({c: float for c in columns}).groupby("entrant").mean()


def entrant_order(frame: pd.DataFrame) -> list[str]:
    """Entrants by win rate, best first (ties by name): the order of every per-entrant table."""
    rates = frame.groupby("entrant")["win"].mean()
    return sorted(rates.index, key=lambda e: (-rates[e], e))


def entrant_table(frame: pd.DataFrame, metrics: Sequence[Metric] = ()) -> pd.DataFrame:
    """Per entrant: games, win rate with its interval, mean and spread of the score, turns,
    forfeits, stalled games; then, for each of ``metrics`` (the game's, ``game.metrics``) that
    is summarised, its mean over the games played out. Best win rate first."""
    shown = summarised_metrics(frame, metrics)
    clash = [m.name for m in shown if m.name in ENTRANT_COLUMNS]
    if clash:
        raise ValueError(f"metric name(s) {', '.join(clash)} clash with the entrant table's own columns")
    rows = []
    for entrant, g in frame.groupby("entrant", sort=True):
        s = _scored(g)
        games, wins = len(g), float(g["win"].sum())
        low, high = wilson(wins, games)
        rows.append({
            "entrant": entrant, "strategy": g["strategy"].iloc[0], "games": games,
            "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": s["score"].mean(), "score_sd": s["score"].std(ddof=1), "turns": s["turns"].mean(),
            "forfeits": int(g["forfeit"].sum()), "stalled_games": int((s["termination"] == "stalled").sum()),
        })
    out = pd.DataFrame(rows, columns=list(ENTRANT_COLUMNS))
    if out.empty:
        return out
    if shown:
        out = out.join(_metric_means(_scored(frame), shown), on="entrant")
    return out.sort_values(["win_rate", "entrant"], ascending=[False, True], kind="stable").reset_index(drop=True)


def metric_table(frame: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Every declared metric these results record, one row each: its name, its one-line
    description, and its mean per entrant (a column per entrant, best win rate first) over the
    games played out; blank where the metric is not summarised (ids, lists). A metric no row
    records (another map's bonus, say) is left out rather than shown as an empty row."""
    order = entrant_order(frame)
    shown = summarised_metrics(frame, metrics)
    means = _metric_means(_scored(frame), shown).reindex(order) if shown else pd.DataFrame(index=order)
    rows = []
    for m in (m for m in metrics if _recorded(frame, m.name)):
        row: dict[str, Any] = {"metric": m.name, "description": m.description}
        for entrant in order:
            row[entrant] = float(means.loc[entrant, m.name]) if m.name in means else np.nan
        rows.append(row)
    return pd.DataFrame(rows, columns=["metric", "description", *order])


def score_parts(frame: pd.DataFrame, parts: Sequence[str] = ()) -> pd.DataFrame:
    """Per entrant, for the score and each of ``parts`` (the game's ``score_parts``: metric
    names) recorded in these results: mean, standard deviation and quartiles; the entrants of
    each part best win rate first."""
    s = _scored(frame)
    if s.empty:
        return pd.DataFrame(columns=["entrant", "part", "mean", "std", "q1", "median", "q3"])
    pieces = []
    for part in ["score", *(p for p in parts if p != "score" and _recorded(s, p))]:
        d = s.astype({part: float}).groupby("entrant")[part].describe()[["mean", "std", "25%", "50%", "75%"]]
        d.insert(0, "part", part)
        pieces.append(d.reset_index())
    out = pd.concat(pieces, ignore_index=True).rename(columns={"25%": "q1", "50%": "median", "75%": "q3"})
    # Each part's rows in the report's order (best win rate first), parts in the game's order.
    rank = {e: i for i, e in enumerate(entrant_order(frame))}
    out["_part"] = out["part"].map({p: i for i, p in enumerate(out["part"].unique())})
    out["_rank"] = out["entrant"].map(rank)
    return out.sort_values(["_part", "_rank"], kind="stable").drop(columns=["_part", "_rank"]).reset_index(drop=True)


def seat_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate by seat (seat advantage), per player count, whoever sat there."""
    rows = []
    for (players, seat), g in frame.groupby(["num_players", "seat"], sort=True):
        wins, games = float(g["win"].sum()), len(g)
        low, high = wilson(wins, games)
        rows.append({"players": int(players), "seat": int(seat), "games": games, "win_rate": wins / games,
                     "win_low": low, "win_high": high, "fair_share": 1.0 / players})
    return pd.DataFrame(rows)


def player_count_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean score per entrant and player count."""
    rows = []
    for (players, entrant), g in frame.groupby(["num_players", "entrant"], sort=True):
        wins, games = float(g["win"].sum()), len(g)
        low, high = wilson(wins, games)
        rows.append({"players": int(players), "entrant": entrant, "games": games, "win_rate": wins / games,
                     "win_low": low, "win_high": high, "mean_score": _scored(g)["score"].mean()})
    return pd.DataFrame(rows)


def seat_pairs(frame: pd.DataFrame, ordered: bool = True) -> pd.DataFrame:
    """Every pair of seats of different entrants at the same game, in one vectorised pass:
    ``game_id``, ``deal``, ``a``, ``b`` (the entrants) and ``score`` (1 if a finished ahead of
    b, 0.5 for a tie, 0 behind). Games and seats keep the frame's order. ``ordered``: both
    (a, b) and (b, a); else each pair once, the earlier seat first."""
    cols = frame[["game_id", "deal", "entrant", "rank"]].reset_index(drop=True)
    cols["_pos"] = np.arange(len(cols))
    m = cols.merge(cols[["game_id", "entrant", "rank", "_pos"]], on="game_id", suffixes=("_a", "_b"), sort=False)
    other = (m["_pos_a"] != m["_pos_b"]) if ordered else (m["_pos_a"] < m["_pos_b"])
    keep = ((m["entrant_a"] != m["entrant_b"]) & other).to_numpy()
    m = m[keep]
    ra, rb = m["rank_a"].to_numpy(), m["rank_b"].to_numpy()
    return pd.DataFrame({
        "game_id": m["game_id"].to_numpy(), "deal": m["deal"].to_numpy().astype(np.int64),
        "a": m["entrant_a"].to_numpy(), "b": m["entrant_b"].to_numpy(),
        "score": np.where(ra < rb, 1.0, np.where(ra == rb, 0.5, 0.0)),
    })


def head_to_head(frame: pd.DataFrame) -> pd.DataFrame:
    """Matrix: how often the row entrant finished ahead of the column entrant in games where
    both played (ties count half); rows and columns strongest first (by win rate, as in every
    per-entrant table and the head-to-head figure; by name in a frame of ranks alone)."""
    names = entrant_order(frame) if "win" in frame else sorted(frame["entrant"].unique())
    means = seat_pairs(frame).groupby(["a", "b"])["score"].mean()
    matrix = means.unstack().reindex(index=names, columns=names).astype(float)
    matrix.index.name = matrix.columns.name = None
    return matrix


def pairwise_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """For each pair of entrants that met, whether one finishes ahead of the other more often
    than chance, paired by deal: the per-deal mean of "a ahead of b" (1 / 0.5 / 0) is tested
    against 0.5 with a Wilcoxon signed-rank test (each deal is one observation, since every
    seating of a deal shares its cards), Holm-corrected over all pairs."""
    from scipy import stats

    names = sorted(frame["entrant"].unique())
    pairs = seat_pairs(frame)
    # One pass: per (a, b) and deal, the sum and count of a's results against b.
    per = pairs.groupby(["a", "b", "deal"], sort=True)["score"].agg(["sum", "count"])
    rows = []
    for a, b in itertools.combinations(names, 2):
        if (a, b) not in per.index:
            continue
        d = per.loc[(a, b)]
        per_deal = d["sum"] / d["count"] - 0.5
        nonzero = per_deal[per_deal != 0]
        if len(nonzero) >= 1:
            p = float(stats.wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided").pvalue) if len(nonzero) > 1 else 1.0
        else:
            p = 1.0
        games, wins = int(d["count"].sum()), float(d["sum"].sum())
        low, high = wilson(wins, games)
        rows.append({"a": a, "b": b, "games": games, "deals": int(per_deal.size),
                     "a_ahead": wins / games, "a_ahead_low": low, "a_ahead_high": high, "p_value": p})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["p_holm"] = _holm(out["p_value"].to_numpy())
    out["significant"] = out["p_holm"] < 0.05
    return out


def _holm(p: Any) -> Any:
    """Holm-Bonferroni adjusted p-values."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    adjusted = np.empty_like(p)
    running = 0.0
    m = len(p)
    for i, idx in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[idx]))
        adjusted[idx] = running
    return adjusted
