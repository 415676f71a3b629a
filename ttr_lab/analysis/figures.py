"""The report's figures (matplotlib), each a function of the results frame returning a Figure."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ttr_lab.core.figures import new_figure as _figure
from ttr_lab.games.ticket_to_ride.drawing import draw_track_heat
from ttr_lab.analysis.tables import entrant_table, seat_table
from ttr_lab.games.ticket_to_ride.board import Board

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


def ticket_completion(frame: pd.DataFrame) -> "Figure":
    scored = frame[frame["score"].notna()]
    g = scored.groupby("entrant")[["ticket_points_completed", "ticket_points_failed", "tickets_completed", "tickets_held"]].mean()
    g = g.sort_values("ticket_points_completed")
    fig = _figure(7, 0.5 + 0.45 * len(g))
    ax = fig.add_subplot()
    y = np.arange(len(g))
    ax.barh(y, g["ticket_points_completed"], color="#55a868", label="points of completed tickets")
    ax.barh(y, -g["ticket_points_failed"], color="#c44e52", label="points of failed tickets")
    for i, (done, held, points) in enumerate(zip(g["tickets_completed"], g["tickets_held"], g["ticket_points_completed"])):
        ax.annotate(f" {done:.1f} of {held:.1f} tickets", (points, i), va="center", fontsize=7)
    ax.set_yticks(y, g.index)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean ticket points per game")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Tickets: completed and failed")
    return fig


def longest_route(frame: pd.DataFrame) -> "Figure":
    """How often each entrant takes the end-of-game bonus: the longest trail, or on maps with
    the Asian Explorer bonus instead, the largest network."""
    scored = frame[frame["score"].notna()]
    explorer = "explorer_bonus" in scored and scored["explorer_bonus"].notna().any()
    if explorer:
        g = scored.groupby("entrant").agg(rate=("explorer_bonus", lambda s: (s > 0).mean()), size=("largest_network", "mean"))
        label, note, title = "share of games with the explorer bonus", " mean network {:.1f} cities", "Asian Explorer bonus"
    else:
        g = scored.groupby("entrant").agg(rate=("longest_bonus", lambda s: (s > 0).mean()), size=("longest_trail", "mean"))
        label, note, title = "share of games with the longest-trail bonus", " mean trail {:.1f} trains", "Longest continuous route"
    g = g.sort_values("rate")
    fig = _figure(7, 0.5 + 0.45 * len(g))
    ax = fig.add_subplot()
    y = np.arange(len(g))
    ax.barh(y, g["rate"], color="#8172b2")
    for i, (size, rate) in enumerate(zip(g["size"], g["rate"])):
        ax.annotate(note.format(size), (rate, i), va="center", fontsize=7)
    ax.set_yticks(y, g.index)
    ax.set_xlim(0, 1)
    ax.set_xlabel(label)
    ax.set_title(title)
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


def track_maps(frame: pd.DataFrame, board: Board) -> tuple["Figure", "Figure"]:
    """How often each track is claimed per game, by anyone and by the game's winners."""
    scored = frame[frame["score"].notna()]
    games = max(scored["game_id"].nunique(), 1)
    claimed = np.zeros(len(board.tracks))
    by_winners = np.zeros(len(board.tracks))
    if "tracks" in scored:
        for tracks, won in zip(scored["tracks"], scored["rank"] == 1):
            if tracks is None:
                continue
            for t in tracks:
                claimed[int(t)] += 1
                if won:
                    by_winners[int(t)] += 1
    claimed /= games
    by_winners /= games
    return (
        draw_track_heat(board, claimed, f"How often each track is claimed ({games} games)", "claims per game"),
        draw_track_heat(board, by_winners, "How often each track is claimed by the game's winner", "winner's claims per game",
                        cmap="magma"),
    )
