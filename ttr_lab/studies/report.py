"""A study's report: what each factor does to every entrant, every cell against the baseline
(paired: the cells play the same deals), the balance of each cell, a heatmap for two factors,
for a "remove each" study the tracks or tickets ranked by their effect, on the board, and for a
study over boards or player counts their profiles side by side (``profiles.py``).

    report = study_report("results/study-longest-bonus")   # in a notebook: displays itself
    report.tables["paired"]; report.write()                  # STUDY/report.html (self-contained)

Everything is computed from the stored cells (``study.json`` names them), so a report can be
made while a study still runs: cells not yet started are left out, and a cell cut short is
compared on the deals both it and the baseline hold.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.compare import balance_of, compare_folders
from ttr_lab.analysis.game import score_parts_of
from ttr_lab.analysis.runs import check_comparable, identity
from ttr_lab.analysis.presentation import CSS, html_table, p_text, present
from ttr_lab.core.intervals import wilson
from ttr_lab.analysis.tables import summarised_metrics
from ttr_lab.core.accumulate import Moments
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.figures import png_bytes
from ttr_lab.core.game import Game, load_game
from ttr_lab.core.results import read_results, result_parts
from ttr_lab.studies.cells import CellSummary
from ttr_lab.studies.config import STUDY_FILE
from ttr_lab.studies.figures import balance_figure, factor_figure, heatmap_figure, paired_figure, profile_figure
from ttr_lab.studies.presentation import (balance_view, change_text, effects_view, interval_meaningless, paired_view,
                                          profile_style_view, profile_wins_view, ranking_view)
from ttr_lab.studies.profiles import readings, study_profiles

PROFILE_WINS = "Profiles: win rate per entrant"
PROFILE_STYLE = "Profiles: where the points came from"


@dataclass
class StudyResults:
    """A study folder read back: its description (``study.json``), the game of its baseline,
    and every stored cell, each read once into what the tables need (``cells``: cell key ->
    ``CellSummary``); the tables that pair a cell with the baseline read both folders again,
    a range of deals at a time."""

    folder: Path
    meta: dict[str, Any]
    game: Game
    cells: dict[str, CellSummary]

    @property
    def frames(self) -> dict[str, pd.DataFrame]:
        """Every stored cell's rows, each as one frame (``read_results``): for a notebook's own
        look at a small study; the tables do not need it (a big study's rows may not fit)."""
        import warnings

        warnings.warn("StudyResults.frames reads every row of every cell into memory; the study's tables read "
                      "StudyResults.cells (a few numbers per entrant)", DeprecationWarning, stacklevel=2)
        return {key: read_results(cell.folder) for key, cell in self.cells.items()}

    @property
    def factors(self) -> list[str]:
        return list(self.meta["levels"])

    @property
    def baseline_key(self) -> str:
        return next(c["key"] for c in self.meta["cells"] if c["levels"] == self.meta["baseline"])

    def levels_of(self, key: str) -> dict[str, Any]:
        return next(c["levels"] for c in self.meta["cells"] if c["key"] == key)

    @property
    def unpaired(self) -> list[str]:
        """The factors whose levels deal other cards (a board, a player count): their levels make
        the strata, and a cell is paired only within its own."""
        return [name for name, f in zip(self.meta["levels"], self.meta["factors"]) if "option" in f or "setting" in f]

    def reference_of(self, key: str) -> str | None:
        """The cell ``key`` is paired with: in its stratum, the one with the baseline's levels of
        the paired factors (the baseline itself when the study varies no board or player count);
        None when that cell is not in the study (a board that cannot seat the player count)."""
        levels = self.levels_of(key)
        wanted = {k: (levels[k] if k in self.unpaired else v) for k, v in self.meta["baseline"].items()}
        return next((c["key"] for c in self.meta["cells"] if c["levels"] == wanted), None)

    @property
    def each(self) -> dict[str, Any] | None:
        return next((f for f in self.meta["factors"] if f.get("levels") == "each"), None)


def load_study_results(folder: str | Path) -> StudyResults:
    folder = Path(folder)
    meta_file = folder / STUDY_FILE
    if not meta_file.is_file():
        raise ConfigError(f"{folder} is not a study folder (no {STUDY_FILE}); run `ttr-lab study CONFIG` first")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    baseline = next(c["key"] for c in meta["cells"] if c["levels"] == meta["baseline"])
    stored = [c["key"] for c in meta["cells"] if result_parts(folder / "cells" / c["key"])]
    if baseline not in stored:
        raise ConfigError(f"{folder}: the baseline cell {baseline} has no stored games yet")
    # The game as the study's config built it (a map folder by its path, as given), not as
    # the cell's meta.json names it.
    options = next(c["options"] for c in meta["cells"] if c["key"] == baseline)
    results = StudyResults(folder, meta, load_game(meta["game"], **options), {})
    # Each cell read once, its stratum's reference before it; cells differ from the cell they
    # are paired with in their factors by design, in nothing else: the same check as ``compare``.
    cells: dict[str, CellSummary] = {}
    order = sorted(stored, key=lambda k: (k != results.reference_of(k), k != baseline))
    for key in order:
        cell = CellSummary.read(folder / "cells" / key)
        ref = results.reference_of(key)
        if ref is not None and ref != key and ref in cells:
            check_comparable(identity(cells[ref], f"cell {ref}"), identity(cell, f"cell {key}"), across_variants=True)
            differ = cell.deals_against(cells[ref], f"{'baseline ' if ref == baseline else ''}cell {ref}", f"cell {key}")
            if differ:
                raise ConfigError(f"{folder}: {differ}: a study's cells play the same deals")
        cells[key] = cell
    results.cells = {key: cells[key] for key in stored}  # in the study's order
    return results


def _t_band(moments: Moments, entrant: str, measure: str) -> tuple[float, float, float]:
    """Mean and Student's t 95% interval of one entrant's ``measure`` (from its moments)."""
    from scipy import stats

    n = moments.count(entrant, measure)
    mean = moments.mean_of(entrant, measure)
    if n < 2:
        return (mean, np.nan, np.nan)
    half = float(stats.t.ppf(0.975, n - 1) * moments.std_of(entrant, measure) / np.sqrt(n))
    return (mean, mean - half, mean + half)


def measures_of(results: StudyResults) -> list[str]:
    """The per-entrant numbers drawn against each factor: the score and the parts of it the
    game names (``score_parts``), where recorded."""
    parts = [p for p in score_parts_of(results.game) if all(p in c.recorded for c in results.cells.values())]
    return ["score", *parts]


def all_measures(results: StudyResults) -> list[str]:
    """The score and every metric the game declares that is summarised in every stored cell."""
    shown = [set(m.name for m in summarised_metrics(c, results.game.metrics)) for c in results.cells.values()]
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
            cells = [c for k, c in results.cells.items() if results.levels_of(k)[factor] == level]
            if not cells:
                continue
            played = Moments()
            for cell in cells:
                played = played.merged(cell.played)
            for entrant in sorted({e for c in cells for e in c.rows}):
                games = sum(c.rows.get(entrant, 0) for c in cells)
                wins = sum(c.wins.get(entrant, 0.0) for c in cells)
                low, high = wilson(wins, games)
                rows.append({"factor": factor, "level": level, "entrant": entrant, "measure": "win_rate",
                             "games": games, "value": wins / games, "low": low, "high": high})
                kept = sum(c.played_rows.get(entrant, 0) for c in cells)
                for m in measures:
                    mean, lo, hi = _t_band(played, entrant, m)
                    rows.append({"factor": factor, "level": level, "entrant": entrant, "measure": m,
                                 "games": kept, "value": mean, "low": lo, "high": hi})
    return pd.DataFrame(rows)


def paired_table(results: StudyResults) -> pd.DataFrame:
    """Every cell against the baseline, per entrant: win rate in each, the paired change with its
    interval, the games the entrant won only in the cell (gained) or only in the baseline (lost),
    the Wilcoxon p-value over deals (Holm-corrected over the entrants), and the cell's games
    whose winner changed."""
    pieces = []
    for key, cell in results.cells.items():
        ref = results.reference_of(key)
        if ref is None or ref == key or ref not in results.cells:
            continue
        c = compare_folders(results.cells[ref].folder, cell.folder, across_variants=True, metrics=())
        wins = c.wins.copy()
        wins.insert(0, "cell", key)
        wins.insert(1, "against", ref)
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
    for key, cell in results.cells.items():
        b = balance_of(cell.wins, cell.fair, cell.rows, cell.games)
        leader = max(b.win_rates, key=lambda e: b.win_rates[e])
        rows.append({"cell": key, **results.levels_of(key), "games": b.games, "spread": b.spread, "sd": b.sd,
                     "chi2": b.chi2, "p_all_equal": b.p_value, "leader": leader,
                     "leader_win_rate": b.win_rates[leader], "baseline": key == results.baseline_key})
    return pd.DataFrame(rows)


def ranking(results: StudyResults) -> pd.DataFrame:
    """For a "remove each" study: every removed track or ticket, ranked by how much the game's
    winners change without it (games that changed winner, share of the games compared), with
    the change in balance (spread of win rates) and each entrant's change in win rate."""
    paired, bal = paired_table(results), balance_table(results).set_index("cell")
    if paired.empty:
        return pd.DataFrame()
    factor = results.factors[0]
    base_spread = float(bal.loc[results.baseline_key, "spread"])
    rows = []
    for key, g in paired.groupby("cell", sort=False):
        row = {"removed": results.levels_of(key)[factor], "games": int(g["games_compared"].iloc[0]),
               "changed_winner": int(g["changed_winner"].iloc[0]),
               "spread_change": float(bal.loc[key, "spread"]) - base_spread}
        row["changed_share"] = row["changed_winner"] / row["games"] if row["games"] else np.nan
        for _, r in g.iterrows():
            row[f"{r['entrant']}_win_change"] = r["delta"]
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.sort_values(["changed_winner", "spread_change"], ascending=[False, False], kind="stable").reset_index(drop=True)


# --- the report ------------------------------------------------------------------------------

@dataclass
class StudyReport:
    """Tables (pandas) and figures (matplotlib) of a study; shows itself in Jupyter."""

    results: StudyResults
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: list[tuple[str, str, Any]] = field(default_factory=list)  # (key, caption, Figure)
    findings: list[str] = field(default_factory=list)

    def html(self) -> str:
        meta = self.results.meta
        parts = [f"<h1>Study: {html.escape(meta['name'])}</h1>",
                 f"<p>{html.escape(self.results.game.title)}; factors: "
                 f"{html.escape(', '.join(f'{k} {v}' for k, v in meta['levels'].items() if len(str(v)) < 200))}; "
                 f"baseline cell <b>{html.escape(self.results.baseline_key)}</b>; "
                 f"{len(self.results.cells)} of {len(meta['cells'])} cells stored.</p>"]
        if self.findings:
            parts.append("<h2>Findings</h2><ul>" + "".join(f"<li>{html.escape(f)}</li>" for f in self.findings) + "</ul>")
        for key, caption, fig in self.figures:
            data = base64.b64encode(png_bytes(fig)).decode()
            parts.append(f"<figure id='{key}'><img src='data:image/png;base64,{data}' style='max-width:100%'>"
                         f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        for name, table in self.tables.items():
            parts.append(f"<h2>{html.escape(name)}</h2>" + self._note(name, table) + html_table(self.view(name, table)))
        return "\n".join(parts)

    def view(self, name: str, table: pd.DataFrame) -> pd.DataFrame:
        """Table ``name`` as the page shows it (``ttr_lab.studies.presentation``); the raw table
        stays in ``tables`` for a notebook."""
        baseline = self.results.baseline_key
        if table.empty:
            return table
        if name == "Balance per cell":
            return balance_view(table, baseline)
        if name == "Paired difference against the baseline":
            return paired_view(table)
        if name == "Effects":
            return effects_view(table, {"score": "score (pts)"})
        if name == "Ranking":
            return ranking_view(table)
        if name == PROFILE_WINS:
            return profile_wins_view(table, self.results.unpaired)
        if name == PROFILE_STYLE:
            return profile_style_view(table, self.results.unpaired)
        return present(table)

    @staticmethod
    def _note(name: str, table: pd.DataFrame) -> str:
        if name != "Paired difference against the baseline":
            return ""
        if table.empty:
            return ("<p class='note'>No cell is paired with another yet: a cell is paired only with one on the same "
                    "deals, of the same board and player count.</p>")
        how = ("each seat compared with itself on the same deal; intervals are Student's t over deals, the test "
               "Wilcoxon's over deals, Holm-corrected over the entrants" if table["paired"].all()
               else "some cells compared as two samples (Welch), not paired by deal")
        return (f"<p class='note'>Changes in points of a percentage: {how}. An interval that runs past the changes "
                "a win rate can make says nothing and is not shown (too few deals).</p>")

    def _repr_html_(self) -> str:
        return self.html()

    def write(self, path: str | Path | None = None) -> Path:
        path = Path(path) if path is not None else self.results.folder / "report.html"
        page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.results.meta['name'])}"
                f"</title><style>{CSS}</style></head><body>{self.html()}</body></html>")
        path.write_text(page, encoding="utf-8")
        return path

    def save_figures(self, folder: str | Path, prefix: str = "") -> list[Path]:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        out = []
        for key, _caption, fig in self.figures:
            path = folder / f"{prefix}{key}.png"
            path.write_bytes(png_bytes(fig))
            out.append(path)
        return out


def findings(results: StudyResults, paired: pd.DataFrame, bal: pd.DataFrame) -> list[str]:
    """Plain sentences from the numbers: the leader of each cell, the most and least balanced
    cells, and every significant paired change (Holm-corrected p < 0.05)."""
    out = []
    base = bal[bal["baseline"]].iloc[0]
    p = p_text(base['p_all_equal'])
    out.append(f"Baseline {base['cell']}: {base['leader']} leads with {100 * base['leader_win_rate']:.1f}% of wins; "
               f"spread of win rates {100 * base['spread']:.1f} points (all-equal test p{p if p.startswith('<') else '=' + p}).")
    best, worst = bal.loc[bal["spread"].idxmin()], bal.loc[bal["spread"].idxmax()]
    out.append(f"Most even cell: {best['cell']} (spread {100 * best['spread']:.1f} points, leader {best['leader']}); "
               f"least even: {worst['cell']} (spread {100 * worst['spread']:.1f}, leader {worst['leader']}).")
    if not paired.empty:
        sig = paired[paired["p_holm"] < 0.05]
        for _, r in sig.iterrows():
            p = p_text(r['p_holm'])
            out.append(f"{r['cell']}: {r['entrant']} {100 * r['a']:.1f}% -> {100 * r['b']:.1f}% "
                       f"({100 * r['delta']:+.1f} points, "
                       f"{'too few deals for an interval' if interval_meaningless(r['a'], r['low'], r['high']) else '95% ' + change_text(r['delta'], r['low'], r['high'], r['a']).split(' ', 1)[1]}, "
                       f"Holm p{p if p.startswith('<') else '=' + p}).")
        if sig.empty:
            out.append("No entrant's win rate changed significantly in any cell against the baseline "
                       "(paired by deal, Holm-corrected p < 0.05).")
        changed = paired.groupby("cell", sort=False)[["changed_winner", "games_compared"]].first()
        many = len(changed) > 8
        if many:  # a "remove each" study: the cells that change most
            changed = changed.sort_values("changed_winner", ascending=False, kind="stable").head(8)
        text = "; ".join(f"{k}: {int(r['changed_winner'])}/{int(r['games_compared'])}" for k, r in changed.iterrows())
        out.append(f"Games whose winner changed against the baseline{' (the 8 cells changing most)' if many else ''}: {text}.")
    return out


def study_report(folder: str | Path) -> StudyReport:
    """Every table and figure of the study stored in ``folder``."""
    results = load_study_results(folder)
    report = StudyReport(results)
    eff, paired, bal = effects(results), paired_table(results), balance_table(results)
    report.tables.update({"Balance per cell": bal, "Paired difference against the baseline": paired, "Effects": eff})
    report.findings = findings(results, paired, bal)
    if results.unpaired:  # a study over boards or player counts: their profiles side by side
        wins, style, by = study_profiles(results)
        if not wins.empty:
            report.tables = {PROFILE_WINS: wins, PROFILE_STYLE: style, **report.tables}
            report.findings = readings(wins, style, by) + report.findings
            report.figures.append(("profiles", "Profiles side by side: each entrant's win rate (95% intervals) and "
                                               "where the winners' points came from", profile_figure(wins, style, by)))
    each = results.each
    if each is None:
        for factor in results.factors:  # a board's or a player count's levels mix the others: the profiles show them
            if len(results.meta["levels"][factor]) > 1 and factor not in results.unpaired:
                report.figures.append((f"factor-{_slug(factor)}", f"{factor}: win rate and score parts per entrant, 95% bands",
                                       factor_figure(eff, factor, measures_of(results))))
    if not paired.empty:
        report.figures.append(("paired", "Paired difference of every cell against the baseline", paired_figure(paired)))
    report.figures.append(("balance", "Balance per cell", balance_figure(bal)))
    sized = [f for f in results.factors if len(results.meta["levels"][f]) > 1]
    if len(sized) == 2:
        report.figures.append(("heatmap", f"Spread of win rates over {sized[0]} and {sized[1]}",
                               heatmap_figure(bal, sized[0], sized[1])))
    if each is not None:
        ranked = ranking(results)
        report.tables = {"Ranking": ranked, **report.tables}
        draw = getattr(results.game, "draw_edit_effects", None)
        if draw is not None and not ranked.empty and each["edit"] == "remove_track":
            effect = dict(zip(ranked["removed"], ranked["changed_share"]))
            report.figures.insert(0, ("board", "Share of games whose winner changed when the track is removed",
                                      draw(each["edit"], effect, "What if this track did not exist? Games that change winner",
                                           "share of games with another winner")))
    return report


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in text)
