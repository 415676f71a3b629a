"""Speed benchmarks. Figures, not pass/fail: the machines are shared, so compare ratios taken
in one run rather than absolute numbers taken on different days."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Callable

from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked


def _rate(fn: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Calls ``fn`` (which returns how many units it did) until ``seconds`` pass; units/second."""
    fn()  # warm up caches and imports
    done, start = 0, time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done


def _pin_to_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def sample_states(game: Any, num_players: int, games: int, seed: int) -> list:
    """States at the start of turns (the game's own turn boundaries, ``views.turn_number``) of
    random games, for per-operation timings."""
    rng = random.Random(seed)
    views = game.views
    states = []
    for g in range(games):
        state = game.new_game(num_players, seed + g)
        index = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if views.turn_number(state, index) is not None:
                states.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
            index += 1
    return states


def engine_benchmark(seconds: float = 3.0, seed: int = 1, on_item: Callable[[Item], None] | None = None,
                     game: str | None = None, calibration: str | None = None) -> BenchResult:
    """Random games per second at 2 and 4 players, per-operation rates, games per second by
    variant, native play-outs, of the game the games catalogue benchmarks (``game`` None).
    Another ``game`` (a registered name) gets the game-agnostic part: ``any_game_benchmark``."""
    name, options = benchmarked("engine")[0]
    if game is not None and game != name:
        return any_game_benchmark(game, seconds, seed, on_item)
    from ttr_lab.core.game import load_game
    from ttr_lab.core.play import play_game
    from ttr_lab.core.registry import factory
    from ttr_lab.strategies.random import Random

    pinned = _pin_to_one_core()
    the_game = load_game(name, **options)
    result = BenchResult(on_item=on_item)
    figures = result.figures
    counter = iter(range(seed, 1 << 62))

    for n in (2, 4):
        def games_via_play_game(n: int = n) -> int:
            play_game(the_game, [Random() for _ in range(n)], next(counter))
            return 1

        figures[f"play_game random {n}p games/s"], _ = _rate(games_via_play_game, seconds)

        def bare_playouts(n: int = n) -> int:
            rng = random.Random(next(counter))
            state = the_game.new_game(n, next(counter))
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            return 1

        figures[f"bare playout {n}p games/s"], _ = _rate(bare_playouts, seconds)

    states = sample_states(the_game, 4, 20, seed)

    def legal_generations() -> int:
        for s in states:
            s.legal_actions()
        return len(states)

    def clones() -> int:
        for s in states:
            s.clone()
        return len(states)

    def observations() -> int:
        for s in states:
            s.observation(s.current_player)
        return len(states)

    figures["legal_actions() per s (4p turn states)"], _ = _rate(legal_generations, seconds)
    figures["clone() per s"], _ = _rate(clones, seconds)
    figures["observation() per s"], _ = _rate(observations, seconds)

    result.show(FigureTable.of(
        f"ttr-lab engine benchmark ({the_game.title}, {the_game.variant}; {pinned}; {seconds:g} s each)",
        ("measure", "rate"), [(k, f"{value:,.0f}") for k, value in figures.items()], right=("rate",),
    ))
    goal = figures["play_game random 4p games/s"] / 100.0
    result.show(f"4-player random games via play_game: {goal:.2f}x the goal of 100 games/s on one core")

    # Every shipped variant (the game's optional variants() hook), with a random and the game's
    # own greedy player where it registers one.
    variants = getattr(the_game, "variants", lambda: [options])()
    makers: dict[str, Callable[[], Any]] = {"random": Random}
    try:
        makers["greedy"] = factory("greedy", game=name)
    except Exception:  # noqa: BLE001 - a game without a greedy player: random alone
        pass
    by_variant = []
    for variant in variants:
        other = load_game(name, **variant)
        rates = []
        for label, make in makers.items():
            def games(make: Callable[[], Any] = make, other: Any = other) -> int:
                play_game(other, [make() for _ in range(4)], next(counter))
                return 1

            rate, _ = _rate(games, seconds)
            figures[f"{other.variant} {label} 4p games/s"] = rate
            rates.append(f"{rate:,.0f}")
        by_variant.append((other.variant, *rates))
    result.show(FigureTable.of("4-player games per second by variant (play_game, one core)", ("variant", *makers),
                               by_variant, right=tuple(makers)))
    if hasattr(the_game, "random_games"):  # whole play-outs in one native call
        from pathlib import Path

        from ttr_lab.bench.native import native_benchmark

        folders = dict(the_game.data_folders()[1]) if hasattr(the_game, "data_folders") else {}
        folder = folders.get(the_game.variant)
        native = native_benchmark(the_game, seconds, seed, calibration, on_item,
                                  map_folder=Path(folder) if folder else None)
        figures.update(native.figures)
    return result


def any_game_benchmark(name: str, seconds: float = 3.0, seed: int = 1,
                       on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """Any registered game through its protocol alone: uniformly random games per second at 2 and
    4 players (clamped to what the game allows) via ``play_game`` and as bare play-outs, how
    often those games stall, and legal_actions() / clone() / observation() rates."""
    from ttr_lab.core.game import load_game
    from ttr_lab.core.outcome import Termination
    from ttr_lab.core.play import play_game
    from ttr_lab.core.testing import RandomPlayer

    pinned = _pin_to_one_core()
    game = load_game(name)
    result = BenchResult(on_item=on_item)
    figures = result.figures
    counter = iter(range(seed, 1 << 62))
    counts = sorted({max(game.min_players, min(game.max_players, n)) for n in (2, 4)})
    for n in counts:
        def games_via_play_game(n: int = n) -> int:
            play_game(game, [RandomPlayer() for _ in range(n)], next(counter))
            return 1

        figures[f"play_game random {n}p games/s"], _ = _rate(games_via_play_game, seconds)
        ends: list[bool] = []

        def bare_playouts(n: int = n) -> int:
            rng = random.Random(next(counter))
            state = game.new_game(n, next(counter))
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            ends.append(state.outcome().termination is Termination.STALLED)
            return 1

        figures[f"bare playout {n}p games/s"], played = _rate(bare_playouts, seconds)
        figures[f"stalled {n}p random games (share of {len(ends)})"] = sum(ends) / len(ends)

    rng = random.Random(seed)
    states = []
    for g in range(20):
        state = game.new_game(counts[-1], seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                states.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])

    def legal_generations() -> int:
        for st in states:
            st.legal_actions()
        return len(states)

    def clones() -> int:
        for st in states:
            st.clone()
        return len(states)

    def observations() -> int:
        for st in states:
            st.observation(st.current_player)
        return len(states)

    figures[f"legal_actions() per s ({counts[-1]}p decision states)"], _ = _rate(legal_generations, seconds)
    figures["clone() per s"], _ = _rate(clones, seconds)
    figures["observation() per s"], _ = _rate(observations, seconds)
    result.show(FigureTable.of(
        f"ttr-lab engine benchmark ({game.title}; {pinned}; {seconds:g} s each)", ("measure", "rate"),
        [(k, f"{v:.3f}" if v < 1 else f"{v:,.0f}") for k, v in figures.items()], right=("rate",),
    ))
    return result
