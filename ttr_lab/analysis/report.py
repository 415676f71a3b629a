"""``ttr-lab report RESULTS_DIR``: the tables and figures of a tournament, as ``report.md`` (with
PNG and SVG figures beside it) and a self-contained ``report.html`` (figures embedded).

The report is generic: its sections and figures need only the results' fixed columns and the
metrics the game declares. A game adds sections and figures of its own through its optional
hooks (``report_tables``, ``report_figures``; see ``ttr_lab.analysis.game``)."""

from __future__ import annotations

import base64
import html
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from ttr_lab.analysis import figures
from ttr_lab.analysis.game import game_figures, game_of, game_tables, score_parts_of
from ttr_lab.analysis.breakdowns import game_length_table, think_times
from ttr_lab.analysis.drawing import Drawing
from ttr_lab.analysis.presentation import CSS, html_table, markdown_table, markdown_text, present
from ttr_lab.analysis.ratings import bradley_terry
from ttr_lab.analysis.tables import (
    entrant_order, entrant_table, head_to_head, metric_table, pairwise_tests, player_count_table, score_parts, seat_table,
)
from ttr_lab.analysis.verdict import Verdict, differences_view, explaining, metric_differences, upsets, verdict
from ttr_lab.core.digest import ResultsDigest, digest_of
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game


NOTES = {
    "Verdict": "Written from the tables below: the order is by win rate, the test the paired one of Pairwise tests, "
               "the numbers that explain the lead the per-deal differences of Leader against runner-up whose 95% "
               "interval leaves out zero.",
    "Upsets": "The games won most against the odds, a row per pairing: the winner is rated (Ratings) furthest "
              "below the best entrant it beat (the gap is the two entrants', the same in each of their games), "
              "with the pairing's widest win and how many games it won so.",
    "Leader against runner-up": "Every number the game records, the leader's mean per game minus the runner-up's, "
                                "paired by deal (every seating of a deal shares its cards), with a 95% interval "
                                "(Student's t over deals); clearest first.",
    "Entrants": "Win rate (ties shared) with a 95% Wilson interval, mean and spread of the final score, turns, "
                "forfeits and stalled games. The game's own numbers per entrant are under Metrics.",
    "Ratings": "Bradley-Terry fit to who finished ahead of whom at each table, on the Elo scale (mean 1500); "
               "95% intervals from resampling whole deals.",
    "Head to head": "How often the row entrant finished ahead of the column entrant when both played (ties half).",
    "Pairwise tests": "Finishing ahead, paired by deal (every seating of a deal shares its seed): Wilcoxon "
                      "signed-rank test of the per-deal share against one half, Holm-corrected over all pairs.",
    "Metrics": "The numbers the game records per player (one column each in the results files), with what they "
               "mean, and their mean per entrant over the games played out; blank where a metric is not "
               "averaged (ids, lists). Metrics these results do not record are left out.",
    "Score parts": "Per entrant: mean, standard deviation and quartiles of the score and of each part of it.",
    "Seats": "Win rate by seat and player count, whoever sat there (seat advantage).",
    "Player counts": "Win rate and mean score per entrant and number of players.",
    "Game length": "Per number of players: how many turns the games played out lasted.",
    "Think time": "Per entrant: decisions taken and the (wall-clock) time spent on them; the mean per decision "
                  "over all of them, the median and 90th percentile over games of each game's mean, and the "
                  "CPU time per decision (on a busy machine, well below the wall-clock time).",
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


def report_sections(frame: "pd.DataFrame | ResultsDigest", game: Game, records: Sequence[Any] = (),
                    ratings: pd.DataFrame | None = None) -> list[tuple[str, str, pd.DataFrame | None, bool]]:
    """The report's tables, raw (as the analysis functions return them), in order: (title, note,
    table, whether its index is shown); a table of None: the note says it all (Player counts of
    a run at one player count would repeat Entrants). The generic sections, with the game's own
    tables (its ``report_tables``, handed ``records``: the folder's game records) after the score parts.
    ``present`` turns each into what the report prints. ``frame``: the results frame, or the
    folder's digest (``results_digest``: what the report reads, a chunk at a time).
    ``ratings``: the Ratings table (``bradley_terry``) if already computed."""
    frame = digest_of(frame, score_parts_of(game))
    generic = [
        ("Entrants", entrant_table(frame), False),
        ("Ratings", bradley_terry(frame) if ratings is None else ratings, False),
        ("Head to head", head_to_head(frame).rename_axis("ahead of →"), True),
        ("Pairwise tests", pairwise_tests(frame), False),
        ("Leader against runner-up", _leader_table(frame, game), False),
        ("Metrics", metric_table(frame, game.metrics), False),
        ("Score parts", score_parts(frame, score_parts_of(game)), False),
    ]
    own = game_tables(game, frame, records)
    clash = [title for title, _, _ in own if title in NOTES or title == "Figures"]
    if clash:
        raise ValueError(f"{game.name}: report table title(s) {', '.join(clash)} clash with the report's own sections")
    sections = [(title, NOTES[title], table, index) for title, table, index in generic]
    sections += [(title, note, table, False) for title, note, table in own]
    sections += [(title, NOTES[title], table, False) for title, table in
                 (("Seats", seat_table(frame)), ("Player counts", player_count_table(frame)),
                  ("Game length", game_length_table(frame)), ("Think time", think_times(frame)))]
    if len(frame.players) == 1:  # its table would repeat the entrants' win rates and scores, row for row
        said = (f"Every game had {next(iter(frame.players))} players: each entrant's win rate and mean score at "
                "that count are those of Entrants.")
        return [(t, said, None, i) if t == "Player counts" else (t, n, table, i) for t, n, table, i in sections]
    return sections


def results_digest(source: Any, game: Game) -> ResultsDigest:
    """The digest of a results folder (or frame) with the quartiles of the game's score parts:
    every table and figure of the report reads it, not the rows."""
    return ResultsDigest.of(source, score_parts_of(game))


def _leader_table(frame: ResultsDigest, game: Game) -> pd.DataFrame:
    order = entrant_order(frame)
    return metric_differences(frame, order[0], order[1], game.metrics) if len(order) > 1 else pd.DataFrame()


def verdict_of(sections: list[tuple[str, str, pd.DataFrame | None, bool]], frame: "pd.DataFrame | ResultsDigest",
               game: Game) -> Verdict:
    """The report's verdict, from the tables ``report_sections`` already computed."""
    tests = next(table for title, _, table, _ in sections if title == "Pairwise tests")
    return verdict(frame, game.metrics, tests)


def upsets_of(sections: list[tuple[str, str, pd.DataFrame | None, bool]], frame: "pd.DataFrame | ResultsDigest") -> pd.DataFrame:
    return upsets(frame, next(table for title, _, table, _ in sections if title == "Ratings"))


def presented(title: str, table: pd.DataFrame) -> pd.DataFrame:
    """A section's table as the report prints it (the head-to-head matrix is all shares)."""
    if title in ("Verdict", "Leader against runner-up") and len(table):
        return differences_view(table)  # each row at the precision the verdict's words use
    # Tables whose rows are different quantities get one precision for the whole table.
    return present(table, all_percent=title == "Head to head", one_precision=title == "Metrics")


# The generic figures that say nothing on a few games, and the fewest games they are drawn
# from: per-seat win rates and a running win rate are noise on a few dozen games (their 95%
# intervals span tens of points), a histogram of a few scores per entrant, or of a few dozen
# games' lengths, has no shape (the Game length table gives their quartiles at any size). Drawing
# is the report's fixed cost (a figure is drawn twice, PNG and SVG), so a small run skips them
# and says so. A game lists its own in its views' ``figure_min_games``.
MIN_GAMES = {"score_distributions": 100, "game_lengths": 100, "win_rate_over_games": 200, "seat_advantage": 200}


def skipped_figures(games: int, game: Game) -> dict[str, int]:
    """The figures (key -> the fewest games they need) not drawn for a run of ``games`` games."""
    needs = {**MIN_GAMES, **dict(game.views.figure_min_games)}
    return {key: least for key, least in needs.items() if games < least}


def report_figures(frame: "pd.DataFrame | ResultsDigest", game: Game, ratings: pd.DataFrame | None = None,
                   records: Sequence[Any] = (), skip: Sequence[str] = ()) -> list[tuple[str, str, Any]]:
    """The report's figures, in order: (key, caption, Figure); the generic ones, then the
    game's own (its ``report_figures``, handed ``records``), but none of ``skip`` (keys; the
    report passes ``skipped_figures``). ``ratings``: the Ratings table if already computed."""
    frame = digest_of(frame, score_parts_of(game))
    out = [(key, caption, figures.ratings(frame, ratings) if key == "ratings" else draw(frame, game))
           for key, (draw, caption) in FIGURES.items() if key not in skip]
    own = game_figures(game, frame, records, skip)
    keys = [key for key, _, _ in out + own]
    clash = sorted({key for key in keys if keys.count(key) > 1})
    if clash:
        raise ValueError(f"{game.name}: figure key(s) {', '.join(clash)} used twice in the report")
    return out + own


KEY_FIGURE = "win_rates"  # shown beside the verdict


def skipped_line(games: int, skipped: dict[str, int]) -> str:
    """The report's line saying which figures were not drawn, and why."""
    named = ", ".join(f"{key} (from {least} games)" for key, least in sorted(skipped.items(), key=lambda kv: (kv[1], kv[0])))
    return (f"Not drawn for {games} games, as they would show noise rather than a pattern: {named}. "
            "A run with more games draws them.")


def _upsets_section(folder: str, kept: bool, local: bool, table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The Upsets section (Markdown lines, HTML pieces): the games and, where the folder keeps
    its records (``kept``), the command that replays each (on a local copy of a remote folder)."""
    if table.empty:
        text = "No game was won against the ratings: every winner was rated at least as high as everyone it beat."
        return ["## Upsets\n", text + "\n"], ["<h2>Upsets</h2>", f"<p>{html.escape(text)}</p>"]
    table = table.copy()
    if kept:
        where = folder if local else "COPY"
        table["replay"] = [f"ttr-lab replay {shlex.quote(where)} --game {shlex.quote(game_id)}"
                           for game_id in table["game_id"]]
        how = "Replay one with the command beside it (add --html FILE for the viewer); --game upset picks the first."
        if not local:
            how += f" COPY is a local copy of {folder} (replay reads a local folder)."
    else:
        how = "This run kept no game records (records: true in the config keeps them), so they cannot be replayed."
    shown = presented("Upsets", table)
    return (["## Upsets\n", f"{NOTES['Upsets']} {how}\n", markdown_table(shown)],
            ["<h2>Upsets</h2>", f"<p>{html.escape(NOTES['Upsets'] + ' ' + how)}</p>", html_table(shown)])


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build_report(folder: str | Path, quiet: bool = False, progress: Callable[[str], None] | None = None,
                 out: str | Path | None = None) -> Path | str:
    """Write ``report.md``, ``report.html`` and ``report/`` figures into the results folder, or
    into ``out`` (a local folder) when given. The results folder may be a URI (``s3://``,
    ``gs://``: ``core.location``): the report is then written there through its filesystem,
    unless ``out`` says where else. Returns where ``report.md`` is (a path, or a URI).
    Each step is announced (with the seconds it took) to ``progress``, by default standard
    error; ``quiet`` says nothing."""
    import tempfile

    say = (lambda _: None) if quiet else (progress or _stderr)
    with tempfile.TemporaryDirectory(prefix="ttr-report-") as staging:
        return _build_report(folder, say, out, Path(staging))


def _build_report(folder: str | Path, say: Callable[[str], None], out: str | Path | None, staging: Path) -> Path | str:
    from ttr_lab.core.location import Location, is_uri
    from ttr_lab.core.result_chunks import game_chunks
    from ttr_lab.core.results import read_records

    started = time.perf_counter()

    def step(what: str) -> None:
        say(f"report: {what} ({time.perf_counter() - started:.1f} s)")

    location = Location(folder)
    remote = not location.local
    if not remote:  # a path, or a file:// URI of a local or mounted folder
        folder = Path(location.root) if is_uri(folder) else Path(folder)
    if not location.exists("results"):
        raise ConfigError(f"{folder} is not a results folder (no results/ in it)")
    target = Path(out) if out is not None else staging if remote else Path(folder)
    if out is not None:
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create the report folder {target}: {exc.strerror}") from None
    if not remote or out is not None:
        if not os.access(target, os.W_OK):  # said before the tables and figures, not after them
            raise ConfigError(f"cannot write the report into {target}: this user may not write there (a read-only "
                              "folder?); nothing stored was changed")
    if remote:  # the folder's own small files, where game_of reads them
        for name in ("meta.json", "config.yaml"):
            if location.exists(name):
                (staging / name).write_bytes(location.read_bytes(name))
    source = location if remote else folder
    first = next(game_chunks(source, ["game", "variant"], rows=1024), None)
    if first is None:
        raise ConfigError(f"{folder} holds no results yet")
    name = Path(location.root).name
    config_file = (staging if remote else Path(folder)) / "config.yaml"
    if config_file.exists():
        import yaml

        name = (yaml.safe_load(config_file.read_text()) or {}).get("name", name)
    game = game_of(staging if remote else folder, first)
    # One pass over the rows, a chunk at a time: every table and figure reads the digest.
    frame = results_digest(source, game)
    game = game_of(staging if remote else folder, frame)  # every row's game and variant checked
    records = read_records(source)  # once, for the game's hooks (what the rows do not hold)
    games = frame.games
    skipped = skipped_figures(games, game)
    ratings = bradley_terry(frame)  # the Ratings table and figure share it
    figs = report_figures(frame, game, ratings, records, skip=tuple(skipped))
    with Drawing([(key, fig) for key, _, fig in figs], target / "report") as drawing:
        spread = f" in {drawing.workers} processes" if drawing.workers > 1 else ""
        step(f"read {games} games; drawing {len(figs)} figures{spread} while computing the tables "
             "(ratings resample whole deals)")
        sections = report_sections(frame, game, records, ratings)
        step("tables done")
        images = drawing.images()
    step("figures drawn")
    forfeits = int(frame.forfeits.sum())
    stalled = frame.stalled_games
    heading = f"Report: {name} — {game.title} ({game.variant})"
    intro = (f"{games} games of {game.title} ({game.variant}), {len(frame.names)} entrants, "
             f"{', '.join(str(n) for n in sorted(frame.players))} players; "
             f"{forfeits} forfeited, {stalled} stalled.")
    md = [f"# {markdown_text(heading)}\n", intro + "\n"]
    page = [f"<h1>{html.escape(heading)}</h1>", f"<p>{html.escape(intro)}</p>"]
    said = verdict_of(sections, frame, game)
    key, caption = KEY_FIGURE, next(c for k, c, _ in figs if k == KEY_FIGURE)
    short = presented("Verdict", explaining(said.differences).drop(columns="description", errors="ignore"))
    md += ["## Verdict\n", *(line + "\n" for line in said.sentences),
           f"![{caption}](report/{key}.png)\n", markdown_table(short) if len(short) else ""]
    encoded = base64.b64encode(images[key]).decode()
    page.append(
        '<section id="verdict"><h2>Verdict</h2><div class="verdict"><div class="words">'
        + "".join(f'<p{" class=headline" if i == 0 else ""}>{html.escape(line)}</p>' for i, line in enumerate(said.sentences))
        + (html_table(short) if len(short) else "")
        + f'<p class="note">{html.escape(NOTES["Verdict"])}</p></div>'
        + f'<figure><img alt="{html.escape(caption, quote=True)}" src="data:image/png;base64,{encoded}">'
        + f"<figcaption>{html.escape(caption)}</figcaption></figure></div></section>")
    kept = bool(location.files("records", ".jsonl.gz"))
    md_upsets, page_upsets = _upsets_section(str(folder), kept, not remote, upsets_of(sections, frame))
    md += md_upsets
    page += page_upsets
    for title, note, table, index in sections:
        md += [f"## {title}\n", note + "\n"]
        page += [f"<h2>{html.escape(title)}</h2>", f"<p>{html.escape(note)}</p>"]
        if table is not None:
            shown = presented(title, table)
            md.append(markdown_table(shown, index=index))
            page.append(html_table(shown, index=index))
    md.append("## Figures\n")
    page.append("<h2>Figures</h2>")
    if skipped:
        said_skipped = skipped_line(games, skipped)
        md.append(said_skipped + "\n")
        page.append(f'<p class="note">{html.escape(said_skipped)}</p>')
    for key, caption, _ in figs:
        md.append(f"![{caption}](report/{key}.png) ([SVG](report/{key}.svg))\n")
        encoded = base64.b64encode(images[key]).decode()
        alt = html.escape(caption, quote=True)
        page.append(f'<figure><img alt="{alt}" src="data:image/png;base64,{encoded}"><figcaption>{alt}</figcaption></figure>')
    (target / "report.md").write_text("\n".join(md), encoding="utf-8")
    document = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(heading)}</title>"
                f"<style>{CSS}</style></head><body>{''.join(page)}</body></html>")
    (target / "report.html").write_text(document, encoding="utf-8")
    if remote and out is None:  # beside the results, each file whole or not at all
        for file in [target / "report.md", target / "report.html", *sorted((target / "report").iterdir())]:
            location.write_whole("report" if file.parent.name == "report" else "", file.name, file.read_bytes())
        step("written")
        return location.uri.split("?")[0].rstrip("/") + "/report.md"
    step("written")
    return target / "report.md"
