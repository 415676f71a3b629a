"""Presets are data: a base strategy, fixed and open parameters, checked against the base's
signature; the classes they replaced and the modules the searches left still resolve, warned."""

from __future__ import annotations

import pickle

import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import REGISTRY, Preset, build, parameters, register_strategy, resolve
from ttr_lab.strategies.shipped import TICKET_TO_RIDE
from ttr_lab.strategies.ticket_to_ride.search.mcts import MCTS
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving import HalvingSearch
from ttr_lab.strategies.ticket_to_ride.search.leaf import Leaf

PRESETS = sorted(name for name, entry in TICKET_TO_RIDE.items() if isinstance(entry, Preset))
LEAF_FIELDS = set(Leaf().settings())


def test_the_four_former_classes_are_presets():
    assert PRESETS == ["compiled_planner", "mcts_classic", "mcts_flat", "mcts_learned"]


@pytest.mark.parametrize("name", PRESETS)
def test_a_preset_takes_its_open_parameters_with_its_defaults_and_pickles(name):
    preset = TICKET_TO_RIDE[name]
    cls = resolve(name, "ticket_to_ride")
    base = resolve(preset.base)
    assert issubclass(cls, base) and cls.name == name
    open_names = list(parameters(cls))
    assert not set(open_names) & set(preset.fixed)
    assert set(open_names) <= set(parameters(base))
    for key, value in preset.defaults.items():
        assert parameters(cls)[key].default == value
    made = build(name, {}, "ticket_to_ride")
    for key, value in preset.fixed.items():
        # The leaf's settings are the search's declared leaf (search.leaf.Leaf).
        held = getattr(made.leaf, key) if key in LEAF_FIELDS else getattr(made, key)
        assert held == value or key == "turn_alternatives"
    again = pickle.loads(pickle.dumps(made))
    assert type(again) is cls


def test_the_frozen_and_classic_searches_keep_their_budgets():
    flat = build("mcts_flat", {"cpu_ms": 5.0}, "ticket_to_ride")
    classic = build("mcts_classic", {}, "ticket_to_ride")
    assert isinstance(flat, MCTS) and (flat.limit.playouts, flat.limit.steps, flat.limit.cpu_ms) == (400, 4000, 5.0)
    assert (classic.playout, classic.tree, classic.limit.steps) == ("python", True, 500)
    learned = build("mcts_learned", {"iterations": 20}, "ticket_to_ride")
    assert isinstance(learned, HalvingSearch) and learned.prior is not None


def test_a_preset_naming_a_parameter_its_base_does_not_take_is_refused():
    register_strategy("bad_preset", Preset("ttr_lab.strategies.ticket_to_ride.search.mcts:MCTS",
                                           fixed={"tre": True}))
    try:
        with pytest.raises(ConfigError, match="preset 'bad_preset': fixed parameter 'tre'"):
            resolve("bad_preset", "ticket_to_ride")
    finally:
        del REGISTRY["bad_preset"]


@pytest.mark.parametrize("old,name", [
    ("ttr_lab.strategies.ticket_to_ride.mcts_flat:MCTSFlat", "mcts_flat"),
    ("strategies.mcts_classic:MCTSClassic", "mcts_classic"),
])
def test_a_retired_preset_class_path_is_its_preset_with_a_warning(old, name):
    with pytest.warns(DeprecationWarning, match=f"it is the registered name '{name}' now"):
        assert resolve(old) is resolve(name, "ticket_to_ride")


@pytest.mark.parametrize("old,new", [
    ("ttr_lab.strategies.ticket_to_ride.tree_search:TreeSearch", "mcts_tree"),
    ("ttr_lab.strategies.ticket_to_ride.halving_search:HalvingSearch", "mcts_halving"),
    ("ttr_lab.strategies.mcts:MCTS", "mcts"),
])
def test_a_search_module_that_moved_into_the_package_still_resolves_with_a_warning(old, new):
    with pytest.warns(DeprecationWarning, match="ttr_lab.strategies.ticket_to_ride.search."):
        assert resolve(old) is resolve(new, "ticket_to_ride")
