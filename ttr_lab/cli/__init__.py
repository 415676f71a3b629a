"""The ``ttr-lab`` command line. Commands live by subject in the modules beside this one; each
imports what it runs when it runs, so that ``ttr-lab --help`` stays quick."""

from __future__ import annotations

import typer

from ttr_lab.cli import bench, games, study, tournament, tune

app = typer.Typer(add_completion=False, no_args_is_help=True, help="AI strategies play Ticket to Ride against each other.")
bench_app = typer.Typer(no_args_is_help=True, help="Speed benchmarks (figures, not pass/fail).")
app.add_typer(bench_app, name="bench")

app.command()(games.play)
app.command()(tournament.tournament)
app.command()(tune.tune)
app.command("report")(tournament.report)
app.command()(study.study)
app.command()(study.compare)
app.command()(games.replay)
app.command()(games.strategies)
bench_app.command("engine")(bench.engine)
bench_app.command("tournament")(bench.tournament)
bench_app.command("strength")(bench.strength)
bench_app.command("env")(bench.env)


def _print_version(value: bool) -> None:
    if value:
        from ttr_lab import __version__

        typer.echo(f"ttr-lab {__version__}")
        raise typer.Exit()


@app.callback()
def _setup(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    # Strategies named by import path are looked up from the current directory too, as
    # `python -m` would (a console script does not put it on the path by itself).
    import os
    import sys

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def main() -> None:  # pragma: no cover - entry point
    app()


__all__ = ["app", "main"]
