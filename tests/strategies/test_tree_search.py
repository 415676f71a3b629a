"""``mcts_tree``: the compiled tree finds what the planner misses, plays its recorded games, and
takes a value network as weight arrays.

The records in ``tests/golden/mcts_tree/`` (``usa-2p-seed*.json``) were played by ``mcts_tree`` at
a small budget; it must play them again move for move. After an intended change to its play,
regenerate with ``UPDATE_GOLDEN=1 pytest tests/strategies/test_tree_search.py`` and say why in
the commit."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

from ttr_lab import ConfigError, play_game
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import Claim, DrawMarket, Phase, TicketToRide
from ttr_lab.games.ticket_to_ride.batch import tensor_plan
from ttr_lab.games.ticket_to_ride.kernels.tensor import write_tensor
from ttr_lab.games.ticket_to_ride.tensor import observation_tensor
from ttr_lab.strategies.ticket_to_ride.search.leaf import flatten_value, network_value
from ttr_lab.strategies.ticket_to_ride.search.leaf_kernels import value_of
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner
from ttr_lab.strategies.ticket_to_ride.learned import shipped_weights
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.search.mcts_tree import TreeSearch
from ttr_lab.strategies.ticket_to_ride.search.root import root_moves
from ttr_lab.strategies.ticket_to_ride.search.root_kernels import group_of

GOLDEN = Path(__file__).parent.parent / "golden" / "mcts_tree"
USA = TicketToRide("usa")
SMALL = {"iterations": 24}


def test_the_tree_finds_the_last_claim_that_wins_where_the_planner_claims_its_plan():
    """The last turn of a planner game (seed 2, turn 70): the planner claims its planned
    Chicago-Saint Louis and loses by 3; El Paso-Santa Fe completes a ticket and wins by 17."""
    state = USA.restore(json.loads((GOLDEN / "usa-2p-seed2-last-turn.json").read_text(encoding="utf-8")))
    obs, legal = state.observation(0), state.legal_actions()
    assert str(TicketPlanner().act(obs, legal, random.Random(0))).startswith("claim Chicago-Saint Louis")
    search = TreeSearch(iterations=80)
    assert str(search.act(obs, legal, random.Random(1))).startswith("claim El Paso-Santa Fe")


@pytest.mark.parametrize("seed", [3])
def test_mcts_tree_plays_its_recorded_games(seed):
    path = GOLDEN / f"usa-2p-seed{seed}.json"
    seats = ("mcts_tree", "ticket_planner")
    strategies = [build("mcts_tree", SMALL, "ticket_to_ride"), build("ticket_planner", {}, "ticket_to_ride")]
    text = play_game(USA, strategies, seed).to_json(pretty=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    recorded, played = json.loads(path.read_text(encoding="utf-8")), json.loads(text)
    assert played["strategies"] == list(seats)
    assert played["actions"] == recorded["actions"]
    assert played["result"] == recorded["result"]


def test_the_value_network_is_the_mlp_its_weights_describe():
    """``value_of`` computes ``relu(x @ W1 + b1) @ W2 + b2`` on the observation tensor."""
    state = USA.new_game(2, 5)
    tplan, scales = (np.array(a) for a in tensor_plan(USA.board, USA.ruleset, 2))  # writeable, as the search's
    size = int(tplan[0])
    rng = np.random.default_rng(0)
    layers = [rng.normal(size=(size, 8)), rng.normal(size=8), rng.normal(size=(8, 1)), rng.normal(size=1)]
    weights, sizes = flatten_value(lambda: layers)
    assert sizes.tolist() == [size, 8, 1]
    x = np.zeros(size, dtype=np.float32)
    write_tensor(state.face.g, state.s, 0, tplan, scales, x)
    expected = (np.maximum(x @ layers[0] + layers[1], 0.0) @ layers[2] + layers[3])[0]
    scratch = np.empty(size, dtype=np.float32), np.empty(size, dtype=np.float32)
    got = value_of(state.face.g, state.s, 0, tplan, scales, weights, sizes, *scratch)
    assert got == pytest.approx(expected, rel=1e-3, abs=1e-3)
    # A search on the value alone (no play-outs) runs and answers a legal move.
    search = TreeSearch(iterations=6, value=layers, value_mix=1.0)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    assert search.act(obs, legal, random.Random(0)) in legal


def test_a_value_network_that_does_not_fit_is_refused():
    with pytest.raises(ConfigError, match="one output"):
        flatten_value([np.zeros((3, 2)), np.zeros(2)])
    with pytest.raises(ConfigError, match="does not fit"):
        flatten_value([np.zeros((3, 2)), np.zeros(3)])
    with pytest.raises(ConfigError, match="one clock"):
        build("mcts_tree", {"cpu_ms": 5.0, "time_ms": 5.0}, "ticket_to_ride")


def _planner_game(seed: int, decisions: int):
    """The state after ``decisions`` moves of a game the ticket planner plays at both seats."""
    state, planner, rng = USA.new_game(2, seed), TicketPlanner(), random.Random(0)
    for _ in range(decisions):
        p = state.current_player
        state.apply(planner.act(state.observation(p), state.legal_actions(), rng))
    return state


def test_value_learned_is_the_shipped_networks_value_head_and_changes_a_decision():
    """``value: learned`` reads the weights the ``learned`` strategy ships: the kernel's value is
    the logit of the network's win share; leaves valued by it (no play-out) leave the move the
    play-outs choose on a planner game's fifth decision (seed 11)."""
    state = _planner_game(11, 25)
    weights, sizes = flatten_value(network_value("learned", "usa"))
    tplan, scales = (np.array(a) for a in tensor_plan(USA.board, USA.ruleset, 2))
    scratch = np.empty(int(tplan[0]), dtype=np.float32), np.empty(int(tplan[0]), dtype=np.float32)
    got = value_of(state.face.g, state.s, 1, tplan, scales, weights, sizes, *scratch)
    net = Network.load(shipped_weights("usa", tensor_only=True))
    _, share, _, _ = net.forward(np.asarray(observation_tensor(state.observation(1)), dtype=np.float32)[None])
    assert got == pytest.approx(float(np.log(share[0] / (1 - share[0]))), abs=1e-3)

    state = _planner_game(11, 4)
    obs, legal = state.observation(0), state.legal_actions()
    plain = TreeSearch(iterations=60).act(obs, legal, random.Random(1))
    valued = TreeSearch(iterations=60, value="learned", value_mix=1.0, value_scale=15).act(obs, legal, random.Random(1))
    assert str(plain).startswith("claim Portland-Seattle") and str(valued) == "draw blind"


def test_a_leaf_where_the_other_seat_moves_is_valued_from_its_view():
    """The network learned from the player to move's view: ``mover_view`` (the default) values a
    leaf where the opponent moves as minus the opponent's logit, which changes the move on the
    planner game's eleventh decision (seed 11) from the one the searching player's view picks."""
    state = _planner_game(11, 10)
    obs, legal = state.observation(0), state.legal_actions()
    settings = {"iterations": 60, "value": "learned", "value_mix": 1.0, "value_scale": 15}
    mover = TreeSearch(**settings).act(obs, legal, random.Random(1))
    own = TreeSearch(**settings, mover_view=False).act(obs, legal, random.Random(1))
    assert str(mover) == "draw blind" and str(own).startswith("claim Oklahoma City-Santa Fe")


def test_opponents_slips_are_the_same_for_every_leaf_of_a_sample():
    """With ``epsilon`` the opponents sometimes play a random move, drawn per sample and turn: a
    tree that holds only the planner's line (no widening) walks exactly its sample's baseline, so
    its reward is exactly 0 however many slips there are; the slips do change what the play-outs
    see (other rewards than without)."""
    state = _planner_game(11, 57)  # three of its own decisions deep, no ticket choice on the way
    obs, legal = state.observation(0), state.legal_actions()
    lone = TreeSearch(iterations=30, epsilon=0.5, widening=0.0, widening_base=1.0, tree_depth=3)
    root = lone.search(obs, legal, random.Random(1)).root
    assert len(root) == 1 and root[0].samples == 30 and root[0].lead == 0.0
    state = _planner_game(11, 4)
    obs, legal = state.observation(0), state.legal_actions()
    slips, none = TreeSearch(iterations=40, epsilon=0.5), TreeSearch(iterations=40)
    assert slips.search(obs, legal, random.Random(1)).root != none.search(obs, legal, random.Random(1)).root
    with pytest.raises(ConfigError, match="epsilon"):
        TreeSearch(epsilon=1.5)


def test_a_network_reading_planning_features_is_refused_as_the_tree_s_value():
    """The kernel sees only the observation tensor: the ``learned`` strategy's features network
    cannot be its leaf value, and says so instead of failing on a size."""
    with pytest.raises(ConfigError, match="extra inputs"):
        network_value(str(shipped_weights("usa")), "usa")


def _group(state, action):
    """The group a node opens ``action`` in, from the board's own data: a claim by its route's
    cities and colour (a double route of one colour is one move), a face-up draw by its card."""
    if isinstance(action, Claim):
        track = USA.board.tracks[action.track]
        return ("claim", min(track.a, track.b), max(track.a, track.b), track.colour)
    if isinstance(action, DrawMarket):
        return ("market", state.market[action.slot])
    return str(action)


def test_the_root_opens_one_move_per_route_and_per_face_up_card():
    """At turns of a planner game whose market shows a card twice and where a one-colour double
    route is open, the root's moves are one per group of the legal moves (``group_of``, checked
    against the board's cities and colours), the planner's move first."""
    seen_pair = seen_twin = False
    for turn in range(2, 60, 3):
        state = _planner_game(5, turn)
        obs, legal = state.observation(state.current_player), state.legal_actions()
        if obs.phase != Phase.TURN:
            continue
        anchor = TicketPlanner().act(obs, legal, random.Random(0))
        sampler, root = root_moves(obs, anchor, random.Random(1))
        face = sampler.template.face
        moves = [face.actions[int(i)] for i in root]
        groups = [_group(state, a) for a in moves]
        assert moves[0] == anchor and all(a in legal for a in moves)
        assert len(groups) == len(set(groups)) == len({_group(state, a) for a in legal})
        kernel = {int(group_of(face.g, sampler.template.s, face.id_of(a))) for a in legal}
        assert len(kernel) == len(groups)
        cards = [c for c in state.market if c >= 0]
        seen_pair |= len(cards) > len(set(cards))
        seen_twin |= any(isinstance(a, Claim) and USA.board.tracks[a.track].twin >= 0
                         and USA.board.tracks[USA.board.tracks[a.track].twin].colour == USA.board.tracks[a.track].colour
                         and any(isinstance(b, Claim) and b.track == USA.board.tracks[a.track].twin for b in legal)
                         for a in legal)
    assert seen_pair and seen_twin


def test_a_policy_network_orders_the_moves_the_root_opens():
    """With ``policy: learned`` the widening opens the planner's move, then the groups of moves the
    shipped network scores highest, in that order; the hand prior opens others."""
    from helpers import check_policy_orders_root

    check_policy_orders_root(lambda policy: TreeSearch(iterations=60, policy=policy))


def test_with_streams_the_planners_line_is_still_its_samples_baseline():
    """With ``streams`` every seat draws from its own stream of the sample, in the walk as in the
    baseline, each line starting the streams afresh: a tree holding only the planner's line walks
    exactly its sample's baseline (reward exactly 0), while the streams change what other lines
    meet (other rewards than without them)."""
    state = _planner_game(11, 57)
    obs, legal = state.observation(0), state.legal_actions()
    lone = TreeSearch(iterations=30, streams=True, widening=0.0, widening_base=1.0, tree_depth=3)
    root = lone.search(obs, legal, random.Random(1)).root
    assert len(root) == 1 and root[0].samples == 30 and root[0].lead == 0.0
    state = _planner_game(11, 4)
    obs, legal = state.observation(0), state.legal_actions()
    streamed, plain = TreeSearch(iterations=40, streams=True), TreeSearch(iterations=40)
    found = streamed.search(obs, legal, random.Random(1))
    assert found.action in legal and found.root != plain.search(obs, legal, random.Random(1)).root


def test_leaf_value_is_the_networks_logit_from_the_movers_view_negated_for_the_other_seat():
    """``TreeSearch.leaf_value`` (the kernel's tensor and view, what the leaves read) against the
    numpy network on the game's own tensor: the same logit times ``value_scale``, from the view
    of the player to move, negated when that is not the valuing seat."""
    net = Network.load(shipped_weights("usa", tensor_only=True), TicketToRide("usa"))
    leaf = TreeSearch(value="learned", value_scale=10.0)
    own_view = TreeSearch(value="learned", value_scale=10.0, mover_view=False)

    def logit(state, seat):
        _, v, _, _ = net.forward(state.observation_tensor(seat)[None, :])
        return 10.0 * float(np.log(v[0] / (1.0 - v[0])))

    for decisions in (9, 10, 30, 31):
        state = _planner_game(5, decisions)
        mover = state.current_player
        for me in (0, 1):
            expected = logit(state, mover) if mover == me else -logit(state, mover)
            assert leaf.leaf_value(state, me) == pytest.approx(expected, rel=1e-3, abs=1e-3), (decisions, me)
            assert own_view.leaf_value(state, me) == pytest.approx(logit(state, me), rel=1e-3, abs=1e-3)
    with pytest.raises(ConfigError, match="leaf_value needs a value network"):
        TreeSearch().leaf_value(state, 0)


def test_a_network_is_a_value_as_its_value_path():
    """A ``Network`` given as the tree's value is its value path (trunk, then the value head), the
    same arrays ``value: learned`` reads from the shipped file: one statement of that path."""
    net = Network.load(shipped_weights("usa", tensor_only=True))
    from_net, sizes = flatten_value(net)
    from_file, file_sizes = flatten_value(network_value("learned", "usa"))
    assert np.array_equal(from_net, from_file) and np.array_equal(sizes, file_sizes)
    assert list(sizes) == [net.obs_dim, net.hidden, net.hidden, 1]
