"""The platform's contracts: the core protocol, the registry, records, and check_strategy."""

from __future__ import annotations

import json
import pickle

from ttr_lab.core.game import Game, State, available_games, game_from_record, load_game
from ttr_lab.core.outcome import Termination
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.testing import RandomPlayer, check_strategy
from ttr_lab.games.trans_orient import METRICS, TransOrientExpress


def test_the_game_is_registered_and_implements_the_protocol():
    assert "trans_orient" in available_games()
    game = load_game("trans_orient")
    assert isinstance(game, Game) and isinstance(game.new_game(3, 1), State)
    assert game == TransOrientExpress("standin") and hash(game) == hash(TransOrientExpress())
    assert (game.name, game.variant, game.min_players, game.max_players) == ("trans_orient", "standin", 2, 4)
    assert game.options == {"deck": "standin"} and load_game("trans_orient", **game.options) == game
    assert "stand-in" in game.title and game.metrics == METRICS
    assert pickle.loads(pickle.dumps(game)) == game
    state = game.new_game(4, 9)
    copy = pickle.loads(pickle.dumps(state))
    assert json.dumps(copy.snapshot()) == json.dumps(state.snapshot())
    observation = state.observation(2)
    assert pickle.loads(pickle.dumps(observation)) == observation  # e.g. sent to a Ray worker


def test_a_record_names_the_game_and_replays_it():
    record = play_game("trans_orient", [RandomPlayer() for _ in range(3)], 42)
    assert (record.game, record.options, record.num_players) == ("trans_orient", {"deck": "standin"}, 3)
    again = GameRecord.from_json(record.to_json())
    assert game_from_record(again.to_dict()) == TransOrientExpress()
    assert again.outcome() == record.outcome()
    assert record.outcome().termination in (Termination.NORMAL, Termination.STALLED)
    assert json.loads(json.dumps(record.result)) == record.result


class Listener(RandomPlayer):
    """Random, and checks what the hooks receive."""

    def __init__(self):
        self.events = 0

    def on_event(self, player, action, card):
        assert "luggage" not in str(action) or str(action) == "kept luggage"
        self.events += 1

    def on_game_end(self, observation, outcome):
        assert observation.is_over and len(outcome.players) == observation.num_players


def test_listeners_see_public_events_only():
    players = [Listener(), Listener()]
    record = play_game("trans_orient", players, 5)
    assert players[0].events == players[1].events == len(record.actions)


def test_a_uniformly_random_strategy_passes_the_strategy_contract():
    report = check_strategy(RandomPlayer, game="trans_orient")
    assert report.games == 25 and report.decisions > 0
