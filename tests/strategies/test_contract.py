"""Every shipped strategy passes the contract; the contract catches each kind of breach."""

from __future__ import annotations

import functools
import random

import pytest

from games import TTR_MAPS, per_variant, player_counts
from ttr_lab.strategies.ticket_to_ride.learned import SHIPPED as SHIPPED_WEIGHTS
from ttr_lab.strategies.random import Random
from ttr_lab.core.registry import build, factory, game_strategies, resolve
from ttr_lab import ConfigError
from ttr_lab.core.testing import RandomPlayer, StrategyContractError, check_strategy

# Search strategies are checked on a tiny budget: the contract is about behaviour, not strength.
SMALL = {"mcts": {"iterations": 6}, "mcts_classic": {"iterations": 6, "rollout_depth": 2}, "mcts_flat": {"iterations": 6},
         "mcts_tree": {"iterations": 6}, "mcts_halving": {"iterations": 6},
         "mcts_learned": {"iterations": 6}}
NEEDS_WEIGHTS = ("learned", "mcts_learned")  # the shipped network: only for the maps it was trained on
# The searches (slow even at a tiny budget) on the maps that between them hold every kind of
# action and rule (USA; Legendary Asia's ferries, mountains and long tickets; Europe's tunnels and
# stations): the deck variants and India change only tickets and end bonuses, which the searches
# meet through the rules' own scoring, and the fast strategies are checked there.
SEARCH_MAPS = tuple(m for m in ("usa", "legendary_asia", "europe") if m in TTR_MAPS)


@pytest.mark.parametrize("map_name", TTR_MAPS)
@pytest.mark.parametrize("name", sorted(game_strategies("ticket_to_ride")))
def test_shipped_strategy_passes_the_contract(name, map_name):
    if name in NEEDS_WEIGHTS and map_name not in SHIPPED_WEIGHTS:
        pytest.skip(f"no learned weights shipped for {map_name} (test_learned checks the error)")
    if name in SMALL and map_name not in SEARCH_MAPS:
        pytest.skip(f"the searches are checked on {', '.join(SEARCH_MAPS)} (every kind of action); the fast strategies on {map_name}")
    params = SMALL.get(name, {})
    counts = player_counts(map_name)  # all the map allows; MCTS (slow) at the fewest and one more
    players = tuple(counts) if name not in SMALL else tuple(counts[:1]) + tuple(counts[2:3])
    # One seed a map (a different one on each, so the lone seat moves): every player count and
    # both seatings are still played twice, which is what the contract checks.
    seeds = (1,) if map_name == TTR_MAPS[0] else (2,)
    report = check_strategy(factory(name, params, "ticket_to_ride"), players=players, seeds=seeds, map=map_name)
    assert report.games == 4 * len(players) + 1
    assert report.decisions > 0


@per_variant
def test_a_strategy_that_knows_no_game_passes_the_contract_in_every_game(variant):
    """The contract itself runs on every registered game (the shipped strategies play Ticket to Ride)."""
    game = variant.game
    report = check_strategy(RandomPlayer, game=game, players=(game.min_players,), seeds=(1,))
    assert report.games == 2 * 2 + 1
    assert report.decisions > 0


class UsesGlobalRandom(Random):
    name = "global_random"

    def act(self, observation, legal_actions, rng):
        return random.choice(legal_actions)


class ReturnsACopy(Random):
    """Returns an action that is not in the list (a keep of nothing)."""

    name = "bad_keep"

    def act(self, observation, legal_actions, rng):
        from ttr_lab.games.ticket_to_ride import KeepTickets

        if observation.phase.name == "INITIAL_TICKETS":
            return KeepTickets(())
        return super().act(observation, legal_actions, rng)


class MutatesTheList(Random):
    name = "mutator"

    def act(self, observation, legal_actions, rng):
        action = super().act(observation, legal_actions, rng)
        legal_actions.reverse()
        return action


class RemembersAcrossGames(Random):
    name = "memory"
    games = 0  # a class attribute shared by every instance: state that leaks between games

    def on_game_start(self, observation):
        type(self).games += 1

    def act(self, observation, legal_actions, rng):
        return legal_actions[(rng.randrange(len(legal_actions)) + type(self).games) % len(legal_actions)]


class Crashes(Random):
    name = "crashes"

    def act(self, observation, legal_actions, rng):
        if observation.turns > 5:
            raise RuntimeError("lost my way")
        return super().act(observation, legal_actions, rng)


@pytest.mark.parametrize(
    "cls, message",
    [
        (UsesGlobalRandom, "not reproducible"),
        (ReturnsACopy, "not among the"),
        (MutatesTheList, "changed the legal_actions list"),
        (RemembersAcrossGames, "carry no state from one game to the next|differently after other games"),
        (Crashes, "did not complete a 2-player game"),
    ],
)
def test_contract_catches(cls, message):
    with pytest.raises(StrategyContractError, match=message):
        check_strategy(cls, players=(2,), seeds=(1,))


TTR = "ticket_to_ride"


def test_parameters_are_checked_by_name_and_type():
    assert build("greedy", {"ticket_bonus": "2.5"}, TTR).ticket_bonus == 2.5  # converted from text
    with pytest.raises(ConfigError, match=r"strategy 'greedy' has no parameter 'bonus'; its parameters: ticket_bonus: float = 3.0"):
        build("greedy", {"bonus": 1}, TTR)
    with pytest.raises(ConfigError, match=r"strategy 'mcts': bad parameter value \(iterations: "):
        build("mcts", {"iterations": "many"}, TTR)
    assert resolve("ttr_lab.strategies.ticket_to_ride.greedy:Greedy") is resolve("greedy", TTR)


def test_a_user_strategy_by_import_path():
    cls = resolve("tests_support_strategy:Cautious")
    report = check_strategy(functools.partial(cls, patience=2), players=(2,), seeds=(3,))
    assert report.strategy == "cautious"
