"""``search.leaf.Leaf``: what ends a simulation, declared once and checked in one place; each
search states its leaf as one, ``mcts_tree`` building its own from its parameters."""

from __future__ import annotations

import math

import pytest

from ttr_lab import ConfigError
from ttr_lab.core.registry import build
from ttr_lab.strategies.ticket_to_ride.search.leaf import Leaf


def test_mcts_tree_builds_its_leaf_from_its_parameters_and_its_kernels_read_it():
    search = build("mcts_tree", {"rollout_depth": 3, "value_mix": 0.25, "value_scale": 12, "mover_view": False},
                   "ticket_to_ride")
    assert search.leaf == Leaf(rollout_depth=3, value_mix=0.25, value_scale=12.0, mover_view=False)
    assert {k: getattr(search.settings, k) for k in Leaf().settings()} == search.leaf.settings()
    assert type(search.settings.value_scale) is float and type(search.settings.rollout_depth) is int
    assert search.value_sizes.shape[0] == 0  # no value network: play-outs alone


def test_the_other_searches_state_a_play_out_leaf():
    assert build("mcts_learned", {}, "ticket_to_ride").leaf == Leaf()
    assert build("mcts_halving", {}, "ticket_to_ride").leaf == Leaf()
    assert build("mcts_classic", {"rollout_depth": 4}, "ticket_to_ride").leaf == Leaf(rollout_depth=4)
    assert build("mcts", {}, "ticket_to_ride").leaf == Leaf()


@pytest.mark.parametrize("leaf, wrong", [
    (Leaf(value_mix=1.5), "value_mix is a weight in [0, 1], not 1.5"),
    (Leaf(value_mix=-0.5), "value_mix is a weight in [0, 1], not -0.5"),
    (Leaf(rollout_depth=-1), "rollout_depth counts decisions"),
    (Leaf(value_scale=math.inf), "value_scale must be a finite number"),
])
def test_a_bad_leaf_is_one_line_naming_the_strategy(leaf, wrong):
    with pytest.raises(ConfigError) as caught:
        leaf.check("mcts_tree")
    assert str(caught.value).startswith("strategy 'mcts_tree': ") and wrong in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_bad_leaf_parameter_is_refused_when_the_search_is_made():
    with pytest.raises(ConfigError, match="value_mix is a weight"):
        build("mcts_tree", {"value_mix": 2.0}, "ticket_to_ride")


def test_a_value_network_file_waits_for_the_map():
    leaf = Leaf(value="learned")
    assert leaf.reads_file and leaf.network()[1].shape[0] == 0
    weights, sizes = leaf.network("usa")
    assert sizes[-1] == 1 and weights.dtype.name == "float32"
