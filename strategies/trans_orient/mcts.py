"""``MCTS`` for Trans-Orient Express: information-set MCTS over the game's determinizations.

A configuration of ``ttr_lab.strategies.search`` (the one search engine, its root a tree node like any
other): greedy plays out, the planner evaluates.

Each iteration samples a state from the observation (``ttr_lab.games.trans_orient.determinize``:
the draw deck's order, the opponents' luggage, the bag's future draws), descends the shared
tree and plays out with greedy at every seat (the planner is about ten times slower per
decision, too slow for play-outs), for ``rollout_depth`` actions (0: to the end). A game cut short is valued per seat by the planner's count (its tableau's projected
score, its hand and reserve); a finished one by its final scores. The search decides the takes
and the plays, where the game is won; the other decisions (station master, luggage, give-backs)
are the planner's own, to spend the budget where it matters.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ttr_lab.strategies.limit import Limit
from ttr_lab.strategies.search import Search
from ttr_lab.strategies.trans_orient.greedy import Greedy
from ttr_lab.strategies.trans_orient.planner import Planner, position_value
from ttr_lab.games.trans_orient import Observation, Phase, determinize

_SEARCHED = (Phase.TAKE, Phase.PLAY)


class MCTS:
    name = "mcts"
    TUNABLE = {
        "exploration": {"low": 0.1, "high": 2.0, "log": True},
        "rollout_depth": {"low": 0, "high": 60},
    }

    def __init__(self, *, iterations: PositiveInt = 100, exploration: NonNegativeFloat = 0.5,
                 rollout_depth: NonNegativeInt = 24, scale: PositiveFloat = 15.0) -> None:
        self.planner = Planner()
        greedy = Greedy()
        self.search = Search(determinize, self._evaluate, lambda: greedy, limit=Limit(playouts=iterations),
                             exploration=exploration, rollout_depth=rollout_depth, scale=scale)

    def act(self, obs: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if obs.phase not in _SEARCHED:
            return self.planner.act(obs, legal_actions, rng)
        return self.search.tree(obs, legal_actions, rng)

    def _evaluate(self, state: Any) -> list[float]:
        if state.is_terminal():
            return [float(p.score) for p in state.result().players]
        obs = state.observation(0)
        full = obs._replace(luggage=state.luggage[0])
        values = []
        for seat in range(state.num_players):
            view = full if seat == 0 else obs._replace(player=seat, luggage=state.luggage[seat])
            values.append(position_value(self.planner, view, seat))
        return values
