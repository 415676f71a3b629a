"""``DestinationHungry``: build one network for many tickets, and keep asking for more tickets.

The idea (de Mesentier Silva et al., FDG 2017, "Destination Hungry"): a long-term player whose
points come from destination tickets. It plans one network joining all its tickets, claims only
its tracks, draws the cards the network needs, and draws new tickets while the network leaves
many trains unused.

As the study's public engine (fernandomsilva/Ticket-to-Ride-Engine, read for behaviour only)
plays it, slips included (``docs/reference-agents.md``):

- The network is the engine's (``ttr_lab.strategies.ticket_to_ride.engine_plan``), re-planned whenever anybody claims.
- Tickets: offers smallest first, fitness (ticket + route points) / trains; an offer leaving
  ``keep_margin`` trains spare replaces the choice when its fitness is the best so far, one that
  fits at all when it needs fewer trains than any before; else the offer worth fewest points.
- It draws tickets while the need stored at its last keep is below its trains - ``draw_margin``;
  the stored need is that of the last offer evaluated (keeping all), never updated as it builds.
- Claims: the first planned track in the claim list, in its planned colour (a gray one only in a
  colour no coloured planned track needs); with nothing left to build, the longest it can claim.
- Draws: the colour showing most in the market if the plan needs any of it (even a locomotive,
  when gray is the plan's largest need and it shows twice), else blind.
"""

from __future__ import annotations

import random
from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.engine_plan import engine_plan
from ttr_lab.strategies.ticket_to_ride.planning import costs_for
from ttr_lab.strategies.ticket_to_ride.reference_common import (
    ENGINE_COLOURS, engine_payment, fallback, fewest_points_keep, keep_options, split_draws, ticket_draw,
)
from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_COLOURS, Action, Claim, KeepTickets, Observation, Phase, cheapest_tunnel_answer,
)

NO_THRESHOLD = float("-inf")  # a plan the engine could not make: below any train count


class DestinationHungry:
    name = "destination_hungry"

    def __init__(self, *, draw_margin: int = 8, keep_margin: int = 5) -> None:
        self.draw_margin = draw_margin  # draw tickets while trains exceed the stored need by more than this
        self.keep_margin = keep_margin  # a kept offer should leave at least this many trains spare
        self._threshold: float = 0.0  # trains "the plan needs", stored when tickets are kept
        self._seen: tuple | None = None  # (owners, tickets) the plan was made in
        self._plan: list[int] = []  # tracks still to claim, each double route as one chosen track
        self._needs: list[int] = [0] * (NUM_COLOURS + 1)  # trains per track colour in the plan

    # --- the plan ---

    def _costs(self, obs: Observation) -> list:
        """Held tracks at 0, open ones at their trains (however many trains the player has left:
        the engine's graph does not check), closed ones None."""
        return costs_for(obs.tables, obs.owner, obs.player, 1 << 20)

    def _cities(self, obs: Observation, costs: list) -> list[int]:
        """The cities of the held tickets whose both cities some usable track still reaches."""
        ends = obs.tables.track_ends
        touched = {c for t, cost in enumerate(costs) if cost is not None for c in ends[t]}
        out = []
        for tk in obs.tickets:
            t = obs.board.tickets[tk]
            if t.a in touched and t.b in touched:
                out += [t.a, t.b]
        return out

    def _replan(self, obs: Observation) -> tuple[list[int], list[int]]:
        """Tracks of the network still to claim and the trains per track colour they take;
        re-planned when anybody has claimed a track (the engine re-plans whenever a score
        changes) or its tickets changed. No plan (the engine found none) is an empty one."""
        seen = (obs.owner, obs.tickets)
        if seen != self._seen:
            self._seen = seen
            costs = self._costs(obs)
            plan = engine_plan(costs, obs.tables, self._cities(obs, costs))
            self._plan = list(plan.tracks) if plan else []
            self._needs = list(plan.needs) if plan else [0] * (NUM_COLOURS + 1)
        return self._plan, self._needs

    # --- decisions ---

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.TUNNEL:
            return cheapest_tunnel_answer(legal_actions)
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return self._keep(obs, legal_actions)
        plan, needs = self._replan(obs)
        if phase is Phase.TURN:
            if self._threshold < obs.trains[obs.player] - self.draw_margin:
                tickets = ticket_draw(legal_actions)
                if tickets is not None:
                    return tickets
            claim = self._claim(obs, plan, needs, legal_actions)
            if claim is not None:
                return claim
        return self._draw(obs, legal_actions, needs) or fallback(legal_actions, rng)

    def _claim(self, obs: Observation, plan: list[int], needs: list[int], legal: Sequence[Action]) -> Action | None:
        tables = obs.tables
        hand = obs.hand
        claims: dict[int, list[Claim]] = {}
        for a in legal:
            if type(a) is Claim:
                claims.setdefault(a.track, []).append(a)
        if not claims:
            return None
        if not plan:  # nothing left to build: the longest route it can claim (first listed on ties)
            longest = max(claims, key=lambda t: (tables.track_length[t], -t))
            return engine_payment(claims[longest], hand, tables)
        # The first listed claim of a planned track: a coloured one in its colour, a gray one in a
        # colour no coloured planned track needs.
        free = tuple(c for c in ENGINE_COLOURS if needs[c] <= 0)
        for t in sorted(plan):
            if t in claims:
                colour = tables.track_colour[t]
                colours = free if colour == GRAY else (colour,)
                claim = engine_payment(claims[t], hand, tables, colours)
                if claim is not None:
                    return claim
        return None

    def _draw(self, obs: Observation, legal: Sequence[Action], needs: list[int]) -> Action | None:
        """The engine's draw: the colour showing most often in the market if the plan needs it at
        all (its first test, for the colour needed most, compares names in different cases and
        never passes); or that colour anyway, even a locomotive, when gray is what the plan needs
        most and it shows twice or more; else blind."""
        blind, market, _ = split_draws(legal)
        cards = obs.market
        counts: dict[int, int] = {}
        for card in cards:
            if card >= 0:
                counts[card] = counts.get(card, 0) + 1
        if counts:
            top = max(counts, key=lambda c: (counts[c], -cards.index(c)))
            slot = next((a for a in market if cards[a.slot] == top), None)
            if slot is not None:
                if top != LOCOMOTIVE and needs[top] > 0:
                    return slot
                if needs[GRAY] > max(needs[:NUM_COLOURS]) and counts[top] > 1:
                    return slot
        return blind or (market[0] if market else None)

    def _keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        # The engine's offers come smallest first, each in deal order.
        options = sorted(keep_options(legal), key=lambda a: (len(a.indices), a.indices))
        board = obs.board
        tables = obs.tables
        costs = self._costs(obs)
        held = self._cities(obs, costs)
        points_of = obs.track_points
        held_points = sum(board.tickets[tk].points for tk in obs.tickets)
        trains = obs.trains[obs.player]
        best, best_ratio, least_over = None, 0.0, trains
        need: float = NO_THRESHOLD
        for option in options:
            kept = [board.tickets[obs.offered[i]] for i in option.indices]
            plan = engine_plan(costs, tables, held + [c for t in kept for c in (t.a, t.b)])
            if plan is None:
                need = NO_THRESHOLD
                continue
            need = plan.trains
            points = held_points + sum(t.points for t in kept) + sum(points_of[t] for t in plan.tracks)
            fitness = points / need if need else 0.0
            # Both tests below overwrite the choice, in offer order, as in the engine.
            if need <= trains - self.keep_margin:
                if fitness > best_ratio:
                    best, best_ratio = option, fitness
            elif need <= trains and need < least_over:
                best, least_over = option, need
        # The slip: the stored need is that of the last offer evaluated (keeping all), not the kept one.
        self._threshold = need
        self._seen = None
        return best if best is not None else fewest_points_keep(obs, options)
