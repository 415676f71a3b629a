"""Planning features (``plan_features``): the planner's own plan and the market by slot, read
from what the seat sees only, and a ``learned`` network that reads them plays."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ttr_lab.core.game import load_game
from ttr_lab.strategies.ticket_to_ride.learned import Learned, featurizer, market_slots
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.plan_features import NAME
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, fresh_plan, tables_of
from ttr_lab.strategies.ticket_to_ride.ticket_planner import seat_view


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
