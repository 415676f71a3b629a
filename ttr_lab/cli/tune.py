"""``ttr-lab tune``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ttr_lab.cli.console import fail, make_console
from ttr_lab.core.errors import TTRLabError


def tune(
    config: Path = typer.Argument(..., help="Tuning config (YAML), e.g. configs/tune/greedy.yaml."),
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
    from ttr_lab.cli.summary import print_tuning_summary
    from ttr_lab.tuning import load_config, run_tuning

    overrides = {"trials": trials, "games_per_trial": games, "validation_games": validation_games, "search": search,
                 "workers": workers, "address": address, "output": out, "backend": backend, "seed": seed}
    console = make_console()
    try:
        cfg = load_config(config, overrides)
        run = run_tuning(cfg, console=console)
    except TTRLabError as exc:
        fail(exc)
    print_tuning_summary(console, cfg, run)
    if run.interrupted:
        raise typer.Exit(code=130)
