"""Pure scoring functions: the points of a track, the longest trail, ranks.

(Ticket connection is ``network.player_components``; ``connected_components`` is imported here
too, where the scoring has always offered it.)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Sequence

from ttr_lab.games.ticket_to_ride.network import connected_components

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board, Track
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

__all__ = ["connected_components", "longest_trail", "points_per_track", "rank_order", "track_points"]


def track_points(track: "Track", ruleset: "Ruleset") -> int:
    """Points a claim of ``track`` scores at once: the route table by length, plus the ruleset's
    points for each mountain (X) space."""
    return ruleset.score_for_length(track.length) + ruleset.mountain_points_per_space * track.mountain_spaces


@functools.lru_cache(maxsize=64)
def points_per_track(board: "Board", ruleset: "Ruleset") -> tuple[int, ...]:
    """``track_points`` of every track of ``board``, by track id."""
    return tuple(track_points(t, ruleset) for t in board.tracks)


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
