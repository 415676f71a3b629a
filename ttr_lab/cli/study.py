"""``ttr-lab study`` and ``ttr-lab compare``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from ttr_lab.cli.console import fail, make_console
from ttr_lab.core.errors import ConfigError, TTRLabError


def study(
    config: Path = typer.Argument(..., help="Study config (YAML), e.g. configs/study/longest-bonus.yaml."),
    games: Optional[int] = typer.Option(None, help="Games per cell (rounded up to whole deals)."),
    workers: Optional[int] = typer.Option(None, help="Worker processes (default: every CPU)."),
    address: Optional[str] = typer.Option(None, help="An existing Ray cluster (host:port or auto)."),
    out: Optional[str] = typer.Option(None, "--out", help="Study folder (one results folder per cell inside)."),
    backend: Optional[str] = typer.Option(None, help="ray or serial."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar per cell."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write STUDY/report.html at the end."),
) -> None:
    """Play a study: a tournament per combination of rule values and map edits, all on the same
    deals; or, with a `search:` block, search the rules for balance. Resumable."""
    from ttr_lab.studies import load_study, run_study, study_report
    from ttr_lab.studies.search import is_search, load_search, run_search

    overrides = {"games": games, "workers": workers, "address": address, "output": out, "backend": backend}
    console = make_console()
    try:
        if is_search(config):
            search = load_search(config, overrides)
            result = run_search(search, console=console)
            console.print(result.text(), markup=False, highlight=False)
            return
        cfg = load_study(config, overrides)
        run = run_study(cfg, console=console, show_progress=progress)
    except TTRLabError as exc:
        fail(exc)
    console.print(f"{len(run.cells)} cells: {run.played} games played, {run.already_stored} already stored in {cfg.output}",
                  markup=False, highlight=False)
    if report and (run.played + run.already_stored):
        try:
            built = study_report(cfg.output)
            written = built.write()
        except TTRLabError as exc:
            fail(exc)
        for line in built.findings:
            console.print(f"- {line}", markup=False, highlight=False)
        typer.echo(f"report: {written}")
    if run.interrupted:
        raise typer.Exit(code=130)
    if not run.complete:
        raise typer.Exit(code=1)


def compare(
    results_a: Path = typer.Argument(..., help="The first results folder (before)."),
    results_b: Path = typer.Argument(..., help="The second results folder (after)."),
    figure: Optional[Path] = typer.Option(None, "--figure", help="Also write the comparison figure (PNG)."),
    paired: Optional[bool] = typer.Option(
        None, "--paired/--unpaired",
        help="Pair by deal (the default: refused unless both runs are one game, variant, player count and deals); "
             "--paired also across rule variants of one game on the same deals; --unpaired: two samples, across "
             "variants and deals of one game and player count."),
    metrics: bool = typer.Option(True, "--metrics/--no-metrics", help="Also show the change in every metric."),
    pair: list[str] = typer.Option(
        [], "--pair", metavar="A_NAME=B_NAME",
        help="Compare A's entrant A_NAME with B's B_NAME (shown as A_NAME): two options of one strategy, "
             "each run naming its entrant after them. Repeatable."),
) -> None:
    """Compare two tournaments entrant by entrant: the change in win rate, score and metrics,
    paired by deal when both played the same deals (and how many games changed winner)."""
    from rich.table import Table

    from ttr_lab.analysis.compare import compare_folders, comparison_figure
    from ttr_lab.core.figures import png_bytes

    console = make_console()
    pairs: dict[str, str] = {}
    for text in pair:
        name_a, sep, name_b = text.partition("=")
        if not sep or not name_a or not name_b:
            fail(ConfigError(f"--pair {text}: expected A_NAME=B_NAME (an entrant of each run)"))
        if name_a in pairs:
            fail(ConfigError(f"--pair {text}: A's entrant {name_a!r} is already paired with {pairs[name_a]!r}"))
        pairs[name_a] = name_b
    try:
        result = compare_folders(results_a, results_b, paired=paired, pairs=pairs)
    except (TTRLabError, ValueError) as exc:
        fail(exc)
    if result.paired:
        console.print(f"paired on {result.deals} deals: {result.games} games in both, {result.changed_winner} changed "
                      "winner", markup=False, highlight=False)
    else:
        console.print(f"unpaired: two samples ({result.games} games in all)", markup=False, highlight=False)
    for run, only in (("A", result.only_a), ("B", result.only_b)):
        if only:
            console.print(f"in {run} only (compared with nothing): {', '.join(only)}", markup=False, highlight=False)
    table = Table(title=f"{results_b} against {results_a} (95% intervals)")
    for column in ("entrant", "win A", "win B", "change", "95% interval", "p (Holm)", *(("gained", "lost") if result.paired else ()),
                   "score change"):
        table.add_column(column, justify="left" if column == "entrant" else "right")
    scores = result.scores.set_index("entrant")
    for _, r in result.wins.iterrows():
        s = scores.loc[r["entrant"]]
        cells: list[Any] = [r["entrant"], _pct(r["a"]), _pct(r["b"]), _pts(r["delta"]), f"[{_pts(r['low'])}, {_pts(r['high'])}]",
                            _p(r["p_holm"])]
        if result.paired:
            cells += [str(int(r["gained"])), str(int(r["lost"]))]
        cells.append(f"{s['delta']:+.1f} [{s['low']:+.1f}, {s['high']:+.1f}]")
        table.add_row(*cells)
    console.print(table)
    if metrics and not result.metrics.empty:
        mt = Table(title="Change in each metric (B - A, 95% interval)")
        for column in ("metric", "entrant", "A", "B", "change", "95% interval"):
            mt.add_column(column, justify="left" if column in ("metric", "entrant") else "right")
        for _, r in result.metrics.iterrows():
            mt.add_row(r["metric"], r["entrant"], f"{r['a']:.2f}", f"{r['b']:.2f}", f"{r['delta']:+.2f}",
                       f"[{r['low']:+.2f}, {r['high']:+.2f}]")
        console.print(mt)
    if figure is not None:
        figure.write_bytes(png_bytes(comparison_figure(result, f"{results_b.name} against {results_a.name}")))
        typer.echo(f"figure: {figure}")


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def _pts(v: float) -> str:
    return "" if v != v else f"{100 * v:+.1f}"


def _p(v: float) -> str:
    return "" if v != v else "<0.001" if v < 0.001 else f"{v:.3f}"
