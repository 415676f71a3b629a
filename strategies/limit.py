"""``Limit``: how much one searched decision may spend, for every search (in the shape of
python-chess's ``chess.engine.Limit``).

A budget is play-outs (``playouts``: iterations, visits or play-outs, as each search counts them),
simulated decisions (``steps``, for the searches that count them), or one clock: ``time_ms`` of
wall clock or ``cpu_ms`` of the searching thread's CPU clock (``time.thread_time``: what other
processes on a shared machine take is not counted). Without a clock a search is reproducible from
the ``rng`` it is given; with one, the clock decides and the counts are not read. "One clock" is
checked here, once, for every search; ``Deadline`` and ``spend`` are the clock's loop, written once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ttr_lab.core.errors import ConfigError


@dataclass(frozen=True)
class Limit:
    playouts: int | None = None
    steps: int | None = None
    time_ms: float | None = None
    cpu_ms: float | None = None

    def __post_init__(self) -> None:
        if self.time_ms is not None and self.cpu_ms is not None:
            raise ConfigError("give one clock, time_ms or cpu_ms, not both")

    @classmethod
    def of(cls, strategy: str, **budget: float | int | None) -> "Limit":
        """The limit of a strategy's constructor keywords; a bad one refused naming ``strategy``."""
        try:
            return cls(**budget)  # type: ignore[arg-type]
        except ConfigError as exc:
            raise ConfigError(f"strategy {strategy!r}: {exc}") from None

    @property
    def clocked(self) -> bool:
        return self.time_ms is not None or self.cpu_ms is not None

    def deadline(self) -> "Deadline | None":
        """The clock started now (None without one)."""
        if self.cpu_ms is not None:
            return Deadline(time.thread_time, self.cpu_ms / 1000.0)
        if self.time_ms is not None:
            return Deadline(time.perf_counter, self.time_ms / 1000.0)
        return None


class Deadline:
    """A started clock: ``seconds`` to spend on ``clock`` from now."""

    __slots__ = ("clock", "seconds", "start")

    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self.clock, self.seconds = clock, seconds
        self.start = clock()

    def spent(self) -> float:
        return self.clock() - self.start

    def left(self) -> float:
        return self.seconds - self.spent()

    def passed(self) -> bool:
        return self.clock() >= self.start + self.seconds


def spend(run: Callable[[int], None], done: Callable[[], int], clock: Callable[[], float], seconds: float,
          first: int, fraction: float) -> None:
    """Run batches (``run(n)``: ``n`` more units of work; ``done()``: the units so far) until
    ``seconds`` of ``clock`` from now are spent, at least one batch: the first of ``first``
    units, each later one aimed at ``fraction`` of the time left at the pace measured so far."""
    began = clock()
    batch = first
    while True:
        run(batch)
        spent = clock() - began
        left = seconds - spent
        if left <= 0:
            return
        per = spent / max(1, done())
        batch = max(1, int(left * fraction / per)) if per > 0 else batch * 2
