"""The end-of-tournament summary, as tables: per entrant, win rate with a 95% interval, mean
score, forfeits and the few figures the game puts beside them; and what went wrong, if anything.

Every figure is a sum per entrant (or per entrant and error), so ``summary_of`` reads a results
folder a chunk of games at a time and adds the chunks' sums: the summary of ten million games
holds a few numbers per entrant, never a frame of every row. A game whose views give their
summary columns from a frame alone (no ``summary_sums``) has its inputs read whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ttr_lab.core.intervals import wilson


GENERIC = ["entrant", "games", "win_rate", "win_low", "win_high", "mean_score", "forfeits"]
INPUTS = ("entrant", "win", "score", "forfeit", "error")  # the result columns the generic part reads
_SUMS = ["games", "wins", "score_sum", "scored", "forfeits"]


def summary_inputs(game: Any = None) -> tuple[str, ...] | None:
    """The result columns ``summary_table`` and ``error_summary`` read for ``game``: the generic
    ones and its views' ``summary_inputs`` (those its ``summary_columns`` reads); None (read
    every column) for a game whose views leave its inputs open."""
    if game is None:
        return INPUTS
    extra = game.views.summary_inputs
    return None if extra is None else (*INPUTS, *extra)


def _sums(frame: Any) -> Any:
    """Per entrant (index, sorted): games, wins, the sum and count of scores, forfeits."""
    import pandas as pd

    parts = pd.DataFrame({"games": 1, "wins": frame["win"].astype(float), "score_sum": frame["score"].astype(float),
                          "scored": frame["score"].notna(), "forfeits": frame["forfeit"].fillna(False).astype(bool)},
                         index=frame.index)
    return parts.groupby(frame["entrant"], sort=True).sum(min_count=0)[_SUMS]


def _errors(frame: Any) -> Any:
    """Forfeits per (entrant, message)."""
    lost = frame[frame["forfeit"].fillna(False).astype(bool)]
    return lost.groupby(["entrant", "error"]).size()


def _table(sums: Any, extra: Any) -> Any:
    """The summary table from every row's sums (and the game's columns, or None)."""
    import numpy as np
    import pandas as pd

    rows = []
    for entrant, r in sums.sort_index().iterrows():
        games, wins = int(r["games"]), float(r["wins"])
        low, high = wilson(wins, games)
        rows.append({
            "entrant": entrant, "games": games, "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": float(r["score_sum"]) / r["scored"] if r["scored"] else np.nan,
            "forfeits": int(r["forfeits"]),
        })
    table = pd.DataFrame(rows, columns=GENERIC)
    if extra is not None:
        table = table.join(extra, on="entrant")
        table.attrs.update(extra.attrs)
        table.attrs["extra"] = list(extra.columns)
    else:
        table.attrs["extra"] = []
    attrs = dict(table.attrs)
    table = table.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)
    table.attrs.update(attrs)
    return table


def summary_table(frame: Any, game: Any = None) -> Any:
    """One row per entrant (pandas DataFrame), best win rate first: games, win rate with its
    Wilson interval, mean score, forfeits; then the columns of the game's optional
    views' ``summary_columns(frame)`` (a DataFrame indexed by entrant; its ``attrs`` say which
    columns are shares and a caption), carried over in ``attrs``."""
    views = game.views if game is not None else None
    columns = views.summary_columns(frame) if views is not None and not frame.empty else None
    return _table(_sums(frame), columns)


def error_summary(frame: Any) -> Any:
    """Forfeits grouped by entrant and message."""
    if frame.empty:
        return frame
    return _errors(frame).reset_index(name="games")


def summary_of(folder: str | Path, game: Any = None) -> tuple[Any, Any]:
    """``summary_table`` and ``error_summary`` of a results folder, read a chunk of games at a
    time (the columns ``summary_inputs`` names): the same tables in memory that grows with the
    entrants, not the games."""
    import pandas as pd

    from ttr_lab.core.result_chunks import game_chunks
    from ttr_lab.core.results import read_results

    views = game.views if game is not None else None
    if views is not None and views.offers("summary_columns") and not views.offers("summary_sums"):
        frame = read_results(folder, columns=summary_inputs(game))  # the game's columns need every row
        return summary_table(frame, game), error_summary(frame)
    sums, extra, errors = None, None, pd.Series(dtype="int64")
    for chunk in game_chunks(folder, summary_inputs(game)):
        sums = _sums(chunk) if sums is None else sums.add(_sums(chunk), fill_value=0)
        lost = _errors(chunk)
        errors = lost if errors.empty else errors.add(lost, fill_value=0)
        mine = views.summary_sums(chunk) if views is not None else None
        if mine is not None:
            extra = mine if extra is None else extra.add(mine, fill_value=0)
    if sums is None:  # no game stored
        empty = pd.DataFrame(columns=list(INPUTS))
        return summary_table(empty, game), empty
    columns = views.summary_from_sums(extra) if views is not None and extra is not None else None
    return _table(sums, columns), errors.astype("int64").sort_index().reset_index(name="games")
