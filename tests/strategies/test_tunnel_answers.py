"""The study's agents answer a tunnel's extra payment with the cheapest payment their hand
allows (fewest locomotives); greedy and the planner weigh what the track is worth
(tests/strategies/test_tunnel_odds.py) and decline two extra cards for a track that serves
nothing; the searches play both answers out. Every strategy declines when it cannot pay. Random is left out: choosing at
random is what it is for."""

import pytest

from helpers import act, decide, make_state
from ttr_lab.core.registry import build, game_strategies
from ttr_lab.games.ticket_to_ride import DECLINE, PayTunnel, Phase, load_board

BOARD = load_board("europe")
SMALL = {"mcts": {"iterations": 6}, "mcts_classic": {"iterations": 6, "rollout_depth": 2}, "mcts_flat": {"iterations": 6},
         "mcts_tree": {"iterations": 6}, "mcts_halving": {"iterations": 6}}
# Random chooses at random; the learned ones need a network trained on this map.
NAMES = sorted(set(game_strategies("ticket_to_ride")) - {"random", "learned", "mcts_learned"})
# The strategies that weigh a tunnel's extra cards (greedy, the planner, the searches on its play-outs).
WEIGHING = {"greedy", "greedy_kernel", "ticket_planner", "compiled_planner"}


def tunnel(hand, pile_top):
    s = make_state(2, board=BOARD, hands=[hand, {"red": 3}], pile_top=pile_top)
    act(s, "claim Angora-Smyrna orange with 3 orange")
    assert s.phase == Phase.TUNNEL
    return s


@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_pays_a_tunnel_with_the_fewest_locomotives_or_declines(name):
    s = tunnel({"orange": 5, "locomotive": 2}, ["orange", "locomotive", "green"])
    assert [str(a) for a in s.legal_actions()] == ["pay 2 cards", "pay 1 card + 1 loco", "pay 2 loco", "decline"]
    answer = decide(build(name, SMALL.get(name), "ticket_to_ride"), s)
    if name.startswith("mcts") or name.startswith("candidate"):  # play-outs decide: either answer
        assert answer in (PayTunnel(2, 0), DECLINE)
    else:
        assert answer == (DECLINE if name in WEIGHING else PayTunnel(2, 0))
    s = tunnel({"orange": 3, "locomotive": 1}, ["orange", "orange", "green"])
    assert decide(build(name, SMALL.get(name), "ticket_to_ride"), s) is DECLINE
