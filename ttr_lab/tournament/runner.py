"""``run_tournament``: plan the games, skip the stored ones, play the rest, store as they come,
and hand back what happened with the summary of everything stored (the caller prints it)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ttr_lab.core.results import read_results
from ttr_lab.tournament.backends import make_backend
from ttr_lab.tournament.config import TournamentConfig
from ttr_lab.tournament.design import plan_games
from ttr_lab.tournament.match import entrant_row
from ttr_lab.tournament.store import ResultStore
from ttr_lab.tournament.summary import error_summary, summary_table


@dataclass
class TournamentRun:
    folder: Path
    planned: int
    already_stored: int
    played: int = 0
    failed_batches: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    startup_seconds: float = 0.0  # starting or connecting to the backend (Ray), workers warmed up
    play_seconds: float = 0.0  # from the end of start-up to the last game stored
    memory_mb: list[float] = field(default_factory=list)  # the driver's resident memory after each batch
    summary: Any = None  # pandas DataFrame: per entrant, over every stored game (tournament.summary)
    errors: Any = None  # pandas DataFrame: forfeits by entrant and message

    @property
    def complete(self) -> bool:
        return not self.interrupted and not self.failed_batches


def _resident_mb() -> float:
    """This process's resident memory (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        import os

        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def run_tournament(config: TournamentConfig, console: Console | None = None, show_progress: bool = True) -> TournamentRun:
    """Play every game of ``config`` not yet in its output folder. A resume and the progress
    bar show on ``console`` (default: a plain rich Console on standard output)."""
    console = console or Console()
    game = config.load_game()
    store = ResultStore(config.output, config, game)
    specs = plan_games(config)
    done = store.completed_ids()
    todo = [s for s in specs if s.game_id not in done]
    run = TournamentRun(Path(config.output), len(specs), len(specs) - len(todo))
    entrants = [entrant_row(e) for e in config.entrants]
    if run.already_stored:
        console.print(f"resuming: {run.already_stored} of {len(specs)} games already stored in {config.output}")
    started = time.perf_counter()
    if todo:
        backend = make_backend(config.backend, config.address, config.workers, config.runtime_env)
        progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:.1f} games/s"), TimeRemainingColumn(),
            console=console, disable=not show_progress, transient=False,
        )
        try:
            backend.start()
            run.startup_seconds = time.perf_counter() - started
            with progress:
                bar = progress.add_task(f"{config.name} ({backend.name})", total=len(specs), completed=run.already_stored, rate=0.0)
                for batch in backend.run(game, entrants, todo, config.move_time_limit, config.records):
                    if batch.error:
                        run.failed_batches.append(f"{len(batch.specs)} games: {batch.error}")
                        continue
                    store.append(batch.rows, batch.records)
                    run.played += len(batch.specs)
                    run.play_seconds = time.perf_counter() - started - run.startup_seconds
                    run.memory_mb.append(_resident_mb())
                    elapsed = time.perf_counter() - started
                    progress.update(bar, advance=len(batch.specs), rate=run.played / max(elapsed, 1e-9))
        except KeyboardInterrupt:
            run.interrupted = True
        finally:
            backend.close()
    run.seconds = time.perf_counter() - started
    frame = read_results(config.output)
    run.summary, run.errors = summary_table(frame, config.load_game()), error_summary(frame)
    return run
