"""``ttr-lab bench engine|strength|tournament|env|planner|readers``: the benchmarks, their tables drawn as they come."""

from __future__ import annotations

from typing import Callable, List, Literal, Optional

import typer

from ttr_lab.bench.results import FigureTable, Item
from ttr_lab.cli.console import fail, make_console
from ttr_lab.core.errors import TTRLabError


def engine(
    seconds: float = typer.Option(3.0, help="Time per measurement, in seconds."),
    seed: int = typer.Option(1, help="First game seed."),
    game: Optional[str] = typer.Option(None, "--game", help="A registered game (default: the one the games catalogue benchmarks)."),
    calibration: Optional[str] = typer.Option(
        None, "--calibration", help="A folder with a plain C play-out (ttr.c, mkmap.py) to build and time beside ours."),
) -> None:
    """Random games per second at 2 and 4 players, legal-action generations and clones per second."""
    from ttr_lab.bench.engine import engine_benchmark

    try:
        engine_benchmark(seconds=seconds, seed=seed, on_item=show_items(), game=game, calibration=calibration)
    except (ValueError, TTRLabError) as exc:
        fail(exc)


def tournament(
    games: int = typer.Option(2000, help="Games in the measured tournament."),
    workers: int = typer.Option(2, help="Ray workers."),
    strategy: str = typer.Option("greedy", help="The strategy at all four seats."),
    ray: bool = typer.Option(True, "--ray/--no-ray", help="Also run it on Ray (--no-ray: serial figures only)."),
) -> None:
    """The same tournament serially and on Ray: games/s, overhead over the bare games, files,
    report time, Ray start-up, driver memory."""
    from ttr_lab.bench.tournament import tournament_benchmark

    tournament_benchmark(games=games, workers=workers, strategy=strategy, on_item=show_items(), ray=ray)


def strength(
    deals: int = typer.Option(20, help="Deals per match; each is played under every seat rotation."),
    workers: Optional[int] = typer.Option(None, help="Ray workers (default: every CPU)."),
    seed: int = typer.Option(1, help="Master seed of the deals."),
    section: List[str] = typer.Option([], "--section", help="Run only these sections (repeat): ladder2, ladder4, mixed4, time, reference, versus, table4, budget, speed."),
    backend: Literal["ray", "serial"] = typer.Option("ray", help="ray, or serial (in this process)."),
) -> None:
    """Win rates with 95% intervals: the strategy ladder, mcts by thinking time and budget, the reference
    agents beside the 2017 study, ours against them. (The search experiments are scripts in the
    repository's benchmarks/ folder.)"""
    from ttr_lab.bench.strength import SECTIONS, strength_benchmark

    try:
        strength_benchmark(deals=deals, workers=workers, seed=seed, sections=section or SECTIONS,
                           backend=backend, on_item=show_items())
    except (ValueError, TTRLabError) as exc:
        fail(exc)


def env(
    seconds: float = typer.Option(3.0, help="Time per game and player count, in seconds."),
    seed: int = typer.Option(1, help="First game seed."),
    num_envs: int = typer.Option(256, help="Sub-games of the batched env."),
) -> None:
    """RL environments: PettingZoo steps/s (tensor + mask) against the raw engine's, 2 and 4 players, both games; the batched env's."""
    from ttr_lab.bench.env import env_benchmark

    try:
        env_benchmark(seconds=seconds, seed=seed, on_item=show_items(), num_envs=num_envs)
    except (ValueError, TTRLabError) as exc:
        fail(exc)


def planner(
    positions: int = typer.Option(10_000, help="Decisions of whole planner games to time."),
    seconds: float = typer.Option(10.0, help="CPU seconds of play-outs per player count."),
    seed: int = typer.Option(1, help="First game seed."),
    section: List[str] = typer.Option([], "--section", help="Run only these sections (repeat): decisions, playouts."),
) -> None:
    """The ticket planner's speed: its decisions per CPU-second in whole games, and its compiled
    play-outs per CPU-second from the states a search meets."""
    from ttr_lab.bench.planner import SECTIONS, planner_benchmark

    try:
        planner_benchmark(positions=positions, seconds=seconds, seed=seed, sections=tuple(section) or SECTIONS,
                          on_item=show_items())
    except (ValueError, TTRLabError) as exc:
        fail(exc)


def readers(
    games: List[int] = typer.Option([1_000_000], "--games", help="Games in the synthetic results set (repeat for several sizes)."),
    folder: str = typer.Option("bench-readers", "--folder", help="Where the synthetic sets are written (kept for the next run)."),
    reader: List[str] = typer.Option([], "--reader", help="Only these readers (summary, report tables, report, compare, study tables)."),
) -> None:
    """Peak memory, wall and CPU time of the results readers (report, compare, a study's tables,
    the summary) over a synthetic results set, each in a process of its own."""
    from ttr_lab.bench.readers import READERS, readers_benchmark

    unknown = [r for r in reader if r not in READERS]
    if unknown or any(n < 1 for n in games):
        fail(ValueError(f"unknown reader {unknown[0]!r}; one of {', '.join(READERS)}" if unknown else
                        "--games must be at least 1"))
    try:
        readers_benchmark(games, folder, tuple(reader) or READERS, on_item=show_items())
    except (ValueError, TTRLabError, RuntimeError) as exc:
        fail(exc)


def show_items() -> Callable[[Item], None]:
    """Draws a benchmark's tables and lines on the terminal."""
    from rich.table import Table

    console = make_console()

    def show(item: Item) -> None:
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
