"""``RouteFocus``: keep the tickets you are dealt and claim the routes they need, best first.

The idea (de Mesentier Silva et al., FDG 2017, "Route Focus"): a player who commits to the
tickets dealt at the start and spends the game claiming the routes that complete them, the
most valuable routes first; it never asks for more tickets. Once its tickets are done (or cut
off) it claims the routes that score most.

How it plays here:

- Tickets: keeps every ticket offered. It never draws tickets.
- Each turn it lists the routes on the cheapest path of each unfinished ticket and ranks each by
  its route points + ``ticket_weight`` x the ticket's points (a route on two paths takes the
  higher rank). It claims the best-ranked route it can pay for now (either track of a double
  route; fewest locomotives, the colour held most on gray). If it can pay for none, it draws the
  colour of the best-ranked route (on gray, the colour it holds most) when it is face up, else
  blind; it never takes a face-up locomotive.
- With no unfinished ticket left, every claimable route is ranked by its points alone.

Following the paper and the public engine (fernandomsilva/Ticket-to-Ride-Engine, read for
behaviour only):

- The engine's paths are networkx ``shortest_path`` without weights, so fewest cities rather
  than fewest trains; here the planning toolkit's cheapest path in trains (fewest tracks on ties)
  is used, the measure the other agents and the toolkit share.
- With no ticket left, the engine pushes route points unnegated into its min-first priority
  queue and so takes the *least* valuable route first, the opposite of its ticket ranking (which
  is negated); here the most valuable route goes first, which is the playstyle's point (and
  what its ticket ranking does).
- A route shared by several tickets is ranked by the first ticket in the engine, by the best
  ticket here.
"""

from __future__ import annotations

import random
from typing import Sequence

from strategies.planning import network, shortest_path, track_costs
from strategies.reference_common import (
    PlanMemo, colour_wish, draw_towards, fallback, keep_everything, pair_claims, payable_claims,
    plain_payment, track_colour_for,
)
from ttr_lab.games.ticket_to_ride import Action, Observation, Phase, ticket_connected


class RouteFocus:
    name = "route_focus"

    def __init__(self, *, ticket_weight: int = 2) -> None:
        self.ticket_weight = ticket_weight  # rank = route points + ticket_weight x ticket points
        self._memo = PlanMemo()
        self._paths: list[tuple[int, tuple[int, ...]]] = []  # (ticket points, path) per open ticket

    def _ranked(self, obs: Observation) -> list[int]:
        """Tracks to claim, best first."""
        memo = self._memo
        if not memo.valid(obs):
            self._plan(obs)
        owner, me = obs.owner, obs.player
        points_of = obs.track_points
        rank: dict[int, int] = {}
        weight = self.ticket_weight
        for points, path in self._paths:
            for t in path:
                if owner[t] != me:
                    r = points_of[t] + weight * points
                    if r > rank.get(t, -1):
                        rank[t] = r
        if not rank:  # no ticket left to work on: the routes worth most
            for t, c in enumerate(track_costs(obs)):
                if c:
                    rank[t] = points_of[t]
        return sorted(rank, key=lambda t: (-rank[t], t))

    def _plan(self, obs: Observation) -> None:
        net = network(obs.board)
        costs = track_costs(obs)
        roots = obs.components()
        paths = []
        tracks: list[int] = []
        for tk in obs.tickets:
            ticket = obs.board.tickets[tk]
            if ticket_connected(ticket, roots):
                continue
            found = shortest_path(costs, net, ticket.a, ticket.b)
            if found is None:
                continue
            path = tuple(t for t in found[1] if costs[t])
            if path:
                paths.append((ticket.points, path))
                tracks += path
        self._paths = paths
        self._memo.remember(obs, tracks, joint=len(paths) > 1)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return keep_everything(legal_actions)
        ranked = self._ranked(obs)
        if phase is Phase.TURN:
            claims = payable_claims(obs, legal_actions, ranked)
            if claims:
                net = network(obs.board)
                for t in ranked:
                    options = pair_claims(claims, t, net)
                    if options:
                        return plain_payment(options, obs.hand)
        want = colour_wish(track_colour_for(obs, ranked[0]) if ranked else None)
        return draw_towards(obs, legal_actions, want) or fallback(legal_actions, rng)
