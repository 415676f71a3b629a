"""``ttr-lab train``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ttr_lab.cli.console import fail
from ttr_lab.core.errors import TTRLabError


def train(
    config: Path = typer.Argument(..., help="Training config (YAML), e.g. configs/train/usa-2p.yaml."),
    iterations: Optional[int] = typer.Option(None, help="Iterations in all (a rerun with more goes on from the checkpoint)."),
    out: Optional[str] = typer.Option(None, "--out", help="Output folder (checkpoint, networks, learning curve)."),
    seed: Optional[int] = typer.Option(None, help="Seed of the deals, the teacher mix and the shuffles."),
) -> None:
    """Train a policy and value network on the batched env (the learned strategy's): seeded, resumable, judged."""
    from ttr_lab.training import load_config
    from ttr_lab.training import train as run_training

    try:
        cfg = load_config(config, {"iterations": iterations, "output": out, "seed": seed})
        run = run_training(cfg, say=lambda line: typer.echo(line))
    except TTRLabError as exc:
        fail(exc)
    typer.echo(f"{run.iterations} iterations, {run.seconds / 3600:.2f} CPU-hours; network: "
               f"{Path(cfg.output) / 'network.npz'}; learning curve: {Path(cfg.output) / 'curve.csv'}")
