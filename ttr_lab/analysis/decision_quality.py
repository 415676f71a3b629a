"""Decision quality per entrant, from a review of a tournament's games (``ttr-lab review
RESULTS_DIR --sample N``, which keeps ``review/review.csv`` and ``review/seats.csv`` in the
results folder): the report's "Decision quality" section and the same tables for a notebook.

``review.csv`` has one row per reviewed decision (the points a move lost against the best move
found, 0 within the review's noise); ``seats.csv`` one row per reviewed seat of a game (its summed
loss and its final margin). Decisions of one game share its deal, so intervals are clustered by
game and seat (``clustered_mean``).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.intervals import clustered_mean

FOLDER = "review"  # in a results folder
KINDS = ("claim", "draw", "tickets")
NOTE = ("From a review of a sample of the games: each decision's move against the best move mcts_learned's race "
        "finds from the seat's information, on common samples. Points lost per decision (0 when the move played is "
        "within two standard errors of the best) with a 95% interval clustered by game; the share of decisions "
        "within noise of the best; the mean loss per decision of each kind, and the kind where the entrant loses "
        "most of its points. Last: how the points a seat lost in a game go with its final margin.")
_LABELS = {"games": "games", "decisions": "decisions", "lost": "points lost per decision",
           "within_noise": "within noise of best", "claim": "lost per claim", "draw": "lost per draw",
           "tickets": "lost per ticket decision", "worst": "loses most at", "worst_share": "share of its loss"}


def decision_quality(decisions: pd.DataFrame) -> pd.DataFrame:
    """Per entrant (fewest points lost first): games and decisions reviewed, mean points lost per
    decision with its 95% interval, the share of decisions within noise of the best (with its
    interval), the mean loss per decision of each kind (claims, draws, tickets) and the kind
    where it loses most (with that kind's share of its loss). ``decisions``: review.csv's rows."""
    missing = {"game", "seat", "entrant", "kind", "points_lost"} - set(decisions.columns)
    if missing:
        raise ConfigError(f"a review table needs the column(s) {', '.join(sorted(missing))}")
    rows = []
    for entrant, mine in decisions.groupby("entrant", sort=False):
        clusters = list(zip(mine["game"].astype(str), mine["seat"]))
        lost = [float(v) for v in mine["points_lost"]]
        mean, half = clustered_mean(lost, clusters)
        noise, noise_half = clustered_mean([1.0 if v == 0 else 0.0 for v in lost], clusters)
        by_kind = mine.groupby("kind")["points_lost"]
        totals = by_kind.sum()
        worst = str(totals.idxmax()) if totals.sum() > 0 else ""
        rows.append({
            "entrant": entrant, "games": len(set(clusters)), "decisions": len(lost),
            "lost": mean, "lost_low": max(0.0, mean - half), "lost_high": mean + half,
            "within_noise": noise, "within_noise_low": max(0.0, noise - noise_half),
            "within_noise_high": min(1.0, noise + noise_half),
            **{kind: float(by_kind.mean().get(kind, math.nan)) for kind in KINDS},
            "worst": worst, "worst_share": float(totals[worst] / totals.sum()) if worst else math.nan,
        })
    table = pd.DataFrame(rows, columns=["entrant", "games", "decisions", "lost", "lost_low", "lost_high",
                                        "within_noise", "within_noise_low", "within_noise_high", *KINDS, "worst",
                                        "worst_share"])
    table = table.sort_values("lost", kind="stable").reset_index(drop=True)
    table.attrs["labels"] = _LABELS
    table.attrs["percent"] = ("within_noise", "worst_share")
    return table


def loss_and_margin(seats: pd.DataFrame) -> pd.DataFrame:
    """How a seat's summed points lost in a game go with its final margin (its score less the
    best other's): Pearson's correlation with its 95% interval (Fisher's z), over all seats and
    per entrant. ``seats``: seats.csv's rows (``entrant``, ``points_lost``, ``final_margin``)."""
    groups = [("all", seats), *((str(e), g) for e, g in seats.groupby("entrant", sort=False))]
    rows = []
    for name, group in groups:
        r, low, high = correlation(group["points_lost"].astype(float), group["final_margin"].astype(float))
        rows.append({"seats of": name, "seats": len(group), "correlation": r, "correlation_low": low,
                     "correlation_high": high, "mean_lost": float(group["points_lost"].mean()),
                     "mean_margin": float(group["final_margin"].mean())})
    table = pd.DataFrame(rows)
    table.attrs["labels"] = {"correlation": "correlation of points lost with final margin",
                             "mean_lost": "points lost per game", "mean_margin": "mean final margin"}
    return table


def correlation(x: pd.Series, y: pd.Series) -> tuple[float, float, float]:
    """Pearson's r of ``x`` and ``y`` and its 95% interval (Fisher's z; NaN below 4 pairs or
    with a constant series)."""
    n = len(x)
    if n < 4 or x.std() == 0 or y.std() == 0:
        return math.nan, math.nan, math.nan
    r = float(x.corr(y))
    z, half = math.atanh(max(-0.999999, min(0.999999, r))), 1.96 / math.sqrt(n - 3)
    return r, math.tanh(z - half), math.tanh(z + half)


def stored_review(folder: str | Path) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The review kept in a results folder (its decisions and its seats), or None if it keeps none."""
    where = Path(folder) / FOLDER
    if not (where / "review.csv").is_file() or not (where / "seats.csv").is_file():
        return None
    try:
        return pd.read_csv(where / "review.csv"), pd.read_csv(where / "seats.csv")
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the review kept in {where}: {exc}") from None


def review_sections(folder: str | Path) -> list[tuple[str, str, pd.DataFrame, bool]]:
    """The report's sections from the review a results folder keeps (none if it keeps none)."""
    stored = stored_review(folder)
    if stored is None or stored[0].empty:
        return []
    decisions, seats = stored
    return [("Decision quality", NOTE, decision_quality(decisions), False),
            ("Points lost and the final margin", "Pearson's correlation over the reviewed seats, with a 95% "
             "interval (Fisher's z): a seat that loses more points should finish further behind.",
             loss_and_margin(seats), False)]


__all__ = ["correlation", "decision_quality", "loss_and_margin", "review_sections", "stored_review"]
