"""The ticket planner (its kernels, and the strategies that are their face) picks what the
plain-Python reference planner (``tests/reference/planner.py``) picks, and plays the same
play-outs and games."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ttr_lab import ConfigError, load_game
from reference.planner import TicketPlanner as PythonPlanner
from reference.planner import python_choice, python_playout
from ttr_lab.bench.planner import game_positions, playout_start
from ttr_lab.core.registry import resolve
from ttr_lab.games.ticket_to_ride import determinize
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, choose_id, default_params, planner_choose
from ttr_lab.strategies.ticket_to_ride.planner_knobs import SLOT, PlannerKnobs
from ttr_lab.strategies.ticket_to_ride.planner_playouts import planner_playouts
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

CompiledPlanner = resolve("compiled_planner", "ticket_to_ride")  # a preset of TicketPlanner


def _positions(map_name, players, seeds, every=1):
    for seed in seeds:
        for k, state in enumerate(game_positions(load_game("ticket_to_ride", map=map_name), players, seed)):
            if k % every == 0:
                yield state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("map_name", ["usa", "legendary_asia"])
def test_the_kernel_picks_what_the_python_planner_picks(map_name, players):
    """Whole games by planners, greedy and random players: every decision with a choice."""
    seen = 0
    for state in _positions(map_name, players, (1, 2, 3), every=2):
        expected = python_choice(state)
        assert state.face.actions[choose_id(state)] == expected, (state.turns, str(expected))
        seen += 1
    assert seen >= 100


def test_the_knobs_reach_the_kernel():
    """The shipped TicketPlanner (four plan orders, two keep orders) and other knobs, matched."""
    knobs = {"plan_orders": 4, "keep_orders": 2, "route_weight": 0.5, "card_weight": 1.0, "endgame_trains": 12,
             "locomotive_deficit": 1, "points_min_length": 1, "draw_tickets_min_trains": 30}
    params = default_params(**knobs)
    differ = 0
    for state in _positions("usa", 2, (4, 5), every=2):
        p = state.current_player
        expected = PythonPlanner(**knobs).act(state.observation(p), state.legal_actions(), random.Random(0))
        assert state.face.actions[choose_id(state, params)] == expected, (state.turns, str(expected))
        differ += state.face.actions[choose_id(state)] != expected
    assert differ > 0  # the knobs changed some decisions


def test_planner_choose_is_choose_id_on_the_arrays():
    state = next(_positions("legendary_asia", 4, (7,)))
    assert planner_choose(state.face.g, state.s, DEFAULT_PARAMS) == choose_id(state)
    state.apply(state.legal_actions()[0])
    before = state.s.copy()
    assert planner_choose(state.face.g, state.s, DEFAULT_PARAMS) == choose_id(state)
    assert (state.s == before).all()  # the state is only read


@pytest.mark.parametrize("players", [2, 4])
def test_playouts_play_as_python_planners_do(players):
    """Same final scores and decisions as ticket planners kept for a whole play-out (their plan
    cache included), from determinized states of both maps."""
    for seed in (1, 2, 3):
        for map_name in ("usa", "legendary_asia"):
            start = playout_start(load_game("ticket_to_ride", map=map_name), players, seed) if map_name == "usa" else _asia_start(players, seed)
            scores = np.zeros((2, players), dtype=np.int64)
            before = start.s.copy()
            decisions = planner_playouts(start.face.g, start.s, np.array([5, 9], dtype=np.uint64), DEFAULT_PARAMS, scores)
            assert (start.s == before).all()
            expected, steps = python_playout(start.clone())
            assert list(scores[0]) == expected and list(scores[1]) == expected
            assert decisions == 2 * steps


def _asia_start(players, seed):
    state = None
    for k, position in enumerate(game_positions(load_game("ticket_to_ride", map="legendary_asia"), players, 3 * seed)):
        state = position
        if k >= 10 * seed:
            break
    return determinize(state.observation(state.current_player), random.Random(seed))


def test_params_name_their_slots_and_refuse_a_misspelt_knob():
    declared = PlannerKnobs()
    expected = {name: float(getattr(declared, name)) for name in SLOT} | {"plan_orders": 1.0, "keep_orders": 1.0}
    assert {name: DEFAULT_PARAMS[i] for name, i in SLOT.items()} == expected
    assert default_params(plan_orders=3)[SLOT["plan_orders"]] == 3.0
    with pytest.raises(ConfigError, match="unknown planner knob.*'plan_order'"):
        default_params(plan_order=3)


def test_the_strategy_plays_what_a_fresh_python_planner_plays():
    rng = random.Random(3)
    for state in _positions("usa", 4, (8,), every=3):
        p = state.current_player
        obs, legal = state.observation(p), state.legal_actions()
        assert CompiledPlanner().act(obs, legal, rng) == PythonPlanner(plan_orders=1, keep_orders=1).act(obs, legal, rng)


def test_the_kernels_agree_interpreted_too():
    """``NUMBA_DISABLE_JIT=1`` runs the same functions as plain Python: a few of the tests above."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-k",
         "planner_choose_is or misspelt or picks_what_the_python_planner_picks and usa-2", __file__],
        env=env, cwd=Path(__file__).parent.parent.parent, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout.splitlines()[-1]


def test_the_planner_bench_draws_both_tables_and_refuses_unknown_sections():
    from typer.testing import CliRunner

    from ttr_lab.cli import app

    result = CliRunner().invoke(app, ["bench", "planner", "--positions", "8", "--seconds", "0.1"])
    assert result.exit_code == 0, result.output
    assert "ticket_planner at every seat" in result.output and "planner play-outs per" in result.output
    result = CliRunner().invoke(app, ["bench", "planner", "--section", "speed"])
    assert result.exit_code != 0 and "unknown section(s) speed" in result.output


@pytest.mark.parametrize("map_name,players", [("usa", 2), ("legendary_asia", 4), ("usa", 4)])
def test_the_strategy_plays_the_games_the_python_planner_plays(map_name, players):
    """Whole games: compiled planners where TicketPlanner(plan_orders=1, keep_orders=1)s sat, the
    same actions to the end (each keeps its plan between decisions as the Python one does)."""
    from ttr_lab import play_game
    from ttr_lab.games.ticket_to_ride import TicketToRide, load_board
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy

    game = TicketToRide(load_board(map_name))
    for seed in (1, 2):
        others = [Greedy() for _ in range(players - 2)]
        python = play_game(game, [PythonPlanner(plan_orders=1, keep_orders=1), PythonPlanner(plan_orders=1, keep_orders=1),
                                  *others], seed)
        others = [Greedy() for _ in range(players - 2)]
        compiled = play_game(game, [CompiledPlanner(), CompiledPlanner(), *others], seed)
        assert compiled.actions == python.actions


def test_a_playout_may_start_from_the_plan_a_seat_holds():
    """As mcts's play-out planner adopts the root planner's plan (four orders there, one below)."""
    from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan, planner_playouts_from

    for seed in (1, 2):
        start = playout_start(load_game("ticket_to_ride", map="usa"), 2, seed)
        while start.phase_name.name != "TURN":
            start.apply(start.legal_actions()[0])
        me = start.current_player
        root = PythonPlanner()
        root.act(start.observation(me), start.legal_actions(), random.Random(0))
        kept = KeptPlan(start.face.g)
        kept.choose_id(start, default_params(plan_orders=4, keep_orders=2))
        kept.keys[me, 2] = -1
        planners = [PythonPlanner(plan_orders=1, keep_orders=1) for _ in range(2)]
        planners[me].plans.adopt(root.plans)
        state = start.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player
            state.apply(legal[0] if len(legal) == 1 else planners[p].act(state.observation(p), legal, random.Random(0)))
        scores = np.zeros((2, 2), dtype=np.int64)
        planner_playouts_from(start.face.g, start.s, np.arange(2, dtype=np.uint64), DEFAULT_PARAMS, scores,
                              kept.plans, kept.sizes, kept.before, kept.keys)
        assert list(scores[0]) == list(state.result().scores) == list(scores[1])


@pytest.mark.parametrize("map_name,players,seed", [("usa", 2, 3), ("legendary_asia", 3, 4), ("usa", 5, 5)])
def test_the_shipped_planner_plays_the_games_the_reference_plays(map_name, players, seed):
    """``ticket_planner`` (the kernels' face, four plan orders, two keep orders) at every seat but
    one greedy: the reference's games, action for action."""
    from ttr_lab import play_game
    from ttr_lab.games.ticket_to_ride import TicketToRide
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy

    game = TicketToRide(map_name)
    reference = play_game(game, [PythonPlanner() for _ in range(players - 1)] + [Greedy()], seed)
    shipped = play_game(game, [TicketPlanner() for _ in range(players - 1)] + [Greedy()], seed)
    assert shipped.actions == reference.actions


def test_a_planner_leaves_the_callers_random_stream_alone():
    """A search hands the planner its own stream for the anchor: the face must draw nothing from it."""
    state = next(_positions("usa", 3, (6,)))
    rng = random.Random(11)
    TicketPlanner().act(state.observation(state.current_player), state.legal_actions(), rng)
    assert rng.random() == random.Random(11).random()
