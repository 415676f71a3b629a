"""``ttr-lab bench tournament``: games per second of the serial backend against Ray on the same
config, Ray's start-up cost, the tournament's overhead over the games themselves, the files it
leaves, the report's time, and the driver's memory over a run (results go to disk, so it should
stay flat).

The overhead is the tournament's CPU per game (everything: planning, the guarded strategies,
rows, Parquet parts, merges, the final summary) over ``play_game`` alone on the same games: one
game in ten of the run (``BarePlay``), each played bare right after the batch that played it, so
both are timed under the same load; the CPU of the bare games is taken out of the tournament's.
CPU time, not wall-clock: the machines it runs on are shared. The first and the last quarter of
the run are also compared, to show whether the cost per game grows with the games done."""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ttr_lab.bench.results import BenchResult, FigureTable, Item


def _config(games: int, backend: str, workers: int, output: str, strategy: str) -> Any:
    from ttr_lab.tournament.config import parse_config

    return parse_config({
        "name": f"bench-{backend}", "players": 4, "games": games, "seed": 1, "backend": backend,
        "workers": workers, "output": output, "design": "fixed", "rotation": "cyclic",
        "entrants": [{"name": f"{strategy}{i}", "strategy": strategy} for i in range(4)],
    }, "bench")


class BarePlay:
    """The baseline of the overhead: ``play_game`` alone, with freshly built strategies, on
    every ``every``-th game of the tournament, played right after the batch that played it
    (``run_tournament``'s ``on_batch``). So the baseline is the tournament's own games, spread
    evenly over the whole run, and timed at the same moment (same machine load, same caches) as
    the games around them; the CPU spent here is left out of the tournament's. ``interval()``:
    a 95% interval of the mean from the sample's spread. It also notes the tournament's CPU
    after every batch, so that ``span()`` compares the first and the last quarter of a run."""

    def __init__(self, config: Any, every: int) -> None:
        from ttr_lab.core.registry import factory

        self.game = config.load_game()
        self.make = [factory(e.strategy, e.params, self.game.name) for e in config.entrants]
        self.every = every
        self.seen = 0
        self.cpu = 0.0  # everything spent in after_batch, to subtract from the tournament's CPU
        self.times: list[tuple[int, float]] = []  # (game's place in the run, its CPU seconds)
        self.marks: list[tuple[int, float]] = []  # (games played, the tournament's CPU so far)
        self.origin = time.process_time()

    def start(self) -> None:
        self.origin = time.process_time()

    def after_batch(self, specs: Sequence[Any]) -> None:
        from ttr_lab.core.play import play_game

        begin = time.process_time()
        self.marks.append((self.seen + len(specs), begin - self.origin - self.cpu))
        for spec in specs:
            if self.seen % self.every == 0:
                start = time.process_time()
                play_game(self.game, [self.make[e]() for e in spec.seats], spec.deal_seed)
                self.times.append((self.seen, time.process_time() - start))
            self.seen += 1
        self.cpu += time.process_time() - begin

    def mean(self, first: int = 0, last: int | None = None) -> float:
        """Mean CPU seconds of the sampled games whose place in the run is in [first, last)."""
        chosen = [t for i, t in self.times if first <= i and (last is None or i < last)]
        return statistics.fmean(chosen) if chosen else math.nan

    def interval(self) -> tuple[float, float]:
        if len(self.times) < 2:
            return math.nan, math.nan
        times = [t for _, t in self.times]
        half = 1.96 * statistics.stdev(times) / math.sqrt(len(times))
        return self.mean() - half, self.mean() + half

    def span(self, begin: float, end: float) -> tuple[float, float, int]:
        """Tournament CPU seconds per game between the batches ending nearest ``begin`` and
        ``end`` (fractions of the run; start-up and the final merge and summary are outside
        every span), the bare mean over the same games, and how many games that is."""
        if len(self.marks) < 2:
            return math.nan, math.nan, 0
        total = self.marks[-1][0]

        def nearest(fraction: float) -> int:
            return min(range(len(self.marks)), key=lambda k: abs(self.marks[k][0] - fraction * total))

        a, b = self.marks[nearest(begin)], self.marks[nearest(end)]
        if b[0] <= a[0]:
            return math.nan, math.nan, 0
        return (b[1] - a[1]) / (b[0] - a[0]), self.mean(a[0], b[0]), b[0] - a[0]


def bare_every(games: int) -> int:
    """Sample one game in ten for the baseline (at least 100 games, or all of them)."""
    return max(1, min(10, games // 100))


def tournament_benchmark(games: int = 2000, workers: int = 2, strategy: str = "greedy",
                         on_item: Callable[[Item], None] | None = None, ray: bool = True) -> BenchResult:
    """The same four-player tournament serially and on Ray: games/s, start-up, overhead over the
    bare games (serial CPU), files, report time, driver memory. ``ray=False``: serial only."""
    from rich.console import Console

    from ttr_lab.tournament import run_tournament
    from ttr_lab.tournament.runner import resident_mb

    quiet = Console(quiet=True)
    result = BenchResult(on_item=on_item)
    out = result.figures
    with tempfile.TemporaryDirectory() as tmp:
        config = _config(games, "serial", 1, f"{tmp}/serial", strategy)
        bare = BarePlay(config, bare_every(games))
        cpu = time.process_time()
        bare.start()
        serial = run_tournament(config, console=quiet, show_progress=False, on_batch=bare.after_batch)
        cpu = time.process_time() - cpu - bare.cpu
        after_summary = resident_mb()
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
    per_game = cpu / serial.played
    low, high = bare.interval()
    out["serial games/s"] = serial.played / serial.play_seconds
    out["bare play CPU ms per game (play_game alone)"] = 1000 * bare.mean()
    out["bare play: games sampled"] = len(bare.times)
    out["bare play: sampled one game in every"] = bare.every
    out["bare play CPU ms per game, 95% interval low"] = 1000 * low
    out["bare play CPU ms per game, 95% interval high"] = 1000 * high
    out["serial tournament CPU ms per game, all included"] = 1000 * per_game
    out["tournament overhead over the bare games"] = per_game / bare.mean() - 1
    out["overhead, 95% interval low"] = per_game / high - 1
    out["overhead, 95% interval high"] = per_game / low - 1
    for label, begin, end in (("first", 0.0, 0.25), ("last", 0.75, 1.0)):
        tournament_cpu, bare_cpu, played = bare.span(begin, end)
        out[f"{label} quarter: games"] = played
        out[f"{label} quarter: tournament CPU ms per game"] = 1000 * tournament_cpu
        out[f"{label} quarter: bare play CPU ms per game"] = 1000 * bare_cpu
        out[f"{label} quarter: overhead"] = tournament_cpu / bare_cpu - 1
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
        out["driver memory MB after the first batch"] = memory[0]
        out["driver memory MB after 1/4 of the run"] = memory[len(memory) // 4]
        out["driver memory MB, most during the run"] = max(memory)
        out["driver memory MB after the last batch"] = memory[-1]
    if not ray:
        out["driver memory MB after the summary (its columns of every row)"] = after_summary
    result.show(FigureTable.of(
        f"tournament: {games} four-player {strategy} games" + (f", Ray with {workers} workers" if ray else ", serial"),
        ("measure", "value"), [(name, f"{value:.3f}") for name, value in out.items()], right=("value",),
    ))
    return result
