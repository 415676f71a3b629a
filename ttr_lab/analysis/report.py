"""``ttr-lab report RESULTS_DIR``: the tables and figures of a tournament, as ``report.md`` (with
PNG and SVG figures beside it) and a self-contained ``report.html`` (figures embedded).

The report is generic: its sections and figures need only the results' fixed columns and the
metrics the game declares. A game adds sections and figures of its own through its optional
hooks (``report_tables``, ``report_figures``; see ``ttr_lab.analysis.game``)."""

from __future__ import annotations

import base64
import html
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ttr_lab.analysis import figures
from ttr_lab.analysis.game import game_figures, game_of, game_tables, score_parts_of
from ttr_lab.analysis.breakdowns import game_length_table, think_times
from ttr_lab.analysis.presentation import CSS, html_table, markdown_table, markdown_text, present
from ttr_lab.analysis.ratings import bradley_terry
from ttr_lab.analysis.tables import (
    entrant_table, head_to_head, metric_table, pairwise_tests, player_count_table, score_parts, seat_table,
)
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.figures import png_bytes
from ttr_lab.core.game import Game


NOTES = {
    "Entrants": "Win rate (ties shared) with a 95% Wilson interval, mean and spread of the final score, turns, "
                "forfeits and stalled games. The game's own numbers per entrant are under Metrics.",
    "Ratings": "Bradley-Terry fit to who finished ahead of whom at each table, on the Elo scale (mean 1500); "
               "95% intervals from resampling whole deals.",
    "Head to head": "How often the row entrant finished ahead of the column entrant when both played (ties half).",
    "Pairwise tests": "Finishing ahead, paired by deal (every seating of a deal shares its seed): Wilcoxon "
                      "signed-rank test of the per-deal share against one half, Holm-corrected over all pairs.",
    "Metrics": "The numbers the game records per player (one column each in the results files), with what they "
               "mean, and their mean per entrant over the games played out; blank where a metric is not "
               "averaged (ids, lists) or not recorded in these results.",
    "Score parts": "Per entrant: mean, standard deviation and quartiles of the score and of each part of it.",
    "Seats": "Win rate by seat and player count, whoever sat there (seat advantage).",
    "Player counts": "Win rate and mean score per entrant and number of players.",
    "Game length": "Per number of players: how many turns the games played out lasted.",
    "Think time": "Per entrant: decisions taken and the time spent on them; the mean per decision over all of "
                  "them, and the median and 90th percentile over games of each game's mean.",
}
# The generic figures: key -> (function of the frame and the game, caption).
FIGURES: dict[str, tuple[Callable[..., Any], str]] = {
    "win_rates": (lambda frame, game: figures.win_rates(frame), "Win rate with 95% intervals"),
    "ratings": (lambda frame, game: figures.ratings(frame), "Ratings (Bradley-Terry, Elo scale) with 95% intervals"),
    "head_to_head": (lambda frame, game: figures.head_to_head_heatmap(frame), "Head to head: row ahead of column"),
    "score_parts": (lambda frame, game: figures.score_parts(frame, score_parts_of(game)), "Score by part, per entrant"),
    "score_distributions": (lambda frame, game: figures.score_distributions(frame), "Score distributions"),
    "win_rate_over_games": (lambda frame, game: figures.win_rate_over_games(frame), "Win rate as games accumulate"),
    "seat_advantage": (lambda frame, game: figures.seat_advantage(frame), "Seat advantage"),
    "game_lengths": (lambda frame, game: figures.game_lengths(frame), "Game length"),
    "think_times": (lambda frame, game: figures.think_times(frame), "Think time per decision"),
}


def report_sections(frame: pd.DataFrame, game: Game) -> list[tuple[str, str, pd.DataFrame, bool]]:
    """The report's tables, raw (as the analysis functions return them), in order: (title, note,
    table, whether its index is shown). The generic sections, with the game's own tables (its
    ``report_tables``) after the score parts. ``present`` turns each into what the report prints."""
    generic = [
        ("Entrants", entrant_table(frame), False),
        ("Ratings", bradley_terry(frame), False),
        ("Head to head", head_to_head(frame).rename_axis("ahead of →"), True),
        ("Pairwise tests", pairwise_tests(frame), False),
        ("Metrics", metric_table(frame, game.metrics), False),
        ("Score parts", score_parts(frame, score_parts_of(game)), False),
    ]
    own = game_tables(game, frame)
    clash = [title for title, _, _ in own if title in NOTES or title == "Figures"]
    if clash:
        raise ValueError(f"{game.name}: report table title(s) {', '.join(clash)} clash with the report's own sections")
    sections = [(title, NOTES[title], table, index) for title, table, index in generic]
    sections += [(title, note, table, False) for title, note, table in own]
    sections += [(title, NOTES[title], table, False) for title, table in
                 (("Seats", seat_table(frame)), ("Player counts", player_count_table(frame)),
                  ("Game length", game_length_table(frame)), ("Think time", think_times(frame)))]
    return sections


def presented(title: str, table: pd.DataFrame) -> pd.DataFrame:
    """A section's table as the report prints it (the head-to-head matrix is all shares)."""
    return present(table, all_percent=title == "Head to head", one_precision=title == "Metrics")


def report_figures(frame: pd.DataFrame, game: Game, ratings: pd.DataFrame | None = None) -> list[tuple[str, str, Any]]:
    """The report's figures, in order: (key, caption, Figure); the generic ones, then the
    game's own (its ``report_figures``). ``ratings``: the Ratings table if already computed."""
    out = [(key, caption, figures.ratings(frame, ratings) if key == "ratings" else draw(frame, game))
           for key, (draw, caption) in FIGURES.items()]
    own = game_figures(game, frame)
    keys = [key for key, _, _ in out + own]
    clash = sorted({key for key in keys if keys.count(key) > 1})
    if clash:
        raise ValueError(f"{game.name}: figure key(s) {', '.join(clash)} used twice in the report")
    return out + own


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build_report(folder: str | Path, quiet: bool = False, progress: Callable[[str], None] | None = None) -> Path:
    """Write ``report.md``, ``report.html`` and ``report/`` figures into the results folder.
    Each step is announced (with the seconds it took) to ``progress``, by default standard
    error; ``quiet`` says nothing."""
    from ttr_lab.core.results import read_results

    say = (lambda _: None) if quiet else (progress or _stderr)
    started = time.perf_counter()

    def step(what: str) -> None:
        say(f"report: {what} ({time.perf_counter() - started:.1f} s)")

    folder = Path(folder)
    if not (folder / "results").is_dir():
        raise ConfigError(f"{folder} is not a results folder (no results/ in it)")
    frame = read_results(folder)
    if frame.empty:
        raise ConfigError(f"{folder} holds no results yet")
    name = folder.name
    config_file = folder / "config.yaml"
    if config_file.exists():
        import yaml

        name = (yaml.safe_load(config_file.read_text()) or {}).get("name", name)
    game = game_of(folder, frame)
    frame.attrs["folder"] = str(folder)  # a game's hooks may read the folder's game records (records/)
    step(f"read {frame['game_id'].nunique()} games; computing tables (ratings resample whole deals)")
    sections = report_sections(frame, game)
    step("tables done; drawing figures")
    figs = report_figures(frame, game, next(t for title, _, t, _ in sections if title == "Ratings"))
    out = folder / "report"
    out.mkdir(exist_ok=True)
    images: dict[str, bytes] = {}
    for number, (key, _, fig) in enumerate(figs, 1):
        images[key] = png_bytes(fig)
        (out / f"{key}.png").write_bytes(images[key])
        fig.savefig(out / f"{key}.svg", format="svg")
        step(f"figure {number} of {len(figs)}: {key}")
    games = frame["game_id"].nunique()
    forfeits = int(frame["forfeit"].sum())
    stalled = int((frame.drop_duplicates("game_id")["termination"] == "stalled").sum())
    intro = (f"{games} games of {game.title} ({game.variant}), {frame['entrant'].nunique()} entrants, "
             f"{', '.join(str(n) for n in sorted(frame['num_players'].unique()))} players; "
             f"{forfeits} forfeited, {stalled} stalled.")
    md = [f"# Report: {markdown_text(name)}\n", intro + "\n"]
    page = [f"<h1>Report: {html.escape(str(name))}</h1>", f"<p>{html.escape(intro)}</p>"]
    for title, note, table, index in sections:
        shown = presented(title, table)
        md += [f"## {title}\n", note + "\n", markdown_table(shown, index=index)]
        page += [f"<h2>{html.escape(title)}</h2>", f"<p>{html.escape(note)}</p>", html_table(shown, index=index)]
    md.append("## Figures\n")
    page.append("<h2>Figures</h2>")
    for key, caption, _ in figs:
        md.append(f"![{caption}](report/{key}.png) ([SVG](report/{key}.svg))\n")
        encoded = base64.b64encode(images[key]).decode()
        alt = html.escape(caption, quote=True)
        page.append(f'<figure><img alt="{alt}" src="data:image/png;base64,{encoded}"><figcaption>{alt}</figcaption></figure>')
    (folder / "report.md").write_text("\n".join(md), encoding="utf-8")
    document = (f"<!doctype html><html><head><meta charset='utf-8'><title>Report: {html.escape(str(name))}</title>"
                f"<style>{CSS}</style></head><body>{''.join(page)}</body></html>")
    (folder / "report.html").write_text(document, encoding="utf-8")
    step("written")
    return folder / "report.md"
