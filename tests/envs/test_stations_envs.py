"""The environments with train stations on, from a map folder whose ``map.toml`` turns them on (as
a map with stations does): Gymnasium, PettingZoo and OpenSpiel (where installed) play whole games,
the station builds among their legal ids."""

from __future__ import annotations

import shutil
from importlib import resources

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from ttr_lab.core.game import load_game  # noqa: E402
from ttr_lab.envs import gym_env, pettingzoo_env  # noqa: E402
from ttr_lab.games.ticket_to_ride import BuildStation  # noqa: E402

RULESET = '''
stations_per_player = 3
station_costs = [1, 2, 3]
station_points = 4
tie_breaks = ["tickets", "stations", "longest"]
'''


@pytest.fixture(scope="module")
def map_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("maps") / "usa_stations"
    shutil.copytree(str(resources.files("ttr_lab.games.ticket_to_ride.maps") / "usa"), folder)
    toml = folder / "map.toml"
    toml.write_text(toml.read_text().replace('name = "usa"', 'name = "usa_stations"') + RULESET)
    return str(folder)


def test_a_map_toml_turns_stations_on(map_folder):
    game = load_game("ticket_to_ride", map=map_folder)
    rules = game.ruleset
    assert (rules.stations_per_player, rules.station_costs, rules.station_points) == (3, (1, 2, 3), 4)
    assert [t.value for t in rules.tie_breaks] == ["tickets", "stations", "longest"]
    assert not any(type(a) is BuildStation for a in game.new_game(2, 1).legal_actions())  # setup: keeps only
    state = game.new_game(2, 1)
    while state.phase_name.name != "TURN":
        state.apply(state.legal_actions()[0])
    assert any(type(a) is BuildStation for a in state.legal_actions())


def test_gym_env_plays_games_with_stations(map_folder):
    env = gym_env(load_game("ticket_to_ride", map=map_folder), players=3)
    rng = np.random.default_rng(0)
    for seed in (1, 2):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
            done = terminated or truncated
    assert terminated


def test_pettingzoo_env_plays_a_game_with_stations(map_folder):
    env = pettingzoo_env(load_game("ticket_to_ride", map=map_folder), players=4, seed=3)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 50


def test_openspiel_plays_a_game_with_stations(map_folder):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    import ttr_lab.envs.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_ttr_lab", {"game": "ticket_to_ride", "players": 2, "map": map_folder})
    state, rng = game.new_initial_state(), np.random.RandomState(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and max(legal) < game.num_distinct_actions()
        state.apply_action(int(rng.choice(legal)))
    assert sum(state.returns()) == pytest.approx(1.0)
