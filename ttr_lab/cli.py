"""The ``ttr-lab`` command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional

import typer

from ttr_lab.core.errors import TTRLabError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="AI strategies play Ticket to Ride against each other.")
bench_app = typer.Typer(no_args_is_help=True, help="Speed benchmarks (figures, not pass/fail).")
app.add_typer(bench_app, name="bench")


def _fail(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(code=2)


@app.command()
def play(
    players: int = typer.Option(4, "--players", "-p", help="Number of players (2-5)."),
    strategy: List[str] = typer.Option(["random"], "--strategy", "-s", help="Strategy per seat (repeat, or one for all seats)."),
    seed: int = typer.Option(0, "--seed", help="Game seed."),
    map_name: str = typer.Option("usa", "--map", help="Map name or map folder."),
    record: Optional[Path] = typer.Option(None, "--record", help="Save the game record (JSON) here."),
) -> None:
    """Play one game and print a summary: scores, tickets, longest trail."""
    from ttr_lab.games.ticket_to_ride.board import load_board
    from ttr_lab.play import play_game
    from ttr_lab.summary import print_summary
    from strategies.registry import build_strategies

    try:
        board = load_board(map_name)
        seats = build_strategies(strategy, players)
        rec = play_game(board, seats, seed)
    except TTRLabError as exc:
        _fail(exc)
    print_summary(board, rec)
    if record is not None:
        rec.save(record)
        typer.echo(f"record saved to {record}")


@app.command()
def tournament(
    config: Path = typer.Argument(..., help="Tournament config (YAML), e.g. configs/4p.yaml."),
    games: Optional[int] = typer.Option(None, help="Total games (rounded up to whole deals)."),
    workers: Optional[int] = typer.Option(None, help="Worker processes (default: every CPU)."),
    address: Optional[str] = typer.Option(None, help="An existing Ray cluster (host:port or auto)."),
    out: Optional[str] = typer.Option(None, "--out", help="Output folder."),
    backend: Optional[str] = typer.Option(None, help="ray or serial."),
    records: Optional[bool] = typer.Option(None, "--records/--no-records", help="Also keep every game record."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write report.md and report.html at the end."),
) -> None:
    """Run a tournament: seeded, seat-rotated games; results stored as they finish; resumable."""
    from ttr_lab.tournament import load_config, run_tournament

    overrides = {"games": games, "workers": workers, "address": address, "output": out, "backend": backend, "records": records}
    try:
        cfg = load_config(config, overrides)
        run = run_tournament(cfg, show_progress=progress)
    except TTRLabError as exc:
        _fail(exc)
    if report and run.already_stored + run.played:
        from ttr_lab.analysis.report import build_report

        try:
            written = build_report(cfg.output)
        except Exception as exc:  # noqa: BLE001 - the games are stored; say what failed in one line
            typer.echo(f"error: the results are stored, but the report failed: {type(exc).__name__}: {exc}", err=True)
            raise typer.Exit(code=1) from None
        typer.echo(f"report: {written} and {written.with_suffix('.html')}")
    if run.interrupted:
        raise typer.Exit(code=130)
    if run.failed_batches:
        raise typer.Exit(code=1)


@app.command()
def tune(
    config: Path = typer.Argument(..., help="Tuning config (YAML), e.g. configs/tune-greedy.yaml."),
    trials: Optional[int] = typer.Option(None, help="Number of trials (a rerun with more goes on from the stored ones)."),
    games: Optional[int] = typer.Option(None, "--games", help="Games per trial (rounded up to whole deals)."),
    validation_games: Optional[int] = typer.Option(None, "--validation-games", help="Games of each validation match."),
    search: Optional[str] = typer.Option(None, help="tpe, random or grid."),
    workers: Optional[int] = typer.Option(None, help="Trials at once (default: every CPU)."),
    address: Optional[str] = typer.Option(None, help="An existing Ray cluster (host:port or auto)."),
    out: Optional[str] = typer.Option(None, "--out", help="Output folder."),
    backend: Optional[str] = typer.Option(None, help="ray or serial."),
    seed: Optional[int] = typer.Option(None, help="Seed of the trial deals and the sampler."),
) -> None:
    """Tune a strategy's parameters: seeded trials on Ray Tune, the best validated on fresh seeds."""
    from ttr_lab.tuning import load_config, run_tuning

    overrides = {"trials": trials, "games_per_trial": games, "validation_games": validation_games, "search": search,
                 "workers": workers, "address": address, "output": out, "backend": backend, "seed": seed}
    try:
        cfg = load_config(config, overrides)
        run = run_tuning(cfg)
    except TTRLabError as exc:
        _fail(exc)
    if run.interrupted:
        raise typer.Exit(code=130)


@app.command("report")
def report_command(
    results: Path = typer.Argument(..., help="A tournament's output folder."),
) -> None:
    """Tables and figures of a tournament: report.md (figures beside it) and a self-contained report.html."""
    from ttr_lab.analysis.report import build_report

    try:
        written = build_report(results)
    except TTRLabError as exc:
        _fail(exc)
    typer.echo(f"report: {written} and {written.with_suffix('.html')}")


@app.command()
def replay(
    record: Path = typer.Argument(..., help="A game record (JSON), e.g. from ttr-lab play --record."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Show the state after this many turns (default: the end)."),
    action: Optional[int] = typer.Option(None, "--action", help="Or after this many actions."),
    picture: Optional[Path] = typer.Option(None, "--picture", help="Save the board (PNG or SVG) here."),
) -> None:
    """Replay a recorded game to a turn: scores, hands, the last actions, and a board picture."""
    from ttr_lab.record import GameRecord
    from ttr_lab.replay import describe_state, state_at

    try:
        rec = GameRecord.load(record)
        state, index = state_at(rec, turn=turn, action=action)
    except (OSError, ValueError) as exc:
        _fail(ValueError(f"cannot replay {record}: {exc}"))
    except TTRLabError as exc:
        _fail(exc)
    typer.echo(describe_state(state, rec, index))
    if picture is not None:
        from ttr_lab.analysis.board_plot import draw_state

        draw_state(state).savefig(picture, dpi=120)
        typer.echo(f"board picture saved to {picture}")


@app.command()
def strategies() -> None:
    """List the registered strategies and their tunable parameters."""
    import sys

    from strategies.registry import REGISTRY, describe_parameters, resolve
    from ttr_lab.tuning.space import documented_ranges

    for name in REGISTRY:
        cls = resolve(name)
        doc = cls.__doc__ or sys.modules[cls.__module__].__doc__ or ""
        summary = doc.strip().splitlines()[0] if doc.strip() else ""
        typer.echo(f"{name:20s} {summary}")
        typer.echo(f"{'':20s} parameters: {describe_parameters(cls)}")
        ranges = documented_ranges(cls)
        if ranges:
            typer.echo(f"{'':20s} worth tuning: {'; '.join(r.describe() for r in ranges.values())}")


@bench_app.command("engine")
def bench_engine(
    seconds: float = typer.Option(3.0, help="Time per measurement, in seconds."),
    seed: int = typer.Option(1, help="First game seed."),
) -> None:
    """Random games per second at 2 and 4 players, legal-action generations and clones per second."""
    from ttr_lab.bench.engine import engine_benchmark

    engine_benchmark(seconds=seconds, seed=seed, on_item=_show_items())


@bench_app.command("tournament")
def bench_tournament(
    games: int = typer.Option(2000, help="Games in the measured tournament."),
    workers: int = typer.Option(2, help="Ray workers."),
    strategy: str = typer.Option("greedy", help="The strategy at all four seats."),
) -> None:
    """Serial backend against Ray on the same tournament: games/s, Ray start-up, driver memory."""
    from ttr_lab.bench.tournament import tournament_benchmark

    tournament_benchmark(games=games, workers=workers, strategy=strategy, on_item=_show_items())


@bench_app.command("strength")
def bench_strength(
    deals: int = typer.Option(20, help="Deals per match; each is played under every seat rotation."),
    workers: Optional[int] = typer.Option(None, help="Ray workers (default: every CPU)."),
    seed: int = typer.Option(1, help="Master seed of the deals."),
    section: List[str] = typer.Option([], "--section", help="Run only these sections (repeat): ladder2, ladder4, mixed4, time, reference, speed."),
    backend: str = typer.Option("ray", help="ray, or serial (in this process)."),
) -> None:
    """Win rates with 95% intervals: the strategy ladder, mcts by thinking time, the reference agents."""
    from ttr_lab.bench.strength import SECTIONS, strength_benchmark

    try:
        strength_benchmark(deals=deals, workers=workers, seed=seed, sections=section or SECTIONS, backend=backend,
                           on_item=_show_items())
    except (ValueError, TTRLabError) as exc:
        _fail(exc)


def _show_items() -> Callable[[Any], None]:
    """Draws a benchmark's tables and lines on the terminal as they come."""
    from rich.table import Table

    from ttr_lab.bench.results import FigureTable
    from ttr_lab.console import make_console

    console = make_console()

    def show(item: Any) -> None:
        if isinstance(item, FigureTable):
            table = Table(title=item.title)
            for col in item.columns:
                table.add_column(col, justify="right" if col in item.right else "left")
            for row in item.rows:
                table.add_row(*row)
            console.print(table)
        else:
            console.print(item)

    return show


def main() -> None:  # pragma: no cover - entry point
    app()


@app.callback()
def _setup() -> None:
    # Strategies named by import path are looked up from the current directory too, as
    # `python -m` would (a console script does not put it on the path by itself).
    import os
    import sys

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


if __name__ == "__main__":  # python -m ttr_lab.cli
    app()
