"""The learned strategies' network files: weights no move can come from (NaN, infinite, all zero)
are refused when loaded, naming the file; and a market the deck could not refill is read as empty
slots, not a crash mid-game."""

from __future__ import annotations

import numpy as np
import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import load_game
from ttr_lab.core.play import play_game
from ttr_lab.strategies.random import Random
from ttr_lab.strategies.ticket_to_ride.learned import Learned, market_slots, shipped_weights
from ttr_lab.strategies.ticket_to_ride.network import Network


@pytest.fixture(scope="module")
def usa():
    return load_game("ticket_to_ride", map="usa")


@pytest.mark.parametrize("poison, message", [
    (lambda p: p["w1"].__setitem__((2, 3), np.nan), "parameter w1 holds 1 NaN value\\(s\\)"),
    (lambda p: p["bv"].__setitem__(0, -np.inf), "parameter bv holds 1 infinite value\\(s\\)"),
    (lambda p: [a.fill(0) for a in p.values()], "every parameter is zero"),
], ids=["nan", "inf", "zero"])
def test_weights_no_move_can_come_from_are_refused_at_load(tmp_path, usa, poison, message):
    net = Network.initial(usa, hidden=4, seed=1, slots=market_slots(usa))
    poison(net.params)
    path = net.save(tmp_path / "bad.npz")
    with pytest.raises(ConfigError, match=f"^{tmp_path / 'bad.npz'}: {message}; these weights cannot play$"):
        Network.load(path)
    with pytest.raises(ConfigError, match=message):
        Learned(weights=str(path))  # refused when the strategy is built, not in its first game


def test_a_market_of_fewer_cards_reads_its_empty_slots_as_none(usa):
    net = Network.initial(usa, hidden=4, seed=1, slots=market_slots(usa))
    net.params["bp"][:] = np.random.default_rng(0).normal(size=net.params["bp"].shape)
    head, _, _, _ = net.forward(np.zeros((1, net.obs_dim), np.float32))
    assert np.array_equal(net.logits(head, [(3, 0, 8, 1)]), net.logits(head, [(3, 0, 8, 1, -1)]))


def test_learned_plays_on_when_the_market_runs_dry(tmp_path, usa):
    # Policy heads zeroed: every logit ties and the lowest id (a market draw) is played, so the
    # deck runs out and the market is left with fewer than five cards.
    net = Network.load(shipped_weights("usa"))
    net.params["wp"][:] = 0
    net.params["bp"][:] = 0
    path = net.save(tmp_path / "draws.npz")
    outcome = play_game(usa, [Learned(weights=str(path)), Random()], 0).outcome()
    assert outcome.forfeited_by is None and outcome.error == "", outcome.error
