"""ttr-lab's games as an OpenSpiel game: registered, sorted legal ids, a declared length bound,
complete information states, resampling for ISMCTS, OpenSpiel's own bots playing it, pickling and
serialization, and OpenSpiel's own simulation tests.
Skipped where OpenSpiel (``pip install open_spiel``) is not installed."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

import ttr_lab.envs.openspiel  # noqa: E402,F401 - registers the game
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

PARAMS = [{"game": "trans_orient", "players": 3}, {"game": "ticket_to_ride", "players": 2},
          {"game": "ticket_to_ride", "players": 4, "map": "legendary_asia"},
          {"game": "ticket_to_ride", "players": 3, "map": "europe"}]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"{p['game']}-{p.get('map', '')}-{p['players']}")
def test_a_random_game_keeps_openspiels_contract(params):
    game = pyspiel.load_game("python_ttr_lab", params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_game_length() >= 1000 and game.num_players() == params["players"]
    state, rng, length = game.new_initial_state(), np.random.RandomState(0), 0
    seen: set[str] = set()
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal and legal == sorted(legal) and max(legal) < game.num_distinct_actions()
        key = state.information_state_string(player)
        assert key not in seen  # perfect recall: every decision point is a new information state
        seen.add(key)
        copy = state.clone()
        assert copy.information_state_string(player) == key and copy.legal_actions() == legal
        other = (player + 1) % game.num_players()
        assert state.legal_actions(other) == []
        state.apply_action(int(rng.choice(legal)))
        length += 1
    assert length <= game.max_game_length()
    assert sum(state.returns()) == pytest.approx(1.0) and min(state.returns()) >= 0


def test_resampling_keeps_what_the_player_knows_and_redraws_the_rest():
    game = pyspiel.load_game("python_ttr_lab", {"game": "trans_orient", "players": 2})
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(player) == state.information_state_string(player)
    assert again.legal_actions() == state.legal_actions()


def test_openspiels_python_bots_play_it():
    game = pyspiel.load_game("python_ttr_lab", {"game": "trans_orient", "players": 2})
    rng = np.random.RandomState(4)
    bot = mcts.MCTSBot(game, 2, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, uniform_random.UniformRandomBot(1, rng)], rng)
    assert sum(returns) == pytest.approx(1.0)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = search.step(state) if state.current_player() == 0 else int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


def _played(state, moves, seed=0):
    rng = np.random.RandomState(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("params", PARAMS[:2], ids=lambda p: p["game"])
def test_games_and_states_pickle_and_serialize(params):
    game = pyspiel.load_game("python_ttr_lab", params)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = _played(game.new_initial_state(), 25)
    for copy in (pickle.loads(pickle.dumps(state)), pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))[1]):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.information_state_string(0) == state.information_state_string(0)
    resampled = state.resample_from_infostate(state.current_player(), None)
    again = pickle.loads(pickle.dumps(resampled))
    assert again.legal_actions() == resampled.legal_actions()
    assert again.observation_string(0) == resampled.observation_string(0)


def test_a_pickled_game_deals_on_from_where_it_was():
    # The property OpenSpiel's sampled-stochastic test checks: a game pickled after some deals
    # makes the same next deal as the original.
    game = pyspiel.load_game("python_ttr_lab", {"game": "trans_orient", "players": 2, "seed": 5})
    _played(game.new_initial_state(), 1000)
    copy = pickle.loads(pickle.dumps(game))
    assert str(_played(game.new_initial_state(), 40, 1)) == str(_played(copy.new_initial_state(), 40, 1))


def test_a_clone_deals_nothing():
    # OpenSpiel's C++ Clone (child, random_sim_test, its bots) makes a new initial state to copy
    # into: it must not take a deal from the game's stream.
    game = pyspiel.load_game("python_ttr_lab", {"game": "ticket_to_ride", "players": 2, "seed": 3})
    fresh = pyspiel.load_game("python_ttr_lab", {"game": "ticket_to_ride", "players": 2, "seed": 3})
    state = game.new_initial_state()
    for _ in range(5):
        state = state.child(state.legal_actions()[0])
    str(fresh.new_initial_state())  # the first deal, as the game's first state took it
    assert str(game.new_initial_state()) == str(fresh.new_initial_state())  # both the second


def test_openspiels_own_simulation_tests_pass():
    # pyspiel.random_sim_test with serialization, and the Python games' sim_game (pickling,
    # clones and serialization along a game). random_sim_test took 10-40 s a game when every
    # C++ clone dealt a throwaway game and deep-copied the game's tables.
    game = pyspiel.load_game("python_ttr_lab", {"game": "ticket_to_ride", "players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    from open_spiel.python.tests import games_sim_test

    games_sim_test.GamesSimTest().sim_game(game)
