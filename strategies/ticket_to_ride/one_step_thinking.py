"""``OneStepThinking``: one route at a time, toward the most valuable ticket.

The idea (de Mesentier Silva et al., FDG 2017, "One Step Thinking"): a player who looks only one
step ahead. It takes the most valuable ticket it can still complete, finds a path for it and
works on the next unclaimed route of that path alone, collecting that route's colour until it
can claim it. With no ticket left to work on it asks for new tickets while the game is young,
else claims the longest routes it can.

As the study's public engine (fernandomsilva/Ticket-to-Ride-Engine, read for behaviour only)
plays it, slips included (``docs/reference-agents.md``):

- Setup: keeps all tickets dealt. Tickets drawn in play: the engine's evaluation raises (it calls
  ``has_path`` on the graph), every offer counts as unreachable, and it keeps the single ticket
  worth fewest points.
- Each turn (``step_agent.StepAgent``): paths of fewest tracks; it draws tickets when it has no
  ticket to work on while every player has at least ``ticket_floor`` trains and tickets remain.
"""

from __future__ import annotations

from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.reference_common import fewest_points_keep, keep_everything, keep_options
from ttr_lab.strategies.ticket_to_ride.step_agent import StepAgent
from ttr_lab.games.ticket_to_ride import Action, KeepTickets, Observation, Phase


class OneStepThinking(StepAgent):
    name = "one_step"
    gray_in_hand = 10

    def __init__(self, *, ticket_floor: int = 8) -> None:
        super().__init__()
        self.ticket_floor = ticket_floor  # draw tickets only while every player has this many trains

    def wants_tickets(self, obs: Observation) -> bool:
        return min(obs.trains) >= self.ticket_floor and obs.ticket_deck_size > 0

    def keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        if obs.phase is Phase.INITIAL_TICKETS:
            return keep_everything(legal)
        # Tickets drawn in play: every offer valued as unreachable (the engine's slip), so the
        # single ticket worth fewest points.
        return fewest_points_keep(obs, keep_options(legal))
