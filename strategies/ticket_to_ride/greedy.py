"""``Greedy``: take the best thing on offer now, plan nothing.

- Tickets: keeps as few as allowed, the cheapest (fewest points, so the shortest trips).
- Turn: claims the affordable track worth the most right now, its route points plus a bonus
  if it lies on the shortest route of one of its tickets; if it can claim nothing, it draws the
  colour that brings it closest to the most valuable track it could soon claim.
- Tunnels (``tunnel_odds``): a tunnel's value is less the extra cards it is expected to ask,
  its payment the colour fewest unseen cards match; asked for extra cards, it pays when the
  track completes a ticket, asks one card, or two on its ticket routes, else declines.
- It never draws more tickets, never saves cards for a route, never thinks about the end.

A baseline one step above random: it scores route points steadily and completes tickets only
when its shortest routes happen to be what it can afford.
"""

from __future__ import annotations

import random
from typing import Sequence

from pydantic import NonNegativeFloat, NonNegativeInt

from ttr_lab.strategies.ticket_to_ride.planning import PlanCache, choose_draw, choose_payment, claims_by_track, track_costs
from ttr_lab.strategies.ticket_to_ride.station_builds import station_build
from ttr_lab.strategies.ticket_to_ride.tunnel_odds import (
    expected_extra_from, tunnel_answer_from, tunnel_flags, unseen_from,
)
from ttr_lab.games.ticket_to_ride import GRAY, LOCOMOTIVE, NUM_COLOURS, Action, KeepTickets, Observation, Phase


class Greedy:
    name = "greedy"
    # Ranges worth searching (``ttr-lab tune``); the defaults lie inside them.
    TUNABLE = {
        "ticket_bonus": {"low": 0.0, "high": 15.0},
        "min_points": {"low": 1, "high": 7},
        "locomotive_weight": {"low": 0.2, "high": 3.0, "log": True},
    }

    def __init__(self, *, ticket_bonus: float = 3.0, min_points: NonNegativeInt = 1,
                 locomotive_weight: NonNegativeFloat = 0.9, stations: bool = True) -> None:
        """``ticket_bonus``: extra value of a track on a ticket's shortest route;
        ``min_points``: ignore claims worth fewer route points than this (unless on a ticket route);
        ``locomotive_weight``: what taking a face-up locomotive (a whole turn) is worth, against
        one card of the colour it wants (1.0) and an unseen blind card (about 0.2);
        ``stations``: build a train station when it repairs blocked tickets (``station_plans``)."""
        self.stations = stations
        self.ticket_bonus = ticket_bonus
        self.min_points = min_points
        self.locomotive_weight = locomotive_weight
        self.plans = PlanCache(orders=1)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        if obs.phase is Phase.TUNNEL:
            return tunnel_answer_from(obs, legal_actions, self.plans.get(obs).tracks)
        if obs.phase in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS):
            return self._keep(obs, legal_actions)
        if obs.phase == Phase.TURN:
            station = station_build(obs, legal_actions) if self.stations else None
            if station is not None:
                return station
            claim = self._best_claim(obs, legal_actions)
            if claim is not None:
                return claim
        return self._draw(obs, legal_actions)

    def _keep(self, obs: Observation, legal: Sequence[Action]) -> Action:
        tickets = obs.board.tickets
        keeps = [a for a in legal if type(a) is KeepTickets]  # all of them, in a keeping phase
        # Fewest tickets, then the fewest points among them.
        return min(keeps, key=lambda a: (len(a.indices), sum(tickets[obs.offered[i]].points for i in a.indices), a.indices))

    def _best_claim(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        by_track = claims_by_track(legal)
        if not by_track:
            return None
        useful = set(self.plans.get(obs).tracks)
        track_points = obs.track_points
        tunnel = tunnel_flags(obs.board)
        unseen = unseen_from(obs) if any(tunnel) else None
        best, best_value = None, float("-inf")
        for track, claims in by_track.items():
            points = track_points[track]
            on_route = track in useful
            if points < self.min_points and not on_route:
                continue
            value = points + (self.ticket_bonus if on_route else 0.0)
            if unseen is not None and tunnel[track]:  # less the extra cards it is expected to ask
                colour = obs.tables.track_colour[track]
                value -= expected_extra_from(obs, max(range(NUM_COLOURS), key=lambda c: (obs.hand[c], -c))
                                             if colour == GRAY else colour, unseen)
            if value > best_value:
                best, best_value = track, value
        if best is None:
            return None
        if unseen is not None and tunnel[best]:
            return choose_payment(by_track[best], obs.hand, extra=lambda c: expected_extra_from(obs, c, unseen))
        return choose_payment(by_track[best], obs.hand)

    def _draw(self, obs: Observation, legal: Sequence[Action]) -> Action:
        tables = obs.tables
        costs = track_costs(obs)
        hand = obs.hand
        useful = set(self.plans.get(obs).tracks)
        # The colour most needed by the best-value track it does not yet afford.
        locos = hand[LOCOMOTIVE]
        most = max(range(NUM_COLOURS), key=lambda c: (hand[c], -c))
        points = obs.track_points
        target, target_value = None, float("-inf")
        for t, cost in enumerate(costs):
            if not cost:
                continue
            colour = tables.track_colour[t]
            have = hand[most if colour == GRAY else colour] + locos
            length = tables.track_length[t]
            missing = length - have if length > have else 0
            value = (points[t] + (self.ticket_bonus if t in useful else 0.0)) / (1 + missing)
            if value > target_value:
                target, target_value = t, value
        weights = [0.0] * NUM_COLOURS
        if target is not None:
            colour = tables.track_colour[target]
            weights[most if colour == GRAY else colour] = 1.0
        return choose_draw(obs, legal, weights, locomotive_weight=self.locomotive_weight)
