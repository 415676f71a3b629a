"""The seats of a table with people at it: which seats are people, the strategies of the others,
the time an AI seat may think, and the threads the served games' AI seats think in."""

from __future__ import annotations

import inspect
import threading
import time
from typing import Any, Callable, Sequence

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import StrategySpec, resolve


class LeftTheTable(KeyboardInterrupt):
    """A person left before the end (end of input, ``quit``): like Ctrl-C, the game loop lets it
    through instead of calling it a strategy's fault."""


class Quit(LeftTheTable):
    """A person chose to end the game (``quit``): said as their choice, not as an error."""


def human_seats(text: str, players: int) -> list[int]:
    """``--human 0`` or ``--human 0,2``: the seats people take, each once, within the table."""
    seats = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece.isdigit() or int(piece) >= players:
            raise ConfigError(f"--human {text!r}: {piece!r} is not a seat (0 to {players - 1})")
        if int(piece) in seats:
            raise ConfigError(f"--human {text!r}: seat {piece} is named twice")
        seats.append(int(piece))
    return sorted(seats)


def ai_specs(specs: Sequence[StrategySpec], humans: Sequence[int], players: int) -> dict[int, StrategySpec]:
    """The strategy of every seat no person takes: one spec for all of them, or one per such seat
    in seat order."""
    others = [s for s in range(players) if s not in humans]
    if len(specs) == 1:
        specs = list(specs) * len(others)
    if len(specs) != len(others):
        raise ConfigError(f"{len(specs)} strategies given for the {len(others)} seats no person takes; "
                          f"give one, or one per such seat")
    return dict(zip(others, specs))


def timed(spec: StrategySpec, game: str, think_seconds: float) -> Any:
    """A fresh strategy of ``spec`` for ``game`` that thinks for at most ``think_seconds`` a
    decision: a strategy that searches by the clock (a ``time_ms`` parameter, mcts) gets that
    budget unless its parameters already set one; the others are fast by design."""
    params = dict(spec.params)
    if "time_ms" in inspect.signature(resolve(spec.strategy, game)).parameters and params.get("time_ms") is None:
        params["time_ms"] = max(1.0, 1000.0 * think_seconds)
    return StrategySpec(strategy=spec.strategy, params=params, name=spec.name).factory(game)()


def think_limit(think_seconds: float) -> float:
    """How long an AI seat may take for one decision (or its construction) in a served game
    before the game ends: its clock budget, three times over, and half a minute for a slow machine."""
    return 30.0 + 3.0 * think_seconds


class AIThreads:
    """The threads the AI seats of every served game think in: at most ``workers`` at once, each
    call waited for at most ``limit`` seconds (a free thread included).

    A call past its limit is given up (the game is told, and ends), but a thread cannot be killed
    in Python: one that never returns keeps its place. The threads stay bounded all the same (and
    are daemons: a stuck one does not hold the server's exit), and ``held()`` says how many places
    such calls hold, so the server can say when it is out of them."""

    def __init__(self, workers: int = 8, limit: float = 36.0) -> None:
        self.workers, self.limit = workers, limit
        self._places = threading.BoundedSemaphore(workers)
        self._late: set[threading.Event] = set()
        self._lock = threading.Lock()

    def held(self) -> int:
        """Places held by calls that outlasted their limit and have not returned yet."""
        with self._lock:
            return len(self._late)

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a thread of its own; ``TimeoutError`` once ``limit`` seconds have passed."""
        deadline = time.monotonic() + self.limit
        if not self._places.acquire(timeout=self.limit):
            raise TimeoutError(f"found no free AI thread within {self.limit:g} s")
        done, box = threading.Event(), dict[str, Any]()

        def work() -> None:
            try:
                box["value"] = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
                box["error"] = exc
            finally:
                with self._lock:
                    done.set()
                    self._late.discard(done)
                self._places.release()

        threading.Thread(target=work, name="ai-seat", daemon=True).start()
        if not done.wait(max(0.0, deadline - time.monotonic())):
            with self._lock:
                if not done.is_set():
                    self._late.add(done)
                    raise TimeoutError(f"did not answer within {self.limit:g} s")
        if "error" in box:
            raise box["error"]
        return box["value"]
