"""Pure scoring functions: the points of a track, the longest trail, ranks.

(Ticket connection is ``network.player_components``; ``connected_components`` is imported here
too, where the scoring has always offered it.)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ttr_lab.games.ticket_to_ride.kernels.scoring import trail_length
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
    each ``(city_a, city_b, length)``; the sum of the lengths along it. Exact: the scoring
    kernel's search over every trail from every city that can start a longest one
    (``kernels.scoring.trail_length``)."""
    if not edges:
        return 0
    a, b, w = (np.array(column, dtype=np.int64) for column in zip(*edges))
    return int(trail_length(a, b, w, int(max(a.max(), b.max())) + 1))


def rank_order(keys: Sequence[tuple]) -> list[int]:
    """Competition ranks (1 = best) for sort keys where larger is better; equal keys share."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]
