"""``ttr-lab bench tournament``: games per second of the serial backend against Ray on the same
config, Ray's start-up cost, the tournament's overhead over the games themselves, the files it
leaves, the report's time, and the driver's memory over a run (results go to disk, so it should
stay flat)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from ttr_lab.bench.results import BenchResult, FigureTable, Item


def _config(games: int, backend: str, workers: int, output: str, strategy: str) -> Any:
    from ttr_lab.tournament.config import parse_config

    return parse_config({
        "name": f"bench-{backend}", "players": 4, "games": games, "seed": 1, "backend": backend,
        "workers": workers, "output": output, "design": "fixed", "rotation": "cyclic",
        "entrants": [{"name": f"{strategy}{i}", "strategy": strategy} for i in range(4)],
    }, "bench")


def _bare_play_seconds(config: Any, sample: int) -> float:
    """CPU seconds per game of ``play_game`` alone on the tournament's first ``sample`` games."""
    from ttr_lab.core.play import play_game
    from ttr_lab.core.registry import factory
    from ttr_lab.tournament.design import plan_games

    game = config.load_game()
    specs = plan_games(config)[:sample]
    make = [factory(e.strategy, e.params) for e in config.entrants]
    start = time.process_time()
    for spec in specs:
        play_game(game, [make[e]() for e in spec.seats], spec.deal_seed)
    return (time.process_time() - start) / len(specs)


def tournament_benchmark(games: int = 2000, workers: int = 2, strategy: str = "greedy",
                         on_item: Callable[[Item], None] | None = None, ray: bool = True) -> BenchResult:
    """The same four-player tournament serially and on Ray: games/s, start-up, overhead over the
    bare games (serial CPU), files, report time, driver memory. ``ray=False``: serial only."""
    from rich.console import Console

    from ttr_lab.tournament import run_tournament

    quiet = Console(quiet=True)
    result = BenchResult(on_item=on_item)
    out = result.figures
    with tempfile.TemporaryDirectory() as tmp:
        cpu = time.process_time()
        serial = run_tournament(_config(games, "serial", 1, f"{tmp}/serial", strategy), console=quiet, show_progress=False)
        cpu = time.process_time() - cpu
        bare = _bare_play_seconds(_config(games, "serial", 1, f"{tmp}/bare", strategy), min(games, 500))
        files = sum(1 for p in Path(tmp, "serial").rglob("*") if p.is_file())
        from ttr_lab.analysis.report import build_report

        report_cpu = time.process_time()
        report_wall = time.perf_counter()
        build_report(f"{tmp}/serial", quiet=True)
        report_wall = time.perf_counter() - report_wall
        report_cpu = time.process_time() - report_cpu
        if ray:
            ray_run = run_tournament(_config(games, "ray", workers, f"{tmp}/ray", strategy), console=quiet, show_progress=False)
            small = run_tournament(_config(games // 2, "ray", workers, f"{tmp}/small", strategy), console=quiet, show_progress=False)
    out["serial games/s"] = serial.played / serial.play_seconds
    out["bare play CPU ms per game (play_game alone)"] = 1000 * bare
    out["serial tournament CPU ms per game, all included"] = 1000 * cpu / serial.played
    out["tournament overhead over the bare games"] = cpu / serial.played / bare - 1
    out["files in the results folder"] = files
    out["report CPU s"] = report_cpu
    out["report wall-clock s"] = report_wall
    out["report CPU / tournament CPU"] = report_cpu / cpu
    if ray:
        out["ray games/s while playing"] = ray_run.played / ray_run.play_seconds
        out["speed-up while playing, ray / serial"] = out["ray games/s while playing"] / out["serial games/s"]
        out["ray start-up s (init + warm workers)"] = ray_run.startup_seconds
        out["ray wall-clock s, all included"] = ray_run.seconds
        out["serial wall-clock s"] = serial.seconds
        out["speed-up wall-clock, all included"] = serial.seconds / ray_run.seconds
        out[f"start-up share of a {games // 2}-game run"] = small.startup_seconds / small.seconds
    memory = ray_run.memory_mb if ray else serial.memory_mb
    if memory:
        quarter = memory[len(memory) // 4]
        out["driver memory MB after 1/4 of the run"] = quarter
        out["driver memory MB at the end"] = memory[-1]
    result.show(FigureTable.of(
        f"tournament: {games} four-player {strategy} games" + (f", Ray with {workers} workers" if ray else ", serial"),
        ("measure", "value"), [(name, f"{value:.3f}") for name, value in out.items()], right=("value",),
    ))
    return result
