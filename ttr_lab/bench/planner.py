"""The compiled ticket planner (``strategies/planner_kernel.py``) beside the Python one.

- ``fidelity``: on positions from real games (ticket planners, greedy and random players, both
  maps, 2 and 4 players), how often ``planner_choose`` picks the action a fresh
  ``TicketPlanner(plan_orders=1, keep_orders=1)`` picks; every decision with a choice counts.
- ``playouts``: planner play-outs per CPU-second from the same determinized states, one native
  call (``planner_playouts``) against the Python planners stepped as the search steps them (an
  observation per decision), interleaved round by round so the ratio holds on a busy machine;
  the final scores of the two are compared on every state too.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Iterator

import numpy as np

from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked as cases
from ttr_lab.core.game import Game, load_game
from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
from ttr_lab.strategies.planner_kernel import DEFAULT_PARAMS, choose_id
from ttr_lab.strategies.planner_playouts import planner_playouts
from ttr_lab.strategies.random import Random
from ttr_lab.strategies.ticket_planner import TicketPlanner

GameState = Any  # the planner's game's state (the catalogue says which game: ``BENCHMARKED["planner"]``)
SECTIONS = ("fidelity", "playouts")
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


def python_choice(state: GameState) -> Any:
    """What a fresh ``TicketPlanner(plan_orders=1, keep_orders=1)`` plays in ``state``."""
    p = state.current_player
    return TicketPlanner(plan_orders=1, keep_orders=1).act(state.observation(p), state.legal_actions(), random.Random(0))


def agreement(game: Game, players: int, positions: int, seed: int = 1) -> tuple[int, int, list[str]]:
    """(positions, agreements, the first few disagreements as text) over whole games from ``seed`` on."""
    seen = same = 0
    notes: list[str] = []
    while seen < positions:
        for state in game_positions(game, players, seed):
            expected = python_choice(state)
            got = state.face.actions[choose_id(state)]
            seen += 1
            if got == expected:
                same += 1
            elif len(notes) < 5:
                notes.append(f"{game.variant} {players}p game {seed} turn {state.turns}: python {expected}, kernel {got}")
            if seen >= positions:
                break
        seed += 1
    return seen, same, notes


def python_playout(state: GameState) -> tuple[list[int], int]:
    """A play-out by ticket planners at every seat, as the search plays one: final scores, decisions."""
    planners = [TicketPlanner(plan_orders=1, keep_orders=1) for _ in range(state.num_players)]
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player
        state.apply(legal[0] if len(legal) == 1 else planners[p].act(state.observation(p), legal, rng))
        decisions += 1
    return list(state.result().scores), decisions


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
    """The fidelity table over ``positions`` positions (split over maps and player counts) and
    the play-out speed table (``seconds`` of CPU per player count, both sides together)."""
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(unknown)}; the sections are {', '.join(SECTIONS)}")
    result = BenchResult(on_item=on_item)
    if "fidelity" in sections:
        rows: list[tuple[str, ...]] = []
        total = agreed = 0
        games = benchmarked()
        share = -(-positions // (2 * len(games)))
        for game in games:
            for players in (2, 4):
                seen, same, notes = agreement(game, players, share, seed)
                total, agreed = total + seen, agreed + same
                result.figures[f"fidelity {game.variant} {players}p"] = same / seen
                rows.append((game.variant, str(players), f"{seen:,}", f"{same:,}", f"{same / seen:.2%}"))
                for note in notes:
                    result.show(note)
        result.figures["fidelity"] = agreed / total
        rows.append(("all", "", f"{total:,}", f"{agreed:,}", f"{agreed / total:.2%}"))
        result.show(FigureTable.of(
            "compiled planner against TicketPlanner(plan_orders=1, keep_orders=1): the same action?",
            ("map", "players", "positions", "same action", "agreement"), rows,
            right=("positions", "same action", "agreement")))
    if "playouts" in sections:
        rows = []
        for players in (2, 4):
            rows.append(_speed_row(players, seconds, seed, result))
        result.show(FigureTable.of(
            "planner play-outs per CPU-second from the same determinized states (USA, one core)",
            ("players", "states", "native", "python", "native / python", "same scores"), rows,
            right=("states", "native", "python", "native / python", "same scores")))
    return result


def _speed_row(players: int, seconds: float, seed: int, result: BenchResult) -> tuple[str, ...]:
    """Interleaved rounds: one Python play-out and a batch of native ones from the same state."""
    native_time = python_time = 0.0
    native_count = python_count = same = states = 0
    batch = 20
    counter = seed
    scores = np.zeros((batch, players), dtype=np.int64)
    seeds = np.arange(batch, dtype=np.uint64)
    game = benchmarked()[0]
    warm = playout_start(game, players, counter)
    planner_playouts(warm.face.g, warm.s, seeds[:1], DEFAULT_PARAMS, scores)  # compile or load first
    while native_time + python_time < seconds:
        counter += 1
        start_state = playout_start(game, players, counter)
        states += 1
        begin = time.process_time()
        planner_playouts(start_state.face.g, start_state.s, seeds, DEFAULT_PARAMS, scores)
        native_time += time.process_time() - begin
        native_count += batch
        begin = time.process_time()
        expected, _ = python_playout(start_state.clone())
        python_time += time.process_time() - begin
        python_count += 1
        same += int(list(scores[0]) == expected)
    native_rate, python_rate = native_count / native_time, python_count / python_time
    result.figures[f"native planner play-outs {players}p per CPU-s"] = native_rate
    result.figures[f"python planner play-outs {players}p per CPU-s"] = python_rate
    result.figures[f"same play-out scores {players}p"] = same / states
    return (str(players), str(states), f"{native_rate:,.0f}", f"{python_rate:,.1f}", f"{native_rate / python_rate:,.0f}x",
            f"{same}/{states}")
