"""The report's figures written to files (``<key>.png`` and ``<key>.svg``), spread over worker
processes: rendering is most of a small report's time (each figure is laid out and drawn twice,
once per format), and figures are independent of each other.

The workers are forked after the figures are built, so they inherit them (a Figure is large to
pickle, and a fresh process would import matplotlib again); each writes its share of files and
hands back nothing. Where fork is unavailable, or there are few figures or one CPU, they are
drawn here, one after another: the files are the same either way.
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
    fig.savefig(folder / f"{key}.svg", format="svg")


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


def draw_figures(figs: Sequence[tuple[str, Any]], folder: str | Path, workers: int | None = None) -> dict[str, bytes]:
    """Write each (key, Figure) of ``figs`` as ``folder/<key>.png`` and ``.svg``; the PNG bytes
    by key (the HTML page embeds them). ``workers``: processes (default ``workers_for``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    workers = workers_for(len(figs)) if workers is None else workers
    if workers <= 1:
        for key, fig in figs:
            _draw(key, fig, folder)
    else:
        _PENDING[:] = list(figs)
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                pool.map(_draw_share, [(i, workers, str(folder)) for i in range(workers)])
        finally:
            _PENDING.clear()
    return {key: (folder / f"{key}.png").read_bytes() for key, _ in figs}
