"""Progress as plain lines, for a run without a terminal (a log file, CI, ``nohup``): a progress
bar there draws nothing until the run ends, so a long run said nothing for minutes.

A line at the start, one every ``interval`` seconds whether or not a batch came back (the first
batch may wait on a compile), and one at the end: games stored of the planned, rate, time left.
They go to standard error, so standard output keeps only the summary a script may read.

The rate and the time left, in the lines and in the terminal's bar, are ``Pace``'s: measured
from finished games only, and said only once every worker has brought a batch back.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, Callable

from rich.progress import ProgressColumn, Task
from rich.text import Text


def duration(seconds: float) -> str:
    """``75`` -> ``1 min 15 s``; ``4000`` -> ``1 h 07 min``: as a person reads a log."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def games_per_second(rate: float) -> str:
    """A rate with two significant figures however slow (``0.034 games/s``, not ``0.0``)."""
    return f"{rate:.0f} games/s" if rate >= 100 else f"{rate:.1f} games/s" if rate >= 1 else f"{rate:#.2g} games/s"


class Pace:
    """The run's rate and time left, from the games finished since play began (``start()``;
    the backend's start and a compile ahead are not the games' time). Games come back in batches
    from ``workers`` at once, each worker's first batch after about the same time: until every
    worker has brought one back, the few games back say nothing of the rate (two games back of
    400 are not a run three seconds from its end), so there is no estimate (None) until then."""

    def __init__(self, workers: int = 1, clock: Callable[[], float] = time.perf_counter) -> None:
        self.workers, self.clock = max(1, workers), clock
        self.began = clock()
        self.batches = self.games = 0
        self.measured: float | None = None  # games per second at the last batch

    def start(self) -> None:
        self.began = self.clock()

    def add(self, games: int) -> None:
        """A batch of ``games`` finished now."""
        self.batches += 1
        self.games += games
        seconds = self.clock() - self.began
        if self.batches >= self.workers and seconds > 0:
            self.measured = self.games / seconds

    def rate(self, finished: bool = False) -> float | None:
        """Games per second (None: not measured yet); ``finished``: the run is over, and a run of
        fewer batches than workers has its rate too."""
        if self.measured is None and finished and self.games:
            seconds = self.clock() - self.began
            return self.games / seconds if seconds > 0 else None
        return self.measured

    def left(self, games: int) -> float | None:
        """Seconds the other ``games`` take at the measured rate (None: not measured yet)."""
        return None if not self.measured else games / self.measured


class PaceColumn(ProgressColumn):
    """The bar's rate and time left, from the task's ``pace`` field (a ``Pace``)."""

    def render(self, task: Task) -> Text:
        pace = task.fields.get("pace")
        over = task.total is not None and task.completed >= task.total
        rate = pace.rate(finished=over) if isinstance(pace, Pace) else None
        if rate is None or task.total is None:
            return Text("measuring the pace", style="progress.remaining")
        remaining = max(0, int(task.total - task.completed))
        left = pace.left(remaining) if isinstance(pace, Pace) and remaining else None
        said = games_per_second(rate) + (f", about {duration(left)} left" if left is not None else "")
        return Text(said, style="progress.remaining")


class ProgressLines:
    """``start()``, ``update(stored, rate)`` after each batch, ``stop()``; a daemon thread writes
    a line every ``interval`` seconds in between."""

    def __init__(self, name: str, total: int, stored: int, stream: IO[str] | None = None, interval: float = 30.0) -> None:
        self.name, self.total, self.stored, self.first = name, total, stored, stored
        self.rate: float | None = None
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.started = time.perf_counter()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def line(self) -> str:
        with self._lock:
            stored, rate = self.stored, self.rate
        elapsed = time.perf_counter() - self.started
        share = f" ({100 * stored / self.total:.0f}%)" if self.total else ""
        text = f"{self.name}: {stored} of {self.total} games{share}, {duration(elapsed)} elapsed"
        if stored == self.first and stored < self.total:
            return text + ", waiting for the first games"
        if rate:
            text += f", {games_per_second(rate)}"
            if stored < self.total:
                text += f", about {duration((self.total - stored) / rate)} left"
        elif stored < self.total:
            text += ", measuring the pace"
        return text

    def write(self) -> None:
        try:
            print(self.line(), file=self.stream, flush=True)
        except (OSError, ValueError):  # a closed or broken log: progress is not worth failing a run
            pass

    def start(self) -> None:
        self.started = time.perf_counter()
        self.write()
        self._thread = threading.Thread(target=self._tick, name="progress-lines", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._done.wait(self.interval):
            self.write()

    def update(self, stored: int, rate: float | None) -> None:
        with self._lock:
            self.stored, self.rate = stored, rate

    def stop(self) -> None:
        """The last line; nothing if the lines never started (the backend failed to start)."""
        if self._thread is None:
            return
        self._done.set()
        self._thread.join(timeout=1.0)
        self.write()


__all__ = ["Pace", "PaceColumn", "ProgressLines", "duration", "games_per_second"]
