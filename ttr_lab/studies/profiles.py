"""The profile of a board (the 2017 playtesting study's "performance profile" of a map): in a
study over boards and player counts, each entrant's win rate on every board at every player
count, and the play style the board rewards, read from the result columns: where the
winners' points came from (the game's score parts, e.g. tickets against routes) compared with
everyone else's at the same tables.

    wins, style = profile_table(rows, by=["map", "players"], parts=["route_points", "ticket_points"])

``rows``: one row per player and game (``entrant``, ``win``, ``num_players``, ``score``, the
parts, ``forfeit``) with a column per ``by``. A study's cells are read a chunk at a time into
sums (``profile_sums``) and finished once (``finish_profile``), so the rows need not fit in
memory; ``profile_table`` is the two at once, on one frame.

The profile's strata are the levels of a study's unpaired factors (an option such as the board,
a setting such as the player count): cells that share them are one stratum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.presentation import p_text
from ttr_lab.core.intervals import wilson_arrays

if TYPE_CHECKING:
    from ttr_lab.studies.report import StudyResults


def top_parts(parts: Sequence[str]) -> list[str]:
    """The score parts that add up to the score: a part named after another one (``ticket_points_
    completed`` after ``ticket_points``) is a piece of it, left out so that no point counts twice."""
    return [p for p in parts if not any(p != q and p.startswith(q + "_") for q in parts)]


def profile_sums(rows: pd.DataFrame, by: Sequence[str], parts: Sequence[str]) -> pd.DataFrame:
    """Per stratum (``by``) and entrant: rows, wins, the fair share's sum (1 / players per row),
    and over the rows not forfeited, split into the games' winners (``win`` > 0) and the others:
    their count and the sums and sums of squares of the score and of each part (a part a board
    does not award counts 0). Sums add up over chunks and cells."""
    frame = pd.DataFrame({k: rows[k].to_numpy() for k in by})
    frame["entrant"] = rows["entrant"].astype(str).to_numpy()
    win = rows["win"].astype(float).fillna(0.0).to_numpy()
    kept = ~rows["forfeit"].fillna(False).astype(bool).to_numpy() if "forfeit" in rows else np.ones(len(rows), bool)
    frame["rows"] = 1
    frame["wins"] = win
    frame["fair"] = 1.0 / rows["num_players"].astype(float).to_numpy()
    for side, mask in (("winner", kept & (win > 0)), ("other", kept & ~(win > 0))):
        frame[f"n_{side}"] = mask.astype(int)
        for measure in ("score", *parts):
            values = rows[measure].astype(float).fillna(0.0).to_numpy() if measure in rows else np.zeros(len(rows))
            values = np.where(mask, values, 0.0)
            frame[f"sum_{side}_{measure}"] = values
            frame[f"sq_{side}_{measure}"] = values * values
    return frame.groupby([*by, "entrant"], sort=False, dropna=False).sum().reset_index()


def _welch(n1: Any, s1: Any, q1: Any, n2: Any, s2: Any, q2: Any) -> tuple[Any, Any, Any]:
    """Difference of two means (group 1 minus group 2) from counts, sums and sums of squares,
    with Welch's 95% interval (NaN where a group has fewer than two values)."""
    from scipy import stats

    n1, n2 = np.asarray(n1, float), np.asarray(n2, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        m1, m2 = s1 / n1, s2 / n2
        v1 = np.maximum(q1 - n1 * m1 * m1, 0.0) / (n1 - 1)
        v2 = np.maximum(q2 - n2 * m2 * m2, 0.0) / (n2 - 1)
        se2 = v1 / n1 + v2 / n2
        df = se2 * se2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
        half = stats.t.ppf(0.975, np.where(df > 0, df, np.nan)) * np.sqrt(se2)
    half = np.where((n1 >= 2) & (n2 >= 2), half, np.nan)
    return m1 - m2, m1 - m2 - half, m1 - m2 + half


def finish_profile(sums: pd.DataFrame, by: Sequence[str], parts: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two tables from ``profile_sums``' sums (of any number of chunks, concatenated):

    - wins: per stratum and entrant, games, wins, win rate with its Wilson 95% interval, the
      fair share (1 / players), the mean score and the share of its points each part made
      (``share_<part>``: the entrant's play style on that board);
    - style: per stratum and part, the winners' and the others' mean points from it, the
      difference with Welch's 95% interval, and the share of their points it made
      (sum of the part / sum of the score), the winners' minus the others'; a part nobody
      scored in a stratum is left out of it.
    """
    keys = [*by, "entrant"]
    totals = sums.groupby(keys, sort=False, dropna=False).sum(numeric_only=True).reset_index()
    low, high = wilson_arrays(totals["wins"].to_numpy(), totals["rows"].to_numpy())
    kept = totals["n_winner"] + totals["n_other"]
    wins = pd.DataFrame({**{k: totals[k] for k in keys}, "games": totals["rows"].astype(int), "wins": totals["wins"],
                         "win_rate": totals["wins"] / totals["rows"], "low": low, "high": high,
                         "fair_share": totals["fair"] / totals["rows"],
                         "mean_score": (totals["sum_winner_score"] + totals["sum_other_score"]) / kept.where(kept > 0)})
    score = totals["sum_winner_score"] + totals["sum_other_score"]
    for part in parts:  # the entrant's own style: the share of its points each part made
        wins[f"share_{part}"] = (totals[f"sum_winner_{part}"] + totals[f"sum_other_{part}"]) / score.where(score != 0)
    strata = totals.groupby(list(by), sort=False, dropna=False).sum(numeric_only=True).reset_index()
    order = {tuple(r): i for i, r in enumerate(strata[list(by)].itertuples(index=False))}
    wins["_at"] = [order[tuple(r)] for r in wins[list(by)].itertuples(index=False)]
    wins = wins.sort_values(["_at", "entrant"], kind="stable").drop(columns="_at").reset_index(drop=True)
    pieces = []
    for part in parts:
        w, o = f"winner_{part}", f"other_{part}"
        diff, lo, hi = _welch(strata["n_winner"], strata[f"sum_{w}"], strata[f"sq_{w}"],
                              strata["n_other"], strata[f"sum_{o}"], strata[f"sq_{o}"])
        with np.errstate(divide="ignore", invalid="ignore"):
            share_w = strata[f"sum_{w}"] / strata["sum_winner_score"].where(strata["sum_winner_score"] != 0)
            share_o = strata[f"sum_{o}"] / strata["sum_other_score"].where(strata["sum_other_score"] != 0)
        pieces.append(pd.DataFrame({
            **{k: strata[k] for k in by}, "part": part,
            "winners": strata["n_winner"].astype(int), "others": strata["n_other"].astype(int),
            "winners_mean": strata[f"sum_{w}"] / strata["n_winner"].where(strata["n_winner"] > 0),
            "others_mean": strata[f"sum_{o}"] / strata["n_other"].where(strata["n_other"] > 0),
            "difference": diff, "difference_low": lo, "difference_high": hi,
            "winners_share": share_w, "others_share": share_o, "share_gap": share_w - share_o}))
    style = pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame()
    if not style.empty:  # a part nobody scored at a board (a bonus that board does not award) says nothing there
        style = style[(style["winners_mean"].fillna(0) != 0) | (style["others_mean"].fillna(0) != 0)]
    if not style.empty:  # each stratum's parts together, in the order of the strata
        style["_at"] = [order[tuple(r)] for r in style[list(by)].itertuples(index=False)]
        style = style.sort_values("_at", kind="stable").drop(columns="_at").reset_index(drop=True)
    return wins, style


def profile_table(rows: pd.DataFrame, by: Sequence[str], parts: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``finish_profile(profile_sums(rows, ...))``: the wins and style tables of one frame of rows."""
    return finish_profile(profile_sums(rows, by, parts), by, parts)


def stratum_label(by: Sequence[str], values: Sequence[Any], settings: Sequence[str] = ("players",)) -> str:
    """``usa, 4 players``: a stratum's levels as a reader names them."""
    return ", ".join(f"{v} {k}" if k in settings else str(v) for k, v in zip(by, values))


def readings(wins: pd.DataFrame, style: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """One sentence per stratum, from the numbers: the entrant that won most (win rate, interval,
    fair share), the part of the score whose share rose most from the others to the winners
    (what the board rewards), and how the entrants' own shares of that part rank with their
    win rates (Spearman's rank correlation over the entrants: do the entrants that play for it
    win?)."""
    from scipy import stats

    out = []
    for values, g in wins.groupby(list(by), sort=False, dropna=False):
        values = values if isinstance(values, tuple) else (values,)
        lead = g.loc[g["win_rate"].idxmax()]
        text = (f"{stratum_label(by, values)}: {lead['entrant']} wins most, {100 * lead['win_rate']:.0f}% "
                f"[{100 * lead['low']:.0f}, {100 * lead['high']:.0f}] of its {int(lead['games'])} games "
                f"(fair share {100 * lead['fair_share']:.0f}%)")
        s = style[np.logical_and.reduce([style[k] == v for k, v in zip(by, values)])] if not style.empty else style
        s = s.dropna(subset=["share_gap"]) if not s.empty else s
        if not s.empty:
            top = s.loc[s["share_gap"].idxmax()]
            text += (f"; it rewards {str(top['part']).replace('_', ' ')}: {100 * top['winners_share']:.0f}% of the "
                     f"winners' points against {100 * top['others_share']:.0f}% of the others' "
                     f"({100 * top['share_gap']:+.0f} points of share; {top['difference']:+.1f} points a player "
                     f"[{top['difference_low']:+.1f}, {top['difference_high']:+.1f}])")
            own = g[[f"share_{top['part']}", "win_rate"]].dropna()
            if len(own) >= 3 and own.nunique().min() > 1:
                rho, p = stats.spearmanr(own.iloc[:, 0], own.iloc[:, 1])
                shown = p_text(p)
                text += (f"; over the {len(own)} entrants, rank correlation of their own share of it with their win "
                         f"rate {rho:+.2f} (p{shown if shown.startswith('<') else '=' + shown})")
        out.append(text + ".")
    return out




def study_profiles(results: "StudyResults") -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """A study's wins and style tables over its strata (``StudyResults.unpaired``), each cell
    read a chunk at a time, with the parts of the score every cell's game names (a part one
    board does not award counts 0 there), and the strata's ``by``."""
    from ttr_lab.analysis.game import score_parts_of
    from ttr_lab.core.game import load_game
    from ttr_lab.core.result_chunks import game_chunks

    by = results.unpaired
    options = {c["key"]: c["options"] for c in results.meta["cells"]}
    named: list[str] = []
    for key in results.cells:
        for part in score_parts_of(load_game(results.meta["game"], **options[key])):
            if part not in named:
                named.append(part)
    parts = top_parts(named)
    sums = []
    for key, cell in results.cells.items():
        levels = results.levels_of(key)
        wanted = [c for c in ("entrant", "win", "forfeit", "score", *parts) if c in cell.recorded]
        for chunk in game_chunks(cell.folder, wanted):
            for k in by:
                chunk[k] = levels[k]
            sums.append(profile_sums(chunk, by, parts))
    if not sums:
        return pd.DataFrame(), pd.DataFrame(), by
    wins, style = finish_profile(pd.concat(sums, ignore_index=True), by, parts)
    return wins, style, by


__all__ = ["finish_profile", "profile_sums", "profile_table", "readings", "stratum_label", "study_profiles", "top_parts"]
