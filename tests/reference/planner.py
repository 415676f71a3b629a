"""The ticket planner in Python: the reference the compiled planner is tested against.

The shipped ``ticket_planner`` is a face over the planner's kernels
(``ttr_lab.strategies.ticket_to_ride.planner_decisions`` on ``planner_toolkit``, plans kept by
``planner_playouts.KeptPlan``). This is the same judgement written plainly on observations,
with the shared toolkit of ``ttr_lab.strategies.ticket_to_ride.planning`` (costs, Dijkstra, ticket plans, the
plan cache, payment and draw choice), kept only so the agreement tests can check the kernels
decision for decision and play-out for play-out. Nothing shipped imports it.

What it decides, in order, is stated once, in ``ticket_planner``'s docstring (the shipped face).
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from ttr_lab.games.ticket_to_ride import (
    DRAW_TICKETS, GRAY, LOCOMOTIVE, NUM_COLOURS, Action, Claim, Observation, Phase, Tables,
)
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.strategies.ticket_to_ride.planning import (
    PlanCache, choose_draw, choose_payment, claims_by_track, plan_tickets, track_costs,
)


# -- the card arithmetic only the planner uses ------------------------------------------------------

def best_twins(obs: Observation, tracks: Iterable[int]) -> list[int]:
    """Each planned track, or its parallel twin when that is claimable and better matches the
    hand (both join the same cities, so either serves the plan)."""
    tables = obs.tables
    colour, twin_of = tables.track_colour, tables.track_twin
    hand = obs.hand
    most = max(hand[:NUM_COLOURS])
    out = []
    for t in tracks:
        tw = twin_of[t]
        if tw >= 0 and obs.claimable(tw):
            def have(x: int) -> int:
                return most if colour[x] == GRAY else hand[colour[x]]
            if have(tw) > have(t):
                t = tw
        out.append(t)
    return out


def card_deficits(hand: Sequence[int], tracks: Iterable[int], tables: Tables) -> list[int]:
    """Per train colour, how many more cards the tracks need beyond the hand, not counting
    the spaces of ferries that only locomotives may pay (see ``ferry_locomotives``); gray tracks
    are assigned to the colour with the most spare cards. ``cards_missing`` turns this into how
    many cards are really missing once locomotives are counted."""
    need = [0] * NUM_COLOURS
    grays = []
    colour, length, ferry = tables.track_colour, tables.track_length, tables.track_ferry
    for t in tracks:
        c = colour[t]
        if c == GRAY:
            grays.append(length[t] - ferry[t])
        else:
            need[c] += length[t] - ferry[t]
    spare = [hand[c] - need[c] for c in range(NUM_COLOURS)]
    for size in sorted(grays, reverse=True):
        c = max(range(NUM_COLOURS), key=lambda k: (spare[k], -k))
        need[c] += size
        spare[c] -= size
    return [max(0, need[c] - hand[c]) for c in range(NUM_COLOURS)]


def ferry_locomotives(tracks: Iterable[int], tables: Tables) -> int:
    """Locomotives the ferries among ``tracks`` require (no other card may pay those spaces)."""
    ferry = tables.track_ferry
    return sum(ferry[t] for t in tracks)


def cards_missing(hand: Sequence[int], tracks: Sequence[int], tables: Tables) -> int:
    """Cards still to draw to pay for ``tracks``: the colour deficits plus the ferries'
    locomotives, less the locomotives in hand (which pay either)."""
    return max(0, sum(card_deficits(hand, tracks, tables)) + ferry_locomotives(tracks, tables) - hand[LOCOMOTIVE])


class TicketPlanner:
    """The ticket planner in Python, on observations (the shipped one is the kernels' face)."""

    name = "ticket_planner"

    def __init__(self, **knob_values: Any) -> None:
        self.knobs = knobs(**knob_values)
        k = self.knobs
        self.plans = PlanCache(orders=k.plan_orders, card_weight=k.card_weight, route_weight=k.route_weight)

    # -- decisions -----------------------------------------------------------------------------

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        if obs.phase in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS):
            return self._keep(obs, legal_actions)
        plan = self.plans.get(obs)
        if obs.phase == Phase.SECOND_DRAW:
            return self._draw(obs, legal_actions, plan.tracks)
        # The planned tracks (or their twins) the hand can pay for now: the engine's legal claims.
        claims = claims_by_track(legal_actions)
        group = obs.tables.twin_group
        by_track = {x: claims[x] for t in plan.tracks for x in group[t] if x in claims}
        if by_track:
            claim = self._planned_claim(obs, by_track, plan.tracks)
            if claim is not None:
                return claim
        last_turn = obs.final_round  # in the final round every player has exactly one turn left
        if plan.tracks and not last_turn and self._turns_needed(obs, plan.tracks) <= self._turns_left(obs):
            return self._draw(obs, legal_actions, plan.tracks)
        if (
            not plan.tracks and not self._endgame(obs) and DRAW_TICKETS in legal_actions
            and obs.trains[obs.player] >= self.knobs.draw_tickets_min_trains
        ):
            return DRAW_TICKETS
        claim = self._points_claim(obs, claims, last_chance=last_turn or self._endgame(obs))
        if claim is not None:
            return claim
        return self._draw(obs, legal_actions, plan.tracks or self._points_targets(obs))

    def _turns_needed(self, obs: Observation, tracks: Sequence[int]) -> float:
        """Turns to build ``tracks``: one per claim, plus the missing cards at two a turn."""
        return len(tracks) + cards_missing(obs.hand, tracks, obs.tables) / 2

    def _turns_left(self, obs: Observation) -> float:
        """A rough count of this player's turns before the game ends: the player closest to the
        end spends about one train a turn, and the game ends at the ruleset's threshold."""
        lowest = min(obs.trains)
        return max(0.0, (lowest - obs.ruleset.end_trains) / 1.2) + 1

    def _endgame(self, obs: Observation) -> bool:
        return obs.final_round or min(obs.trains) <= self.knobs.endgame_trains

    def _keep(self, obs: Observation, legal: Sequence[Action]) -> Action:
        held = obs.tickets
        tickets = obs.board.tickets
        costs = track_costs(obs, card_weight=self.knobs.card_weight, route_weight=self.knobs.route_weight)
        base = plan_tickets(obs, held, costs) if held else None
        base_cost = base.cost if base else 0
        budget = self.knobs.plan_budget * obs.trains[obs.player]

        def value(indices: tuple[int, ...]) -> tuple[float, int]:
            chosen = [obs.offered[i] for i in indices]
            plan = plan_tickets(obs, list(held) + chosen, costs, orders=self.knobs.keep_orders)
            lost = set(plan.unreachable)
            score = 0.0
            for tk in chosen:
                score += -tickets[tk].points if tk in lost else tickets[tk].points
            score -= self.knobs.ticket_cost_weight * (plan.cost - base_cost)
            overflow = plan.cost - budget
            if overflow > 0:  # likely failures: each train over budget costs dearly
                score -= 4.0 * overflow
            return score, -len(indices)

        return max(legal, key=lambda a: (value(a.indices), [-i for i in a.indices]))

    def _planned_claim(self, obs: Observation, by_track: dict[int, list[Claim]], planned: Sequence[int]) -> Action | None:
        if not by_track or not planned:
            return None
        tables = obs.tables
        options = []
        for t in planned:
            alternatives = [x for x in tables.twin_group[t] if x in by_track]
            if not alternatives:
                continue
            twin = tables.track_twin[t]
            spare = twin >= 0 and obs.claimable(twin)
            options.append((not spare, tables.track_length[t], -t, alternatives))
        if not options:
            return None
        _, _, _, alternatives = max(options, key=lambda o: o[:3])
        rest = best_twins(obs, [t for t in planned if t not in alternatives])
        deficits = card_deficits(obs.hand, rest, tables)
        claims = [a for t in alternatives for a in by_track[t]]
        return choose_payment(claims, obs.hand, deficits)

    def _points_claim(self, obs: Observation, by_track: dict[int, list[Claim]], last_chance: bool) -> Action | None:
        if not by_track:
            return None
        tables = obs.tables
        ends = tables.track_ends
        points = obs.track_points
        roots = obs.components()
        mine = {c for t, o in enumerate(obs.owner) if o == obs.player for c in ends[t]}
        trains = obs.trains[obs.player]
        shortest_wanted = min(self.knobs.points_min_length, trains)
        best, best_key = None, None
        for t in by_track:
            if tables.track_length[t] < shortest_wanted and not last_chance:
                continue
            a, b = ends[t]
            touches = (a in mine) + (b in mine) - (1 if a in mine and b in mine and roots[a] == roots[b] else 0)
            key = (points[t] + 1.5 * min(touches, 1), -t)
            if best_key is None or key > best_key:
                best, best_key = t, key
        if best is None:
            return None
        return choose_payment(by_track[best], obs.hand)

    def _points_targets(self, obs: Observation) -> list[int]:
        """The longest tracks it could still claim: what points mode collects cards for."""
        length = obs.tables.track_length
        costs = track_costs(obs)
        open_tracks = [t for t, c in enumerate(costs) if c]
        if not open_tracks:
            return []
        open_tracks.sort(key=lambda t: (-length[t], t))
        return open_tracks[:2]

    def _draw(self, obs: Observation, legal: Sequence[Action], targets: Sequence[int]) -> Action:
        tables = obs.tables
        hand = obs.hand
        targets = best_twins(obs, targets)
        deficits = card_deficits(hand, targets, tables)
        missing = cards_missing(hand, targets, tables)
        ferries_short = ferry_locomotives(targets, tables) > hand[LOCOMOTIVE]
        weights = [1.0 + 0.05 * d if d > 0 else 0.0 for d in deficits]
        if not any(weights) and targets:
            # Everything is affordable in principle (gray needs any colour): build the biggest pile.
            for t in targets:
                if tables.track_colour[t] == GRAY:
                    c = max(range(NUM_COLOURS), key=lambda k: (hand[k], -k))
                    weights[c] = 1.0
        # A face-up locomotive is worth a turn when many cards are missing, or a ferry needs it.
        locomotive = 1.6 if missing >= self.knobs.locomotive_deficit or ferries_short else 0.3
        return choose_draw(obs, legal, weights, locomotive_weight=locomotive)


# -- the helpers the agreement tests and the planner bench's old fidelity table used ---------------

def python_choice(state: Any) -> Action:
    """What a fresh ``TicketPlanner(plan_orders=1, keep_orders=1)`` plays in ``state``."""
    p = state.current_player
    return TicketPlanner(plan_orders=1, keep_orders=1).act(state.observation(p), state.legal_actions(), random.Random(0))


def python_playout(state: Any) -> tuple[list[int], int]:
    """A play-out by ticket planners at every seat, as the search plays one: final scores, decisions."""
    planners = [TicketPlanner(plan_orders=1, keep_orders=1) for _ in range(state.num_players)]
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        p = state.current_player
        state.apply(legal[0] if len(legal) == 1 else planners[p].act(state.observation(p), legal, rng))
        decisions += 1
    return list(state.result().scores), decisions
