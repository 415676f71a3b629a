"""A study's figures: per factor, each entrant's win rate and score parts against the levels;
every cell's paired change against the baseline; the balance of each cell; a heatmap for two
factors. Win rates are drawn in points of a percentage.

A paired change whose interval means nothing (``presentation.interval_meaningless``: it runs
past the changes that can happen, as Student's t over two or three deals does) is drawn as a
hollow point with no bar, and the axis keeps to the changes that can happen, so that one cell
of two deals does not stretch it to +-250 points.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.presentation import p_text
from ttr_lab.core.figures import new_figure
from ttr_lab.studies.presentation import interval_meaningless


def _positions(levels: Sequence[Any]) -> tuple[list[float], list[str], bool]:
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in levels)
    if numeric:
        return [float(v) for v in levels], [str(v) for v in levels], True
    return list(range(len(levels))), ["none" if v is None else str(v) for v in levels], False


def factor_figure(table: pd.DataFrame, factor: str, measures: Sequence[str]) -> Any:
    """Per entrant, the win rate and each measure against the factor's levels, 95% bands."""
    shown = ["win_rate", *measures]
    cols = min(3, len(shown))
    rows = -(-len(shown) // cols)
    fig = new_figure(4.2 * cols, 3.3 * rows)
    axes = np.atleast_1d(fig.subplots(rows, cols)).ravel()
    data = table[table["factor"] == factor]
    levels = list(dict.fromkeys(data["level"]))
    x, labels, numeric = _positions(levels)
    where = dict(zip(map(str, levels), x))
    for ax, measure in zip(axes, shown):
        d = data[data["measure"] == measure]
        for entrant, g in d.groupby("entrant"):
            xs = [where[str(v)] for v in g["level"]]
            scale = 100 if measure == "win_rate" else 1
            ax.plot(xs, g["value"] * scale, marker="o", label=entrant)
            ax.fill_between(xs, g["low"] * scale, g["high"] * scale, alpha=0.15)
        ax.set_title("win rate (%)" if measure == "win_rate" else measure.replace("_", " "), fontsize=10)
        ax.set_xlabel(factor.replace("_", " "))
        if not numeric or len(levels) <= 8:
            ax.set_xticks(x, labels, rotation=0 if numeric else 60, fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes[len(shown):]:
        ax.set_axis_off()
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{factor}: per entrant, with 95% bands", fontsize=11)
    return fig


def paired_figure(paired: pd.DataFrame) -> Any:
    """Each cell's change in win rate against the baseline, per entrant, with 95% intervals; a
    change whose interval means nothing (too few deals) hollow and without a bar."""
    cells = list(dict.fromkeys(paired["cell"]))
    entrants = sorted(paired["entrant"].unique())
    fig = new_figure(max(7.0, 0.9 * len(cells) * len(entrants) / 3 + 3), 4.5)
    ax = fig.add_subplot()
    width = 0.8 / max(len(entrants), 1)
    reach = 1.0  # points of %: the axis covers every change drawn and every bar kept
    refused_any = False
    for j, entrant in enumerate(entrants):
        g = paired[paired["entrant"] == entrant].set_index("cell").reindex(cells)
        x = np.arange(len(cells)) + (j - (len(entrants) - 1) / 2) * width
        d = g["delta"].to_numpy() * 100
        refused = np.array([interval_meaningless(a, lo, hi) for a, lo, hi in zip(g["a"], g["low"], g["high"])])
        refused_any |= bool(refused.any())
        lows, highs = np.where(refused, d, g["low"].to_numpy() * 100), np.where(refused, d, g["high"].to_numpy() * 100)
        err = np.vstack([d - lows, highs - d])
        line = ax.errorbar(x[~refused], d[~refused], yerr=np.nan_to_num(err[:, ~refused]), fmt="o", capsize=3, label=entrant)
        if refused.any():
            ax.plot(x[refused], d[refused], "o", mfc="none", color=line[0].get_color())
        reach = max(reach, float(np.nanmax(np.abs(np.concatenate([lows, highs, d])), initial=0.0)))
    ax.axhline(0, color="grey", lw=1)
    ax.set_ylim(-min(100.0, reach * 1.1), min(100.0, reach * 1.1))
    ax.set_xticks(np.arange(len(cells)), cells, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("change in win rate vs baseline (points of %)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    title = "Paired difference against the baseline cell (same deals), 95% intervals"
    if refused_any:
        title += "\nhollow, no bar: too few deals for an interval"
    ax.set_title(title, fontsize=10)
    return fig


def balance_figure(bal: pd.DataFrame) -> Any:
    """Per cell, the spread of win rates (best minus worst), the baseline marked."""
    fig = new_figure(max(6.0, 0.6 * len(bal) + 2), 3.8)
    ax = fig.add_subplot()
    colours = ["tab:orange" if b else "tab:blue" for b in bal["baseline"]]
    ax.bar(range(len(bal)), bal["spread"] * 100, color=colours)
    for i, p in enumerate(bal["p_all_equal"]):
        ax.text(i, bal["spread"].iloc[i] * 100, f"p{p_text(p)}" if p < 0.001 else f"p={p_text(p)}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(bal)), bal["cell"], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("spread of win rates (points of %)")
    ax.set_title("Balance per cell (orange: baseline; p: chi-square test that all win equally)", fontsize=10)
    return fig


def heatmap_figure(bal: pd.DataFrame, rows: str, cols: str, value: str = "spread") -> Any:
    """Two factors: the cells' ``value`` (spread of win rates by default) on a grid."""
    grid = bal.pivot_table(index=rows, columns=cols, values=value, aggfunc="mean")
    fig = new_figure(1.2 * len(grid.columns) + 3, 0.8 * len(grid.index) + 2)
    ax = fig.add_subplot()
    im = ax.imshow(grid.to_numpy() * 100, cmap="viridis_r", aspect="auto")
    ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns])
    ax.set_yticks(range(len(grid.index)), [str(i) for i in grid.index])
    ax.set_xlabel(cols)
    ax.set_ylabel(rows)
    for i in range(len(grid.index)):
        for j in range(len(grid.columns)):
            v = grid.iloc[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", color="white", fontsize=8)
    fig.colorbar(im, ax=ax, label=f"{value} of win rates (points of %)")
    ax.set_title("Balance over two factors (lower: more even)", fontsize=10)
    return fig


def profile_figure(wins: pd.DataFrame, style: pd.DataFrame, by: Sequence[str]) -> Any:
    """The boards' profiles side by side, one column per stratum (a board at a player count):
    above, each entrant's win rate with its 95% interval and the fair share dashed; below, the
    share of the points each part of the score made, for the games' winners and for the others
    (what the board rewards is where the winners' bar is longer)."""
    from ttr_lab.studies.profiles import stratum_label

    strata = list(dict.fromkeys(tuple(r) for r in wins[list(by)].itertuples(index=False)))
    entrants = sorted(wins["entrant"].unique())
    parts = list(dict.fromkeys(style["part"])) if not style.empty else []
    n = max(len(strata), 1)
    fig = new_figure(max(7.0, 3.2 * n), 3.0 + 0.28 * len(entrants) + (2.6 if parts else 0.0))
    grid = fig.subplots(2 if parts else 1, n, squeeze=False, sharex="row",
                        gridspec_kw={"height_ratios": [max(2.0, 0.35 * len(entrants)), 1.6]} if parts else None)
    y = np.arange(len(entrants))
    for j, values in enumerate(strata):
        at = np.logical_and.reduce([wins[k] == v for k, v in zip(by, values)])
        g = wins[at].set_index("entrant").reindex(entrants)
        ax = grid[0][j]
        rate = g["win_rate"].to_numpy() * 100
        err = np.vstack([rate - g["low"].to_numpy() * 100, g["high"].to_numpy() * 100 - rate])
        ax.errorbar(rate, y, xerr=np.nan_to_num(err), fmt="o", capsize=3, color="tab:blue")
        fair = g["fair_share"].dropna()
        if len(fair):
            ax.axvline(100 * float(fair.iloc[0]), color="grey", ls="--", lw=1)
        ax.set_yticks(y, entrants if j == 0 else [""] * len(entrants), fontsize=8)
        ax.set_xlim(0, 100)
        ax.invert_yaxis()
        ax.set_title(stratum_label(by, values), fontsize=10)
        ax.set_xlabel("win rate (%), 95% interval", fontsize=8)
        ax.grid(axis="x", alpha=0.3)
        if parts:
            s = style[np.logical_and.reduce([style[k] == v for k, v in zip(by, values)])].set_index("part").reindex(parts)
            ax2 = grid[1][j]
            py = np.arange(len(parts))
            ax2.barh(py - 0.2, s["winners_share"].to_numpy() * 100, height=0.4, color="tab:orange", label="winners")
            ax2.barh(py + 0.2, s["others_share"].to_numpy() * 100, height=0.4, color="tab:grey", label="others")
            ax2.set_yticks(py, [p.replace("_", " ") for p in parts] if j == 0 else [""] * len(parts), fontsize=8)
            ax2.set_ylim(len(parts) - 0.5, -0.5)  # every part's row, scored on this board or not
            ax2.axvline(0, color="black", lw=0.8)
            ax2.set_xlabel("share of their points (%)", fontsize=8)
            ax2.grid(axis="x", alpha=0.3)
            if j == 0:
                ax2.legend(fontsize=7, loc="lower right")
    fig.suptitle("Profiles: win rate per entrant (dashed: fair share), and where the winners' points came from",
                 fontsize=11)
    return fig
