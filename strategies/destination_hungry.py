"""``DestinationHungry``: build one network for many tickets, and keep asking for more tickets.

The idea (de Mesentier Silva et al., FDG 2017, "Destination Hungry"): a long-term player whose
points come from destination tickets. It plans one network of tracks joining all its tickets,
claims only tracks of that network, draws the cards the network still lacks, and draws new
tickets whenever the network leaves many trains unused.

How it plays here:

- Tickets (setup and later): for each allowed keep it plans the network for the tickets held
  plus the kept ones and scores it (ticket points + route points of the network) / trains the
  network takes. It takes the best score among keeps that leave ``keep_margin`` trains spare;
  failing that the cheapest keep that fits in its trains; failing that the keep worth fewest
  points. Offers with a ticket no path can complete do not count as fitting.
- Each turn: if its trains exceed what the network needs by more than ``draw_margin``, it draws
  tickets. Otherwise it claims a network track it can pay for (the longest first, paying so as
  not to spend cards other network tracks need), or, once every ticket is done or lost, the
  longest track it can claim. Else it draws: the face-up card of the colour the network lacks
  most, else blind. It never takes a face-up locomotive.

Following the paper and the public engine (fernandomsilva/Ticket-to-Ride-Engine, read for
behaviour only):

- The engine stores the "trains the plan needs" once, when tickets are kept (and, by a slip,
  from the last keep it evaluated rather than the one it chose); here the network is re-planned
  as the board changes and the spare trains are counted live, which is what the threshold is for.
- The engine counts the cards of each colour the network needs in total, so it keeps collecting
  a colour it already holds enough of; here the draw follows the cards still missing.
- The engine claims the first network track in its move list; the order is not meaningful, so
  here the longest goes first. It pays gray tracks only with colours no coloured network track
  needs; here that is a preference (``reserving_payment``), since our engine makes the agent
  name the payment (a rules Decision) and a locomotive may be the only other way to pay.
- The network is the planning toolkit's greedy Steiner tree with one ticket order (most
  valuable ticket first; ``planning.plan_tickets(..., orders=1)``); the engine joins ticket cities
  greedily from the farthest pair, a similar one-pass approximation. Trying several orders
  (``plan_tickets``' default) made no measurable difference to its results (50-50 in 100
  two-player games) and costs four times the search.
"""

from __future__ import annotations

import random
from typing import Sequence

from strategies.planning import card_deficits, claims_by_track, network, plan_tickets, track_costs
from strategies.reference_common import (
    PlanMemo, draw_towards, extend_plan, fallback, fewest_points_keep, keep_options, longest_target,
    payable_claims, plain_payment, reserving_payment, ticket_draw,
)
from ttr_lab.games.ticket_to_ride import GRAY, NUM_COLOURS, Action, KeepTickets, Observation, Phase


class DestinationHungry:
    name = "destination_hungry"

    def __init__(self, *, draw_margin: int = 8, keep_margin: int = 5) -> None:
        self.draw_margin = draw_margin  # draw tickets while trains exceed the plan by more than this
        self.keep_margin = keep_margin  # a kept offer should leave at least this many trains spare
        self._memo = PlanMemo()

    # --- the plan ---

    def _plan(self, obs: Observation) -> list[int]:
        """Tracks of the network still to claim."""
        memo = self._memo
        if not memo.valid(obs):
            plan = plan_tickets(obs, obs.tickets, orders=1)
            served = len(obs.tickets) - len(plan.done) - len(plan.unreachable)  # open, reachable
            memo.remember(obs, plan.tracks, joint=served > 1)
        return memo.remaining(obs)

    # --- decisions ---

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return self._keep(obs, legal_actions)
        plan = self._plan(obs)
        net = network(obs.board)
        if phase is Phase.TURN:
            spare = obs.trains[obs.player] - sum(net.trains[t] for t in plan)
            if spare > self.draw_margin:
                tickets = ticket_draw(legal_actions)
                if tickets is not None:
                    return tickets
            claims = payable_claims(obs, legal_actions, plan) if plan else claims_by_track(legal_actions)
            if claims:
                claim = self._claim(obs, plan, claims)
                if claim is not None:
                    return claim
        hand = obs.hand
        want = card_deficits(hand, _with_better_twins(obs, plan), net) if plan else [0] * NUM_COLOURS
        return draw_towards(obs, legal_actions, want) or fallback(legal_actions, rng)

    def _claim(self, obs: Observation, plan: list[int], claims: dict) -> Action | None:
        net = network(obs.board)
        hand = obs.hand
        if not plan:  # every ticket done or lost: the longest track it can take
            costs = [None] * len(net.length)
            for t in claims:
                costs[t] = net.trains[t]
            t = longest_target(obs, costs)
            return None if t is None else plain_payment(claims[t], hand)
        best = None
        for t in plan:
            for option in (t, net.twin[t]):
                if option >= 0 and option in claims:
                    key = (net.length[option], -option)
                    if best is None or key > best[0]:
                        best = (key, t, option)
        if best is None:
            return None
        _, planned, chosen = best
        reserved = [0] * NUM_COLOURS
        for t in plan:
            if t != planned and net.colour[t] != GRAY:
                reserved[net.colour[t]] += net.length[t]
        return reserving_payment(claims[chosen], hand, reserved)

    def _keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        options = keep_options(legal)
        board = obs.board
        net = network(board)
        base = self._plan(obs) if obs.tickets else []
        base_trains = sum(net.trains[t] for t in base)
        points_of = obs.track_points
        base_points = sum(points_of[t] for t in base)
        costs = track_costs(obs)
        for t in base:
            costs[t] = 0
        roots = obs.components()
        held_points = sum(board.tickets[tk].points for tk in obs.tickets)
        trains = obs.trains[obs.player]
        best = cheapest = None
        shared: dict = {}
        for option in options:
            kept = [obs.offered[i] for i in option.indices]
            added, added_trains, lost = extend_plan(obs, costs, kept, roots, shared)
            if lost:
                continue
            need = base_trains + added_trains
            points = held_points + sum(board.tickets[tk].points for tk in kept)
            points += base_points + sum(points_of[t] for t in added)
            fitness = points / max(need, 1)
            if need <= trains - self.keep_margin and (best is None or fitness > best[0]):
                best = (fitness, option)
            if need <= trains and (cheapest is None or need < cheapest[0]):
                cheapest = (need, option)
        if best is not None:
            return best[1]
        if cheapest is not None:
            return cheapest[1]
        return fewest_points_keep(obs, options)


def _with_better_twins(obs: Observation, plan: list[int]) -> list[int]:
    """The plan with each double route counted as whichever of its two open tracks the hand
    suits better (either one serves the network)."""
    net = network(obs.board)
    hand, owner = obs.hand, obs.owner
    out = []
    for t in plan:
        twin = net.twin[t]
        if twin >= 0 and owner[twin] < 0 and net.colour[t] != GRAY and net.colour[twin] != GRAY:
            if hand[net.colour[twin]] > hand[net.colour[t]]:
                t = twin
        out.append(t)
    return out
