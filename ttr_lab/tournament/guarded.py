"""A strategy as a tournament game holds it: each decision timed twice (wall-clock and CPU), the
move time limit enforced by an alarm (an isolated strategy is timed out by its host instead), a
process stopped and continued told from a strategy that overran, and ``sys.exit`` or a
KeyboardInterrupt no Ctrl-C caused turned into the strategy's forfeit, never the run's end."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from typing import Any

from ttr_lab.core.errors import GameInterrupted, StrategyError
from ttr_lab.core.isolation import raised_as
from ttr_lab.core.play import reads_observations
from ttr_lab.tournament.alarm import _MoveTimeout, _raise_timeout, _thinking
from ttr_lab.tournament.integrity import SharedValues

# How long past the move time limit a runaway strategy is allowed before it is interrupted.
_GRACE_SECONDS = 1.0


class MoveTimeLimitExceeded(RuntimeError):
    """A decision took longer than the tournament's move time limit (the game is forfeited)."""


class WorkerPaused(GameInterrupted):
    """This process was stopped (SIGSTOP, a suspended job) while a strategy was thinking: the
    time it was not running is no strategy's, so the batch is played again instead of charging
    the seat. A BaseException, so that neither a strategy nor the game loop takes it for a forfeit."""


# The monotonic time of the last SIGCONT this process received (0: none), set by its handler.
_continued = [0.0]


def _on_sigcont(signum: int, frame: Any) -> None:
    _continued[0] = time.monotonic()


def _paused_since(start: float) -> bool:
    """Whether this process was stopped and continued since ``start`` (a ``time.monotonic()``).
    The SIGCONT that came with a SIGALRM may not be handled yet (Python runs the handlers in
    signal order and stops at the alarm's exception, leaving the rest for an event that may be
    long in coming): run the pending handlers first."""
    if threading.current_thread() is threading.main_thread():
        ctypes.pythonapi.PyErr_CheckSignals()
    return _continued[0] >= start


class _Guarded:
    """A strategy wrapped to time each decision and to enforce the move time limit."""

    def __init__(self, inner: Any, limit: float | None, isolated: bool = False, guard: SharedValues | None = None,
                 seat: int = -1) -> None:
        self.inner = inner
        self.guard, self.seat = guard, seat
        self.limit = limit
        self.name = getattr(inner, "name", type(inner).__name__.lower())
        self.observes = reads_observations(inner)
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self._cpu = _cpu_clock(inner)
        self.decisions = 0
        for hook in ("on_game_start", "on_event", "on_game_end"):
            if hasattr(inner, hook):
                setattr(self, hook, self._checked(getattr(inner, hook)))
        # Isolated strategies are timed out by their host, from outside their process. Else the
        # alarm's delay (None: no alarm).
        alarmed = limit is not None and not isolated and threading.current_thread() is threading.main_thread()
        self._alarm = limit + _GRACE_SECONDS if limit is not None and alarmed else None

    def act(self, observation: Any, legal: Any, rng: Any) -> Any:
        cpu = self._cpu()
        start, began = time.perf_counter(), time.monotonic()
        if self._alarm is not None:
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, self._alarm, 0.5)
            _thinking[0] = True
        try:
            action = _contained(self.inner.act, observation, legal, rng)
        except _MoveTimeout:
            _thinking[0] = False
            if _paused_since(began):
                raise WorkerPaused(f"the process was stopped while seat {self.seat} ({self.name}) was thinking") from None
            raise MoveTimeLimitExceeded(
                f"thought for more than {self._alarm:g} s (move time limit {self.limit:g} s)"
            ) from None
        finally:
            _thinking[0] = False
            if self._alarm is not None:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        if self.guard is not None:
            self._check(self.guard)
        spent = time.perf_counter() - start
        self.seconds += spent
        self.cpu_seconds += self._cpu() - cpu
        self.decisions += 1
        if self.limit is not None and spent > self.limit:
            if _paused_since(began):
                raise WorkerPaused(f"the process was stopped while seat {self.seat} ({self.name}) was thinking")
            raise MoveTimeLimitExceeded(f"took {spent:.2f} s for one move (move time limit {self.limit:g} s)")
        return action

    def _check(self, guard: SharedValues) -> None:
        changed = guard.changed()
        if changed:
            guard.restore()
            raise StrategyError(f"seat {self.seat} ({self.name}) changed the game's shared values "
                                f"({', '.join(sorted(set(changed)))}), which strategies may only read", self.seat, self.name)

    def _checked(self, hook: Any) -> Any:
        def checked(*args: Any) -> Any:
            result = _contained(hook, *args)
            if self.guard is not None:
                self._check(self.guard)
            return result

        checked.__name__ = getattr(hook, "__name__", "hook")
        return checked


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_clock(inner: Any) -> Any:
    """A clock of the CPU seconds a strategy can use: this process's (``time.process_time``,
    called as is: it is read twice per decision) and, for an isolated strategy, also those of the
    process hosting it (read from ``/proc``, to the operating system's clock tick; 0 where
    unreadable)."""
    host = getattr(inner, "host", None)
    if host is None:
        return time.process_time

    def with_host() -> float:
        total = time.process_time()
        if host.proc is not None:
            try:
                with open(f"/proc/{host.proc.pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
        return total

    return with_host


_ctrl_c = [False]  # set by a real Ctrl-C (SIGINT), to tell it from a strategy raising KeyboardInterrupt


def _contained(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, with ``sys.exit`` and a KeyboardInterrupt that no Ctrl-C caused turned into
    ordinary errors of the strategy (its forfeit), instead of ending the run."""
    try:
        return fn(*args)
    except SystemExit as exc:
        raise raised_as("SystemExit", f"exit code {exc.code}") from None
    except GameInterrupted:  # only the guard may say the process was stopped; a strategy saying it forfeits
        raise raised_as("GameInterrupted", "raised by the strategy") from None
    except KeyboardInterrupt:
        if _ctrl_c[0]:
            raise
        raise raised_as("KeyboardInterrupt", "raised by the strategy, not by Ctrl-C") from None


def _on_sigint(signum: int, frame: Any) -> None:
    _ctrl_c[0] = True
    raise KeyboardInterrupt


stop_signal = _on_sigint  # SIGTERM's handler during a run: the user's stop, as Ctrl-C, never a strategy's
