"""The report's figures written to files (``<key>.png`` and ``<key>.svg``), spread over worker
processes: rendering is most of a small report's time (each figure is laid out and drawn twice,
once per format), and figures are independent of each other.

The workers are forked after the figures are built, so they inherit them (a Figure is large to
pickle, and a fresh process would import matplotlib again); each writes its share of files and
hands back nothing. Where fork is unavailable, or there are few figures or one CPU, they are
drawn here, one after another: the files are the same either way.

``Drawing`` starts the workers and returns at once, so the report computes its tables while the
figures are drawn (on two cores a small report's tables and figures overlap instead of adding).
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any, Sequence

from ttr_lab.core.figures import png_bytes

FEWEST_TO_SPREAD = 4  # below this, starting processes costs more than it saves
_PENDING: list[tuple[str, Any]] = []  # what the forked workers draw: set before they start


def _draw(key: str, fig: Any, folder: Path) -> None:
    (folder / f"{key}.png").write_bytes(png_bytes(fig))
    # The SVG keeps the layout the PNG's drawing settled: laying a figure out again measures every
    # label once more, a quarter of drawing a small report's figures; the two layouts differ by a
    # fraction of a point (the fonts' hinting at the PNG's resolution).
    engine = fig.get_layout_engine()
    fig.set_layout_engine("none")
    try:
        fig.savefig(folder / f"{key}.svg", format="svg")
    finally:
        fig.set_layout_engine(engine)


def _draw_share(args: tuple[int, int, str]) -> None:
    first, step, folder = args
    for key, fig in _PENDING[first::step]:
        _draw(key, fig, Path(folder))


def workers_for(count: int) -> int:
    """How many processes draw ``count`` figures: the CPUs this process may use, at most one
    per figure; 1 when too few to be worth spreading or fork is not available."""
    if count < FEWEST_TO_SPREAD or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, count))


class Drawing:
    """Figures being written to ``folder`` (``<key>.png`` and ``.svg``) by ``workers`` forked
    processes, started on creation; ``images()`` waits for them and returns the PNG bytes by key
    (the HTML page embeds them). With one worker, ``images()`` draws them here. Used as a context
    manager, an error in between stops the workers."""

    def __init__(self, figs: Sequence[tuple[str, Any]], folder: str | Path, workers: int | None = None) -> None:
        self.figs, self.folder = list(figs), Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.workers = workers_for(len(self.figs)) if workers is None else workers
        self._pool: Any = None
        self._pending: Any = None
        if self.workers > 1:
            _PENDING[:] = self.figs
            self._pool = multiprocessing.get_context("fork").Pool(self.workers)
            self._pending = self._pool.map_async(_draw_share, [(i, self.workers, str(self.folder))
                                                               for i in range(self.workers)])

    def images(self) -> dict[str, bytes]:
        if self._pool is None:
            for key, fig in self.figs:
                _draw(key, fig, self.folder)
        else:
            try:
                self._pending.get()
                self._pool.close()
                self._pool.join()
            finally:
                self._stop()
        return {key: (self.folder / f"{key}.png").read_bytes() for key, _ in self.figs}

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None
            _PENDING.clear()

    def __enter__(self) -> "Drawing":
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

