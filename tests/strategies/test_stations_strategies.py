"""The shipped strategies keep playing legal games when the ruleset has train stations (they
do not weigh stations yet: a station build is legal for them, never a claim misread)."""

from __future__ import annotations

import pytest

from ttr_lab.core.registry import factory, game_strategies
from ttr_lab.core.testing import check_strategy

STATIONS = {"stations_per_player": 3}
SMALL = {"mcts": {"iterations": 4}, "mcts_classic": {"iterations": 4, "rollout_depth": 2}, "mcts_flat": {"iterations": 4},
         "mcts_tree": {"iterations": 4}, "mcts_halving": {"iterations": 4}}
# The shipped network reads the USA tensor, which has no station blocks: it is refused with stations on.
NEEDS_USA_TENSOR = ("learned", "mcts_learned")


@pytest.mark.parametrize("name", sorted(set(game_strategies("ticket_to_ride")) - set(NEEDS_USA_TENSOR)))
def test_shipped_strategy_plays_with_stations_on(name):
    report = check_strategy(factory(name, SMALL.get(name, {}), "ticket_to_ride"), players=(3,), seeds=(4,),
                            game="ticket_to_ride", map="usa", ruleset=STATIONS)
    assert report.decisions > 0
