"""The report's generic figures (matplotlib), each a function of the results frame returning a
Figure: win rates, score distributions, seat advantage. A game adds its own through its
``report_figures`` hook (see ``ttr_lab.analysis.game``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ttr_lab.analysis.tables import entrant_table, seat_table
from ttr_lab.core.figures import new_figure as _figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def win_rates(frame: pd.DataFrame) -> "Figure":
    """Win rate per entrant with its 95% interval; a dotted line at each table size's fair share."""
    table = entrant_table(frame).iloc[::-1]
    fig = _figure(7, 0.9 + 0.45 * len(table))
    ax = fig.add_subplot()
    y = np.arange(len(table))
    ax.barh(y, table["win_rate"], color="#4c72b0", label="win rate")
    below = (table["win_rate"] - table["win_low"]).clip(lower=0)  # 0, not -1e-17, at a rate of 0 or 1
    above = (table["win_high"] - table["win_rate"]).clip(lower=0)
    ax.errorbar(table["win_rate"], y, xerr=[below, above], fmt="none", ecolor="black", capsize=3,
                label="95% Wilson interval")
    ax.set_yticks(y, table["entrant"])
    ax.set_xlabel("win rate (ties shared)")
    for n in sorted(frame["num_players"].unique()):
        ax.axvline(1.0 / n, color="gray", ls=":", lw=1.2, label=f"fair share at {n} players (1/{n})")
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent_axis())
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Win rate")
    return fig


def _percent_axis() -> "object":
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def score_distributions(frame: pd.DataFrame) -> "Figure":
    scored = frame[frame["score"].notna()]
    order = scored.groupby("entrant")["score"].median().sort_values().index.tolist()
    fig = _figure(7, 0.6 + 0.45 * len(order))
    ax = fig.add_subplot()
    data = [scored.loc[scored["entrant"] == e, "score"].to_numpy() for e in order]
    ax.boxplot(data, orientation="horizontal", tick_labels=order, showfliers=False)
    ax.set_xlabel("final score (points); box: quartiles, whiskers: 1.5 IQR")
    ax.set_title("Score distributions")
    return fig


def seat_advantage(frame: pd.DataFrame) -> "Figure":
    """Win rate by seat, one panel per table size: seats are categories (a tick each, the point
    on it), with the 95% interval and the fair share drawn and named in the legend."""
    table = seat_table(frame)
    sizes = sorted(table["players"].unique())
    fig = _figure(max(3.2 * len(sizes), 5.0), 3.4)
    axes = fig.subplots(1, len(sizes), sharey=True, squeeze=False)[0]
    for ax, n in zip(axes, sizes):
        g = table[table["players"] == n].sort_values("seat")
        x = np.arange(len(g))
        ax.errorbar(x, g["win_rate"], yerr=[(g["win_rate"] - g["win_low"]).clip(lower=0),
                                            (g["win_high"] - g["win_rate"]).clip(lower=0)],
                    fmt="o", color="#4c72b0", capsize=4, label="win rate, 95% interval")
        ax.axhline(1.0 / n, color="gray", ls=":", lw=1.2, label=f"fair share (1/{n})")
        ax.set_xticks(x, [_ordinal(int(s) + 1) for s in g["seat"]])
        ax.set_xlim(-0.6, len(g) - 0.4)
        ax.set_xlabel(f"seat at {n} players (1st plays first)")
        ax.legend(fontsize=7, loc="upper right")
    axes[0].set_ylabel("win rate")
    axes[0].yaxis.set_major_formatter(_percent_axis())
    axes[0].set_ylim(0, 1)
    fig.suptitle("Seat advantage")
    return fig


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"
