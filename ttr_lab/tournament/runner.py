"""``run_tournament``: plan the games, skip the stored ones, play the rest, store as they come,
and hand back what happened with the summary of everything stored (the caller prints it)."""

from __future__ import annotations

import errno
import logging
import signal
import sys
import threading
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.results import ResultsError, read_results
from ttr_lab.tournament.backends import make_backend, one_line
from ttr_lab.tournament.config import TournamentConfig
from ttr_lab.tournament.design import GameSpec, Schedule, plan_games
from ttr_lab.tournament.progress_lines import Pace, PaceColumn, ProgressLines
from ttr_lab.tournament.store import ResultStore
from ttr_lab.tournament.summary import summary_of
from ttr_lab.tournament.warm_up import warm_up
from ttr_lab.tournament.worker import stop_signal

_log = logging.getLogger(__name__)


@dataclass
class TournamentRun:
    folder: Path | str  # a path, or the URI of a folder on another filesystem (s3://...)
    planned: int
    already_stored: int
    played: int = 0
    failed_batches: list[str] = field(default_factory=list)
    interrupted: bool = False
    backend_error: str = ""  # the backend itself failed under the run (Ray's raylet killed, say)
    seconds: float = 0.0
    startup_seconds: float = 0.0  # starting or connecting to the backend (Ray), workers warmed up
    backend_seconds: float = 0.0  # of which starting the backend itself (not compiling the kernels beside it)
    play_seconds: float = 0.0  # from the end of start-up to the last game stored
    memory_mb: list[float] = field(default_factory=list)  # the driver's own resident memory after each batch
    worker_cpu_seconds: float = 0.0  # the CPU time the workers spent on the stored batches, storing them included
    summary: Any = None  # pandas DataFrame: per entrant, over every stored game (tournament.summary)
    errors: Any = None  # pandas DataFrame: forfeits by entrant and message
    # Counted again from the folder when the run did not end cleanly: a Ray that died under the
    # run leaves parts its workers wrote but this process never heard of (counted by every reader).
    recounted: int | None = None

    @property
    def stored(self) -> int:
        """The games of this plan the folder holds."""
        return self.already_stored + self.played if self.recounted is None else self.recounted

    @property
    def complete(self) -> bool:
        return not self.interrupted and not self.failed_batches and not self.backend_error


def resident_mb() -> float:
    """This process's own resident memory, in MB: its anonymous pages (heap, Arrow's pool), not
    the pages of shared libraries and files (about 64 MB), which the machine's page cache can
    bring in and out whatever the run does. Linux only (0 elsewhere)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


class Remaining(Sequence):
    """The games of a plan still to play, in plan order, built when asked for. What it keeps per
    game is nothing on a fresh run (a ``range``) and one 8-byte position on a resume, so a long
    run's driver does not grow with the number of games (nor do its garbage collections)."""

    def __init__(self, plan: Schedule, stored: Sequence[int] = ()) -> None:
        self.plan = plan
        if not stored:
            self.positions: Sequence[int] = range(len(plan))
        else:
            done = bytearray(len(plan))
            for i in stored:
                done[i] = 1
            self.positions = array("q", (i for i in range(len(plan)) if not done[i]))

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self.plan[j] for j in self.positions[i]]
        return self.plan[self.positions[i]]


def stored_positions(plan: Schedule, game_ids: set[str]) -> list[int]:
    """The plan positions of the stored games (ids from another plan, e.g. a larger ``--games``
    of an earlier run, are left out)."""
    out = []
    for game_id in game_ids:
        try:
            out.append(plan.index(game_id))
        except ValueError:
            continue
    return out


# Starting a local Ray takes about 15 s (2 cores), and 2 workers play 1.3-1.5x as fast as one:
# it pays back only when the games take longer than that on one core.
def ray_startup_note(config: TournamentConfig, games: int) -> str | None:
    """One line for a run about to start a local Ray, saying what the wait is; None otherwise
    (serial, a cluster). Whether Ray pays back its start-up depends on how long the games take,
    which is known only once they are played (``serial_hint``)."""
    if config.backend != "ray" or config.address is not None:
        return None
    return f"note: starting a local Ray for {games} games (about 15 s)"


def serial_hint(config: TournamentConfig, run: TournamentRun) -> str | None:
    """After a run on a local Ray whose games took less CPU than Ray took to start: one line
    saying ``--backend serial`` would have been quicker (its games are that cheap); else None."""
    if config.backend != "ray" or config.address is not None or not run.played or run.interrupted:
        return None
    if run.worker_cpu_seconds >= run.backend_seconds:
        return None
    return (f"note: these {run.played} games took {run.worker_cpu_seconds:.1f} s of CPU in all, less than starting Ray "
            f"({run.backend_seconds:.0f} s): --backend serial (backend: serial) plays games this cheap sooner")


def _close(backend: Any, run: TournamentRun, console: Console) -> None:
    """Stop the backend without losing the summary: a Ctrl-C pressed again while Ray shuts
    down, or Ray failing to shut down cleanly, must not hide what is stored."""
    try:
        backend.close()
    except KeyboardInterrupt:
        run.interrupted = True
    except Exception as exc:  # noqa: BLE001 - the stored games are intact; say what failed
        console.print(f"note: {backend.name} did not shut down cleanly ({type(exc).__name__}: {exc}); every stored "
                      "game is intact", markup=False)


def run_tournament(config: TournamentConfig, console: Console | None = None, show_progress: bool = True,
                   on_batch: Callable[[Sequence[GameSpec]], None] | None = None) -> TournamentRun:
    """Play every game of ``config`` not yet in its output folder. A resume and the progress
    bar show on ``console`` (default: a plain rich Console on standard output). ``on_batch``
    is called with the games of every batch once they are stored (the benchmark times the
    same games played bare there); its time is not counted in the run's seconds."""
    console = console or Console()
    game = config.load_game()
    store = ResultStore(config.output, config, game)
    # SIGTERM (a scheduler's, `kill`'s) stops the run as Ctrl-C does: what is stored is kept, the
    # summary says so in one line, and the strategies' processes are ended on the way out.
    terminate = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
    if terminate:
        signal.signal(signal.SIGTERM, stop_signal)
    try:
        return _run(config, game, store, console, show_progress, on_batch)
    except OSError as exc:
        if exc.errno not in _STORAGE_FULL:
            raise
        # Parts are written whole or not at all (a temporary name, then a rename): what is
        # stored is intact, and a rerun plays only the rest.
        raise TTRLabError(f"cannot write results into {config.output}: {exc.strerror}; every game stored before "
                          "is intact: make room and rerun to resume") from None
    finally:
        if terminate:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        store.close()


def _compile_here(config: TournamentConfig, game: Any, entrants: Sequence[Any], say: bool) -> "_Ahead | None":
    """Compile (or load) the run's kernels in this process, in a thread beside the backend's
    start-up, saying so when it is a compile: on this machine the workers then load the cached
    kernels in about a second, instead of each compiling them at once in silence (a minute or
    two of every core on a first run). Not for a cluster (its nodes have caches of their own)."""
    if config.address is not None:
        return None
    if config.backend != "ray":  # nothing to overlap: compile here, where a build has its alarm
        _compile(game, config, [e.factory(game.name) for e in entrants] if config.isolation != "process" else [], say)
        return None
    building: list[float] = []  # when the build under way began (a build here has no alarm: not the main thread)

    def timed(factory: Any) -> Any:
        def build() -> Any:
            building.append(time.monotonic())
            try:
                return factory()
            finally:
                building.clear()
        return build

    factories = [timed(e.factory(game.name)) for e in entrants] if config.isolation != "process" else []
    thread = threading.Thread(target=_compile, args=(game, config, factories, say), name="compile-ahead", daemon=True)
    thread.start()
    return _Ahead(thread, building, config.build_time_limit)


def _compile(game: Any, config: TournamentConfig, factories: Sequence[Any], say: bool) -> None:
    def note(text: str) -> None:
        if say:
            print(f"note: {text}", file=sys.stderr, flush=True)

    try:
        warm_up(game, config.players, factories, config.build_time_limit, say=note)
    except Exception:  # noqa: BLE001 - the workers warm up again and report what fails, as forfeits
        _log.warning("compiling the kernels ahead failed; the workers compile them", exc_info=True)


class _Ahead:
    """The compile-ahead thread, joined until it ends or a strategy's build in it outlasts the
    build limit (a constructor that never returns: the workers' own build, with its alarm, names
    it as a forfeit; the thread, a daemon, is left to it)."""

    def __init__(self, thread: threading.Thread, building: list[float], limit: float | None) -> None:
        self.thread, self.building, self.limit = thread, building, limit

    def join(self) -> None:
        while self.thread.is_alive():
            self.thread.join(0.2)
            since = self.building[0] if self.building else None
            if self.limit is not None and since is not None and time.monotonic() - since > self.limit:
                _log.warning("a strategy's build outlasted %g s while compiling ahead; the workers build it", self.limit)
                return


# Write failures that say the disk, not the data, is the problem.
_STORAGE_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def _run(config: TournamentConfig, game: Any, store: ResultStore, console: Console, show_progress: bool,
         on_batch: Callable[[Sequence[GameSpec]], None] | None) -> TournamentRun:
    plan = plan_games(config)
    ids = store.completed_ids()
    for line in store.set_aside:
        console.print(line, markup=False)
    store.compact()  # what an interrupted run left in many small parts
    stored = stored_positions(plan, ids)
    stored_count, beyond = len(stored), len(ids) - len(stored)
    del ids  # a string per stored game: not kept for the whole run
    todo = Remaining(plan, stored)
    del stored
    run = TournamentRun(store.folder, len(plan), stored_count)
    entrants = [config.entrant(i) for i in range(len(config.entrants))]
    if beyond > 0:
        # --games smaller than a previous run's: nothing is deleted, and the summary (and the
        # report) count every stored game; say so rather than disagree silently with the config.
        console.print(f"note: {config.output} already holds {beyond} games beyond the {len(plan)} asked for; the summary "
                      f"and the report cover all {stored_count + beyond} stored games", markup=False)
    if len(plan) > config.games:  # e.g. a round robin's deal alone may be millions of games
        console.print(f"note: games: {config.games} rounds up to {len(plan):,} games (whole deals of "
                      f"{config.games_per_deal():,}: every table under every seating)", markup=False)
    if run.already_stored:
        console.print(f"resuming: {run.already_stored} of {len(plan)} games already stored in {config.output}", markup=False)
    started = time.perf_counter()
    if todo:
        note = ray_startup_note(config, len(todo))
        if note:
            console.print(note, markup=False, highlight=False)
        backend = make_backend(config.backend, config.address, config.workers, config.runtime_env)
        # Without a terminal a bar draws nothing until the end: plain lines on stderr instead.
        lines = ProgressLines(f"{config.name} ({backend.name})", len(plan), run.already_stored) \
            if show_progress and not console.is_terminal else None
        progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            PaceColumn(),
            console=console, disable=not show_progress or lines is not None, transient=False,
        )
        try:
            _log.info("%s: %d of %d games to play on %s (%s workers)", config.name, len(todo), len(plan),
                      backend.name, getattr(backend, "workers", 1))
            compiling = _compile_here(config, game, entrants, show_progress)
            backend.start()
            run.backend_seconds = time.perf_counter() - started
            if compiling is not None:
                compiling.join()
            run.startup_seconds = time.perf_counter() - started
            pace = Pace(getattr(backend, "workers", 1))  # from here: the games' time
            _log.info("%s started in %.1f s", backend.name, run.startup_seconds)
            if lines is not None:  # from here: a backend that fails to start says so in its one line alone
                lines.start()
            with progress:
                bar = progress.add_task(escape(f"{config.name} ({backend.name})"), total=len(plan), completed=run.already_stored, pace=pace)
                # The workers store what they play (a part per batch); this process only counts.
                batches = backend.run(game, entrants, todo, config.move_time_limit, config.records, config.isolation,
                                      config.build_time_limit, sink=store.uri)
                while True:
                    try:
                        batch = next(batches)
                    except StopIteration:
                        break
                    except OSError as exc:
                        if exc.errno in _STORAGE_FULL:  # this process stores (serial): said as below
                            raise
                        run.backend_error = f"{backend.name} failed under the run ({one_line(exc)})"
                        break
                    except Exception as exc:  # noqa: BLE001 - the backend, not a game: say so, keep the summary
                        run.backend_error = f"{backend.name} failed under the run ({one_line(exc)})"
                        break
                    if batch.error:
                        run.failed_batches.append(f"{len(batch.specs)} games: {batch.error}")
                        continue
                    if batch.note:
                        progress.console.print(f"note: {batch.note}", markup=False, highlight=False)
                    try:
                        due = store.register(batch.manifest, [spec.game_id for spec in batch.specs]) \
                            if batch.manifest is not None else store.append(batch.rows, batch.records)
                    except ResultsError as exc:  # the location is not shared by every node: stop here
                        run.backend_error = str(exc)
                        break
                    if due:
                        backend.compact(store.uri, store.schema)
                    run.played += len(batch.specs)
                    run.worker_cpu_seconds += batch.cpu_seconds
                    run.play_seconds = time.perf_counter() - started - run.startup_seconds
                    run.memory_mb.append(resident_mb())
                    pace.add(len(batch.specs))
                    progress.update(bar, advance=len(batch.specs))
                    if lines is not None:
                        lines.update(run.already_stored + run.played, pace.rate())
                    if on_batch is not None:
                        hook = time.perf_counter()
                        on_batch(batch.specs)
                        spent = time.perf_counter() - hook  # the caller's time, not the run's
                        started += spent
                        pace.began += spent
            if not run.backend_error:
                try:
                    backend.compact(store.uri, store.schema, wait=True)  # on a worker, while they are up
                except Exception:  # noqa: BLE001 - a merge is only tidying: this process merges below
                    _log.warning("merging the parts on a worker failed; merging them here", exc_info=True)
        except KeyboardInterrupt:
            run.interrupted = True
        finally:
            if lines is not None:
                lines.stop()
            _close(backend, run, console)
        if not run.interrupted:
            store.compact()
    run.seconds = time.perf_counter() - started
    hint = serial_hint(config, run)
    if hint:
        console.print(hint, markup=False, highlight=False)
    _log.info("%s: %d games played in %.1f s, %d batches failed", config.name, run.played, run.seconds,
              len(run.failed_batches))
    run.summary, run.errors = summary_of(config.output, game)  # a chunk of games at a time
    if not run.complete:
        ids = set(read_results(config.output, columns=["game_id"])["game_id"])
        run.recounted = len(stored_positions(plan, ids))
    return run
