"""The alarm that bounds what a strategy does in the engine's own process (in-process mode): a
move past the move time limit, a constructor past the build time limit. ``SIGALRM`` raises
``_MoveTimeout`` into the strategy's code, and again every half second, so that a strategy
catching it once does not escape. Only the main thread receives signals: elsewhere (and without
a limit) nothing is timed here."""

from __future__ import annotations

import signal
import threading
from typing import Any


class _MoveTimeout(BaseException):
    """Raised into a decision at the move time limit: a BaseException, so that a strategy's
    ``except Exception`` does not swallow it (and it is raised again every half second)."""


class BuildTimeLimitExceeded(RuntimeError):
    """Building a strategy took longer than the tournament's build time limit."""


_thinking = [False]  # the alarm interrupts only a strategy's code, never the handling of its end


def _raise_timeout(signum: int, frame: Any) -> None:
    if _thinking[0]:
        raise _MoveTimeout()


def built_within(build: Any, seconds: float | None) -> Any:
    """``build()``, interrupted past ``seconds`` (a ``BuildTimeLimitExceeded``) by the same alarm
    as a move's; untimed without a limit or outside the main thread."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        return build()
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    _thinking[0] = True
    try:
        return build()
    except _MoveTimeout:
        raise BuildTimeLimitExceeded(f"was not built within {seconds:g} s (build time limit)") from None
    finally:
        _thinking[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
