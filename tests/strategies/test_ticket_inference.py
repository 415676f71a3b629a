"""Ticket inference: reweighed samples stay consistent with the observation and lean towards
the tickets an opponent's network serves."""

from __future__ import annotations

import random
from collections import Counter

from helpers import make_state
from invariants import random_game_states
from ttr_lab.games.ticket_to_ride import determinize, load_board
from ttr_lab.strategies.ticket_inference import TicketInference

BOARD = load_board("usa")


def tk(label: str) -> int:
    return next(t.id for t in BOARD.tickets if t.label.startswith(label + " ("))


def track(a: str, b: str) -> str:
    return next(t.label for t in BOARD.tracks if t.label.startswith(f"{a}-{b} ") or t.label.startswith(f"{b}-{a} "))


# Player 1 has built Seattle-Portland-Salt Lake City-Helena in the north-west; player 0's ticket
# is in the east.
WEST = {track("Seattle", "Portland"): 1, track("Portland", "Salt Lake City"): 1, track("Salt Lake City", "Helena"): 1}


def west_state():
    return make_state(2, claimed=WEST, tickets_held=[[tk("Boston-Miami")], [tk("Seattle-New York"), tk("Dallas-New York")]])


def test_a_ticket_along_the_network_outweighs_one_far_from_it():
    obs = west_state().observation(0)
    weights = TicketInference(obs, beta=1.0).weights[1]
    assert weights[tk("Portland-Phoenix")] > weights[tk("Montreal-Atlanta")] == 1.0
    assert TicketInference(obs, beta=0.5).weights[1][tk("Portland-Phoenix")] < weights[tk("Portland-Phoenix")]
    # Nothing claimed: no opponent to weigh.
    assert TicketInference(make_state(2).observation(0), beta=1.0).weights == {}


def test_reweighed_samples_are_consistent_with_the_observation():
    rng = random.Random(5)
    checked = 0
    for state, _legal, _action in random_game_states(BOARD, 2, 9):
        if state.is_terminal() or rng.random() > 0.15:
            continue
        me = state.current_player
        obs = state.observation(me)
        inference = TicketInference(obs, beta=2.0)
        sample = determinize(obs, random.Random(checked))
        before = sample.clone()
        inference.reweigh(sample, random.Random(checked))
        assert sample.observation(me).to_dict() == obs.to_dict()
        # Only opponents' tickets and unseen deck positions changed places.
        assert sample.hands == before.hands and sample.pile == before.pile and sample.offers == before.offers
        assert sample.returned_by == before.returned_by
        assert Counter(sample.ticket_deck) + Counter(t for ts in sample.tickets for t in ts) == \
            Counter(before.ticket_deck) + Counter(t for ts in before.tickets for t in ts)
        known = [t for t, r in zip(before.ticket_deck, before.returned_by) if r >= 0]
        assert [t for t, r in zip(sample.ticket_deck, sample.returned_by) if r >= 0] == known
        checked += 1
    assert checked >= 10


def test_samples_lean_towards_the_network_and_stay_reproducible():
    obs = west_state().observation(0)
    along = {t.id for t in BOARD.tickets if TicketInference(obs, beta=1.0).weights[1][t.id] > 20}
    assert along

    def share(beta: float) -> float:
        rng = random.Random(3)
        inference = TicketInference(obs, beta=beta)
        held = 0
        for _ in range(300):
            sample = inference.reweigh(determinize(obs, rng), rng)
            held += len(along & set(sample.tickets[1]))
        return held / 300

    assert share(1.0) > 3 * share(0.0)
    a = TicketInference(obs, beta=1.0).reweigh(determinize(obs, random.Random(8)), random.Random(8))
    b = TicketInference(obs, beta=1.0).reweigh(determinize(obs, random.Random(8)), random.Random(8))
    assert a.tickets == b.tickets and a.ticket_deck == b.ticket_deck


def test_mcts_searches_on_reweighed_samples():
    from ttr_lab import play_game
    from ttr_lab.games.ticket_to_ride import TicketToRide
    from ttr_lab.strategies.mcts import MCTS
    from ttr_lab.strategies.ticket_planner import TicketPlanner

    a = play_game(TicketToRide(BOARD), [MCTS(infer_tickets=1.0, steps=400), TicketPlanner()], seed=13)
    b = play_game(TicketToRide(BOARD), [MCTS(infer_tickets=1.0, steps=400), TicketPlanner()], seed=13)
    assert a.to_json() == b.to_json()
