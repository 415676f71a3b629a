"""``CompiledPlanner``: the ticket planner played through its compiled kernels
(``planner_kernel``), as a strategy (``compiled_planner``).

It sees an ``Observation`` like every strategy; it builds an array state from it with the
game's ``determinize`` and asks the planner's kernels there. The planner reads only what the
seat sees (its hand, tickets and offer, the board, the market, the counts), so the sampled
hidden parts cannot change its choice. It keeps its plan between decisions as
``TicketPlanner`` does (``planner_playouts.KeptPlan``), so it plays the very games a
``TicketPlanner`` with the same knobs plays (one ticket order by default: the search's
play-out planner).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ttr_lab.games.ticket_to_ride import Action, Observation, determinize
from ttr_lab.strategies.planner_kernel import default_params
from ttr_lab.strategies.planner_playouts import KeptPlan


class CompiledPlanner:
    name = "compiled_planner"

    def __init__(
        self,
        *,
        plan_budget: PositiveFloat = 0.8,
        ticket_cost_weight: NonNegativeFloat = 0.3,
        draw_tickets_min_trains: NonNegativeInt = 18,
        endgame_trains: NonNegativeInt = 6,
        locomotive_deficit: NonNegativeInt = 3,
        points_min_length: NonNegativeInt = 3,
        plan_orders: PositiveInt = 1,
        card_weight: NonNegativeFloat = 0.5,
        keep_orders: PositiveInt = 1,
        route_weight: NonNegativeFloat = 1.5,
    ) -> None:
        """The knobs of ``TicketPlanner`` (same meaning), with one ticket order tried by default."""
        self.params = default_params(
            plan_budget=plan_budget, ticket_cost_weight=ticket_cost_weight,
            draw_tickets_min_trains=draw_tickets_min_trains, endgame_trains=endgame_trains,
            locomotive_deficit=locomotive_deficit, points_min_length=points_min_length, plan_orders=plan_orders,
            card_weight=card_weight, keep_orders=keep_orders, route_weight=route_weight,
        )

        self.kept: KeptPlan | None = None

    def warm_up(self, state: Any) -> None:
        """Compile (or load) the planner's kernels on ``state``, outside any timed move."""
        KeptPlan(state.face.g).choose_id(state.clone(), self.params)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        # A forced move too: TicketPlanner brings its plan up to date at every decision.
        state = determinize(observation, rng)
        if self.kept is None:
            self.kept = KeptPlan(state.face.g)
        return state.face.actions[self.kept.choose_id(state, self.params)]
