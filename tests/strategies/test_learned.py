"""The ``learned`` strategy and its network: the shipped weights read the game's tensor, the
search's evaluator gives priors over the legal ids and values, and a weights file that is
corrupt or made for another game is one line naming it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ttr_lab.core.errors import ConfigError, StrategyError
from ttr_lab.core.game import load_game
from ttr_lab.games.ticket_to_ride import DrawMarket, Phase
from ttr_lab.strategies.ticket_to_ride.learned import Learned, market_slots, shipped_weights, state_inputs
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.plan_features import size_of


@pytest.fixture(scope="module")
def usa():
    return load_game("ticket_to_ride", map="usa")


def test_the_shipped_weights_read_this_games_tensor_and_actions(usa):
    net = Network.load(shipped_weights("usa"), usa)  # the digest: a layout change fails here
    features = net.meta.get("features")
    extra = size_of(usa.new_game(2, 0).face.g, features) if features else 0
    assert (net.obs_dim, net.n_actions) == (usa.observation_shape[0] + extra, usa.action_space.size)
    assert shipped_weights("usa").stat().st_size < 4_000_000


def test_the_evaluator_gives_priors_over_the_legal_ids_and_values(usa):
    net = Network.load(shipped_weights("usa"), usa)
    states = [usa.new_game(2, seed) for seed in range(3)]
    for s in states[1:]:
        s.apply(s.legal_actions()[0])  # the first tickets kept: a turn with market draws
    obs = np.stack([state_inputs(net, s) for s in states])
    masks = np.stack([usa.action_space.mask(s.legal_actions()) for s in states])
    priors, values = net.evaluate(obs, masks, np.array([s.market for s in states]))
    assert priors.shape == masks.shape and values.shape == (3,)
    assert np.allclose(priors.sum(axis=1), 1.0) and not priors[~masks].any()
    assert ((0 <= values) & (values <= 1)).all()


def test_a_market_draw_is_scored_by_the_kind_in_its_slot(usa):
    net = Network.initial(usa, hidden=4, seed=0, slots=market_slots(usa))
    net.params["bp"][net.n_actions + 3] = 5.0  # the kind 3 is wanted
    obs = np.zeros((1, net.obs_dim), np.float32)
    mask = np.zeros((1, net.n_actions), bool)
    mask[0, net.slot_ids] = True
    for slot in range(5):
        market = [0] * 5
        market[slot] = 3
        priors, _ = net.evaluate(obs, mask, np.array([market]))
        assert int(priors.argmax()) == usa.action_space.id_of(DrawMarket(slot))


def test_weights_for_another_map_are_one_line_naming_both(tmp_path, usa):
    asia = load_game("ticket_to_ride", map="legendary_asia")
    path = Network.initial(asia, hidden=2).save(tmp_path / "asia.npz")
    with pytest.raises(ConfigError) as caught:
        Network.load(path, usa)
    text = str(caught.value)
    assert "\n" not in text and "asia.npz" in text and "legendary_asia" in text and "USA" in text
    player = Learned(weights=str(path))  # a file made for a map is only refused when another is played
    state = usa.new_game(2, 1)
    with pytest.raises(StrategyError, match="trained on Ticket to Ride: Legendary Asia"):
        player.act(state.observation(0), state.legal_actions(), random.Random(0))


@pytest.mark.parametrize("damage", ["truncated", "an array missing", "another format"])
def test_a_corrupt_weights_file_is_one_line(tmp_path, usa, damage):
    path = Network.initial(usa, hidden=2).save(tmp_path / "net.npz")
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    elif damage == "an array missing":
        with np.load(path) as data:
            kept = {k: data[k] for k in data.files if k != "w2"}
        np.savez(path.open("wb"), **kept)
    else:
        net = Network.load(path)
        net.meta["format"] = 99
        net.save(path)
    with pytest.raises(ConfigError) as caught:
        Learned(weights=str(path))
    assert "\n" not in str(caught.value) and "net.npz" in str(caught.value)


def test_a_map_without_weights_is_named(usa):
    state = load_game("ticket_to_ride", map="legendary_asia").new_game(2, 1)
    with pytest.raises(StrategyError, match="no weights shipped for map 'legendary_asia'"):
        Learned().act(state.observation(0), state.legal_actions(), random.Random(0))


def test_a_temperature_samples_reproducibly_from_the_games_rng(usa):
    state = usa.new_game(2, 5)
    state.apply(state.legal_actions()[0])
    obs, legal = state.observation(state.current_player), state.legal_actions()
    picks = [Learned(temperature=5.0).act(obs, legal, random.Random(seed)) for seed in range(12)]
    assert picks == [Learned(temperature=5.0).act(obs, legal, random.Random(seed)) for seed in range(12)]
    assert len(set(picks)) > 1 and all(p in legal for p in picks)
    with pytest.raises(ConfigError):
        Learned(temperature=float("inf"))


def test_one_player_handed_another_table_or_map_reads_it_as_a_fresh_one_would(usa):
    # The contract builds a strategy per game; one made by hand and reused must not read a
    # 4-player table with a 2-player plan, or another map with this map's network.
    player = Learned()
    two = usa.new_game(2, 3)
    player.act(two.observation(0), two.legal_actions(), random.Random(0))
    four = usa.new_game(4, 3)
    while four.current_player != 3 or four.phase != Phase.TURN:  # a seat the 2-player plan lacks
        four.apply(four.legal_actions()[0])
    seat = four.current_player
    obs, legal = four.observation(seat), four.legal_actions()
    assert player.act(obs, legal, random.Random(0)) == Learned().act(obs, legal, random.Random(0))
    assert player.kept.plans.shape[0] == 4  # a compiled kernel would not catch a row out of bounds
    assert np.array_equal(player.logits(obs, legal), Learned().logits(obs, legal))
    asia = load_game("ticket_to_ride", map="legendary_asia").new_game(2, 1)
    with pytest.raises(StrategyError, match="no weights shipped for map 'legendary_asia'"):
        player.act(asia.observation(0), asia.legal_actions(), random.Random(0))
