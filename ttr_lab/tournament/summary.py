"""The end-of-tournament summary: per entrant, win rate with a 95% interval, mean score,
ticket completion and longest-trail bonus rate; and what went wrong, if anything."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

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
        held = g["tickets_held"].sum(skipna=True)
        rows.append({
            "entrant": entrant, "games": games, "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": g["score"].mean(skipna=True),
            "ticket_completion": (g["tickets_completed"].sum(skipna=True) / held) if held else float("nan"),
            "longest_bonus_rate": (g["longest_bonus"].dropna() > 0).mean() if g["longest_bonus"].notna().any() else float("nan"),
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


def print_summary(console: Console, config: Any, table: Any, errors: Any) -> None:
    explorer = "explorer_bonus_rate" in table and table["explorer_bonus_rate"].notna().any()
    bonus = "explorer bonus" if explorer else "longest bonus"
    out = Table(title=f"{config.name}: {config.players} players, {config.design}, map {config.map}")
    for col in ("entrant", "games", "win rate", "95% interval", "mean score", "tickets completed", bonus, "forfeits"):
        out.add_column(col, justify="left" if col == "entrant" else "right")
    for r in table.itertuples():
        rate = r.explorer_bonus_rate if explorer else r.longest_bonus_rate
        out.add_row(
            r.entrant, str(r.games), f"{r.win_rate:.3f}", f"[{r.win_low:.3f}, {r.win_high:.3f}]",
            f"{r.mean_score:.1f}", f"{r.ticket_completion:.1%}", f"{rate:.1%}", str(r.forfeits),
        )
    console.print(out)
    if len(errors):
        console.print("[red]forfeited games:[/red]")
        for r in errors.itertuples():
            console.print(f"  {r.entrant}: {r.games} x {r.error}")
