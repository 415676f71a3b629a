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
    table = entrant_table(frame).iloc[::-1]
    fig = _figure(7, 0.5 + 0.45 * len(table))
    ax = fig.add_subplot()
    y = np.arange(len(table))
    ax.barh(y, table["win_rate"], color="#4c72b0")
    below = (table["win_rate"] - table["win_low"]).clip(lower=0)  # 0, not -1e-17, at a rate of 0 or 1
    above = (table["win_high"] - table["win_rate"]).clip(lower=0)
    ax.errorbar(table["win_rate"], y, xerr=[below, above], fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, table["entrant"])
    ax.set_xlabel("win rate (ties shared), 95% Wilson interval")
    players = sorted(frame["num_players"].unique())
    for n in players:
        ax.axvline(1.0 / n, color="gray", ls=":", lw=1)
    ax.set_xlim(0, 1)
    ax.set_title("Win rate")
    return fig


def score_distributions(frame: pd.DataFrame) -> "Figure":
    scored = frame[frame["score"].notna()]
    order = scored.groupby("entrant")["score"].median().sort_values().index.tolist()
    fig = _figure(7, 0.6 + 0.45 * len(order))
    ax = fig.add_subplot()
    data = [scored.loc[scored["entrant"] == e, "score"].to_numpy() for e in order]
    ax.boxplot(data, orientation="horizontal", tick_labels=order, showfliers=False)
    ax.set_xlabel("final score")
    ax.set_title("Score distributions")
    return fig


def seat_advantage(frame: pd.DataFrame) -> "Figure":
    table = seat_table(frame)
    fig = _figure(7, 3.5)
    ax = fig.add_subplot()
    for n, g in table.groupby("players"):
        x = g["seat"].to_numpy() + (n - 3.5) * 0.08
        ax.errorbar(x, g["win_rate"], yerr=[(g["win_rate"] - g["win_low"]).clip(lower=0),
                                            (g["win_high"] - g["win_rate"]).clip(lower=0)],
                    fmt="o-", capsize=3, label=f"{n} players")
        ax.axhline(1.0 / n, color="gray", ls=":", lw=1)
    ax.set_xlabel("seat (0 plays first)")
    ax.set_ylabel("win rate")
    ax.legend(fontsize=7)
    ax.set_title("Seat advantage (dotted: a fair share)")
    return fig

