"""The ticket planner's speed: its decisions as a strategy, and its compiled play-outs.

The planner is one set of kernels (``strategies/ticket_to_ride/planner_decisions.py`` on ``planner_toolkit.py``);
its agreement with the plain-Python reference kept in the tests is what the tests check.

- ``decisions``: ``ticket_planner`` at every seat of whole games (both maps, 2 and 4 players),
  its decisions per CPU-second (each one an observation turned into the kernels' arrays, the
  plan kept between decisions; the engine's own moves included).
- ``playouts``: planner play-outs per CPU-second from determinized states as a search meets
  them, one native call (``planner_playouts``) per batch.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Iterator

import numpy as np

from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked as cases
from ttr_lab.core.game import Game, load_game
from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS
from ttr_lab.strategies.ticket_to_ride.planner_playouts import planner_playouts
from ttr_lab.strategies.random import Random
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

GameState = Any  # the planner's game's state (the catalogue says which game: ``BENCHMARKED["planner"]``)
SECTIONS = ("decisions", "playouts")
# Who plays the games the positions come from, by game number: all planners, then mixed tables.
_TABLES = (("ticket_planner",) * 4, ("ticket_planner", "greedy", "random", "ticket_planner"),
           ("greedy", "ticket_planner", "greedy", "random"))
_MAKERS: dict[str, Callable[[], Any]] = {"ticket_planner": TicketPlanner, "greedy": Greedy, "random": Random}


def benchmarked() -> list[Game]:
    """The games (both maps) the planner is measured on, as the games catalogue declares them."""
    return [load_game(name, **options) for name, options in cases("planner")]


def game_positions(game: Game, players: int, seed: int) -> Iterator[GameState]:
    """Every position of one game where the player to move has a choice (the game goes on
    after each is yielded: copy one to keep it)."""
    table = _TABLES[seed % len(_TABLES)]
    seats = [_MAKERS[table[p]]() for p in range(players)]
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        yield state
        state.apply(seats[p].act(state.observation(p), legal, rng))


def playout_start(game: Game, players: int, seed: int) -> GameState:
    """A determinized state as a search meets one: a planners' game some turns in, sampled from the
    view of the player to move."""
    rng = random.Random(seed)
    stop = rng.randrange(0, 40 * players)
    state = None
    for k, position in enumerate(game_positions(game, players, seed * 3)):  # all-planner tables
        state = position
        if k >= stop:
            break
    assert state is not None
    return game.determinize(state.observation(state.current_player), rng)


def planner_benchmark(positions: int = 10_000, seconds: float = 10.0, seed: int = 1, sections: tuple[str, ...] = SECTIONS,
                      on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """The decision speed over about ``positions`` decisions (split over maps and player counts)
    and the play-out speed (``seconds`` of CPU per player count)."""
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(unknown)}; the sections are {', '.join(SECTIONS)}")
    result = BenchResult(on_item=on_item)
    if "decisions" in sections:
        rows: list[tuple[str, ...]] = []
        games = benchmarked()
        share = -(-positions // (2 * len(games)))
        for game in games:
            for players in (2, 4):
                decisions, cpu = _decisions(game, players, share, seed)
                result.figures[f"planner decisions {game.variant} {players}p per CPU-s"] = decisions / cpu
                rows.append((game.variant, str(players), f"{decisions:,}", f"{decisions / cpu:,.0f}"))
        result.show(FigureTable.of(
            "ticket_planner at every seat, whole games: decisions per CPU-second",
            ("map", "players", "decisions", "per CPU-second"), rows, right=("decisions", "per CPU-second")))
    if "playouts" in sections:
        rows = [_speed_row(players, seconds, seed, result) for players in (2, 4)]
        result.show(FigureTable.of(
            "planner play-outs per CPU-second from determinized states (USA, one core)",
            ("players", "states", "play-outs", "per CPU-second"), rows, right=("states", "play-outs", "per CPU-second")))
    return result


def _decisions(game: Game, players: int, positions: int, seed: int) -> tuple[int, float]:
    """Whole games of planners from ``seed`` on until ``positions`` decisions: (decisions, CPU seconds)."""
    TicketPlanner().warm_up(game.new_game(players, seed))  # compile or load first
    decisions, cpu = 0, 0.0
    while decisions < positions:
        seats = [TicketPlanner() for _ in range(players)]
        state = game.new_game(players, seed)
        rng = random.Random(seed)
        begin = time.process_time()
        while not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player
            state.apply(legal[0] if len(legal) == 1 else seats[p].act(state.observation(p), legal, rng))
            decisions += 1
        cpu += time.process_time() - begin
        seed += 1
    return decisions, cpu


def _speed_row(players: int, seconds: float, seed: int, result: BenchResult) -> tuple[str, ...]:
    """Batches of native play-outs, each from a fresh determinized state, for ``seconds`` of CPU."""
    native_time = 0.0
    native_count = states = 0
    batch = 20
    counter = seed
    scores = np.zeros((batch, players), dtype=np.int64)
    seeds = np.arange(batch, dtype=np.uint64)
    game = benchmarked()[0]
    warm = playout_start(game, players, counter)
    planner_playouts(warm.face.g, warm.s, seeds[:1], DEFAULT_PARAMS, scores)  # compile or load first
    while native_time < seconds:
        counter += 1
        start_state = playout_start(game, players, counter)
        states += 1
        begin = time.process_time()
        planner_playouts(start_state.face.g, start_state.s, seeds, DEFAULT_PARAMS, scores)
        native_time += time.process_time() - begin
        native_count += batch
    native_rate = native_count / native_time
    result.figures[f"native planner play-outs {players}p per CPU-s"] = native_rate
    return (str(players), str(states), f"{native_count:,}", f"{native_rate:,.0f}")
