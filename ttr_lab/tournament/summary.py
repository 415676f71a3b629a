"""The end-of-tournament summary, as tables: per entrant, win rate with a 95% interval, mean
score, ticket completion and bonus rates; and what went wrong, if anything."""

from __future__ import annotations

from typing import Any

from ttr_lab.analysis.stats import wilson


def summary_table(frame: Any) -> Any:
    """One row per entrant (pandas DataFrame), best win rate first."""
    import pandas as pd

    if frame.empty:
        return pd.DataFrame(columns=["entrant", "games", "win_rate", "win_low", "win_high", "mean_score",
                                     "ticket_completion", "longest_bonus_rate", "explorer_bonus_rate", "forfeits"])
    rows = []
    for entrant, g in frame.groupby("entrant", sort=True):
        games = len(g)
        wins = float(g["win"].sum())
        low, high = wilson(wins, games)
        # Ticket and bonus columns exist only for a game that declares them (Ticket to Ride).
        held = g["tickets_held"].sum(skipna=True) if "tickets_held" in g else 0
        rows.append({
            "entrant": entrant, "games": games, "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": g["score"].mean(skipna=True),
            "ticket_completion": (g["tickets_completed"].sum(skipna=True) / held) if held else float("nan"),
            "longest_bonus_rate": (g["longest_bonus"].dropna() > 0).mean()
            if "longest_bonus" in g and g["longest_bonus"].notna().any() else float("nan"),
            "explorer_bonus_rate": (g["explorer_bonus"].dropna() > 0).mean()
            if "explorer_bonus" in g and g["explorer_bonus"].notna().any() else float("nan"),
            "forfeits": int(g["forfeit"].sum()),
        })
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)


def error_summary(frame: Any) -> Any:
    """Forfeits grouped by entrant and message."""
    if frame.empty:
        return frame
    lost = frame[frame["forfeit"]]
    return lost.groupby(["entrant", "error"]).size().reset_index(name="games")
