"""Pure scoring functions over a player's tracks: ticket connection and the longest trail."""

from __future__ import annotations

from typing import Iterable, Sequence


def connected_components(num_cities: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """Union-find over ``edges``; returns each city's component root."""
    parent = list(range(num_cities))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return [find(x) for x in range(num_cities)]


def longest_trail(edges: Sequence[tuple[int, int, int]]) -> int:
    """Length of the longest trail (no track used twice; cities may repeat) through ``edges``,
    each ``(city_a, city_b, length)``; the sum of the lengths along it. Exact: a depth-first search
    over every trail from every city, which a player's few dozen tracks keep small."""
    if not edges:
        return 0
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for i, (a, b, w) in enumerate(edges):
        adjacency.setdefault(a, []).append((1 << i, b, w))
        adjacency.setdefault(b, []).append((1 << i, a, w))
    best = 0

    def walk(city: int, used: int, length: int) -> None:
        nonlocal best
        extended = False
        for bit, other, w in adjacency[city]:
            if not used & bit:
                extended = True
                walk(other, used | bit, length + w)
        if not extended and length > best:
            best = length

    for city in adjacency:
        walk(city, 0, 0)
    return best


def rank_order(keys: Sequence[tuple]) -> list[int]:
    """Competition ranks (1 = best) for sort keys where larger is better; equal keys share."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]
