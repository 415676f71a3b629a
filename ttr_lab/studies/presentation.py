"""A study's tables as a reader sees them, by the tournament report's rules
(``ttr_lab.analysis.presentation``): human headers, shares as percentages, changes in points of
a percentage with their interval in one cell, p-values to three decimals (``<0.001``), no
yes/no columns (the baseline is named in its cell), one precision per column.

A paired change's interval is Student's t over deals: with a handful of deals it can run past
what a change of a win rate can be (from 0% to 100%: ``-a`` to ``1 - a``). Such an interval
says nothing, so it is not shown: the cell reads "too few deals" instead, and the figure draws
the change without a bar.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ttr_lab.analysis.presentation import p_text, percent, percent_interval, present

TOO_FEW = "too few deals"


def interval_meaningless(a: float, low: float, high: float) -> bool:
    """Whether the 95% interval [``low``, ``high``] of a change from win rate ``a`` (shares)
    leaves the changes that can happen (``-a`` .. ``1 - a``), or is missing: too few deals."""
    if any(_missing(v) for v in (a, low, high)):
        return True
    slack = 1e-9
    return low < -a - slack or high > 1 - a + slack


def change_text(delta: float, low: float, high: float, a: float) -> str:
    """A change of a win rate in points of a percentage with its interval, ``+5.0 [-1.0, +11.0]``,
    or ``+5.0 (too few deals)`` when the interval means nothing."""
    if _missing(delta):
        return ""
    if interval_meaningless(a, low, high):
        return f"{100 * delta:+.1f} ({TOO_FEW})"
    return f"{100 * delta:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def cell_name(key: str, baseline: str) -> str:
    return f"{key} (baseline)" if key == baseline else key


def paired_view(paired: pd.DataFrame) -> pd.DataFrame:
    """The paired table: per cell and entrant, the win rates, the change with its interval,
    the games gained and lost, the test, the change in mean score, the games with another
    winner."""
    rows = []
    for _, r in paired.iterrows():
        rows.append({
            "cell": r["cell"], "entrant": r["entrant"], "deals": int(r["deals"]),
            "win rate, baseline": percent(r["a"]), "win rate, cell": percent(r["b"]),
            "change (points) [95% CI]": change_text(r["delta"], r["low"], r["high"], r["a"]),
            "won only in the cell": int(r["gained"]) if "gained" in r else "",
            "won only in the baseline": int(r["lost"]) if "lost" in r else "",
            "p (Holm)": p_text(r["p_holm"]),
            "change in mean score (pts)": "" if _missing(r["score_delta"]) else f"{r['score_delta']:+.1f}",
            "games with another winner": f"{int(r['changed_winner'])} / {int(r['games_compared'])}",
        })
    out = pd.DataFrame(rows)
    out.attrs["text_columns"] = ["cell", "entrant"]
    return out


def balance_view(bal: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """The balance table: per cell, games, the spread and standard deviation of the win rates
    (points), the chi-square test of "all win equally", the leader and its win rate."""
    out = pd.DataFrame({
        "cell": [cell_name(k, baseline) for k in bal["cell"]],
        "games": bal["games"].astype(int).to_numpy(),
        "spread of win rates (points)": [f"{100 * v:.1f}" for v in bal["spread"]],
        "SD of win rates (points)": [f"{100 * v:.1f}" for v in bal["sd"]],
        "chi-square": [f"{v:.1f}" for v in bal["chi2"]],
        "p (all win equally)": [p_text(v) for v in bal["p_all_equal"]],
        "leader": bal["leader"].to_numpy(),
        "leader's win rate": [percent(v) for v in bal["leader_win_rate"]],
    })
    out.attrs["text_columns"] = ["cell", "leader"]
    return out


def effects_view(eff: pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    """The effects table, long (one row per factor, measure, level and entrant, so that it never
    runs off the page sideways): the win rate as a percentage, every other measure in its own
    unit, each with its 95% interval in the same cell."""
    rows = []
    for factor in dict.fromkeys(eff["factor"]):
        of_factor = eff[eff["factor"] == factor]
        for measure in dict.fromkeys(of_factor["measure"]):
            g = of_factor[of_factor["measure"] == measure]
            if measure == "win_rate":
                cells = [percent_interval(v, lo, hi) for v, lo, hi in zip(g["value"], g["low"], g["high"])]
            else:  # one precision for the measure's column of means and bounds
                cells = list(present(g[["value", "low", "high"]].rename(
                    columns={"low": "value_low", "high": "value_high"})).iloc[:, 0])
            for (_, r), cell in zip(g.iterrows(), cells):
                rows.append({"factor": factor, "level": "none" if r["level"] is None else str(r["level"]),
                             "entrant": r["entrant"], "measure": labels.get(measure, measure.replace("_", " ")),
                             "games": int(r["games"]), "mean [95% CI]": cell})
    out = pd.DataFrame(rows)
    out.attrs["text_columns"] = ["factor", "level", "entrant", "measure"]
    return out


def ranking_view(ranked: pd.DataFrame) -> pd.DataFrame:
    """The "remove each" ranking: what was removed, the games with another winner (count and
    share), the change in the spread of win rates, each entrant's change in win rate (points)."""
    out = pd.DataFrame({
        "removed": ranked["removed"].to_numpy(),
        "games": ranked["games"].astype(int).to_numpy(),
        "games with another winner": ranked["changed_winner"].astype(int).to_numpy(),
        "share with another winner": [percent(v) for v in ranked["changed_share"]],
        "change in spread (points)": [f"{100 * v:+.1f}" for v in ranked["spread_change"]],
    })
    for column in ranked.columns:
        if str(column).endswith("_win_change"):
            entrant = str(column)[: -len("_win_change")]
            out[f"{entrant}: change in win rate (points)"] = [f"{100 * v:+.1f}" for v in ranked[column]]
    out.attrs["text_columns"] = ["removed"]
    return out


def profile_wins_view(wins: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The profiles' win rates: per board and player count (the strata) and entrant, games, the
    win rate with its 95% interval, the fair share, the mean score."""
    out = pd.DataFrame({
        **{k: wins[k].astype(str).to_numpy() for k in by},
        "entrant": wins["entrant"].to_numpy(),
        "games": wins["games"].astype(int).to_numpy(),
        "win rate [95% CI]": [percent_interval(v, lo, hi) for v, lo, hi in zip(wins["win_rate"], wins["low"], wins["high"])],
        "fair share": [percent(v, 0) for v in wins["fair_share"]],
        "mean score (pts)": ["" if _missing(v) else f"{v:.1f}" for v in wins["mean_score"]],
    })
    shares = [c for c in wins.columns if str(c).startswith("share_")]
    if shares:  # the entrant's style in one cell: the parts that made its points, none that made none
        out["its points from"] = [", ".join(f"{str(c)[6:].replace('_', ' ')} {100 * r[c]:.0f}%" for c in shares
                                            if not _missing(r[c]) and round(100 * r[c]) != 0)
                                  for _, r in wins.iterrows()]
    out.attrs["text_columns"] = [*by, "entrant", "its points from"]
    return out


def profile_style_view(style: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Where the points came from: per stratum and part of the score, the winners' and the
    others' mean points and share of their points, the difference with its 95% interval."""
    out = pd.DataFrame({
        **{k: style[k].astype(str).to_numpy() for k in by},
        "part of the score": [str(p).replace("_", " ") for p in style["part"]],
        "winners / others (rows)": [f"{int(w)} / {int(o)}" for w, o in zip(style["winners"], style["others"])],
        "winners' mean (pts)": ["" if _missing(v) else f"{v:.1f}" for v in style["winners_mean"]],
        "others' mean (pts)": ["" if _missing(v) else f"{v:.1f}" for v in style["others_mean"]],
        "difference (pts) [95% CI]": ["" if _missing(d) else f"{d:+.1f}" if _missing(lo) else f"{d:+.1f} [{lo:+.1f}, {hi:+.1f}]"
                                      for d, lo, hi in zip(style["difference"], style["difference_low"], style["difference_high"])],
        "share of points, winners": [percent(v, 0) for v in style["winners_share"]],
        "share of points, others": [percent(v, 0) for v in style["others_share"]],
    })
    out.attrs["text_columns"] = [*by, "part of the score"]
    return out


def _missing(value: Any) -> bool:
    try:
        return value is None or (isinstance(value, float) and math.isnan(value)) or bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


__all__ = ["TOO_FEW", "balance_view", "cell_name", "change_text", "effects_view", "interval_meaningless", "paired_view",
           "profile_style_view", "profile_wins_view", "ranking_view"]
