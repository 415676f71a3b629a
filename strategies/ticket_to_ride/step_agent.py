"""``StepAgent``: the one-route-at-a-time play shared by One Step Thinking and Long Route.

Two of the four reference agents of the 2017 playtesting study (de Mesentier Silva et al., FDG
2017; see ``docs/reference-agents.md`` and ``ttr_lab.strategies.ticket_to_ride.reference_common``), as the study's
public engine plays them, slips included. Everything reads only the ``Observation`` given to the
agent.
"""

from __future__ import annotations

from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.planning import shortest_path, track_costs
from ttr_lab.strategies.ticket_to_ride.reference_common import (
    ENGINE_COLOURS, engine_draw, engine_payment, engine_rank, fallback, hop_costs, pair_claims, payable_claims,
    split_draws, ticket_draw,
)
from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, Action, KeepTickets, Observation, Phase, cheapest_tunnel_answer, ticket_connected,
)

# The order in which a gray target's colour is chosen from the hand: the engine's colours, then
# the locomotive (its hand is a dict holding both; ties go to the first).
HAND_ORDER = ENGINE_COLOURS + (LOCOMOTIVE,)


class StepAgent:
    """The play shared by One Step Thinking and Long Route: aim at one route at a time.

    Whenever a track has been claimed by anybody since it last looked (the engine re-plans when
    any score changes) or its tickets changed, it chooses a target: the most valuable ticket
    not yet done that a path over ``usable`` tracks can still complete; on that path (fewest
    tracks, held ones counted), the first pair of cities, from the ticket's first city, that the
    player does not hold; and the card colour to collect for it, fixed until the next re-plan:
    the pair's colour the hand holds most or, on gray, whatever card (locomotives included) the
    hand holds most. With no such ticket the subclass may draw tickets (``wants_tickets``); else
    the target is the longest track it can claim, ranked by ``engine_rank`` (its colour to
    collect: its own; on gray none).

    Each turn it claims the target (either track of a double route) when it can, paying as the
    engine does (``engine_payment``); else it draws the target colour face up, else a face-up
    locomotive, else blind.
    """

    gray_in_hand = 10

    def __init__(self) -> None:
        self._seen: tuple | None = None  # (owners, tickets) the target was chosen in
        self._target: int | None = None  # a track of the target pair
        self._colour: int | None = None  # the card to collect for it (None on a gray longest route)
        self._draw_tickets = False

    def usable(self, obs: Observation, costs: list[float | None]) -> list[float | None]:
        """The tracks ticket paths may use (``track_costs``, None where not allowed)."""
        return costs

    def wants_tickets(self, obs: Observation) -> bool:
        return False

    def keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        raise NotImplementedError

    def _choose(self, obs: Observation) -> None:
        self._draw_tickets = False
        self._target = self._colour = None
        tables = obs.tables
        colour_of = tables.track_colour
        costs = track_costs(obs)
        steps = hop_costs(self.usable(obs, costs))
        roots = obs.components()
        me, owner = obs.player, obs.owner
        best = None
        for tk in obs.tickets:
            ticket = obs.board.tickets[tk]
            if ticket_connected(ticket, roots):
                continue
            found = shortest_path(steps, tables, ticket.a, ticket.b)
            if found is not None and (best is None or ticket.points > best[0]):
                best = (ticket.points, found[1])
        if best is not None:
            for t in best[1]:
                if tables.holds_route(owner, t, me):
                    continue
                self._target = t
                pair = [x for x in tables.twin_group[t] if costs[x]]
                hand = obs.hand
                if any(colour_of[x] == GRAY for x in pair):
                    self._colour = max(HAND_ORDER, key=lambda c: (hand[c], -HAND_ORDER.index(c)))
                else:
                    self._colour = max((colour_of[x] for x in pair), key=lambda c: hand[c])
                return
        if self.wants_tickets(obs):
            self._draw_tickets = True
            return
        hand, trains = obs.hand, obs.trains[me]
        key = None
        for t, c in enumerate(costs):
            if c and tables.track_trains[t] <= trains:
                length = tables.track_length[t]
                k = (length, engine_rank(hand, colour_of[t], length, self.gray_in_hand), -t)
                if key is None or k > key:
                    key, self._target = k, t
        if self._target is not None and colour_of[self._target] != GRAY:
            self._colour = colour_of[self._target]

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.TUNNEL:
            return cheapest_tunnel_answer(legal_actions)
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return self.keep(obs, legal_actions)
        seen = (obs.owner, obs.tickets)
        if seen != self._seen:
            self._choose(obs)
            self._seen = seen
        target = self._target
        if phase is Phase.TURN:
            if self._draw_tickets:
                tickets = ticket_draw(legal_actions)
                if tickets is not None:
                    return tickets
            if target is not None:
                tables = obs.tables
                options = pair_claims(payable_claims(obs, legal_actions, (target,)), target, tables)
                claim = engine_payment(options, obs.hand, tables) if options else None
                if claim is not None:
                    return claim
        if target is not None:
            draw = engine_draw(obs, legal_actions, self._colour, locomotive=True)
            if draw is not None:
                return draw
        # No target at all: the engine draws a random train card.
        blind, market, _ = split_draws(legal_actions)
        draws = ([blind] if blind is not None else []) + market
        return draws[rng.randrange(len(draws))] if draws else fallback(legal_actions, rng)
