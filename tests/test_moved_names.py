"""The names of 0.2 that still work do so with a DeprecationWarning naming the new import; nothing
else of 0.2 is kept (docs/changelog.md lists what moved)."""

from __future__ import annotations

import importlib

import pytest

import ttr_lab
from ttr_lab import ConfigError, load_game, play_game
from ttr_lab.compat import OLD_TOP_LEVEL
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


def test_play_game_with_a_board_says_to_pass_load_game():
    board = ticket_to_ride.load_board("usa")
    with pytest.raises(ConfigError, match=r"not a Board: pass load_game\(\.\.\.\)"):
        play_game(board, ["random", "random"], 7)
    assert play_game(load_game("ticket_to_ride", map="usa"), [_First(), _First()], 7).actions


class _First:
    def act(self, observation, legal_actions, rng):
        return legal_actions[0]


@pytest.mark.parametrize("old", ["strategies.greedy:Greedy", "ttr_lab.strategies.greedy:Greedy"])
def test_an_old_strategy_path_in_a_config_warns_and_names_the_new_one(old):
    from ttr_lab.core.registry import resolve
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy

    with pytest.warns(DeprecationWarning, match=f"'{old.split(':')[0]}' is deprecated: the shipped strategies are "
                                                "'ttr_lab.strategies.ticket_to_ride.greedy' now"):
        assert resolve(old) is Greedy


@pytest.mark.parametrize("package,old,new", [
    ("ttr_lab.games.ticket_to_ride", "Game", "Tables"), ("ttr_lab.games.ticket_to_ride", "game_for", "tables_for"),
    ("ttr_lab.games.trans_orient", "TOEState", "GameState"),
])
def test_a_renamed_name_of_a_game_package_warns_and_names_the_new_one(package, old, new):
    module = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=f"it is {package}.{new} now"):
        assert getattr(module, old) is getattr(module, new)


@pytest.mark.parametrize("game,old", [("ticket_to_ride", "game"), ("trans_orient", "setup")])
def test_a_states_old_name_for_its_tables_warns_and_names_tables(game, old):
    state = load_game(game).new_game(2, 7)
    with pytest.warns(DeprecationWarning, match=f"GameState.{old} is deprecated: it is GameState.tables now"):
        assert getattr(state, old) is state.tables
