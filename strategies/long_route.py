"""``LongRoute``: complete tickets with long routes only, then claim the longest routes left.

The idea (de Mesentier Silva et al., FDG 2017, "Long Route"): a player after the big route
scores (a length-6 track is worth 15 points, a length-1 track 1). It works toward its tickets
like One Step Thinking, one route at a time, but only over long routes, and when no ticket can
be done that way it claims the longest routes on the board. It never draws tickets after setup.

How it plays here (``step_agent.StepAgent``):

- Tickets (setup): the keep with the most ticket points per train needed, each ticket on its
  own cheapest path over long routes only, among keeps that fit in its trains; else the keep
  worth fewest points.
- Each turn: the target is the next unclaimed track on the cheapest path, over tracks of length
  at least ``min_length`` (or its trains, if fewer) plus its own tracks, of its most valuable
  ticket that can still be completed that way. Tickets only short routes could complete are
  left to fail. With no such ticket the target is the longest track it can claim; among equally
  long ones it prefers a gray track its hand pays in one colour, then the best hand fit.
- It claims the target (either track of a double route) when it can pay, fewest locomotives
  first; else it draws the target's colour face up (on gray, the colour it holds most), else a
  face-up locomotive, else blind.

Following the paper and the public engine (fernandomsilva/Ticket-to-Ride-Engine, read for
behaviour only):

- The engine evaluates ticket offers with the same ``has_path`` slip as One Step Thinking, so it
  always keeps the two lowest-value tickets at setup; here the intended points-per-train choice
  over long routes is implemented.
- Paths: cheapest in trains here, fewest cities in the engine; payments and gray-colour draws as
  in ``one_step_thinking``.
"""

from __future__ import annotations

from typing import Sequence

from strategies.planning import network
from strategies.reference_common import fewest_points_keep, keep_options
from strategies.step_agent import StepAgent
from ttr_lab.games.ticket_to_ride import Action, KeepTickets, Observation


class LongRoute(StepAgent):
    name = "long_route"
    gray_in_hand = 15  # the engine's rank: a gray route payable in one colour beats a coloured one

    def __init__(self, *, min_length: int = 3) -> None:
        super().__init__()
        self.min_length = min_length  # shortest free track its ticket paths use

    def usable(self, obs: Observation, costs: list[int | None]) -> list[int | None]:
        shortest = min(self.min_length, obs.trains[obs.player])
        length = network(obs.board).length
        return [c if c == 0 or (c is not None and length[t] >= shortest) else None for t, c in enumerate(costs)]

    def keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        # The engine values every ticket as unreachable (see the module's notes), so it keeps the
        # allowed offer worth fewest points: at setup, its two lowest tickets.
        return fewest_points_keep(obs, keep_options(legal))
