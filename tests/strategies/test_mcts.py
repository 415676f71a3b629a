"""MCTS: searches only what its observation allows, stays reproducible, and reads evidence."""

from __future__ import annotations

import random

from helpers import make_state
from invariants import hidden_shuffle, random_game_states
from ttr_lab.strategies.ticket_to_ride.search.mcts import MCTS
from ttr_lab.strategies.ticket_to_ride.search.mcts.playout import Playout
from ttr_lab import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide, KeepTickets, determinize, load_board

BOARD = load_board("usa")


def tk(label: str) -> int:
    return next(t.id for t in BOARD.tickets if t.label.startswith(label + " ("))


def test_the_decision_depends_on_the_observation_only():
    rng = random.Random(4)
    checked = 0
    for state, legal, action in random_game_states(BOARD, 2, 21):
        if state.is_terminal() or state.phase_name.name != "TURN" or rng.random() > 0.2:
            continue
        twin = hidden_shuffle(state, state.current_player, rng)  # other hidden cards and tickets
        a = MCTS(iterations=6).act(state.observation(state.current_player), state.legal_actions(), random.Random(1))
        b = MCTS(iterations=6).act(twin.observation(state.current_player), twin.legal_actions(), random.Random(1))
        assert a == b
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_it_does_not_keep_a_ticket_that_is_cut_off():
    # Player 1 holds every track into Miami: Los Angeles-Miami cannot be completed.
    into_miami = {t.label: 1 for t in BOARD.tracks if "Miami" in t.label}
    offered = [tk("Los Angeles-Miami"), tk("Denver-El Paso"), tk("Kansas City-Houston")]
    state = make_state(2, phase="initial_tickets", offered=[offered, [tk("Boston-Miami"), tk("Calgary-Phoenix"), tk("Duluth-Houston")]],
                       claimed=into_miami)
    search = MCTS(iterations=16)
    found = search.search(state.observation(0), state.legal_actions(), random.Random(2))
    assert found.action == KeepTickets((1, 2))
    assert found.playouts >= 4 and found.rounds >= 1 and len(found.root) == len(state.legal_actions())


def test_the_fast_policy_and_evaluation_run_on_samples():
    state = make_state(2, hands=[{"red": 3}, {"blue": 2}], tickets_held=[[tk("Denver-El Paso")], [tk("Kansas City-Houston")]])
    obs = state.observation(0)
    playout = Playout(obs)
    sample = determinize(obs, random.Random(0))
    assert playout.values(sample) == playout.projected_scores(sample) and len(playout.values(sample)) == 2
    while not sample.is_terminal():
        sample.apply(playout.choose(sample, sample.legal_actions()))
    assert sample.result().turns > 0
    assert playout.values(sample) == [float(s) for s in sample.result().scores]


def test_a_whole_game_is_reproducible_with_an_iteration_budget():
    a = play_game(TicketToRide(BOARD), [MCTS(iterations=8), MCTS(iterations=8)], seed=13)
    b = play_game(TicketToRide(BOARD), [MCTS(iterations=8), MCTS(iterations=8)], seed=13)
    assert a.to_json() == b.to_json()


def test_native_play_outs_search_with_one_call_per_leaf_and_stay_reproducible():
    a = play_game(TicketToRide(BOARD), [MCTS(playout="random", leaf_playouts=4, steps=400), MCTS(iterations=8)], seed=13)
    b = play_game(TicketToRide(BOARD), [MCTS(playout="random", leaf_playouts=4, steps=400), MCTS(iterations=8)], seed=13)
    assert a.to_json() == b.to_json()
    search = MCTS(playout="random", leaf_playouts=4)
    state = TicketToRide(BOARD).new_game(2, 3)  # the first ticket choice: every subset is searched
    found = search.search(state.observation(0), state.legal_actions(), random.Random(2))
    assert found.simulations == 4 * found.playouts > 0


def test_a_native_play_out_refuses_a_rollout_depth_and_two_clocks():
    import pytest

    from ttr_lab.core.errors import ConfigError

    with pytest.raises(ConfigError, match="rollout_depth must be 0"):
        MCTS(playout="random", rollout_depth=4)
    with pytest.raises(ConfigError, match="one clock"):
        MCTS(time_ms=5.0, cpu_ms=5.0)
    with pytest.raises(ConfigError, match="leaf_playouts must be 1"):
        MCTS(playout="planner", leaf_playouts=2)


def test_the_default_plays_out_with_the_compiled_planner_and_grows_no_tree():
    search = MCTS()
    assert (search.playout, search.tree) == ("planner", False)
    state = TicketToRide(BOARD).new_game(4, 8)
    found = search.search(state.observation(0), state.legal_actions(), random.Random(3))
    assert found.simulations == found.playouts > 0  # one native play-out per visit


def test_mcts_on_native_play_outs_passes_the_strategy_contract():
    from ttr_lab.core.registry import factory
    from ttr_lab.core.testing import check_strategy

    params = {"iterations": 6, "playout": "random", "leaf_playouts": 2}
    report = check_strategy(factory("mcts", params, "ticket_to_ride"), players=(2, 4), seeds=(1,), map="usa")
    assert report.decisions > 0
