"""The Trans-Orient Express strategies: names per game, the contract, and hand-built decisions."""

from __future__ import annotations

import random

import pytest

from toe_helpers import GAME, make_state
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import build, factory, game_strategies, resolve
from ttr_lab.core.testing import check_strategy

TOE = "trans_orient"
# Search is checked on a tiny budget: the contract is about behaviour, not strength.
SMALL = {"mcts": {"iterations": 4, "rollout_depth": 4}}


@pytest.mark.parametrize("name", sorted(game_strategies(TOE)))
def test_each_strategy_passes_the_contract_on_this_game(name):
    players = (2, 4) if name == "mcts" else (2, 3, 4)
    report = check_strategy(factory(name, SMALL.get(name), TOE), game=TOE, players=players,
                            seeds=(1,) if name == "mcts" else (1, 2))
    assert report.decisions > 0 and report.games == (len(players) * (2 if name == "mcts" else 4)) * 2 + 1


def test_the_same_names_mean_this_games_strategies_when_the_game_is_given():
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy as TicketToRideGreedy
    from ttr_lab.strategies.random import Random
    from ttr_lab.strategies.trans_orient.greedy import Greedy
    from ttr_lab.strategies.trans_orient.mcts import MCTS
    from ttr_lab.strategies.trans_orient.planner import Planner

    assert resolve("greedy", TOE) is Greedy
    assert resolve("greedy", "ticket_to_ride") is TicketToRideGreedy
    assert (resolve("planner", TOE), resolve("mcts", TOE), resolve("random", TOE)) == (Planner, MCTS, Random)
    assert resolve("ttr_lab.strategies.trans_orient.planner:Planner") is Planner  # import paths need no game
    assert type(build("planner", {"patience": 0.6}, TOE)).__name__ == "Planner"


@pytest.mark.parametrize("name,game,message", [
    ("ticket_planner", TOE, "unknown strategy 'ticket_planner' \\(a strategy of ticket_to_ride, not of trans_orient\\)"),
    # A game that ships no strategies plays none of the others' by name: no game is the default.
    ("greedy", "a_third_game", "unknown strategy 'greedy' \\(a strategy of ticket_to_ride, trans_orient, not of a_third_game\\); registered: none"),
    ("nope", TOE, "registered: random, greedy, planner, mcts"),
    ("greedy", None, "'greedy' is a different player in each of ticket_to_ride, trans_orient: name the game"),
    ("nope", None, "unknown strategy 'nope'"),
])
def test_names_a_game_does_not_know_are_refused_with_the_reason(name, game, message):
    with pytest.raises(ConfigError, match=message):
        resolve(name, game)


# -- hand-built decisions ----------------------------------------------------------------------
# Card 12: destination 3 (blue), 1 blue + 1 yellow, 4 VP. Card 28: destination 6 (green),
# 1 green + 1 purple, 5 VP. Cards 2 and 8: destinations 1 and 2 (blue).

def _run_or_value():
    """Player 0 holds destinations 1 and 2; the route objective 13 pays 2 / 5 / 9 / 14 for runs
    of 2 / 3 / 4 / 5. Column 1 extends the run (2 VP per token), column 2 does not (2.5)."""
    return make_state(3, lower=[40, 12, 28, 41], played=[[2, 8], [], []], objectives=(1, 7, 13),
                      reserves=[dict(blue=1, yellow=1, green=1, purple=1), {}, {}])


def _decide(name, state):
    strategy = build(name, SMALL.get(name), TOE)
    return str(strategy.act(state.observation(state.player), state.legal_actions(), random.Random(1)))


def test_greedy_takes_the_most_vp_per_token_it_can_pay_for_and_plays_it():
    state = _run_or_value()
    assert _decide("greedy", state) == "take card 2"
    state.apply(GAME.parse_action("take card 2"))
    state.apply(GAME.parse_action("station master 0"))
    assert _decide("greedy", state) == "play 28"


def test_the_planner_takes_the_card_that_extends_the_run_from_1():
    assert _decide("planner", _run_or_value()) == "take card 1"


def test_the_planner_puts_the_station_master_where_nobody_wants_to_take_it():
    # Column 0: card 72 (12 VP); column 1: card 1 (1 VP) and an empty pile; column 2: a pile of 4.
    state = make_state(3, lower=[72, 1, 0, 3], piles=[{}, {}, {}, dict(red=4)], phase="station")
    assert _decide("planner", state) == "station master 1"


def test_the_planner_gives_back_the_card_it_cannot_use_and_the_tokens_it_needs_least():
    # Hand: 12 (payable), 28 (one pile away) and 72 (12 VP, but 3 blue + 3 purple: two piles
    # away), over the limit of 2 cards; player 1 has placed 6 cards, so the game ends soon.
    state = make_state(3, hands=[[12, 72, 28], [], []], phase="give_card", played=[[], [1, 3, 5, 6, 7, 9], []],
                       reserves=[dict(blue=1, yellow=1), {}, {}])
    assert _decide("planner", state) == "give back card 72"
    state = make_state(3, hands=[[12], [], []], phase="give_token", reserves=[dict(blue=1, yellow=1, red=4), {}, {}])
    assert _decide("planner", state) == "give back red"


@pytest.mark.parametrize("name", ["greedy", "planner", "mcts"])
def test_on_the_last_turn_of_the_game_every_strategy_plays_the_card_that_wins(name):
    # The final round's last turn: player 2 trails by 3 and holds card 72 (12 VP), paid for.
    state = make_state(3, lower=[40, 0, 0, 0], played=[[68, 70], [59], [2]], hands=[[], [], [72]], phase="play",
                       turn=2, final=True, reserves=[{}, {}, dict(blue=3, purple=3)])
    assert _decide(name, state) == "play 72"


@pytest.mark.parametrize("name", ["planner", "mcts"])
def test_documented_ranges_hold_the_defaults_and_play_at_their_ends(name):
    from ttr_lab.core.play import play_game
    from ttr_lab.core.registry import parameters
    from ttr_lab.tuning.space import corners, documented_ranges

    cls = resolve(name, TOE)
    ranges = documented_ranges(cls)
    assert len(ranges) >= 2
    signature = parameters(cls)
    for n, r in ranges.items():
        assert r.low <= signature[n].default <= r.high, n
        assert r.is_int == isinstance(signature[n].default, int), n
    fixed = {"iterations": 4} if name == "mcts" else {}
    for corner in corners(ranges):
        record = play_game(GAME, [build(name, {**fixed, **corner}, TOE), build("greedy", None, TOE)], seed=3)
        assert record.outcome().players[0].score >= 0 and len(record.actions) > 20


def test_the_strategies_command_lists_a_games_own_names():
    from typer.testing import CliRunner

    from ttr_lab.cli import app

    result = CliRunner().invoke(app, ["strategies", "--game", TOE])
    assert result.exit_code == 0, result.output
    assert "Trans-Orient Express: plays for the objectives" in result.output and "ticket_planner" not in result.output
    assert "ticket_planner" in CliRunner().invoke(app, ["strategies"]).output
