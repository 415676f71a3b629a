"""``ttr-lab tournament`` and ``ttr-lab report``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Optional

import typer

from ttr_lab.cli.console import fail, make_console
from ttr_lab.core.errors import TTRLabError


def tournament(
    config: Path = typer.Argument(..., help="Tournament config (YAML), e.g. configs/4p.yaml."),
    games: Optional[int] = typer.Option(None, help="Total games (rounded up to whole deals)."),
    workers: Optional[int] = typer.Option(None, help="Worker processes (default: every CPU)."),
    address: Optional[str] = typer.Option(None, help="An existing Ray cluster (host:port or auto)."),
    out: Optional[str] = typer.Option(None, "--out", help="Output folder."),
    backend: Optional[Literal["ray", "serial"]] = typer.Option(None, help="Where the games run (default: the config's)."),
    records: Optional[bool] = typer.Option(None, "--records/--no-records", help="Also keep every game record."),
    isolate: bool = typer.Option(False, "--isolate", help="Run each strategy in its own process (slower; "
                                 "strategies cannot reach the game's state; hard move time limits)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write report.md and report.html at the end."),
) -> None:
    """Run a tournament: seeded, seat-rotated games; results stored as they finish; resumable."""
    from ttr_lab.cli.summary import print_tournament_summary
    from ttr_lab.tournament import load_config, run_tournament

    overrides = {"games": games, "workers": workers, "address": address, "output": out, "backend": backend, "records": records,
                 "isolation": "process" if isolate else None}
    console = make_console()
    try:
        cfg = load_config(config, overrides)
        if cfg.isolation == "process":
            from ttr_lab.core.confinement import missing

            for line in missing():  # a boundary the machine does not give, said rather than promised
                typer.echo(f"note: {line}", err=True)
        run = run_tournament(cfg, console=console, show_progress=progress)
    except TTRLabError as exc:
        fail(exc)
    print_tournament_summary(console, cfg, run)
    if report and run.already_stored + run.played:
        from ttr_lab.analysis.report import build_report

        try:
            written = build_report(cfg.output)
        except Exception as exc:  # noqa: BLE001 - the games are stored; say what failed in one line
            typer.echo(f"error: the results are stored, but the report failed: {type(exc).__name__}: {exc}", err=True)
            raise typer.Exit(code=1) from None
        typer.echo(f"report: {written} and {_html(written)}")
    if run.interrupted:
        raise typer.Exit(code=130)
    if run.failed_batches or run.backend_error:
        raise typer.Exit(code=1)


def report(
    results: str = typer.Argument(..., help="A tournament's output folder (a path, or a URI: s3://, gs://)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the report into this local folder instead of beside the results."),
) -> None:
    """Tables and figures of a tournament: report.md (figures beside it) and a self-contained report.html."""
    from ttr_lab.analysis.report import build_report

    try:
        written = build_report(results, out=out)
    except TTRLabError as exc:
        fail(exc)
    typer.echo(f"report: {written} and {_html(written)}")


def _html(written: Path | str) -> str:
    """Where report.html is, beside report.md (a path or a URI)."""
    return str(written)[: -len(".md")] + ".html"
