"""The network Destination Hungry plans in the 2017 study's engine (its ``generate_game_plan``),
so the reference agent needs, draws and claims what the original did.

The engine joins a set of ticket cities like this (distances in trains over the tracks the
player holds, at 0, and those still open to it):

1. the two cities farthest apart (of those joined at all) become the first "start" and "end";
2. every other city, in turn, is joined by a cheapest path to the nearest start or end city and
   joins that side. The nearest distance is kept from one city to the next rather than reset, so
   a city that is not nearer than every earlier one is joined to the city the previous one was
   joined to; and a city with no path to either side ends the plan (no plan at all);
3. the nearest start-end pair is joined by a cheapest path.

The plan is the set of city pairs on those paths; pairs the player holds cost nothing, and of an
open double route it picks the colour no other planned route needs yet, else the colour needed
least. ``EnginePlan.trains`` is what the engine compares with its trains.
"""

from __future__ import annotations

from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Iterable, Sequence

from ttr_lab.games.ticket_to_ride import NUM_COLOURS, Tables

UNREACHED = 1 << 30


@dataclass(frozen=True)
class EnginePlan:
    tracks: tuple[int, ...]  # open tracks to claim, one per city pair
    trains: int  # trains they take
    needs: tuple[int, ...]  # trains per track colour (GRAY last) over those tracks


def distances(costs: Sequence[int | None], tables: Tables, source: int) -> tuple[list[int], list[int]]:
    """Dijkstra from ``source``: the cost to each city (UNREACHED if cut off) and the track each
    city was reached by."""
    adjacency = tables.adjacency
    dist = [UNREACHED] * len(adjacency)
    via = [-1] * len(adjacency)
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, city = heappop(heap)
        if d > dist[city]:
            continue
        for t, other in adjacency[city]:
            c = costs[t]
            if c is None:
                continue
            nd = d + c
            if nd < dist[other]:
                dist[other] = nd
                via[other] = t
                heappush(heap, (nd, other))
    return dist, via


def _path(via: Sequence[int], tables: Tables, source: int, target: int) -> list[int]:
    path = []
    city = target
    while city != source:
        t = via[city]
        if t < 0:
            return []
        path.append(t)
        a, b = tables.track_ends[t]
        city = a if b == city else b
    return path


def engine_plan(costs: Sequence[int | None], tables: Tables, cities: Iterable[int]) -> EnginePlan | None:
    """The engine's network for ``cities`` over ``costs`` (0 held, trains open, None closed), or
    None when it finds no plan."""
    key = sorted(set(cities))
    table = {c: distances(costs, tables, c) for c in key}
    far, start, end = 0, set(), set()
    for i, x in enumerate(key):
        dist = table[x][0]
        for y in key[i + 1:]:
            if dist[y] < UNREACHED and dist[y] > far:
                far, start, end = dist[y], {x}, {y}
    chosen: list[int] = []
    nearest, which, side = None, None, None
    for x in key:
        if x in start or x in end:
            continue
        dist = table[x][0]
        for name, group in (("start", start), ("end", end)):
            for y in sorted(group):
                if dist[y] < UNREACHED and (nearest is None or dist[y] < nearest):
                    nearest, which, side = dist[y], y, name
        if side is None or which is None:
            return None
        (start if side == "start" else end).add(x)
        chosen += _path(table[x][1], tables, x, which)
    best = None
    for x in sorted(start):
        dist, via = table[x]
        for y in sorted(end):
            if dist[y] < UNREACHED and (best is None or dist[y] < best[0]):
                best = (dist[y], x, y)
    if best is not None:
        chosen += _path(table[best[1]][1], tables, best[1], best[2])
    return _price(costs, tables, chosen)


def _price(costs: Sequence[int | None], tables: Tables, tracks: Sequence[int]) -> EnginePlan:
    needs = [0] * (NUM_COLOURS + 1)
    colour, length = tables.track_colour, tables.track_length
    pairs: dict[tuple[int, int], list[int]] = {}
    for t in tracks:
        a, b = tables.track_ends[t]
        pair = (min(a, b), max(a, b))
        if pair not in pairs:
            pairs[pair] = sorted(x for x in tables.twin_group[t] if costs[x] is not None)
    singles: list[list[int]] = []
    doubles: list[list[int]] = []
    for options in pairs.values():
        if any(costs[x] == 0 for x in options) or not options:
            continue  # held: nothing to do
        (doubles if len(options) > 1 else singles).append(options)
    out = []
    for (t,) in singles:
        needs[colour[t]] += length[t]
        out.append(t)
    for options in doubles:
        pick = next((x for x in options if needs[colour[x]] == 0), None)
        if pick is None:
            pick = min(options, key=lambda x: needs[colour[x]])
        needs[colour[pick]] += length[pick]
        out.append(pick)
    return EnginePlan(tuple(out), sum(tables.track_trains[t] for t in out), tuple(needs))
