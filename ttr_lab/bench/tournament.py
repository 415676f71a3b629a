"""``ttr-lab bench tournament``: games per second of the serial backend against Ray on the same
config, Ray's start-up cost, and the driver's memory over a run (results go to disk, so it
should stay flat)."""

from __future__ import annotations

import tempfile
from typing import Any, Callable

from ttr_lab.bench.results import BenchResult, FigureTable, Item


def _config(games: int, backend: str, workers: int, output: str, strategy: str) -> Any:
    from ttr_lab.tournament.config import parse_config

    return parse_config({
        "name": f"bench-{backend}", "players": 4, "games": games, "seed": 1, "backend": backend,
        "workers": workers, "output": output, "design": "fixed", "rotation": "cyclic",
        "entrants": [{"name": f"{strategy}{i}", "strategy": strategy} for i in range(4)],
    }, "bench")


def tournament_benchmark(games: int = 2000, workers: int = 2, strategy: str = "greedy",
                         on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """The same four-player tournament serially and on Ray: games/s, start-up, driver memory."""
    from rich.console import Console

    from ttr_lab.tournament import run_tournament

    quiet = Console(quiet=True)
    result = BenchResult(on_item=on_item)
    out = result.figures
    with tempfile.TemporaryDirectory() as tmp:
        serial = run_tournament(_config(games, "serial", 1, f"{tmp}/serial", strategy), console=quiet, show_progress=False)
        ray_run = run_tournament(_config(games, "ray", workers, f"{tmp}/ray", strategy), console=quiet, show_progress=False)
        small = run_tournament(_config(games // 2, "ray", workers, f"{tmp}/small", strategy), console=quiet, show_progress=False)
    out["serial games/s"] = serial.played / serial.play_seconds
    out["ray games/s while playing"] = ray_run.played / ray_run.play_seconds
    out["speed-up while playing, ray / serial"] = out["ray games/s while playing"] / out["serial games/s"]
    out["ray start-up s (init + warm workers)"] = ray_run.startup_seconds
    out["ray wall-clock s, all included"] = ray_run.seconds
    out["serial wall-clock s"] = serial.seconds
    out["speed-up wall-clock, all included"] = serial.seconds / ray_run.seconds
    out[f"start-up share of a {games // 2}-game run"] = small.startup_seconds / small.seconds
    memory = ray_run.memory_mb
    if memory:
        quarter = memory[len(memory) // 4]
        out["driver memory MB after 1/4 of the run"] = quarter
        out["driver memory MB at the end"] = memory[-1]
    result.show(FigureTable.of(
        f"tournament backends: {games} four-player {strategy} games, Ray with {workers} workers", ("measure", "value"),
        [(name, f"{value:.2f}") for name, value in out.items()], right=("value",),
    ))
    return result
