"""Tables beside the report's main ones, each a pure function of the results frame (one row per
player per game) and, for the score, of the game's ``score_parts``: what the score is made of,
how long games last, how long strategies think, and whether the win rate has settled.

Each has a figure of the same name in ``ttr_lab.analysis.figures``; notebooks use either.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ttr_lab.core.digest import ResultsDigest, digest_of
from ttr_lab.core.intervals import wilson_arrays


def _scored(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["score"].notna()]


def score_summands(frame: "pd.DataFrame | ResultsDigest", parts: Sequence[str]) -> list[str]:
    """The leading ``parts`` (the game's ``score_parts``, metric names) whose sum is the score in
    every game played out: the parts a stacked bar may add up. ``score_parts`` lists those
    first, then sub-parts; [] when no leading run adds up (or no part is recorded)."""
    d = digest_of(frame, parts)
    present = [p for p in parts if d.scored.count_all(p)]
    if not d.scored.count_all("score") or not present:
        return []
    sums = d.summands(parts)
    for n, part in enumerate(present, 1):
        if sums[list(parts).index(part)]:
            return present[:n]
    return []


def score_breakdown(frame: "pd.DataFrame | ResultsDigest", parts: Sequence[str]) -> pd.DataFrame:
    """Per entrant (best win rate first), the mean points per game from each part of the score
    that sums to it (``score_summands``), and the mean score; just the score when the game
    declares no such parts."""
    d = digest_of(frame, parts)
    columns = [*score_summands(d, parts), "score"]
    order = [e for e in d.order() if d.scored.count(d.code(e), "score") or _any_row(d, e)]
    means = d.scored_means().reindex(index=order, columns=columns)
    return means.rename_axis("entrant").reset_index()


def _any_row(d: ResultsDigest, entrant: str) -> bool:
    """Whether the entrant has a row among the games played out (all its values may be blank)."""
    code = d.code(entrant)
    return code in d.scored.n.index


def game_lengths(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game played out: its number of players, turns, and how it ended."""
    games = _scored(frame).drop_duplicates("game_id")
    return games[["game_id", "num_players", "turns", "termination"]].reset_index(drop=True)


def game_length_table(frame: "pd.DataFrame | ResultsDigest") -> pd.DataFrame:
    """Per player count: games, and the mean, spread and quartiles of their length in turns."""
    d = digest_of(frame)
    rows = []
    for players, dist in sorted(d.lengths.items()):
        values, counts = dist.table()
        n = int(counts.sum())
        if not n:
            continue
        mean = float((values * counts).sum() / n)
        std = float(np.sqrt((counts * (values - mean) ** 2).sum() / (n - 1))) if n > 1 else np.nan
        q1, median, q3 = dist.quantiles([0.25, 0.5, 0.75])
        rows.append({"players": players, "games": n, "mean": mean, "std": std, "min": float(values[0]), "q1": q1,
                     "median": median, "q3": q3, "max": float(values[-1])})
    out = pd.DataFrame(rows, columns=["players", "games", "mean", "std", "min", "q1", "median", "q3", "max"])
    if out.empty:
        return out
    out.attrs["labels"] = {"mean": "mean (turns)", "std": "SD (turns)", "min": "fewest turns", "max": "most turns"}
    out.attrs["one_precision"] = True
    return out


def think_times(frame: "pd.DataFrame | ResultsDigest") -> pd.DataFrame:
    """Per entrant (best win rate first): decisions taken, total think time, and the mean think
    time per decision (seconds; the report shows milliseconds) with the median and 90th
    percentile over games of each game's mean per decision; then the mean CPU time per decision
    (NaN for results stored before it was recorded). Think time is wall-clock."""
    d = digest_of(frame)
    rows = []
    for entrant in d.order():
        code = d.code(entrant)
        decisions_sum, seconds, cpu = d.think.get(code, [0.0, 0.0, 0.0])
        decisions = int(decisions_sum)
        per_game = d.per_decision.get(code)
        median, p90 = per_game.quantiles([0.5, 0.9]) if per_game is not None else (np.nan, np.nan)
        rows.append({"entrant": entrant, "decisions": decisions, "think_seconds": float(seconds),
                     "seconds_per_decision": float(seconds) / decisions if decisions else np.nan,
                     "median_game_seconds_per_decision": median, "p90_game_seconds_per_decision": p90,
                     "cpu_seconds_per_decision": float(cpu) / decisions if d.cpu_recorded and decisions else np.nan})
    out = pd.DataFrame(rows, columns=["entrant", "decisions", "think_seconds", "seconds_per_decision",
                                      "median_game_seconds_per_decision", "p90_game_seconds_per_decision",
                                      "cpu_seconds_per_decision"])
    out.attrs["labels"] = {"think_seconds": "think time (s)",
                           "median_game_seconds_per_decision": "median game (ms / decision)",
                           "p90_game_seconds_per_decision": "90th pct game (ms / decision)",
                           "cpu_seconds_per_decision": "CPU / decision (ms)"}
    return out


def per_decision_ms(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per seat per game with decisions: entrant and mean think time per decision (ms)."""
    played = frame[frame["decisions"] > 0]
    return pd.DataFrame({"entrant": played["entrant"].to_numpy(),
                         "ms_per_decision": (1000.0 * played["think_seconds"] / played["decisions"]).to_numpy()})


def win_rate_over_games(frame: pd.DataFrame) -> pd.DataFrame:
    """Per entrant, its win rate and 95% Wilson interval after each of its games, in the order
    the schedule plays them (deal, table, seating): does the estimate settle? Columns: entrant,
    games (so far), win_rate, win_low, win_high."""
    ordered = frame.sort_values(["deal", "table", "seating", "seat"], kind="stable")
    pieces = []
    for entrant, g in ordered.groupby("entrant", sort=False):
        wins = g["win"].astype(float).cumsum().to_numpy()
        games = np.arange(1, len(g) + 1)
        low, high = wilson_arrays(wins, games)
        pieces.append(pd.DataFrame({"entrant": entrant, "games": games, "win_rate": wins / games,
                                    "win_low": low, "win_high": high}))
    if not pieces:
        return pd.DataFrame(columns=["entrant", "games", "win_rate", "win_low", "win_high"])
    return pd.concat(pieces, ignore_index=True)


__all__ = ["game_length_table", "game_lengths", "per_decision_ms", "score_breakdown", "score_summands", "think_times",
           "win_rate_over_games"]
