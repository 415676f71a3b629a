"""Warming a worker up: the first game of a kind compiles the rules' kernels (or loads them from
their cache), and a strategy with compiled parts of its own compiles them, once per process and
untimed, before any timed move; a compile that takes long is announced while it runs."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ttr_lab.core.game import Game
from ttr_lab.core.play import play_game
from ttr_lab.tournament.alarm import BuildTimeLimitExceeded, built_within

_WARMED: set[tuple[str, str, int]] = set()
_WARMED_STRATEGIES: set[tuple[str, str, int, str]] = set()


def warm_up(game: Game, players: int, factories: Sequence[Any] = (), build_limit: float | None = None,
            say: Callable[[str], None] | None = None) -> list[int]:
    """Play one game of uniformly random seats, untimed, once per process and game: a game whose
    rules are compiled kernels compiles them (or loads them from their cache) on first use, which
    must not fall inside a strategy's timed move (a search calls the rules while it thinks). Then
    a strategy with compiled parts of its own (a ``warm_up(state)`` method: a compiled play-out
    policy, say) is handed a fresh state once, untimed too: a move's time limit is an alarm, and
    an alarm inside a compile leaves numba's compiler in pieces (a later crash of the worker).
    ``say``: where to announce a step that takes long (a compile), before it ends and when it does.
    Returns the positions in ``factories`` of those not built within ``build_limit``."""
    key = (game.name, json.dumps(game.options, sort_keys=True, default=str), players)
    if key not in _WARMED:
        from ttr_lab.core.testing import RandomPlayer

        with announced(f"{game.title}'s rules", say):
            play_game(game, [RandomPlayer() for _ in range(players)], 0)
        _WARMED.add(key)
    late = []
    for i, factory in enumerate(factories):
        try:
            strategy = built_within(factory, build_limit)
        except BuildTimeLimitExceeded:
            late.append(i)
            continue
        except Exception:  # noqa: BLE001 - the game's own build names it, as a forfeit
            continue
        hook = getattr(type(strategy), "warm_up", None)
        own = (*key, f"{type(strategy).__module__}.{type(strategy).__qualname__}")
        if callable(hook) and own not in _WARMED_STRATEGIES:
            with announced(f"{type(strategy).__name__}'s own kernels", say):
                strategy.warm_up(game.new_game(players, 0))
            _WARMED_STRATEGIES.add(own)
    return late


# A warm-up that loads cached kernels takes about a second; one still going after this long is
# compiling them.
COMPILING_AFTER = 3.0


@contextmanager
def announced(what: str, say: Callable[[str], None] | None, after: float | None = None) -> Iterator[None]:
    """Run the block; if it is still running after ``after`` seconds, ``say`` so (a first compile
    of numba kernels: a minute or two that would otherwise pass in silence), and say how long it
    took once it ends. Nothing is said of a quick block, nor without ``say``."""
    if say is None:
        yield
        return
    wait = COMPILING_AFTER if after is None else after
    started, done, said = time.perf_counter(), threading.Event(), threading.Event()

    def announce() -> None:
        if not done.wait(wait):
            said.set()
            say(f"compiling {what} (the first run after an install or an edit of the kernels; cached for later runs)...")

    timer = threading.Thread(target=announce, name="compile-note", daemon=True)
    timer.start()
    try:
        yield
    finally:
        done.set()
        timer.join()
        if said.is_set():
            say(f"compiled {what} in {time.perf_counter() - started:.0f} s")
