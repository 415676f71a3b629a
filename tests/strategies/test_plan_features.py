"""Planning features (``plan_features``): the planner's own plan and the market by slot, read
from what the seat sees only, and a ``learned`` network that reads them plays."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ttr_lab.core.game import load_game
from ttr_lab.strategies.ticket_to_ride.learned import Learned, featurizer, market_slots
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.plan_features import KEPT, NAME, OFFER_VALUES, KeptRows
from ttr_lab.games.ticket_to_ride import KeepTickets
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, fresh_plan, tables_of
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner, seat_view


@pytest.fixture(scope="module")
def midgame():
    game = load_game("ticket_to_ride", map="usa")
    state = game.new_game(2, 7)
    rng = random.Random(7)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    return game, state


def test_the_features_are_the_planners_plan_and_the_market_by_slot(midgame):
    _, state = midgame
    g = state.face.g
    x = featurizer(g).one(state.s)
    assert x.shape == (featurizer(g).size,) == (5 * 9 + 2 * 100 + 8 + 3 * 30 + 4,)
    for slot, kind in enumerate(state.market):
        assert x[slot * 9:(slot + 1) * 9].tolist() == [float(k == kind) for k in range(9)]
    pt, w = tables_of(g)
    planned = np.empty(100, dtype=np.int64)
    n = fresh_plan(g, pt, state.s, state.current_player, DEFAULT_PARAMS, w, planned)
    assert n > 0 and set(np.flatnonzero(x[45:145])) == set(planned[:n].tolist())


def test_the_features_read_only_what_the_seat_sees(midgame):
    _, state = midgame
    seen = seat_view(state.observation(state.current_player))  # nothing hidden dealt
    assert np.array_equal(featurizer(seen.face.g).one(seen.s), featurizer(state.face.g).one(state.s))


def test_a_network_reading_the_features_plays(tmp_path, midgame):
    game, state = midgame
    size = featurizer(state.face.g).size
    net = Network.initial(game, hidden=4, seed=0, slots=market_slots(game), features=(NAME, size))
    assert net.obs_dim == game.observation_shape[0] + size
    path = net.save(tmp_path / "f.npz")
    legal = state.legal_actions()
    assert Learned(weights=str(path)).act(state.observation(state.current_player), legal, random.Random(0)) in legal


@pytest.mark.parametrize("tuned", [{}, {"plan_budget": 0.7, "draw_tickets_min_trains": 24}], ids=["default", "tuned"])
def test_kept_features_follow_the_ticket_planners_kept_plan_and_name_its_move(tuned):
    """Through a whole game of two ``ticket_planner``s (at the defaults, or with knobs that leave
    the plan alone), the kept-plan features' plan block is the plan each seat's planner holds, and
    the teacher ``kept_rows`` names is the move it makes (one row of ``KeptRows`` follows both
    seats, as one ``KeptPlan`` can)."""
    game = load_game("ticket_to_ride", map="usa")
    state = game.new_game(2, 11)
    seats = [TicketPlanner(**tuned), TicketPlanner(**tuned)]
    teach = knobs(**tuned).params()
    kept = KeptRows(state.face.g, 1)
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        p = state.current_player
        action = seats[p].act(state.observation(p), state.legal_actions(), rng)
        x, moves = featurizer(state.face.g).kept_rows(state.s[None].copy(), kept, teach)
        assert game.action_space.action_of(int(moves[0])) == action
        held = seats[p].kept
        if held is not None and held.keys[p, 0]:
            assert set(np.flatnonzero(x[0, 45:145])) == set(held.plans[p, :held.sizes[p]].tolist())
            checked += 1
        state.apply(action)
    assert checked > 50


def test_a_network_reading_kept_features_keeps_its_plan_between_decisions(tmp_path, midgame):
    game, state = midgame
    size = featurizer(state.face.g).size
    net = Network.initial(game, hidden=4, seed=0, slots=market_slots(game), features=(KEPT, size))
    player = Learned(weights=str(net.save(tmp_path / "k.npz")))
    legal = state.legal_actions()
    assert player.act(state.observation(state.current_player), legal, random.Random(0)) in legal
    p = state.current_player
    assert player.kept is not None and player.kept.keys[p, 0] == 1  # it planned, as the planner would


def test_offer_features_weigh_each_subset_the_seat_may_keep(midgame):
    game = load_game("ticket_to_ride", map="usa")
    state = game.new_game(2, 5)  # the deal: the seat to move keeps from an offer
    g = state.face.g
    x = featurizer(g).kept_one(state.s, KeptPlan(g), offers=True)
    size = featurizer(g).size
    assert x.shape == (size + 7 * OFFER_VALUES,)
    offer = x[size:].reshape(7, OFFER_VALUES)
    masks = {sum(1 << i for i in a.indices) for a in state.legal_actions() if isinstance(a, KeepTickets)}
    assert masks and set(np.flatnonzero(offer[:, 0]) + 1) == masks
    points = g[g[L.TICKET_POINTS]:g[L.TICKET_POINTS] + g[L.N_TICKETS]]
    offered = state.observation(state.current_player).offered
    for m in masks:
        kept = [offered[j] for j in range(len(offered)) if (m >> j) & 1]
        assert offer[m - 1, 1] * 20 == pytest.approx(sum(points[t] for t in kept))  # all reachable at the deal
        assert offer[m - 1, 2] > 0 and offer[m - 1, 3] > 0
    _, later = midgame
    assert not featurizer(g).kept_one(later.s, KeptPlan(g), offers=True)[size:].any()  # no offer: zeros
