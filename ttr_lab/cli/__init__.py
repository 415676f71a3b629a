"""The ``ttr-lab`` command line. Commands live by subject in the modules beside this one; each
imports what it runs when it runs, so that ``ttr-lab --help`` stays quick."""

from __future__ import annotations

import typer

from ttr_lab.cli import bench, games, starter, tournament, tune
from ttr_lab.cli.help import Command, Group

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=Group,
                  help="AI strategies play board games against each other: Ticket to Ride (USA, Legendary "
                       "Asia and other maps) and Trans-Orient Express; tournaments, reports, tuning, RL "
                       "environments. ttr-lab games lists the games.")
bench_app = typer.Typer(no_args_is_help=True, cls=Group, help="Speed benchmarks (figures, not pass/fail).")
app.add_typer(bench_app, name="bench")

app.command(cls=Command)(games.play)
app.command(cls=Command)(tournament.tournament)
app.command(cls=Command)(tune.tune)
app.command("report", cls=Command)(tournament.report)
app.command(cls=Command)(games.replay)
app.command(cls=Command)(games.games)
app.command(cls=Command)(games.strategies)
app.command(cls=Command)(starter.init)
bench_app.command("engine", cls=Command)(bench.engine)
bench_app.command("tournament", cls=Command)(bench.tournament)
bench_app.command("strength", cls=Command)(bench.strength)
bench_app.command("env", cls=Command)(bench.env)


def _print_version(value: bool) -> None:
    if value:
        from ttr_lab import __version__

        typer.echo(f"ttr-lab {__version__}")
        raise typer.Exit()


@app.callback()
def _setup(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show what the library logs (backend start-up, "
                                 "games played) on standard error."),
) -> None:
    # Strategies named by import path are looked up from the current directory too, as
    # `python -m` would (a console script does not put it on the path by itself).
    import os
    import sys

    if verbose:
        import logging

        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s", "%H:%M:%S"))
        logger = logging.getLogger("ttr_lab")
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def main() -> None:  # pragma: no cover - entry point
    app()


__all__ = ["app", "main"]
