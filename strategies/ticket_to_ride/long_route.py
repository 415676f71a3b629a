"""``LongRoute``: complete tickets with long routes only, then claim the longest routes left.

The idea (de Mesentier Silva et al., FDG 2017, "Long Route"): a player after the big route
scores (a length-6 track is worth 15 points, a length-1 track 1). It works toward its tickets
one route at a time like One Step Thinking, but only over long routes, and when no ticket can be
done that way it claims the longest routes on the board. It never draws tickets after setup.

As the study's public engine (fernandomsilva/Ticket-to-Ride-Engine, read for behaviour only)
plays it, slips included (``docs/reference-agents.md``):

- Tickets: its evaluation calls ``has_path`` as a method of the graph, which raises, so every
  offer counts as unreachable and it keeps the offer worth fewest points: at setup, its two
  lowest tickets.
- Each turn (``step_agent.StepAgent``): paths of fewest tracks over tracks of length at least
  ``min_length`` (or its trains, if fewer) plus its own; with no such ticket, the longest track it
  can claim, a gray one its largest colour pays ranking first among equally long ones.
"""

from __future__ import annotations

from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.reference_common import fewest_points_keep, keep_options
from ttr_lab.strategies.ticket_to_ride.step_agent import StepAgent
from ttr_lab.games.ticket_to_ride import Action, KeepTickets, Observation


class LongRoute(StepAgent):
    name = "long_route"
    gray_in_hand = 15  # the engine's rank: a gray route payable in one colour beats a coloured one

    def __init__(self, *, min_length: int = 3) -> None:
        super().__init__()
        self.min_length = min_length  # shortest free track its ticket paths use

    def usable(self, obs: Observation, costs: list[float | None]) -> list[float | None]:
        shortest = min(self.min_length, obs.trains[obs.player])
        length = obs.tables.track_length
        return [c if c == 0 or (c is not None and length[t] >= shortest) else None for t, c in enumerate(costs)]

    def keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        # The engine values every ticket as unreachable (see the module's notes), so it keeps the
        # allowed offer worth fewest points: at setup, its two lowest tickets.
        return fewest_points_keep(obs, keep_options(legal))
