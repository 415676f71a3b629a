"""Route planning on the board as one player sees it: the toolkit the heuristic strategies share.

Everything here reads only an ``Observation`` (never the game state), so a strategy built on it
cannot use hidden information. Costs are in trains: a track the player owns costs 0, a track it
may still claim costs its trains, anything else is impassable. The rules themselves (the
double-route rule, track points, which cities a network joins) come from the rules package.

- ``track_costs(obs)``: per track, its cost for the viewer or ``None``.
- ``shortest_path(costs, net, a, b)``: Dijkstra over those costs.
- ``plan_tickets(obs, tickets)``: a cheap set of tracks completing the tickets, shared tracks
  counted once (a greedy Steiner tree, best of several ticket orders).
- ``card_deficits`` / ``cards_missing``: cards still missing to pay for a set of tracks
  (ferries' locomotive spaces counted apart, see ``ferry_locomotives``).
- ``choose_payment`` / ``choose_draw``: pick among legal claims and draws given those needs.
"""

from __future__ import annotations

import functools
from heapq import heappop, heappush
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS, Board, Claim, DrawBlind, DrawMarket, Observation, ticket_connected,
    twin_blocks,
)


@dataclass(frozen=True)
class Network:
    """Static facts of a board, arranged for fast path search."""

    board: Board
    adjacency: tuple[tuple[tuple[int, int], ...], ...]  # city -> ((track, other city), ...)
    ends: tuple[tuple[int, int], ...]  # track -> (city a, city b)
    length: tuple[int, ...]
    colour: tuple[int, ...]
    twin: tuple[int, ...]
    trains: tuple[int, ...]  # trains a claim takes (length + mountain spaces)
    ferry: tuple[int, ...]


@functools.lru_cache(maxsize=None)
def network(board: Board) -> Network:
    adjacency: list[list[tuple[int, int]]] = [[] for _ in board.cities]
    for t in board.tracks:
        adjacency[t.a].append((t.id, t.b))
        adjacency[t.b].append((t.id, t.a))
    return Network(
        board=board,
        adjacency=tuple(tuple(a) for a in adjacency),
        ends=tuple((t.a, t.b) for t in board.tracks),
        length=tuple(t.length for t in board.tracks),
        colour=tuple(t.colour for t in board.tracks),
        twin=tuple(t.twin for t in board.tracks),
        trains=tuple(t.trains for t in board.tracks),
        ferry=tuple(t.ferry_locomotives for t in board.tracks),
    )


def claimable(obs: Observation, track: int, player: int | None = None) -> bool:
    """Whether ``player`` (the viewer by default) may still claim ``track`` at some point:
    unclaimed, not closed by its twin, and within the player's trains."""
    p = obs.player if player is None else player
    net = network(obs.board)
    owner = obs.owner
    if owner[track] >= 0 or net.trains[track] > obs.trains[p]:
        return False
    twin = net.twin[track]
    # ``Observation.track_open`` is the same test; this runs for every planned track at every
    # decision, so the double-route rule is asked only about a twin someone holds.
    return twin < 0 or owner[twin] < 0 or not twin_blocks(owner[twin], p, obs.doubles_shared)


def track_costs(
    obs: Observation, player: int | None = None, card_weight: float = 0.0, route_weight: float = 0.0,
) -> list[float | None]:
    """Per track: 0 if the player owns it, its trains if the player may claim it, else None.
    With ``card_weight`` (the viewer only), a claimable track also costs that much per card its
    hand lacks for it, so plans lean towards routes it can already pay for. With
    ``route_weight``, a track costs that much less per route point it scores beyond one a train,
    so plans lean towards the long routes that score best per train."""
    p = obs.player if player is None else player
    shared = obs.doubles_shared
    costs = costs_for(network(obs.board), obs.owner, p, obs.trains[p], shared, obs.hand if card_weight else None,
                      card_weight)
    return discount_points(costs, network(obs.board), obs.track_points, route_weight) if route_weight else costs


def discount_points(
    costs: list[float | None], net: "Network", points: Sequence[int], route_weight: float,
) -> list[float | None]:
    """``costs`` with each claimable track ``route_weight`` cheaper per route point above one a
    train (a 6-train route scores 15: 9 above), never below a quarter of its trains."""
    out: list[float | None] = []
    for t, c in enumerate(costs):
        if c:
            extra = points[t] - net.trains[t]
            c = max(c - route_weight * extra, 0.25 * net.trains[t]) if extra > 0 else c
        out.append(c)
    return out


def costs_for(
    net: Network, owner: Sequence[int], player: int, trains: int, shared: bool,
    hand: Sequence[int] | None = None, card_weight: float = 0.0,
) -> list[float | None]:
    """``track_costs`` from plain facts (who owns what, the player's trains and hand), for callers
    that hold a (determinized) state rather than an observation."""
    most = max(hand[:NUM_COLOURS]) if hand is not None else 0
    costs: list[float | None] = []
    for t, o in enumerate(owner):
        if o == player:
            costs.append(0)
        elif o >= 0 or net.trains[t] > trains:
            costs.append(None)
        else:
            tw = net.twin[t]
            if tw >= 0 and owner[tw] >= 0 and twin_blocks(owner[tw], player, shared):  # a free twin: no call
                costs.append(None)
            elif card_weight and hand is not None:
                colour = net.colour[t]
                have = most if colour == GRAY else hand[colour]
                length = net.length[t] - net.ferry[t]
                lacking = (length - have if length > have else 0) + 2 * net.ferry[t]  # locomotives are scarce
                costs.append(net.trains[t] + card_weight * lacking)
            else:
                costs.append(net.trains[t])
    return costs


def shortest_path(costs: Sequence[float | None], net: Network, a: int, b: int) -> tuple[float, list[int]] | None:
    """Cheapest path from city ``a`` to ``b``: ``(cost, tracks)``, or None if cut off. Among equal
    costs, fewer tracks to claim wins (they are cheaper in turns); then the heap's order (lowest
    city first). Costs may be floats; a path costing 2**30 or more counts as cut off.

    Strategies search a lot, so this is Dijkstra kept in lists (best cost and best number of
    tracks to claim per city, the track each city was reached by), not dicts of tuples."""
    if a == b:
        return 0, []
    adjacency = net.adjacency
    n = len(adjacency)
    best_cost: list[float] = [1 << 30] * n
    best_hops = [0] * n
    via = [-1] * n
    best_cost[a] = 0
    heap = [(0, 0, a)]
    while heap:
        cost, hops, city = heappop(heap)
        if city == b:
            path = []
            ends = net.ends
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
    net = network(obs.board)
    base = list(costs if costs is not None else track_costs(obs))
    board = obs.board
    roots = obs.components()
    todo, done = [], []
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
            found = shortest_path(cost_now, net, t.a, t.b)
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
            trains = sum(net.trains[t] for t in chosen)
            best = (key, Plan(tuple(chosen), trains, tuple(sorted(lost)), tuple(done)))
    assert best is not None
    return best[1]


def best_twins(obs: Observation, tracks: Iterable[int]) -> list[int]:
    """Each planned track, or its parallel twin when that is claimable and better matches the
    hand (both join the same cities, so either serves the plan)."""
    net = network(obs.board)
    hand = obs.hand
    most = max(hand[:NUM_COLOURS])
    out = []
    for t in tracks:
        tw = net.twin[t]
        if tw >= 0 and claimable(obs, tw):
            def have(x: int) -> int:
                return most if net.colour[x] == GRAY else hand[net.colour[x]]
            if have(tw) > have(t):
                t = tw
        out.append(t)
    return out


def card_deficits(hand: Sequence[int], tracks: Iterable[int], net: Network) -> list[int]:
    """Per train colour, how many more cards the tracks need beyond the hand, not counting
    the spaces of ferries that only locomotives may pay (see ``ferry_locomotives``); gray tracks
    are assigned to the colour with the most spare cards. ``cards_missing`` turns this into how
    many cards are really missing once locomotives are counted."""
    need = [0] * NUM_COLOURS
    grays = []
    for t in tracks:
        c = net.colour[t]
        if c == GRAY:
            grays.append(net.length[t] - net.ferry[t])
        else:
            need[c] += net.length[t] - net.ferry[t]
    spare = [hand[c] - need[c] for c in range(NUM_COLOURS)]
    for length in sorted(grays, reverse=True):
        c = max(range(NUM_COLOURS), key=lambda k: (spare[k], -k))
        need[c] += length
        spare[c] -= length
    return [max(0, need[c] - hand[c]) for c in range(NUM_COLOURS)]


def ferry_locomotives(tracks: Iterable[int], net: Network) -> int:
    """Locomotives the ferries among ``tracks`` require (no other card may pay those spaces)."""
    return sum(net.ferry[t] for t in tracks)


def cards_missing(hand: Sequence[int], tracks: Sequence[int], net: Network) -> int:
    """Cards still to draw to pay for ``tracks``: the colour deficits plus the ferries'
    locomotives, less the locomotives in hand (which pay either)."""
    return max(0, sum(card_deficits(hand, tracks, net)) + ferry_locomotives(tracks, net) - hand[LOCOMOTIVE])


def choose_payment(claims: Sequence[Claim], hand: Sequence[int], deficits: Sequence[int] | None = None) -> Claim:
    """Among payments for one track, the one that spends the fewest locomotives and, after that,
    the fewest cards other planned tracks still need (``deficits``), then the smallest pile
    that covers it (big piles are kept for long tracks of one colour)."""
    deficits = deficits or [0] * NUM_COLOURS

    def cost(a: Claim) -> tuple:
        needed_elsewhere = 0 if a.colour == LOCOMOTIVE else max(0, a.cards - max(0, hand[a.colour] - deficits[a.colour]))
        colour_pile = 0 if a.colour == LOCOMOTIVE else hand[a.colour]
        return (a.locomotives, needed_elsewhere, colour_pile, a.colour)

    return min(claims, key=cost)


def choose_draw(obs: Observation, legal: Sequence, weights: Sequence[float], locomotive_weight: float) -> object:
    """The most useful draw. ``weights[c]`` is how much a card of colour ``c`` is worth now;
    ``locomotive_weight`` what a face-up locomotive is worth as a whole turn. A blind card is
    worth what an unseen card is on average (a blind locomotive always helps when anything
    does); a face-up locomotive forgoes the second draw, so that draw's value is deducted."""
    wanted = any(w > 0 for w in weights)
    blind_value = sum(weights) / NUM_CARD_KINDS + (1 / NUM_CARD_KINDS if wanted else 0.0)
    best, best_value = None, float("-inf")
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
        plan = self.plan
        # The player's own tracks change only when its trains do: a cheap test first.
        if (plan is not None and self.key is not None and tickets == self.key[0] and obs.trains[me] == self._trains
                and all(claimable(obs, t) for t in plan.tracks)):
            return plan
        mine = tuple(t for t, o in enumerate(owner) if o == me)
        key = (tickets, mine)
        self._trains = obs.trains[me]
        if plan is not None and key == self.key and all(claimable(obs, t) for t in plan.tracks):
            return plan
        if plan is not None and self.key is not None and tickets == self.key[0]:
            # The player's new tracks are all planned ones (or their parallel twins): the rest
            # of the plan stands, with no new search.
            net = network(obs.board)
            before = set(self.key[1])
            planned = set(plan.tracks)
            new = [t for t in mine if t not in before]
            if len(new) + len(before) == len(mine) and all(t in planned or net.twin[t] in planned for t in new):
                rest = tuple(t for t in plan.tracks if owner[t] != me and not (net.twin[t] >= 0 and owner[net.twin[t]] == me))
                if all(claimable(obs, t) for t in rest):
                    roots = obs.components()
                    board_tickets = obs.board.tickets
                    done = tuple(tk for tk in tickets if ticket_connected(board_tickets[tk], roots))
                    self.plan = Plan(rest, sum(net.trains[t] for t in rest), plan.unreachable, done)
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
