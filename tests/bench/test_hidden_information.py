"""``benchmarks/hidden_information.py``: each resampling keeps what the observer knows and moves
only the unknown it names."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections import Counter
from pathlib import Path

from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

SCRIPT = Path(__file__).parent.parent.parent / "benchmarks" / "hidden_information.py"


def _script():
    spec = importlib.util.spec_from_file_location("hidden_information", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # so a worker process can find its functions by name
    spec.loader.exec_module(module)
    return module


def _midgame():
    state = TicketToRide("usa").new_game(2, seed=11)
    planner, rng = TicketPlanner(), random.Random(0)
    for _ in range(40):
        state.apply(planner.act(state.observation(state.current_player), state.legal_actions(), rng))
    return state


def test_resampling_an_unknown_keeps_the_observation_and_moves_only_that_unknown():
    script, state = _script(), _midgame()
    me = state.current_player
    before = state.snapshot()
    tickets_moved = cards_moved = False
    for k in range(8):
        tickets = script.tickets_resampled(state, me, random.Random(k))
        cards = script.cards_resampled(state, me, random.Random(k))
        for world in (tickets, cards):
            # The log of past moves is not part of a snapshot; everything else is.
            assert world.observation(me)._replace(log=None) == state.observation(me)._replace(log=None)
        t, c = tickets.snapshot(), cards.snapshot()
        assert (t["hands"], t["draw_pile"]) == (before["hands"], before["draw_pile"])
        assert (c["tickets_held"], c["ticket_deck"]) == (before["tickets_held"], before["ticket_deck"])
        assert Counter(t["tickets_held"][1 - me] + t["ticket_deck"]) == \
            Counter(before["tickets_held"][1 - me] + before["ticket_deck"])
        assert sum(c["hands"][1 - me].values()) == sum(before["hands"][1 - me].values())
        tickets_moved |= set(t["tickets_held"][1 - me]) != set(before["tickets_held"][1 - me])
        cards_moved |= (c["hands"][1 - me], c["draw_pile"]) != (before["hands"][1 - me], before["draw_pile"])
    assert tickets_moved and cards_moved
    assert state.snapshot() == before  # the position itself is untouched


def test_the_beliefs_fit_counts_the_claims_on_a_tickets_near_shortest_ways():
    script = _script()
    board = TicketToRide("usa").board
    track = {t.label: t.id for t in board.tracks}
    boston_miami = next(t.id for t in board.tickets if t.label.startswith("Boston-Miami"))
    claims = [track["Boston-New York red"], track["Charleston-Miami pink"], track["Portland-Seattle gray#1"]]
    assert script.fit(board, [boston_miami], claims) == 2  # the Pacific track serves no way to Miami
    assert script.fit(board, [], claims) == 0
    ways = script.ticket_ways(board)[boston_miami]
    assert track["Boston-New York yellow"] in ways and track["El Paso-Los Angeles black"] not in ways


def test_budgets_are_compared_only_where_their_answers_differ():
    script = _script()
    assert script.budget_edges(8, 8, 1, 5) == []  # the same search on the same samples never differs
    rows = script.budget_edges(4, 64, 1, 5)
    assert rows and all(deal == 0 and abs(true) < 200 and abs(sampled) < 200 and math.isnan(own)
                        for true, sampled, own, deal in rows)


def test_the_search_can_play_both_answers_on_itself_and_workers_do_not_change_the_figures():
    script = _script()
    rows = script.budget_edges(4, 64, 2, 5, continuation=4, repeats=2)
    assert {deal for *_, deal in rows} == {0, 1}
    assert all(abs(own) < 200 for _, _, own, _ in rows)
    assert script.budget_edges(4, 64, 2, 5, continuation=4, repeats=2, workers=2) == rows


def test_the_edge_is_played_on_by_the_continuation_it_names():
    from convergence import played_edge

    state = _midgame()
    legal = state.legal_actions()
    anchor, other = legal[0], legal[-1]
    assert played_edge(state, anchor, anchor, 3, "random") == 0.0
    assert played_edge(state, anchor, other, 3, "random") != played_edge(state, anchor, other, 3)
