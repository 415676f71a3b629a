"""Tables beside the report's main ones, each a pure function of the results frame (one row per
player per game) and, for the score, of the game's ``score_parts``: what the score is made of,
how long games last, how long strategies think, and whether the win rate has settled.

Each has a figure of the same name in ``ttr_lab.analysis.figures``; notebooks use either.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from reference.readers.tables import entrant_order


def _scored(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["score"].notna()]


def score_summands(frame: pd.DataFrame, parts: Sequence[str]) -> list[str]:
    """The leading ``parts`` (the game's ``score_parts``, metric names) whose sum is the score in
    every game played out: the parts a stacked bar may add up. ``score_parts`` lists those
    first, then sub-parts; [] when no leading run adds up (or no part is recorded)."""
    s = _scored(frame)
    present = [p for p in parts if p in s and s[p].notna().any()]
    if s.empty or not present:
        return []
    total = np.zeros(len(s))
    for n, part in enumerate(present, 1):
        total = total + s[part].astype(float).fillna(0.0).to_numpy()
        if np.allclose(total, s["score"].astype(float).to_numpy()):
            return present[:n]
    return []


def score_breakdown(frame: pd.DataFrame, parts: Sequence[str]) -> pd.DataFrame:
    """Per entrant (best win rate first), the mean points per game from each part of the score
    that sums to it (``score_summands``), and the mean score; just the score when the game
    declares no such parts."""
    s = _scored(frame)
    summands = score_summands(frame, parts)
    columns = [*summands, "score"]
    means = s.astype({c: float for c in columns}).groupby("entrant")[columns].mean()
    order = [e for e in entrant_order(frame) if e in means.index]
    return means.reindex(order).rename_axis("entrant").reset_index()


def game_lengths(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game played out: its number of players, turns, and how it ended."""
    games = _scored(frame).drop_duplicates("game_id")
    return games[["game_id", "num_players", "turns", "termination"]].reset_index(drop=True)


def game_length_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per player count: games, and the mean, spread and quartiles of their length in turns."""
    lengths = game_lengths(frame)
    if lengths.empty:
        return pd.DataFrame(columns=["players", "games", "mean", "std", "min", "q1", "median", "q3", "max"])
    d = lengths.astype({"turns": float}).groupby("num_players")["turns"].describe()
    d = d.rename(columns={"count": "games", "25%": "q1", "50%": "median", "75%": "q3"})
    d["games"] = d["games"].astype(int)
    out = d[["games", "mean", "std", "min", "q1", "median", "q3", "max"]].rename_axis("players").reset_index()
    out.attrs["labels"] = {"mean": "mean (turns)", "std": "SD (turns)", "min": "fewest turns", "max": "most turns"}
    out.attrs["one_precision"] = True
    return out


def think_times(frame: pd.DataFrame) -> pd.DataFrame:
    """Per entrant (best win rate first): decisions taken, total think time, and the mean think
    time per decision (seconds; the report shows milliseconds) with the median and 90th
    percentile over games of each game's mean per decision; then the mean CPU time per decision
    (NaN for results stored before it was recorded). Think time is wall-clock."""
    rows = []
    cpu = "think_cpu_seconds" in frame.columns
    for entrant, g in frame.groupby("entrant"):
        played = g[g["decisions"] > 0]
        per_game = played["think_seconds"] / played["decisions"]
        decisions = int(g["decisions"].sum())
        rows.append({"entrant": entrant, "decisions": decisions, "think_seconds": float(g["think_seconds"].sum()),
                     "seconds_per_decision": float(g["think_seconds"].sum()) / decisions if decisions else np.nan,
                     "median_game_seconds_per_decision": float(per_game.median()) if len(per_game) else np.nan,
                     "p90_game_seconds_per_decision": float(per_game.quantile(0.9)) if len(per_game) else np.nan,
                     "cpu_seconds_per_decision": float(g["think_cpu_seconds"].sum()) / decisions
                     if cpu and decisions else np.nan})
    out = pd.DataFrame(rows, columns=["entrant", "decisions", "think_seconds", "seconds_per_decision",
                                      "median_game_seconds_per_decision", "p90_game_seconds_per_decision",
                                      "cpu_seconds_per_decision"])
    if not out.empty:
        out = out.set_index("entrant").reindex([e for e in entrant_order(frame) if e in set(out["entrant"])]).reset_index()
    out.attrs["labels"] = {"think_seconds": "think time (s)",
                           "median_game_seconds_per_decision": "median game (ms / decision)",
                           "p90_game_seconds_per_decision": "90th pct game (ms / decision)",
                           "cpu_seconds_per_decision": "CPU / decision (ms)"}
    return out


__all__ = ["game_length_table", "game_lengths", "per_decision_ms", "score_breakdown", "score_summands", "think_times",
           "win_rate_over_games"]
