"""``StepAgent``: the one-route-at-a-time play shared by One Step Thinking and Long Route, and
``ratio_keep``, the ticket keep both use (points per train needed).

Two of the four reference agents of the 2017 playtesting study (de Mesentier Silva et al., FDG
2017; see ``docs/reference-agents.md`` and ``strategies.reference_common``). Everything reads only
the ``Observation`` given to the agent.
"""

from __future__ import annotations

from typing import Sequence

from strategies.planning import network, shortest_path, track_costs
from strategies.reference_common import (
    PlanMemo, colour_wish, draw_towards, fallback, fewest_points_keep, keep_options, longest_target,
    pair_claims, payable_claims, plain_payment, ticket_draw, ticket_trains, track_colour_for,
)
from ttr_lab.games.ticket_to_ride import Action, KeepTickets, Observation, Phase, ticket_connected

# A ticket no path can complete counts, when tickets are compared, as this many trains (more
# than a player ever has), so an offer holding one is never "affordable".
UNREACHABLE_TRAINS = 50


class StepAgent:
    """The play shared by One Step Thinking and Long Route: aim at one route at a time.

    The target is the next unclaimed track on the cheapest path of the most valuable ticket that
    can still be completed (paths over the tracks ``usable_costs`` allows); with no such ticket,
    the subclass may draw tickets (``wants_tickets``), else the target is the longest track it
    can claim, ranked by how well the hand fits it. The agent claims the target (either track of
    a double route) as soon as it can pay; until then it draws the target's colour face up, else
    a face-up locomotive, else blind. The target is kept until the board changes under it, as the
    study's engine keeps it until somebody scores.

    Subclasses set ``gray_in_hand`` (the ``hand_fit`` rank of a gray track the hand pays in one
    colour) and override ``usable_costs``, ``wants_tickets`` and ``keep``.
    """

    gray_in_hand = 10

    def __init__(self) -> None:
        self._memo = PlanMemo()
        self._for_ticket = False  # whether the remembered path serves a ticket

    def usable_costs(self, obs: Observation) -> list[int | None]:
        raise NotImplementedError

    def wants_tickets(self, obs: Observation) -> bool:
        return False

    def keep(self, obs: Observation, legal: Sequence[Action]) -> KeepTickets:
        raise NotImplementedError

    def _target(self, obs: Observation) -> tuple[int | None, bool]:
        """(track to aim at or None, whether it serves a ticket)."""
        memo = self._memo
        if memo.valid(obs):
            left = memo.remaining(obs)
            if left:
                return left[0], self._for_ticket
        path, for_ticket = self._choose(obs)
        memo.remember(obs, path)
        self._for_ticket = for_ticket
        return (path[0] if path else None), for_ticket

    def _choose(self, obs: Observation) -> tuple[list[int], bool]:
        net = network(obs.board)
        costs = self.usable_costs(obs)
        roots = obs.components()
        board_tickets = obs.board.tickets
        best = None
        for tk in obs.tickets:
            t = board_tickets[tk]
            if ticket_connected(t, roots):
                continue
            found = shortest_path(costs, net, t.a, t.b)
            if found is None:
                continue
            if best is None or t.points > best[0]:
                best = (t.points, found[1])
        if best is not None:
            return [t for t in best[1] if costs[t]], True
        target = longest_target(obs, track_costs(obs), self.gray_in_hand)
        return ([] if target is None else [target]), False

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng) -> Action:
        obs = observation
        phase = obs.phase
        if phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS:
            return self.keep(obs, legal_actions)
        target, for_ticket = self._target(obs)
        if phase is Phase.TURN:
            if not for_ticket and self.wants_tickets(obs):
                tickets = ticket_draw(legal_actions)
                if tickets is not None:
                    return tickets
            if target is not None:
                claims = payable_claims(obs, legal_actions, (target,))
                options = pair_claims(claims, target, network(obs.board))
                if options:
                    return plain_payment(options, obs.hand)
        want = colour_wish(track_colour_for(obs, target) if target is not None else None)
        return draw_towards(obs, legal_actions, want, locomotive=0.5) or fallback(legal_actions, rng)


def ratio_keep(obs: Observation, legal: Sequence[Action], costs: Sequence[int | None]) -> KeepTickets:
    """The keep with the most ticket points per train needed (each ticket on its own cheapest
    path over ``costs``; a ticket no path completes counts as minus its points and
    ``UNREACHABLE_TRAINS`` trains), among keeps that fit in the player's trains; failing that,
    the keep worth fewest points."""
    options = keep_options(legal)
    roots = obs.components()
    board_tickets = obs.board.tickets
    value: dict[int, tuple[int, int]] = {}
    for tk in obs.offered:
        need = ticket_trains(obs, costs, tk, roots)
        points = board_tickets[tk].points
        value[tk] = (points, need) if need is not None else (-points, UNREACHABLE_TRAINS)
    trains = obs.trains[obs.player]
    best = None
    for option in options:
        kept = [obs.offered[i] for i in option.indices]
        points = sum(value[tk][0] for tk in kept)
        need = sum(value[tk][1] for tk in kept)
        if need > trains:
            continue
        if need:
            ratio = points / need
        else:
            ratio = float("inf") if points > 0 else 0.0
        if ratio > 0 and (best is None or ratio > best[0]):
            best = (ratio, option)
    return best[1] if best is not None else fewest_points_keep(obs, options)
