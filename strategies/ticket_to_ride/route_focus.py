"""``RouteFocus``: keep the tickets you are dealt and claim the routes they need, best first.

The idea (de Mesentier Silva et al., FDG 2017, "Route Focus"): a player who commits to the
tickets dealt at the start and spends the game claiming the routes that complete them, the most
valuable routes first; it never asks for more tickets.

As the study's public engine (fernandomsilva/Ticket-to-Ride-Engine, read for behaviour only)
plays it, slips included (``docs/reference-agents.md``):

- Tickets: keeps every ticket dealt; never draws tickets.
- Each turn, for each unfinished ticket, the path of fewest tracks; every route on it that it
  does not hold and that is shorter than its trains left ranks route points + ``ticket_weight`` x
  ticket points. It claims the best-ranked route it can, paying with the colour of the pair it
  holds most. With no ticket left, the engine's min-first queue pops the *least* valuable route.
- It means to draw the best route's colour face up, but the engine compares upper-case colour
  names with lower-case card names: it always draws blind.
"""

from __future__ import annotations

import random
from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.planning import shortest_path, track_costs
from ttr_lab.strategies.ticket_to_ride.reference_common import (
    ENGINE_COLOURS, engine_draw, engine_payment, fallback, hop_costs, keep_everything, pair_claims, payable_claims,
    plain_payment,
)
from ttr_lab.games.ticket_to_ride import (
    GRAY, Action, Observation, Phase, cheapest_tunnel_answer, ticket_connected,
)


class RouteFocus:
    name = "route_focus"

    def __init__(self, *, ticket_weight: int = 2) -> None:
        self.ticket_weight = ticket_weight  # rank = route points + ticket_weight x ticket points

    def _ranked(self, obs: Observation) -> list[int]:
        """Tracks to try, in the order of the engine's priority queue."""
        tables = obs.tables
        trains_of = tables.track_trains
        costs = track_costs(obs)
        steps = hop_costs(costs)
        roots = obs.components()
        me, owner, trains = obs.player, obs.owner, obs.trains[obs.player]
        points_of = obs.track_points
        rank: dict[int, int] = {}
        for tk in obs.tickets:
            ticket = obs.board.tickets[tk]
            if ticket_connected(ticket, roots):
                continue
            found = shortest_path(steps, tables, ticket.a, ticket.b)
            if found is None:
                continue
            for t in found[1]:
                # Held pairs are skipped, and (a slip) a route as long as its trains left is too.
                if tables.holds_route(owner, t, me) or trains_of[t] >= trains:
                    continue
                r = -(points_of[t] + self.ticket_weight * ticket.points)
                rank[t] = min(r, rank.get(t, r))
        if not rank:  # no ticket to work on: the engine's queue pops the *least* valuable route first
            for t, c in enumerate(costs):
                if c and trains_of[t] < trains:
                    rank[t] = points_of[t]
        return sorted(rank, key=lambda t: (rank[t], t))

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.TUNNEL:
            return cheapest_tunnel_answer(legal_actions)
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return keep_everything(legal_actions)
        if phase is Phase.TURN:
            ranked = self._ranked(obs)
            claims = payable_claims(obs, legal_actions, ranked)
            if claims:
                tables = obs.tables
                hand = obs.hand
                for t in ranked:
                    options = pair_claims(claims, t, tables)
                    if options:
                        return engine_payment(options, hand, tables, (_colour_held_most(obs, t),)) \
                            or plain_payment(options, hand)
        # The engine means to draw the best route's colour face up, but compares its upper-case
        # colour name with the market's lower-case card names, which never match: it draws blind.
        return engine_draw(obs, legal_actions, None, locomotive=False) or fallback(legal_actions, rng)


def _colour_held_most(obs: Observation, track: int) -> int:
    """The colour the engine pays ``track`` with: of the open tracks between its cities, the
    colour the hand holds most (any colour on gray; ties to the first listed)."""
    tables = obs.tables
    pair = [t for t in tables.twin_group[track] if obs.owner[t] < 0]
    colours = [tables.track_colour[t] for t in pair]
    if GRAY in colours:
        colours = list(ENGINE_COLOURS)
    hand = obs.hand
    best = colours[0]
    for c in colours:
        if hand[c] > hand[best]:
            best = c
    return best
