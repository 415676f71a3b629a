"""The tables of a report, each a pure function of the results frame (one row per player per
game, as ``ttr_lab.tournament.store.read_results`` gives it).

Wins are *shares*: a sole winner scores 1, each of k tied winners 1/k, so the win rates of a
game add up to one. Intervals are Wilson 95% intervals on those shares. Forfeited games count
for wins (the forfeiter lost) but not for score statistics (they have no scores).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from ttr_lab.analysis.stats import wilson


def _scored(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of games that were played out (not forfeited)."""
    return frame[frame["score"].notna()]


def entrant_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per entrant: games, win rate with its interval, mean score, ticket completion,
    longest-trail bonus rate, trains left, turns, forfeits; best win rate first."""
    rows = []
    for entrant, g in frame.groupby("entrant", sort=True):
        s = _scored(g)
        games, wins = len(g), float(g["win"].sum())
        low, high = wilson(wins, games)
        held = s["tickets_held"].sum()
        rows.append({
            "entrant": entrant, "strategy": g["strategy"].iloc[0], "games": games,
            "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": s["score"].mean(), "score_sd": s["score"].std(ddof=1),
            "ticket_completion": s["tickets_completed"].sum() / held if held else np.nan,
            "tickets_held": s["tickets_held"].mean(),
            "longest_trail": s["longest_trail"].mean(),
            "longest_bonus_rate": (s["longest_bonus"] > 0).mean() if len(s) else np.nan,
            "trains_left": s["trains_left"].mean(), "turns": s["turns"].mean(),
            **_explorer(s),
            "forfeits": int(g["forfeit"].sum()), "stalled_games": int((s["termination"] == "stalled").sum()),
        })
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    return out.sort_values(["win_rate", "entrant"], ascending=[False, True], kind="stable").reset_index(drop=True)


def _explorer(s: pd.DataFrame) -> dict[str, float]:
    """The Asian Explorer bonus columns, on maps that have it."""
    if "explorer_bonus" not in s or not s["explorer_bonus"].notna().any():
        return {}
    return {"explorer_bonus_rate": (s["explorer_bonus"] > 0).mean(), "largest_network": s["largest_network"].mean(),
            "mountain_routes": s["mountain_routes"].mean()}


SCORE_PARTS = ("score", "route_points", "ticket_points", "ticket_points_completed", "ticket_points_failed", "longest_bonus")


def score_parts(frame: pd.DataFrame) -> pd.DataFrame:
    """Per entrant and score part: mean, standard deviation and quartiles."""
    s = _scored(frame)
    pieces = []
    for part in SCORE_PARTS:
        d = s.groupby("entrant")[part].describe()[["mean", "std", "25%", "50%", "75%"]]
        d.insert(0, "part", part)
        pieces.append(d.reset_index())
    if not pieces:
        return pd.DataFrame()
    return pd.concat(pieces, ignore_index=True).rename(columns={"25%": "q1", "50%": "median", "75%": "q3"})


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


def pair_outcomes(frame: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """For each game where both ``a`` and ``b`` sat (one seat each or more), a's result
    against b: 1 if a finished ahead, 0.5 for a tie, 0 behind; with the game's deal."""
    both = frame[frame["entrant"].isin([a, b])]
    out = []
    for game_id, g in both.groupby("game_id", sort=False):
        ra = g.loc[g["entrant"] == a, "rank"].tolist()
        rb = g.loc[g["entrant"] == b, "rank"].tolist()
        if not ra or not rb:
            continue
        for x, y in itertools.product(ra, rb):
            out.append({"game_id": game_id, "deal": int(g["deal"].iloc[0]),
                        "score": 1.0 if x < y else 0.5 if x == y else 0.0})
    return pd.DataFrame(out, columns=["game_id", "deal", "score"])


def ahead_share(frame: pd.DataFrame, a: str, b: str) -> tuple[float, int, float, float]:
    """How often ``a`` finished ahead of ``b`` in the games where both sat (ties half), with a
    Wilson 95% interval: ``(share, games, low, high)``."""
    outcomes = pair_outcomes(frame, a, b)
    games = len(outcomes)
    wins = float(outcomes["score"].sum())
    low, high = wilson(wins, games)
    return (wins / games if games else 0.0, games, low, high)


def head_to_head(frame: pd.DataFrame) -> pd.DataFrame:
    """Matrix: how often the row entrant finished ahead of the column entrant in games where
    both played (ties count half)."""
    names = sorted(frame["entrant"].unique())
    matrix = pd.DataFrame(np.nan, index=names, columns=names)
    for a, b in itertools.permutations(names, 2):
        outcomes = pair_outcomes(frame, a, b)
        if len(outcomes):
            matrix.loc[a, b] = outcomes["score"].mean()
    return matrix


def pairwise_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """For each pair of entrants that met, whether one finishes ahead of the other more often
    than chance, paired by deal: the per-deal mean of "a ahead of b" (1 / 0.5 / 0) is tested
    against 0.5 with a Wilcoxon signed-rank test (each deal is one observation, since every
    seating of a deal shares its cards), Holm-corrected over all pairs."""
    from scipy import stats

    names = sorted(frame["entrant"].unique())
    rows = []
    for a, b in itertools.combinations(names, 2):
        outcomes = pair_outcomes(frame, a, b)
        if outcomes.empty:
            continue
        per_deal = outcomes.groupby("deal")["score"].mean() - 0.5
        nonzero = per_deal[per_deal != 0]
        if len(nonzero) >= 1:
            p = float(stats.wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided").pvalue) if len(nonzero) > 1 else 1.0
        else:
            p = 1.0
        share = outcomes["score"].mean()
        low, high = wilson(outcomes["score"].sum(), len(outcomes))
        rows.append({"a": a, "b": b, "games": len(outcomes), "deals": int(per_deal.size),
                     "a_ahead": share, "a_ahead_low": low, "a_ahead_high": high, "p_value": p})
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
