"""``ttr-lab report RESULTS_DIR``: the tables and figures of a tournament, as ``report.md`` (with
PNG and SVG figures beside it) and a self-contained ``report.html`` (figures embedded)."""

from __future__ import annotations

import base64
import html
import math
from pathlib import Path
from typing import Any

import pandas as pd

from ttr_lab.analysis import figures
from ttr_lab.core.figures import png_bytes
from ttr_lab.analysis.ratings import bradley_terry
from ttr_lab.analysis.tables import (
    entrant_table, head_to_head, pairwise_tests, player_count_table, score_parts, seat_table,
)
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, load_game


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def markdown_table(frame: pd.DataFrame, index: bool = False) -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""
    if index:
        frame = frame.reset_index()
    if frame.empty:
        return "_(no rows)_\n"
    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    body = ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


def _html_table(frame: pd.DataFrame, index: bool = False) -> str:
    return frame.to_html(index=index, float_format=lambda v: _fmt(float(v)), na_rep="", border=0, classes="t")


SECTIONS = (
    ("Entrants", "Win rate (ties shared) with a 95% Wilson interval, mean and spread of the final score, "
                 "ticket completion (completed / held), longest-trail bonus rate, trains left, turns."),
    ("Ratings", "Bradley-Terry fit to who finished ahead of whom at each table, on the Elo scale (mean 1500); "
                "95% intervals from resampling whole deals."),
    ("Head to head", "How often the row entrant finished ahead of the column entrant when both played (ties half)."),
    ("Pairwise tests", "Finishing ahead, paired by deal (every seating of a deal shares its cards): Wilcoxon "
                       "signed-rank test of the per-deal share against one half, Holm-corrected over all pairs."),
    ("Score parts", "Per entrant: mean, standard deviation and quartiles of each part of the score."),
    ("Seats", "Win rate by seat and player count, whoever sat there (seat advantage)."),
    ("Player counts", "Win rate and mean score per entrant and number of players."),
)


def game_of(folder: Path, frame: pd.DataFrame) -> Game:
    """The game the results were played in: from the folder's config, else from the rows."""
    config_file = folder / "config.yaml"
    if config_file.exists():
        import yaml

        data = yaml.safe_load(config_file.read_text()) or {}
        options = {**(data.get("options") or {}), **({"map": data["map"]} if data.get("map") else {})}
        return load_game(data.get("game", "ticket_to_ride"), **options)
    return load_game(str(frame["game"].iloc[0]), map=str(frame["variant"].iloc[0]))


def build_report(folder: str | Path, quiet: bool = False) -> Path:
    """Write ``report.md``, ``report.html`` and ``report/`` figures into the results folder."""
    from ttr_lab.core.results import read_results

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
    board = game.board
    tables = {
        "Entrants": entrant_table(frame),
        "Ratings": bradley_terry(frame),
        "Head to head": head_to_head(frame).rename_axis("ahead of →"),
        "Pairwise tests": pairwise_tests(frame),
        "Score parts": score_parts(frame),
        "Seats": seat_table(frame),
        "Player counts": player_count_table(frame),
    }
    claimed, by_winners = figures.track_maps(frame, board)
    figs = {
        "win_rates": (figures.win_rates(frame), "Win rate with 95% intervals"),
        "ticket_completion": (figures.ticket_completion(frame), "Tickets completed and failed"),
        "longest_route": (figures.longest_route(frame), "Longest-route bonus frequency"),
        "score_distributions": (figures.score_distributions(frame), "Score distributions"),
        "seat_advantage": (figures.seat_advantage(frame), "Seat advantage"),
        "tracks_claimed": (claimed, "How often each track is claimed"),
        "tracks_claimed_by_winners": (by_winners, "How often each track is claimed by winners"),
    }
    out = folder / "report"
    out.mkdir(exist_ok=True)
    images: dict[str, bytes] = {}
    for key, (fig, _) in figs.items():
        images[key] = png_bytes(fig)
        (out / f"{key}.png").write_bytes(images[key])
        fig.savefig(out / f"{key}.svg", format="svg")
    games = frame["game_id"].nunique()
    forfeits = int(frame["forfeit"].sum())
    stalled = int((frame.drop_duplicates("game_id")["termination"] == "stalled").sum())
    intro = (f"{games} games, {frame['entrant'].nunique()} entrants, map {board.name}, "
             f"{', '.join(str(n) for n in sorted(frame['num_players'].unique()))} players; "
             f"{forfeits} forfeited, {stalled} stalled.")
    md = [f"# Report: {name}\n", intro + "\n"]
    page = [f"<h1>Report: {html.escape(str(name))}</h1>", f"<p>{html.escape(intro)}</p>"]
    for title, note in SECTIONS:
        index = title == "Head to head"
        md += [f"## {title}\n", note + "\n", markdown_table(tables[title], index=index)]
        page += [f"<h2>{title}</h2>", f"<p>{html.escape(note)}</p>", _html_table(tables[title], index=index)]
    md.append("## Figures\n")
    page.append("<h2>Figures</h2>")
    for key, (_, caption) in figs.items():
        md.append(f"![{caption}](report/{key}.png) ([SVG](report/{key}.svg))\n")
        encoded = base64.b64encode(images[key]).decode()
        page.append(f'<figure><img alt="{caption}" src="data:image/png;base64,{encoded}"><figcaption>{caption}</figcaption></figure>')
    (folder / "report.md").write_text("\n".join(md), encoding="utf-8")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
             "table.t{border-collapse:collapse;font-size:13px;margin:0.5em 0}"
             "table.t td,table.t th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right}"
             "img{max-width:100%}figure{margin:1.5em 0}")
    document = (f"<!doctype html><html><head><meta charset='utf-8'><title>Report: {html.escape(str(name))}</title>"
                f"<style>{style}</style></head><body>{''.join(page)}</body></html>")
    (folder / "report.html").write_text(document, encoding="utf-8")
    return folder / "report.md"
