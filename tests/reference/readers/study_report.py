"""The whole-frame study tables this project had before its readers went out of core (each
cell read into one frame): the differential tests' reference for ``ttr_lab.studies``' tables.
Only the tables survive here; the report's presentation is the shipped one, unchanged."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from reference.readers.compare import balance, compare
from ttr_lab.analysis.runs import check_comparable, deal_difference, identity
from ttr_lab.core.intervals import wilson
from reference.readers.tables import summarised_metrics
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, load_game
from ttr_lab.core.results import read_results, result_parts
from ttr_lab.studies.config import STUDY_FILE


@dataclass
class StudyResults:
    """A study folder read back: its description (``study.json``), the game of its baseline,
    and the rows of every stored cell (``frames``: cell key -> results frame)."""

    folder: Path
    meta: dict[str, Any]
    game: Game
    frames: dict[str, pd.DataFrame]

    @property
    def factors(self) -> list[str]:
        return list(self.meta["levels"])

    @property
    def baseline_key(self) -> str:
        return next(c["key"] for c in self.meta["cells"] if c["levels"] == self.meta["baseline"])

    def levels_of(self, key: str) -> dict[str, Any]:
        return next(c["levels"] for c in self.meta["cells"] if c["key"] == key)

    @property
    def each(self) -> dict[str, Any] | None:
        return next((f for f in self.meta["factors"] if f.get("levels") == "each"), None)


def load_study_results(folder: str | Path) -> StudyResults:
    folder = Path(folder)
    meta_file = folder / STUDY_FILE
    if not meta_file.is_file():
        raise ConfigError(f"{folder} is not a study folder (no {STUDY_FILE}); run `ttr-lab study CONFIG` first")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    frames = {}
    for cell in meta["cells"]:
        cell_folder = folder / "cells" / cell["key"]
        if result_parts(cell_folder):
            frames[cell["key"]] = read_results(cell_folder)
    baseline = next(c["key"] for c in meta["cells"] if c["levels"] == meta["baseline"])
    if baseline not in frames:
        raise ConfigError(f"{folder}: the baseline cell {baseline} has no stored games yet")
    # Cells differ in their factors by design, in nothing else: the same check as ``compare``.
    base = identity(frames[baseline], f"baseline cell {baseline}")
    for key, frame in frames.items():
        check_comparable(base, identity(frame, f"cell {key}"), across_variants=True)
        differ = deal_difference(frames[baseline], frame, f"baseline cell {baseline}", f"cell {key}")
        if differ:
            raise ConfigError(f"{folder}: {differ}: a study's cells play the same deals")
    # The game as the study's config built it (a map folder by its path, as given), not as
    # the cell's meta.json names it.
    options = next(c["options"] for c in meta["cells"] if c["key"] == baseline)
    return StudyResults(folder, meta, load_game(meta["game"], **options), frames)


def _t_band(values: np.ndarray) -> tuple[float, float, float]:
    from scipy import stats

    values = values[~np.isnan(values)]
    if len(values) < 2:
        mean = float(values.mean()) if len(values) else np.nan
        return (mean, np.nan, np.nan)
    mean = float(values.mean())
    half = float(stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values)))
    return (mean, mean - half, mean + half)


def all_measures(results: StudyResults) -> list[str]:
    """The score and every metric the game declares that is summarised in every stored cell."""
    shown = [set(m.name for m in summarised_metrics(f, results.game.metrics)) for f in results.frames.values()]
    common = set.intersection(*shown) if shown else set()
    return ["score", *(m.name for m in results.game.metrics if m.name in common)]


def effects(results: StudyResults) -> pd.DataFrame:
    """Per factor, level and entrant (over the cells at that level, the other factors mixed):
    the win rate with its Wilson 95% interval, and the mean of the score and of each metric the
    game declares with a t 95% interval (the factor figures draw the score's parts)."""
    rows = []
    measures = all_measures(results)
    for factor in results.factors:
        for level in results.meta["levels"][factor]:
            keys = [k for k in results.frames if results.levels_of(k)[factor] == level]
            if not keys:
                continue
            frame = pd.concat([results.frames[k] for k in keys], ignore_index=True)
            for entrant, g in frame.groupby("entrant"):
                low, high = wilson(float(g["win"].sum()), len(g))
                rows.append({"factor": factor, "level": level, "entrant": entrant, "measure": "win_rate",
                             "games": len(g), "value": float(g["win"].mean()), "low": low, "high": high})
                played = g[~g["forfeit"].fillna(False).astype(bool)]
                for m in measures:
                    mean, lo, hi = _t_band(played[m].astype(float).to_numpy())
                    rows.append({"factor": factor, "level": level, "entrant": entrant, "measure": m,
                                 "games": len(played), "value": mean, "low": lo, "high": hi})
    return pd.DataFrame(rows)


def paired_table(results: StudyResults) -> pd.DataFrame:
    """Every cell against the baseline, per entrant: win rate in each, the paired change with its
    interval, the games the entrant won only in the cell (gained) or only in the baseline (lost),
    the Wilcoxon p-value over deals (Holm-corrected over the entrants), and the cell's games
    whose winner changed."""
    base = results.frames[results.baseline_key]
    pieces = []
    for key, frame in results.frames.items():
        if key == results.baseline_key:
            continue
        c = compare(base, frame, across_variants=True)
        wins = c.wins.copy()
        wins.insert(0, "cell", key)
        wins.insert(1, "against", results.baseline_key)  # a study without strata: always the baseline
        wins["score_delta"] = c.scores["delta"].to_numpy()
        wins["changed_winner"] = c.changed_winner
        wins["games_compared"] = c.games
        wins["paired"] = c.paired
        pieces.append(wins)
    return pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame()


def balance_table(results: StudyResults) -> pd.DataFrame:
    """Per cell: games, the spread (best minus worst win rate) and standard deviation of the win
    rates, the chi-square test of "all win equally", the leading entrant."""
    rows = []
    for key, frame in results.frames.items():
        b = balance(frame)
        leader = max(b.win_rates, key=lambda e: b.win_rates[e])
        rows.append({"cell": key, **results.levels_of(key), "games": b.games, "spread": b.spread, "sd": b.sd,
                     "chi2": b.chi2, "p_all_equal": b.p_value, "leader": leader,
                     "leader_win_rate": b.win_rates[leader], "baseline": key == results.baseline_key})
    return pd.DataFrame(rows)


# --- the report ------------------------------------------------------------------------------


