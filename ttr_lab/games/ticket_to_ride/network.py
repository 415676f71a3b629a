"""A player's network: which tracks it may still claim, and which cities its tracks join.

The double-route rule and connectivity are written here once; the engine, the final scoring
and the strategies all call these functions rather than restating them.

Double routes: two tracks joining the same cities are *twins*. No player may hold both tracks of
a double route; with fewer players than ``Ruleset.double_routes_min_players`` the first claim
closes the other track for everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board, Ticket
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset


def doubles_shared(num_players: int, ruleset: "Ruleset") -> bool:
    """Whether both tracks of a double route may be claimed (by different players) at this
    player count."""
    return num_players >= ruleset.double_routes_min_players


def twin_closes(twin_owner: int, shared: bool) -> bool:
    """Whether a track's twin, held by ``twin_owner`` (-1: nobody), closes the track for every
    player (``shared``: see ``doubles_shared``)."""
    return twin_owner >= 0 and not shared


def twin_blocks(twin_owner: int, player: int, shared: bool) -> bool:
    """Whether a track's twin, held by ``twin_owner`` (-1: nobody), keeps ``player`` from claiming
    the track: the player holds the twin itself, or the twin closes the track for everyone."""
    return twin_owner >= 0 and (twin_owner == player or not shared)


def track_open(owner: Sequence[int], track: int, twin: int, player: int, shared: bool) -> bool:
    """Whether ``player`` may claim ``track`` as far as ownership goes: nobody holds it and its
    ``twin`` (-1 for none) does not block it. Cards and trains are not considered."""
    if owner[track] >= 0:
        return False
    return twin < 0 or not twin_blocks(owner[twin], player, shared)


def connected_components(num_cities: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """Union-find over ``edges``; each city's component label (equal labels: connected)."""
    parent = list(range(num_cities))
    # Strategies ask this at most decisions, so the finds (with path halving) are written out
    # rather than called.
    for a, b in edges:
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    labels = []
    for x in range(num_cities):
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]
        labels.append(x)
    return labels


def player_components(board: "Board", owner: Sequence[int], player: int) -> list[int]:
    """Per city, the label of its piece of ``player``'s network (its own tracks in ``owner``)."""
    ends = board.track_ends
    return connected_components(len(board.cities), [ends[t] for t, o in enumerate(owner) if o == player])


def ticket_connected(ticket: "Ticket", components: Sequence[int]) -> bool:
    """Whether a network (its ``components``, from ``player_components``) joins the ticket's cities."""
    return components[ticket.a] == components[ticket.b]
