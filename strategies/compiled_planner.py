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

from ttr_lab.games.ticket_to_ride import Action, Observation, determinize
# The knobs' annotations (planner_knobs.signature), which the registry resolves in this module.
from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt  # noqa: F401

from ttr_lab.strategies.planner_knobs import PLAYOUT_ORDERS, describe, knobs, signature
from ttr_lab.strategies.planner_playouts import KeptPlan


class CompiledPlanner:
    name = "compiled_planner"

    def __init__(self, **knob_values: Any) -> None:
        self.params = knobs(knobs(**PLAYOUT_ORDERS), **knob_values).params()
        self.kept: KeptPlan | None = None

    # The knobs of ``TicketPlanner`` (same declaration), one ticket order tried by default.
    __init__.__signature__ = signature(**PLAYOUT_ORDERS)  # type: ignore[attr-defined]
    __init__.__doc__ = "The planner's knobs (``planner_knobs``), by keyword; one ticket order by default:\n\n" + describe()

    def warm_up(self, state: Any) -> None:
        """Compile (or load) the planner's kernels on ``state``, outside any timed move."""
        KeptPlan(state.face.g).choose_id(state.clone(), self.params)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        # A forced move too: TicketPlanner brings its plan up to date at every decision.
        state = determinize(observation, rng)
        if self.kept is None:
            self.kept = KeptPlan(state.face.g)
        return state.face.actions[self.kept.choose_id(state, self.params)]
