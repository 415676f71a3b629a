"""The end-of-tournament summary, as tables: per entrant, win rate with a 95% interval, mean
score, forfeits and the few figures the game puts beside them; and what went wrong, if anything."""

from __future__ import annotations

from typing import Any

from ttr_lab.analysis.stats import wilson


GENERIC = ["entrant", "games", "win_rate", "win_low", "win_high", "mean_score", "forfeits"]
INPUTS = ("entrant", "win", "score", "forfeit", "error")  # the result columns the generic part reads


def summary_inputs(game: Any = None) -> tuple[str, ...] | None:
    """The result columns ``summary_table`` and ``error_summary`` read for ``game``: the generic
    ones and its views' ``summary_inputs`` (those its ``summary_columns`` reads); None (read
    every column) for a game whose views leave its inputs open."""
    if game is None:
        return INPUTS
    extra = game.views.summary_inputs
    return None if extra is None else (*INPUTS, *extra)


def summary_table(frame: Any, game: Any = None) -> Any:
    """One row per entrant (pandas DataFrame), best win rate first: games, win rate with its
    Wilson interval, mean score, forfeits; then the columns of the game's optional
    views' ``summary_columns(frame)`` (a DataFrame indexed by entrant; its ``attrs`` say which
    columns are shares and a caption), carried over in ``attrs``."""
    import pandas as pd

    views = game.views if game is not None else None
    rows = []
    for entrant, g in frame.groupby("entrant", sort=True):
        games = len(g)
        wins = float(g["win"].sum())
        low, high = wilson(wins, games)
        rows.append({
            "entrant": entrant, "games": games, "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": g["score"].mean(skipna=True), "forfeits": int(g["forfeit"].sum()),
        })
    table = pd.DataFrame(rows, columns=GENERIC)
    columns = views.summary_columns(frame) if views is not None and not frame.empty else None
    if columns is not None:
        table = table.join(columns, on="entrant")
        table.attrs.update(columns.attrs)
        table.attrs["extra"] = list(columns.columns)
    else:
        table.attrs["extra"] = []
    attrs = dict(table.attrs)
    table = table.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    table.attrs.update(attrs)
    return table


def error_summary(frame: Any) -> Any:
    """Forfeits grouped by entrant and message."""
    if frame.empty:
        return frame
    lost = frame[frame["forfeit"]]
    return lost.groupby(["entrant", "error"]).size().reset_index(name="games")
