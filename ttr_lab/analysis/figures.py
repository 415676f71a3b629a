"""The report's generic figures (matplotlib), each a function of the results (a frame, or a
folder's digest: ``core.digest``; distributions are drawn from value counts) returning a
Figure: win rates, score distributions, seat advantage. A game adds its own through its
``report_figures`` hook (see ``ttr_lab.analysis.game``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ttr_lab.analysis.tables import Results, entrant_table, seat_table
from ttr_lab.core.accumulate import Distribution
from ttr_lab.core.digest import digest_of
from ttr_lab.core.figures import new_figure as _figure, no_data_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter


def win_rates(frame: Results) -> "Figure":
    """Win rate per entrant with its 95% interval; a dotted line at each table size's fair share."""
    frame = digest_of(frame)
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
    for n in sorted(frame.players):
        ax.axvline(1.0 / n, color="gray", ls=":", lw=1.2, label=f"fair share at {n} players (1/{n})")
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent_axis())
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Win rate")
    return fig


def _percent_axis() -> "PercentFormatter":
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def score_distributions(frame: Results) -> "Figure":
    d = digest_of(frame)
    boxes = {e: d.distributions[(d.code(e), "score")] for e in d.names if (d.code(e), "score") in d.distributions}
    medians = {e: dist.quantiles([0.5])[0] for e, dist in boxes.items() if dist.size()}
    order = sorted(medians, key=lambda e: (medians[e], e))
    if not order:  # every game forfeited: nothing to draw, and say so rather than fail
        return no_data_figure()
    fig = _figure(7, 0.6 + 0.45 * max(len(order), 2))
    ax = fig.add_subplot()
    # The box of each entrant from its score's value counts (exact quartiles), not its every score.
    ax.bxp([{**boxes[e].box(), "label": e, "fliers": []} for e in order], orientation="horizontal", showfliers=False)
    ax.set_xlabel("final score (points); box: quartiles, whiskers: 1.5 IQR")
    ax.set_title("Score distributions")
    return fig


def seat_advantage(frame: Results) -> "Figure":
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


def head_to_head_heatmap(frame: Results) -> "Figure":
    """How often the row entrant finished ahead of the column entrant, as a heatmap centred on
    one half (red: the row entrant is ahead more often), each cell labelled."""
    from matplotlib.colors import TwoSlopeNorm

    from ttr_lab.analysis.tables import entrant_order, head_to_head

    frame = digest_of(frame)
    order = entrant_order(frame)
    matrix = head_to_head(frame).reindex(index=order, columns=order)
    fig = _figure(1.6 + 0.9 * len(order), 1.2 + 0.7 * len(order))
    ax = fig.add_subplot()
    image = ax.imshow(matrix.to_numpy(dtype=float), cmap="RdBu_r", norm=TwoSlopeNorm(0.5, 0.0, 1.0))
    for i in range(len(order)):
        for j in range(len(order)):
            v = matrix.iat[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{100 * v:.0f}%", ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("column entrant")
    ax.set_ylabel("row entrant")
    fig.colorbar(image, ax=ax, shrink=0.8, label="row finishes ahead of column", format=_percent_axis())
    ax.set_title("Head to head")
    return fig


def ratings(frame: Results, table: pd.DataFrame | None = None) -> "Figure":
    """Bradley-Terry ratings (Elo scale) with their 95% intervals from resampling deals;
    ``table``: an already computed ``bradley_terry(frame)`` (it takes a few seconds)."""
    from ttr_lab.analysis.ratings import bradley_terry

    table = (bradley_terry(frame) if table is None else table).iloc[::-1]
    fig = _figure(7, 0.9 + 0.45 * len(table))
    ax = fig.add_subplot()
    y = np.arange(len(table))
    below = (table["rating"] - table["rating_low"]).clip(lower=0).fillna(0)
    above = (table["rating_high"] - table["rating"]).clip(lower=0).fillna(0)
    ax.errorbar(table["rating"], y, xerr=[below, above], fmt="o", color="#4c72b0", capsize=4,
                label="rating, 95% interval (deals resampled)")
    ax.axvline(1500, color="gray", ls=":", lw=1.2, label="mean rating (1500)")
    ax.set_yticks(y, table["entrant"])
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.set_xlabel("rating (Elo scale): +400 = 10 to 1 odds of finishing ahead")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Ratings (Bradley-Terry)")
    return fig


PART_COLOURS = ("#4c72b0", "#55a868", "#8172b2", "#ccb974", "#64b5cd", "#c44e52", "#8c8c8c")


def score_parts(frame: Results, parts: "tuple[str, ...] | list[str]" = ()) -> "Figure":
    """Per entrant, the mean points from each part of the score (the game's ``score_parts`` that
    add up to it) as stacked bars: positive parts to the right of zero, negative ones to the
    left; a black tick at the mean score."""
    from ttr_lab.analysis.breakdowns import score_breakdown

    table = score_breakdown(frame, parts).iloc[::-1]
    summands = [c for c in table.columns if c not in ("entrant", "score")] or ["score"]
    fig = _figure(7.5, 1.1 + 0.45 * len(table))
    ax = fig.add_subplot()
    y = np.arange(len(table))
    right, left = np.zeros(len(table)), np.zeros(len(table))
    for colour, part in zip(PART_COLOURS * 3, summands):
        values = table[part].fillna(0.0).to_numpy(dtype=float)
        start = np.where(values >= 0, right, left)
        ax.barh(y, values, left=start, color=colour, label=part.replace("_", " "), height=0.6)
        right, left = np.where(values >= 0, right + values, right), np.where(values < 0, left + values, left)
    ax.scatter(table["score"], y, marker="|", s=300, color="black", zorder=3, label="mean score")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, table["entrant"])
    ax.set_xlabel("mean points per game")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title("Score by part")
    return fig


def game_lengths(frame: Results) -> "Figure":
    """How many turns games last: a histogram per number of players (stalled games marked)."""
    d = digest_of(frame)
    fig = _figure(7, 3.4)
    ax = fig.add_subplot()
    tables = {n: dist.table() for n, dist in sorted(d.lengths.items())}
    tables = {n: t for n, t in tables.items() if t[1].sum()}
    if tables:
        every = np.repeat(np.concatenate([v for v, _ in tables.values()]), np.concatenate([c for _, c in tables.values()]))
        bins = np.histogram_bin_edges(every, bins="auto")
        del every
        for n, (values, counts) in tables.items():
            dist = d.lengths[n]
            ax.hist(values, bins=bins.tolist(), weights=counts, alpha=0.6,
                    label=f"{n} players ({int(counts.sum())} games, median {dist.quantiles([0.5])[0]:.0f})")
        stalled = [dist.table() for dist in d.stalled_lengths.values()]
        turns: Any = np.repeat(np.concatenate([v for v, _ in stalled]), np.concatenate([c for _, c in stalled])) if stalled else []
        if len(turns):
            ax.plot(turns, np.zeros(len(turns)), "x", color="black", label=f"stalled ({len(turns)})")
        ax.legend(fontsize=7)
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    return fig


MAX_FLIERS = 500  # points drawn beyond an entrant's whiskers: the most extreme, not millions


def think_times(frame: Results) -> "Figure":
    """Think time per decision per entrant: each game's mean, as a box per entrant on a log
    scale (fast and slow strategies differ by orders of magnitude)."""
    d = digest_of(frame)
    order = [e for e in d.order() if d.code(e) in d.per_decision and d.per_decision[d.code(e)].size()][::-1]
    fig = _figure(7, 0.9 + 0.45 * max(len(order), 1))
    ax = fig.add_subplot()
    if order:
        boxes = []
        for e in order:
            ms = Distribution()
            values = 1000.0 * d.per_decision[d.code(e)].values()
            ms.add(np.clip(values, 1e-3, None, out=values))
            box = ms.box()
            fliers = box["fliers"]
            if len(fliers) > MAX_FLIERS:
                fliers = np.concatenate([fliers[: MAX_FLIERS // 2], fliers[-MAX_FLIERS // 2:]])
            boxes.append({**box, "fliers": fliers, "label": e})
        ax.bxp(boxes, orientation="horizontal", showfliers=True)
        ax.set_xscale("log")
    ax.set_xlabel("think time per decision (ms, log scale; one point per game)")
    ax.set_title("Think time")
    return fig


def win_rate_over_games(frame: Results) -> "Figure":
    """Each entrant's win rate as its games accumulate (deal by deal, in the schedule's order),
    with the 95% Wilson band: where the band has narrowed and the line has flattened, more
    games would change little."""
    from ttr_lab.core.intervals import wilson_arrays

    d = digest_of(frame)
    fig = _figure(7, 3.8)
    ax = fig.add_subplot()
    length = d.deal_games.length
    for entrant in d.order():
        code = d.code(entrant)
        played = d.deal_games.get(code, length)
        at = played > 0
        games = np.cumsum(played[at])
        wins = np.cumsum(d.deal_wins.get(code, length)[at])
        shown = _thinned(len(games))
        games, wins = games[shown], wins[shown]
        low, high = wilson_arrays(wins, games)
        line, = ax.plot(games, wins / games, lw=1.2, label=entrant)
        ax.fill_between(games, low, high, color=line.get_color(), alpha=0.15, lw=0)
    for n in sorted(d.players):
        ax.axhline(1.0 / n, color="gray", ls=":", lw=1.2, label=f"fair share at {n} players")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent_axis())
    ax.set_xlabel("games played by the entrant (schedule order)")
    ax.set_ylabel("win rate so far (95% band)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title("Win rate as games accumulate")
    return fig


# A line of more points than this is drawn through this many, evenly spaced along it, the
# first and last kept: the figure is about a thousand pixels wide, and ten million games give
# millions of deals a line: at three million games the whole report peaked at 1.18 GiB with
# every point, 1.00 GiB thinned.
MOST_POINTS = 4000


def _thinned(n: int) -> "np.ndarray":
    """Indices of the points of an ``n``-point line that are drawn (all of them up to ``MOST_POINTS``)."""
    if n <= MOST_POINTS:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, MOST_POINTS).round().astype(np.int64))

