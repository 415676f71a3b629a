"""The tables of a report, each a pure function of the results (a frame, one row per player per
game, as ``ttr_lab.core.results.read_results`` gives it, or a folder's ``ResultsDigest``, which
reads the rows a chunk at a time) and, where the game's own numbers come in, of the metrics it
declares: nothing here knows which game was played. A frame is digested first, so a notebook's
frame and a folder of ten million games go through the same arithmetic.

Wins are *shares*: a sole winner scores 1, each of k tied winners 1/k, so the win rates of a
game add up to one. Intervals are Wilson 95% intervals on those shares. Forfeited games count
for wins (the forfeiter lost) but not for score statistics (they have no scores).
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence, Union

import numpy as np
import pandas as pd

from ttr_lab.core.digest import ResultsDigest, digest_of
from ttr_lab.analysis.stats import signed_rank_p
from ttr_lab.core.intervals import wilson
from ttr_lab.core.outcome import Metric

ENTRANT_COLUMNS = ("entrant", "strategy", "games", "win_rate", "win_low", "win_high", "mean_score", "score_sd",
                   "turns", "forfeits", "stalled_games")
_NUMERIC_KINDS = ("int", "float", "bool")


def _scored(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of games that were played out (not forfeited)."""
    return frame[frame["score"].notna()]


Results = Union[pd.DataFrame, ResultsDigest]  # a results frame, or a folder's digest


def summarised_metrics(frame: Any, metrics: Sequence[Metric]) -> list[Metric]:
    """The declared metrics shown as a mean per entrant: ``summarise`` set, a number or a flag
    (not a list), and recorded in these results."""
    if isinstance(frame, pd.DataFrame):
        recorded = {m.name for m in metrics if m.name in frame and bool(frame[m.name].notna().any())}
    else:  # a digest, or anything else that knows which columns hold a value
        recorded = {m.name for m in metrics if frame.is_recorded(m.name)}
    return [m for m in metrics if m.summarise and m.kind in _NUMERIC_KINDS and m.name in recorded]


def entrant_order(frame: Results) -> list[str]:
    """Entrants by win rate, best first (ties by name): the order of every per-entrant table."""
    if isinstance(frame, pd.DataFrame) and "win" not in frame:
        return sorted(frame["entrant"].unique())
    return digest_of(frame).order()


def entrant_table(frame: Results, metrics: Sequence[Metric] = ()) -> pd.DataFrame:
    """Per entrant: games, win rate with its interval, mean and spread of the score, turns,
    forfeits, stalled games; then, for each of ``metrics`` (the game's, ``game.metrics``) that
    is summarised, its mean over the games played out. Best win rate first."""
    d = digest_of(frame)
    shown = summarised_metrics(d, metrics)
    clash = [m.name for m in shown if m.name in ENTRANT_COLUMNS]
    if clash:
        raise ValueError(f"metric name(s) {', '.join(clash)} clash with the entrant table's own columns")
    rows = []
    for code, entrant in sorted(enumerate(d.names), key=lambda ce: ce[1]):
        games, wins = int(d.rows[code]), float(d.wins[code])
        low, high = wilson(wins, games)
        rows.append({
            "entrant": entrant, "strategy": d.strategy[code], "games": games,
            "win_rate": wins / games, "win_low": low, "win_high": high,
            "mean_score": d.scored.mean_of(code, "score"), "score_sd": d.scored.std_of(code, "score"),
            "turns": d.scored.mean_of(code, "turns"),
            "forfeits": int(d.forfeits[code]), "stalled_games": int(d.stalled_rows[code]),
        })
    out = pd.DataFrame(rows, columns=list(ENTRANT_COLUMNS))
    if out.empty:
        return out
    if shown:
        means = d.scored_means()
        out = out.join(means.reindex(columns=[m.name for m in shown]), on="entrant")
    return out.sort_values(["win_rate", "entrant"], ascending=[False, True], kind="stable").reset_index(drop=True)


def metric_table(frame: Results, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Every declared metric these results record, one row each: its name, its one-line
    description, and its mean per entrant (a column per entrant, best win rate first) over the
    games played out; blank where the metric is not summarised (ids, lists). A metric no row
    records (another map's bonus, say) is left out rather than shown as an empty row."""
    d = digest_of(frame)
    order = d.order()
    shown = {m.name for m in summarised_metrics(d, metrics)}
    means = d.scored_means().reindex(order)
    rows = []
    for m in (m for m in metrics if d.is_recorded(m.name)):
        row: dict[str, Any] = {"metric": m.name, "description": m.description}
        for entrant in order:
            row[entrant] = float(means.loc[entrant, m.name]) if m.name in shown and m.name in means else np.nan
        rows.append(row)
    return pd.DataFrame(rows, columns=["metric", "description", *order])


def score_parts(frame: Results, parts: Sequence[str] = ()) -> pd.DataFrame:
    """Per entrant, for the score and each of ``parts`` (the game's ``score_parts``: metric
    names) recorded in these results: mean, standard deviation and quartiles; the entrants of
    each part best win rate first."""
    d = digest_of(frame, parts)
    played = [e for e in d.order() if d.scored.count(d.code(e), "score")]
    if not played:
        return pd.DataFrame(columns=["entrant", "part", "mean", "std", "q1", "median", "q3"])
    rows = []
    for part in ["score", *(p for p in parts if p != "score" and d.scored.count_all(p))]:
        for entrant in played:
            code = d.code(entrant)
            dist = d.distributions.get((code, part))
            q1, median, q3 = dist.quantiles([0.25, 0.5, 0.75]) if dist is not None else [np.nan] * 3
            rows.append({"entrant": entrant, "part": part, "mean": d.scored.mean_of(code, part),
                         "std": d.scored.std_of(code, part), "q1": q1, "median": median, "q3": q3})
    return pd.DataFrame(rows, columns=["entrant", "part", "mean", "std", "q1", "median", "q3"])


def seat_table(frame: Results) -> pd.DataFrame:
    """Win rate by seat (seat advantage), per player count, whoever sat there."""
    rows = []
    for (players, seat), (games, wins) in sorted(digest_of(frame).seats.items()):
        low, high = wilson(wins, int(games))
        rows.append({"players": players, "seat": seat, "games": int(games), "win_rate": wins / games,
                     "win_low": low, "win_high": high, "fair_share": 1.0 / players})
    return pd.DataFrame(rows)


def player_count_table(frame: Results) -> pd.DataFrame:
    """Win rate and mean score per entrant and player count."""
    d = digest_of(frame)
    rows = []
    for (players, code), (games, wins) in sorted(d.player_rows.items(), key=lambda kv: (kv[0][0], d.names[kv[0][1]])):
        low, high = wilson(wins, int(games))
        rows.append({"players": players, "entrant": d.names[code], "games": int(games), "win_rate": wins / games,
                     "win_low": low, "win_high": high, "mean_score": d.counts.mean_of((players, code), "score")})
    return pd.DataFrame(rows)


def seat_pairs(frame: pd.DataFrame, ordered: bool = True) -> pd.DataFrame:
    """Every pair of seats of different entrants at the same game, in one vectorised pass:
    ``game_id``, ``deal``, ``a``, ``b`` (the entrants) and ``score`` (1 if a finished ahead of
    b, 0.5 for a tie, 0 behind). Games and seats keep the frame's order. ``ordered``: both
    (a, b) and (b, a); else each pair once, the earlier seat first."""
    cols = frame[["game_id", "deal", "entrant", "rank"]].reset_index(drop=True)
    cols["_pos"] = np.arange(len(cols))
    m = cols.merge(cols[["game_id", "entrant", "rank", "_pos"]], on="game_id", suffixes=("_a", "_b"), sort=False)
    other = (m["_pos_a"] != m["_pos_b"]) if ordered else (m["_pos_a"] < m["_pos_b"])
    keep = ((m["entrant_a"] != m["entrant_b"]) & other).to_numpy()
    m = m[keep]
    ra, rb = m["rank_a"].to_numpy(), m["rank_b"].to_numpy()
    return pd.DataFrame({
        "game_id": m["game_id"].to_numpy(), "deal": m["deal"].to_numpy().astype(np.int64),
        "a": m["entrant_a"].to_numpy(), "b": m["entrant_b"].to_numpy(),
        "score": np.where(ra < rb, 1.0, np.where(ra == rb, 0.5, 0.0)),
    })


def pair_outcomes(frame: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """For each game where both ``a`` and ``b`` sat (one seat each or more), a's result
    against b: 1 if a finished ahead, 0.5 for a tie, 0 behind; with the game's deal."""
    fa = frame.loc[frame["entrant"] == a, ["game_id", "deal", "rank"]]
    fb = frame.loc[frame["entrant"] == b, ["game_id", "rank"]]
    m = fa.merge(fb, on="game_id", suffixes=("_a", "_b"), sort=False)  # a's seats x b's, in game order
    ra, rb = m["rank_a"].to_numpy(), m["rank_b"].to_numpy()
    return pd.DataFrame({"game_id": m["game_id"].to_numpy(), "deal": m["deal"].to_numpy().astype(np.int64),
                         "score": np.where(ra < rb, 1.0, np.where(ra == rb, 0.5, 0.0))},
                        columns=["game_id", "deal", "score"])


def ahead_share(frame: pd.DataFrame, a: str, b: str) -> tuple[float, int, float, float]:
    """How often ``a`` finished ahead of ``b`` in the games where both sat (ties half), with a
    Wilson 95% interval: ``(share, games, low, high)``."""
    outcomes = pair_outcomes(frame, a, b)
    games = len(outcomes)
    wins = float(outcomes["score"].sum())
    low, high = wilson(wins, games)
    return (wins / games if games else 0.0, games, low, high)


def head_to_head(frame: Results) -> pd.DataFrame:
    """Matrix: how often the row entrant finished ahead of the column entrant in games where
    both played (ties count half); rows and columns strongest first (by win rate, as in every
    per-entrant table and the head-to-head figure; by name in a frame of ranks alone)."""
    names = entrant_order(frame)
    d = digest_of(frame if not isinstance(frame, pd.DataFrame) or "win" in frame else frame.assign(win=0.0))
    _, pairs = d.pair_tables()
    matrix = pd.DataFrame(np.nan, index=names, columns=names)
    for (a, b), (wins, counts) in pairs.items():
        if counts.sum():
            matrix.loc[d.names[a], d.names[b]] = float(wins.sum(dtype=np.float64) / counts.sum())
    matrix.index.name = matrix.columns.name = None
    return matrix.astype(float)


def pairwise_tests(frame: Results) -> pd.DataFrame:
    """For each pair of entrants that met, whether one finishes ahead of the other more often
    than chance, paired by deal: the per-deal mean of "a ahead of b" (1 / 0.5 / 0) is tested
    against 0.5 with a Wilcoxon signed-rank test (each deal is one observation, since every
    seating of a deal shares its cards), Holm-corrected over all pairs."""
    d = digest_of(frame)
    names = sorted(d.names)
    _, pairs = d.pair_tables()
    rows = []
    for a, b in itertools.combinations(names, 2):
        key = (d.code(a), d.code(b))
        if key not in pairs:
            continue
        sums, counts = pairs[key]
        met = counts > 0
        per_deal = sums[met].astype(np.float64) / counts[met] - 0.5
        nonzero = per_deal[per_deal != 0]
        p = signed_rank_p(nonzero)
        games, wins = int(counts.sum()), float(sums.sum(dtype=np.float64))
        low, high = wilson(wins, games)
        rows.append({"a": a, "b": b, "games": games, "deals": int(met.sum()),
                     "a_ahead": wins / games, "a_ahead_low": low, "a_ahead_high": high, "p_value": p})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["p_holm"] = _holm(out["p_value"].to_numpy())
    out["significant"] = out["p_holm"] < 0.05
    return out


def _holm(p: Any) -> Any:
    """Holm-Bonferroni adjusted p-values."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    adjusted = np.empty_like(p)
    running = 0.0
    m = len(p)
    for i, idx in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[idx]))
        adjusted[idx] = running
    return adjusted
