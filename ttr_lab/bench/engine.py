"""Speed benchmarks. Figures, not pass/fail: the machines are shared, so compare ratios taken
in one run rather than absolute numbers taken on different days."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Callable

from ttr_lab.bench.results import BenchResult, FigureTable, Item


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


def sample_states(board: Any, num_players: int, games: int, seed: int) -> list:
    """States at the start of normal turns of random games, for per-operation timings."""
    from ttr_lab.games.ticket_to_ride.tables import Phase
    from ttr_lab.games.ticket_to_ride.state import new_game

    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = new_game(board, num_players, seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == Phase.TURN:
                states.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
    return states


def engine_benchmark(seconds: float = 3.0, seed: int = 1, on_item: Callable[[Item], None] | None = None,
                     game: str = "ticket_to_ride", calibration: str | None = None) -> BenchResult:
    """Random games per second at 2 and 4 players, per-operation rates, games per second by map.
    Another ``game`` (a registered name) gets the game-agnostic part: ``any_game_benchmark``."""
    if game != "ticket_to_ride":
        return any_game_benchmark(game, seconds, seed, on_item)
    from ttr_lab.strategies.random import Random
    from ttr_lab.games.ticket_to_ride.board import load_board
    from ttr_lab.core.play import play_game
    from ttr_lab.games.ticket_to_ride.game import TicketToRide
    from ttr_lab.games.ticket_to_ride.state import new_game

    pinned = _pin_to_one_core()
    board = load_board("usa")
    game = TicketToRide(board)
    result = BenchResult(on_item=on_item)
    figures = result.figures
    counter = iter(range(seed, 1 << 62))

    for n in (2, 4):
        def games_via_play_game(n: int = n) -> int:
            play_game(game, [Random() for _ in range(n)], next(counter))
            return 1

        figures[f"play_game random {n}p games/s"], _ = _rate(games_via_play_game, seconds)

        def bare_playouts(n: int = n) -> int:
            rng = random.Random(next(counter))
            state = new_game(board, n, next(counter))
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            return 1

        figures[f"bare playout {n}p games/s"], _ = _rate(bare_playouts, seconds)

    states = sample_states(board, 4, 20, seed)

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
        f"ttr-lab engine benchmark (USA map; {pinned}; {seconds:g} s each)", ("measure", "rate"),
        [(name, f"{value:,.0f}") for name, value in figures.items()], right=("rate",),
    ))
    goal = figures["play_game random 4p games/s"] / 100.0
    result.show(f"4-player random games via play_game: {goal:.2f}x the goal of 100 games/s on one core")

    from ttr_lab.strategies.greedy import Greedy
    from ttr_lab.games.ticket_to_ride.board import available_maps

    by_map = []
    for map_name in available_maps():
        other = load_board(map_name)
        rates = []
        for cls in (Random, Greedy):
            def games(cls: type = cls, other: object = other) -> int:
                play_game(TicketToRide(other), [cls() for _ in range(4)], next(counter))
                return 1

            rate, _ = _rate(games, seconds)
            figures[f"{map_name} {cls.__name__.lower()} 4p games/s"] = rate
            rates.append(f"{rate:,.0f}")
        by_map.append((map_name, *rates))
    result.show(FigureTable.of("4-player games per second by map (play_game, one core)", ("map", "random", "greedy"),
                               by_map, right=("random", "greedy")))
    from importlib import resources
    from pathlib import Path

    from ttr_lab.bench.native import native_benchmark

    folder = Path(str(resources.files("ttr_lab.games.ticket_to_ride.maps") / "usa"))
    native = native_benchmark(game, seconds, seed, calibration, on_item, map_folder=folder)
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
