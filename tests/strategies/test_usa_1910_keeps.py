"""The strategies on the USA 1910 decks: five tickets dealt (keep 3) and four drawn (keep 1) in the
Mega Game; each shipped strategy keeps a legal set, greedy its cheapest three, and the planner's
kernel keeps what the plain-Python reference planner keeps."""

from __future__ import annotations

import random

import pytest

from helpers import act, decide
from reference.planner import python_choice
from ttr_lab.bench.planner import game_positions
from ttr_lab.core.registry import resolve
from ttr_lab.games.ticket_to_ride import KeepTickets, TicketToRide, load_board, new_game
from ttr_lab.strategies.ticket_to_ride.planner_decisions import choose_id

MEGA = load_board("usa_mega")
# The strategies cheap enough to ask at once (the searches run their planner or greedy at setup).
CHEAP = ("random", "greedy", "ticket_planner", "compiled_planner", "destination_hungry", "route_focus", "one_step",
         "long_route")


@pytest.mark.parametrize("name", CHEAP)
def test_every_strategy_keeps_at_least_three_of_five_at_setup_and_one_of_four_later(name):
    strategy = resolve(name, "ticket_to_ride")()
    state = new_game(MEGA, 4, 11)
    assert len(state.offers[0]) == 5
    for p in range(4):
        action = decide(strategy, state, p)
        assert isinstance(action, KeepTickets) and 3 <= len(action.indices) <= 5
        state.apply(action)
    act(state, "tickets")
    assert len(state.offers[0]) == 4
    action = decide(strategy, state, 0)
    assert isinstance(action, KeepTickets) and 1 <= len(action.indices) <= 4


def test_greedy_keeps_the_three_cheapest_of_five():
    greedy = resolve("greedy", "ticket_to_ride")()
    state = new_game(MEGA, 2, 4)
    offer = state.offers[0]
    action = decide(greedy, state, 0)
    kept = sorted(MEGA.tickets[offer[i]].points for i in action.indices)
    assert kept == sorted(MEGA.tickets[t].points for t in offer)[:3]


@pytest.mark.parametrize("players", [2, 4])
def test_the_planner_kernel_keeps_what_the_python_planner_keeps(players):
    """Every seat's setup choice of 5 and the first decisions after it, by planners, greedy and random players."""
    seen = keeps = 0
    for state in game_positions(TicketToRide(MEGA), players, 3):
        expected = python_choice(state)
        assert state.face.actions[choose_id(state)] == expected, (state.turns, str(expected))
        keeps += isinstance(expected, KeepTickets)
        seen += 1
        if seen >= 40:
            break
    assert keeps >= players


def test_a_search_plays_a_mega_setup():
    mcts = resolve("mcts", "ticket_to_ride")(iterations=8)
    state = new_game(MEGA, 2, 9)
    action = mcts.act(state.observation(0), state.legal_actions(), random.Random(0))
    assert isinstance(action, KeepTickets) and len(action.indices) >= 3
