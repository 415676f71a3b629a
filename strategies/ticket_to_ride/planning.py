"""Route planning on the board as one player sees it: the toolkit the heuristic strategies share.

Everything here reads only an ``Observation`` (never the game state), so a strategy built on it
cannot use hidden information. Costs are in trains: a track the player owns costs 0, a track it
may still claim costs its trains, anything else is impassable. The rules themselves (the
double-route rule, track points, which cities a network joins) and the board's track tables
(``Tables``: per track its ends, length, colour, trains, twin; per city its tracks) come from
the rules package: ``obs.tables``, ``obs.claimable``, ``obs.components``.

- ``track_costs(obs)``: per track, its cost for the viewer or ``None``.
- ``shortest_path(costs, tables, a, b)``: Dijkstra over those costs.
- ``plan_tickets(obs, tickets)``: a cheap set of tracks completing the tickets, shared tracks
  counted once (a greedy Steiner tree, best of several ticket orders).
- ``choose_payment`` / ``choose_draw``: pick among legal claims and draws given those needs.
"""

from __future__ import annotations

from heapq import heappop, heappush
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS, Action, Claim, DrawBlind, DrawMarket, Observation, Tables, ticket_connected,
)


def track_costs(
    obs: Observation, player: int | None = None, card_weight: float = 0.0, route_weight: float = 0.0,
) -> list[float | None]:
    """Per track: 0 if the player owns it, its trains if the player may claim it, else None.
    With ``card_weight`` (the viewer only), a claimable track also costs that much per card its
    hand lacks for it, so plans lean towards routes it can already pay for. With
    ``route_weight``, a track costs that much less per route point it scores beyond one a train,
    so plans lean towards the long routes that score best per train."""
    p = obs.player if player is None else player
    tables = obs.tables
    costs = costs_for(tables, obs.owner, p, obs.trains[p], obs.hand if card_weight else None, card_weight)
    return discount_points(costs, tables, obs.track_points, route_weight) if route_weight else costs


def discount_points(
    costs: list[float | None], tables: Tables, points: Sequence[int], route_weight: float,
) -> list[float | None]:
    """``costs`` with each claimable track ``route_weight`` cheaper per route point above one a
    train (a 6-train route scores 15: 9 above), never below a quarter of its trains."""
    trains_of = tables.track_trains
    out: list[float | None] = []
    for t, c in enumerate(costs):
        if c:
            extra = points[t] - trains_of[t]
            c = max(c - route_weight * extra, 0.25 * trains_of[t]) if extra > 0 else c
        out.append(c)
    return out


def costs_for(
    tables: Tables, owner: Sequence[int], player: int, trains: int,
    hand: Sequence[int] | None = None, card_weight: float = 0.0,
) -> list[float | None]:
    """``track_costs`` from plain facts (who owns what, the player's trains and hand), for callers
    that hold a (determinized) state rather than an observation."""
    most = max(hand[:NUM_COLOURS]) if hand is not None else 0
    trains_of, colour_of, length_of, ferry_of = tables.track_trains, tables.track_colour, tables.track_length, tables.track_ferry
    # ``Tables.claimable`` read inline (this runs over every track at most decisions): the
    # double-route rule as the engine tabulates it, per owner of the twin (or of the track itself,
    # which is nobody here, for a single track).
    blocked, twin_or_self = tables.twin_blocks_for[player], tables.twin_or_self
    costs: list[float | None] = []
    for t, o in enumerate(owner):
        if o == player:
            costs.append(0)
        elif o >= 0 or trains_of[t] > trains or blocked[owner[twin_or_self[t]]]:
            costs.append(None)
        elif card_weight and hand is not None:
            colour = colour_of[t]
            have = most if colour == GRAY else hand[colour]
            length = length_of[t] - ferry_of[t]
            lacking = (length - have if length > have else 0) + 2 * ferry_of[t]  # locomotives are scarce
            costs.append(trains_of[t] + card_weight * lacking)
        else:
            costs.append(trains_of[t])
    return costs


def shortest_path(costs: Sequence[float | None], tables: Tables, a: int, b: int) -> tuple[float, list[int]] | None:
    """Cheapest path from city ``a`` to ``b``: ``(cost, tracks)``, or None if cut off. Among equal
    costs, fewer tracks to claim wins (they are cheaper in turns); then the heap's order (lowest
    city first). Costs may be floats; a path costing 2**30 or more counts as cut off.

    Strategies search a lot, so this is Dijkstra kept in lists (best cost and best number of
    tracks to claim per city, the track each city was reached by), not dicts of tuples."""
    if a == b:
        return 0, []
    adjacency = tables.adjacency
    n = len(adjacency)
    best_cost: list[float] = [1 << 30] * n
    best_hops = [0] * n
    via = [-1] * n
    best_cost[a] = 0
    heap: list[tuple[float, int, int]] = [(0, 0, a)]
    while heap:
        cost, hops, city = heappop(heap)
        if city == b:
            path = []
            ends = tables.track_ends
            while city != a:
                t = via[city]
                path.append(t)
                end_a, end_b = ends[t]
                city = end_a if end_b == city else end_b
            path.reverse()
            return cost, path
        known = best_cost[city]
        if known < cost or (known == cost and best_hops[city] < hops):
            continue  # a stale heap entry
        step = hops + 1
        for t, other in adjacency[city]:
            c = costs[t]
            if c is None:
                continue
            if c:
                new_cost, new_hops = cost + c, step
            else:
                new_cost, new_hops = cost, hops
            known = best_cost[other]
            if new_cost < known or (new_cost == known and new_hops < best_hops[other]):
                best_cost[other] = new_cost
                best_hops[other] = new_hops
                via[other] = t
                heappush(heap, (new_cost, new_hops, other))
    return None


@dataclass(frozen=True)
class Plan:
    tracks: tuple[int, ...]  # tracks still to claim, cheapest plan found
    cost: int  # trains those tracks take
    unreachable: tuple[int, ...]  # tickets that can no longer be completed
    done: tuple[int, ...]  # tickets already completed

    @property
    def open_tickets(self) -> int:
        return len(self.unreachable)


def plan_tickets(
    obs: Observation, tickets: Iterable[int], costs: Sequence[float | None] | None = None, orders: int = 4
) -> Plan:
    """A cheap set of tracks that completes every reachable ticket. Tickets are routed one by one
    with tracks already chosen counted free (so shared routes count once); ``orders`` different
    first tickets are tried and the cheapest total kept. ``Plan.cost`` is in trains whatever
    the ``costs`` used to choose the routes."""
    tables = obs.tables
    base = list(costs if costs is not None else track_costs(obs))
    board = obs.board
    roots = obs.components()
    todo: list[int] = []
    done: list[int] = []
    for tk in tickets:
        (done if ticket_connected(board.tickets[tk], roots) else todo).append(tk)
    # Most valuable first by default; other orders start from another ticket.
    todo.sort(key=lambda tk: (-board.tickets[tk].points, tk))
    best: tuple | None = None
    for first in range(min(max(orders, 1), max(len(todo), 1))):
        order = todo[first:first + 1] + todo[:first] + todo[first + 1:]
        cost_now = base[:]
        chosen: list[int] = []
        objective = 0.0
        lost = []
        for tk in order:
            t = board.tickets[tk]
            found = shortest_path(cost_now, tables, t.a, t.b)
            if found is None:
                lost.append(tk)
                continue
            for track in found[1]:
                c = cost_now[track]
                if c:
                    chosen.append(track)
                    objective += c
                    cost_now[track] = 0
        key = (len(lost), objective)
        if best is None or key < best[0]:
            trains = sum(tables.track_trains[t] for t in chosen)
            best = (key, Plan(tuple(chosen), trains, tuple(sorted(lost)), tuple(done)))
    assert best is not None
    return best[1]


def choose_payment(claims: Sequence[Claim], hand: Sequence[int], deficits: Sequence[int] | None = None,
                   extra: "Callable[[int], float] | None" = None) -> Claim:
    """Among payments for one track, the one that spends the fewest locomotives and, after that,
    (a tunnel, with ``extra``: a payment colour's expected extra cards) the fewest extra cards
    expected, the fewest cards other planned tracks still need (``deficits``), then the
    smallest pile that covers it (big piles are kept for long tracks of one colour)."""
    deficits = deficits or [0] * NUM_COLOURS

    def cost(a: Claim) -> tuple:
        needed_elsewhere = 0 if a.colour == LOCOMOTIVE else max(0, a.cards - max(0, hand[a.colour] - deficits[a.colour]))
        colour_pile = 0 if a.colour == LOCOMOTIVE else hand[a.colour]
        return (a.locomotives, extra(a.colour) if extra else 0.0, needed_elsewhere, colour_pile, a.colour)

    return min(claims, key=cost)


def choose_draw(obs: Observation, legal: Sequence[Action], weights: Sequence[float], locomotive_weight: float) -> Action:
    """The most useful draw. ``weights[c]`` is how much a card of colour ``c`` is worth now;
    ``locomotive_weight`` what a face-up locomotive is worth as a whole turn. A blind card is
    worth what an unseen card is on average (a blind locomotive always helps when anything
    does); a face-up locomotive forgoes the second draw, so that draw's value is deducted."""
    wanted = any(w > 0 for w in weights)
    blind_value = sum(weights) / NUM_CARD_KINDS + (1 / NUM_CARD_KINDS if wanted else 0.0)
    best: Action | None = None
    best_value = float("-inf")
    for a in legal:
        if type(a) is DrawBlind:
            value = blind_value
        elif type(a) is DrawMarket:
            card = obs.market[a.slot]
            value = locomotive_weight - blind_value if card == LOCOMOTIVE else weights[card]
        else:
            continue
        if value > best_value or (value == best_value and type(a) is DrawBlind):
            best, best_value = a, value
    return best if best is not None else legal[0]


class PlanCache:
    """A strategy's current ticket plan, recomputed only when it may have changed: when the
    player's tickets or own tracks change, or a planned track is lost to someone else. (Claims
    elsewhere only make other routes dearer, so they cannot make the plan worse than another.)"""

    def __init__(self, orders: int = 4, card_weight: float = 0.0, route_weight: float = 0.0) -> None:
        self.orders = orders
        self.card_weight = card_weight
        self.route_weight = route_weight
        self.key: tuple | None = None
        self.plan: Plan | None = None
        self.replans = 0
        self._trains = -1

    def get(self, obs: Observation, tickets: Sequence[int] | None = None) -> Plan:
        tickets = tuple(obs.tickets if tickets is None else tickets)
        me = obs.player
        owner = obs.owner
        trains = obs.trains[me]
        tables = obs.tables
        claimable = tables.claimable
        plan = self.plan
        # The player's own tracks change only when its trains do: a cheap test first.
        if (plan is not None and self.key is not None and tickets == self.key[0] and trains == self._trains
                and all(claimable(owner, t, me, trains) for t in plan.tracks)):
            return plan
        mine = tuple(t for t, o in enumerate(owner) if o == me)
        key = (tickets, mine)
        self._trains = trains
        if plan is not None and key == self.key and all(claimable(owner, t, me, trains) for t in plan.tracks):
            return plan
        if plan is not None and self.key is not None and tickets == self.key[0]:
            # The player's new tracks are all planned ones (or their parallel twins): the rest
            # of the plan stands, with no new search.
            before = set(self.key[1])
            planned = set(plan.tracks)
            new = [t for t in mine if t not in before]
            group = tables.twin_group
            if len(new) + len(before) == len(mine) and all(not planned.isdisjoint(group[t]) for t in new):
                rest = tuple(t for t in plan.tracks if not tables.holds_route(owner, t, me))
                if all(claimable(owner, t, me, trains) for t in rest):
                    roots = obs.components()
                    board_tickets = obs.board.tickets
                    done = tuple(tk for tk in tickets if ticket_connected(board_tickets[tk], roots))
                    self.plan = Plan(rest, sum(tables.track_trains[t] for t in rest), plan.unreachable, done)
                    self.key = key
                    return self.plan
        costs = track_costs(obs, card_weight=self.card_weight, route_weight=self.route_weight)
        self.plan = plan_tickets(obs, tickets, costs, orders=self.orders)
        self.key = key
        self.replans += 1
        return self.plan

    def adopt(self, other: PlanCache) -> None:
        """Start from ``other``'s current plan (a copy of a player's planner inside a search
        then re-plans only when its position moves away from that plan's)."""
        self.key, self.plan = other.key, other.plan


def claims_by_track(legal: Sequence) -> dict[int, list[Claim]]:
    """Every legal claim, grouped by track id."""
    out: dict[int, list[Claim]] = {}
    for a in legal:
        if type(a) is Claim:
            group = out.get(a.track)
            if group is None:
                out[a.track] = [a]
            else:
                group.append(a)
    return out


def cheapest_keep(obs: Observation, legal: Sequence, value: "Callable[[tuple[int, ...]], float]") -> object:
    """The keep action whose kept tickets (ids) score highest under ``value``."""
    offered = obs.offered
    return max(legal, key=lambda a: (value(tuple(offered[i] for i in a.indices)), [-i for i in a.indices]))
