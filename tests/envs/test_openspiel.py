"""ttr-lab's games as an OpenSpiel game: registered, sorted legal ids, a declared length bound,
complete information states, resampling for ISMCTS, and OpenSpiel's own bots playing it.
Skipped where OpenSpiel (``pip install open_spiel``) is not installed."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

import ttr_lab.envs.openspiel  # noqa: E402,F401 - registers the game
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

PARAMS = [{"game": "trans_orient", "players": 3}, {"game": "ticket_to_ride", "players": 2},
          {"game": "ticket_to_ride", "players": 4, "map": "legendary_asia"}]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"{p['game']}-{p.get('map', '')}-{p['players']}")
def test_a_random_game_keeps_openspiels_contract(params):
    game = pyspiel.load_game("python_ttr_lab", params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
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
