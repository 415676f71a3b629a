"""The ``ttr-lab`` command line. Commands live by subject in the modules beside this one; each
imports what it runs when it runs, so that ``ttr-lab --help`` stays quick."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import Any

import typer

from ttr_lab.cli import bench, games, review, serve, starter, study, tournament, train, tune
from ttr_lab.cli.help import Command, Group


class _App(typer.Typer):
    """The command, which does not wait at its exit for threads a strategy left running (Python
    joins every non-daemon thread before it exits: an endless one would hold the command forever)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except SystemExit as exc:
            _exit_without_waiting(exc.code)
            raise


def _exit_without_waiting(code: Any) -> None:
    """With threads still running, say so in one line, run the exit handlers (strategy processes
    stopped, files closed) and exit at once; else return (the usual exit follows)."""
    left = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if not left:
        return
    names = ", ".join(t.name for t in left[:5]) + (", ..." if len(left) > 5 else "")
    print(f"note: not waiting for {len(left)} thread(s) still running at exit ({names}); a strategy may have left them",
          file=sys.stderr)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


app = _App(add_completion=False, no_args_is_help=True, cls=Group,
           help="AI strategies play board games against each other: Ticket to Ride (USA, Legendary "
                "Asia and other maps) and Trans-Orient Express; tournaments, studies, reports, tuning, RL "
                "environments. ttr-lab games lists the games.")
bench_app = typer.Typer(no_args_is_help=True, cls=Group, help="Speed benchmarks (figures, not pass/fail).")
app.add_typer(bench_app, name="bench")

app.command(cls=Command)(games.play)
app.command(cls=Command)(tournament.tournament)
app.command(cls=Command)(tune.tune)
app.command(cls=Command)(train.train)
app.command("report", cls=Command)(tournament.report)
app.command(cls=Command)(study.study)
app.command(cls=Command)(study.compare)
app.command(cls=Command)(games.replay)
app.command(cls=Command)(review.review)
app.command(cls=Command)(serve.serve)
app.command(cls=Command)(games.games)
app.command(cls=Command)(games.strategies)
app.command(cls=Command)(games.maps)
app.command(cls=Command)(starter.init)
bench_app.command("engine", cls=Command)(bench.engine)
bench_app.command("tournament", cls=Command)(bench.tournament)
bench_app.command("strength", cls=Command)(bench.strength)
bench_app.command("env", cls=Command)(bench.env)
bench_app.command("planner", cls=Command)(bench.planner)
bench_app.command("readers", cls=Command)(bench.readers)


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
    # Strategies named by import path are looked up from the current directory too (a console
    # script does not put it on the path by itself), last, so a user's folder never shadows an
    # installed package.
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
        sys.path.append(os.getcwd())


def main() -> None:  # pragma: no cover - entry point
    app()


__all__ = ["app", "main"]
