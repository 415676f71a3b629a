"""Names that moved either still work, with a DeprecationWarning naming the new import, or fail
with a message naming the new module."""

from __future__ import annotations

import importlib

import pytest

import ttr_lab
from ttr_lab import ConfigError, load_game, play_game
from ttr_lab.compat import MOVED_MODULES, OLD_TOP_LEVEL
from ttr_lab.games import ticket_to_ride


@pytest.mark.parametrize("name", sorted(OLD_TOP_LEVEL))
def test_an_old_top_level_name_warns_and_names_its_new_import(name):
    with pytest.warns(DeprecationWarning, match=f"from ttr_lab.games.ticket_to_ride import {OLD_TOP_LEVEL[name][1]}"):
        value = getattr(ttr_lab, name)
    assert value is getattr(ticket_to_ride, OLD_TOP_LEVEL[name][1])


def test_the_top_level_holds_only_the_core():
    assert all(getattr(ttr_lab, name).__module__.startswith("ttr_lab.core") for name in ttr_lab.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        ttr_lab.Nothing


@pytest.mark.parametrize("old", ["ttr_lab.colours", "ttr_lab.rng", "ttr_lab.rules.actions", "strategies.registry",
                                 "ttr_lab.errors", "ttr_lab.analysis.board_plot"])
def test_a_moved_module_fails_naming_its_new_module(old):
    importlib.invalidate_caches()
    with pytest.raises(ImportError, match=MOVED_MODULES[old].replace(".", r"\.")):
        importlib.import_module(old)


def test_every_moved_module_names_one_that_exists():
    for old, new in MOVED_MODULES.items():
        assert importlib.util.find_spec(new) is not None, (old, new)


def test_play_game_with_a_board_says_to_pass_load_game():
    board = ticket_to_ride.load_board("usa")
    with pytest.raises(ConfigError, match=r"not a Board: pass load_game\(\.\.\.\)"):
        play_game(board, ["random", "random"], 7)
    assert play_game(load_game("ticket_to_ride", map="usa"), [_First(), _First()], 7).actions


class _First:
    def act(self, observation, legal_actions, rng):
        return legal_actions[0]


def test_an_old_strategy_path_in_a_config_warns_and_names_the_new_one():
    from ttr_lab.core.registry import resolve
    from ttr_lab.strategies.greedy import Greedy

    with pytest.warns(DeprecationWarning, match="'strategies.greedy' is deprecated: the shipped strategies are "
                                                "'ttr_lab.strategies.greedy' now"):
        assert resolve("strategies.greedy:Greedy") is Greedy


def test_the_old_import_name_of_the_shipped_strategies_fails_naming_the_new_one():
    importlib.invalidate_caches()
    with pytest.raises(ImportError, match="ttr_lab.strategies"):
        importlib.import_module("strategies.random")


@pytest.mark.parametrize("package,old,new", [
    ("ttr_lab.games.ticket_to_ride", "Game", "Tables"), ("ttr_lab.games.ticket_to_ride", "game_for", "tables_for"),
    ("ttr_lab.games.trans_orient", "TOEState", "GameState"),
])
def test_a_renamed_name_of_a_game_package_warns_and_names_the_new_one(package, old, new):
    module = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=f"it is {package}.{new} now"):
        assert getattr(module, old) is getattr(module, new)
