"""Progress as plain lines, for a run without a terminal (a log file, CI, ``nohup``): a progress
bar there draws nothing until the run ends, so a long run said nothing for minutes.

A line at the start, one every ``interval`` seconds whether or not a batch came back (the first
batch may wait on a compile), and one at the end: games stored of the planned, rate, time left.
They go to standard error, so standard output keeps only the summary a script may read.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import IO


def duration(seconds: float) -> str:
    """``75`` -> ``1 min 15 s``; ``4000`` -> ``1 h 07 min``: as a person reads a log."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class ProgressLines:
    """``start()``, ``update(stored, rate)`` after each batch, ``stop()``; a daemon thread writes
    a line every ``interval`` seconds in between."""

    def __init__(self, name: str, total: int, stored: int, stream: IO[str] | None = None, interval: float = 30.0) -> None:
        self.name, self.total, self.stored, self.first = name, total, stored, stored
        self.rate = 0.0
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
        if rate > 0:
            text += f", {rate:.2f} games/s"
            if stored < self.total:
                text += f", about {duration((self.total - stored) / rate)} left"
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

    def update(self, stored: int, rate: float) -> None:
        with self._lock:
            self.stored, self.rate = stored, rate

    def stop(self) -> None:
        """The last line; nothing if the lines never started (the backend failed to start)."""
        if self._thread is None:
            return
        self._done.set()
        self._thread.join(timeout=1.0)
        self.write()


__all__ = ["ProgressLines", "duration"]
