"""``OneStepThinking``: one route at a time, toward the most valuable ticket.

The idea (de Mesentier Silva et al., FDG 2017, "One Step Thinking"): a player who looks only one
step ahead. It takes the most valuable ticket it can still complete, finds the cheapest path
for it and works on the next unclaimed route of that path alone: it collects that route's colour
and claims it as soon as it can. When it has no ticket left to work on it asks for new tickets
while the game is far from over, and otherwise claims the longest routes it can.

How it plays here (``step_agent.StepAgent``):

- Setup: keeps all tickets dealt. Later offers: the keep with the most ticket points per train
  still needed (each ticket on its own cheapest path), among keeps that fit in its trains; else
  the keep worth fewest points.
- Each turn: the target is the first unclaimed track, from the ticket's first city, on the
  cheapest path of its most valuable unfinished ticket that can still be completed. It claims
  the target (either track of a double route) when it can pay, fewest locomotives first. Else
  it draws the target's colour face up (on gray, the colour it holds most), else a face-up
  locomotive, else blind.
- No ticket to work on: it draws tickets if every player still has at least ``ticket_floor``
  trains (and tickets remain); else it targets the longest track it can claim (ties: the one its
  hand fits best).

Following the paper and the public engine (fernandomsilva/Ticket-to-Ride-Engine, read for
behaviour only):

- The engine's keep evaluation for tickets drawn during play calls ``has_path`` on the graph
  object, which raises, so every offer is valued as unreachable and the engine always keeps the
  single lowest-value ticket. Here the evident intent (points per train) is implemented.
- The engine's paths are networkx ``shortest_path`` without weights (fewest cities); here the
  cheapest path in trains (fewest tracks on ties).
- For a gray target the engine compares a market card with a (colour, count) pair, which never
  matches, so it takes a face-up locomotive or draws blind; here it takes the colour it holds
  most. On gray it pays with the first colour of its fixed colour list that works; here with the
  fewest locomotives and the colour held most (our engine makes the payment part of the action,
  a rules Decision).
"""

from __future__ import annotations

from typing import Sequence

from strategies.reference_common import fewest_points_keep, keep_everything, keep_options
from strategies.step_agent import StepAgent
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
