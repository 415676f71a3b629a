"""``CompiledPlanner``: the ticket planner with the search's play-out settings, as a strategy
(``compiled_planner``).

The same face over the same kernels as ``ticket_planner`` (``TicketPlanner``), one ticket order
tried by default (``planner_knobs.PLAYOUT_ORDERS``): it plays the games the planner plays inside
``mcts``'s play-outs, so they can be watched and measured on their own.
"""

from __future__ import annotations

from typing import Any

# The knobs' annotations (planner_knobs.signature), which the registry resolves in this module.
from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt  # noqa: F401

from ttr_lab.strategies.ticket_to_ride.planner_knobs import PLAYOUT_ORDERS, describe, signature
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner


class CompiledPlanner(TicketPlanner):
    name = "compiled_planner"
    TUNABLE: dict[str, dict[str, float]] = {}  # the knobs are tuned as ``ticket_planner``'s

    def __init__(self, **knob_values: Any) -> None:
        super().__init__(**{**PLAYOUT_ORDERS, **knob_values})

    # The knobs of ``TicketPlanner`` (same declaration), one ticket order tried by default.
    __init__.__signature__ = signature(**PLAYOUT_ORDERS)  # type: ignore[attr-defined]
    __init__.__doc__ = "The planner's knobs (``planner_knobs``), by keyword; one ticket order by default:\n\n" + describe()
