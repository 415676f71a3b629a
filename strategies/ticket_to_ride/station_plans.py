"""When a train station is worth building, compiled: greedy's and the planner's station judgement,
and the searches' station candidates.

A station is worth to a player the tickets it repairs: a held ticket the player can no longer
complete on its own (no path of its own and unclaimed tracks joins its cities: a track it needed
is taken; in the final round, no path of its own: one turn rarely joins it) that the end-of-game
assignment of the player's stations, this one added, completes through one track of another
player. Which track a station borrows, and whether a ticket is then joined, is the rules' own
function (``scoring.borrow``); the station counts, costs and points come from the game array.
Only tickets joined *now* count, so a station comes late, once the player's network reaches both
sides of the gap; a ticket it could repair only after more claims is not counted (the plan does
not route through other players' tracks).

Its cost: the station's points (kept if it stays unbuilt), one point per card it takes and
``margin`` more for the turn. The player builds the station whose repaired points are highest,
when they reach that cost; on a city where it repairs nothing, never.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.legal import track_open
from ttr_lab.games.ticket_to_ride.kernels.scoring import borrow, components
from ttr_lab.strategies.ticket_to_ride.planner_knobs import SLOT

P_STATIONS, P_STATION_MARGIN = SLOT["stations"], SLOT["station_margin"]


@njit(cache=True)
def _find(parent: np.ndarray, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def blocked_tickets(g: np.ndarray, s: np.ndarray, p: int, out: np.ndarray) -> int:
    """``out[i]``: whether ``p``'s i-th held ticket is blocked (its cities not joined by the
    player's tracks and the tracks it may still claim; in the final round, by its own tracks:
    its one turn left is the station's); how many are."""
    cities = g[L.N_CITIES]
    parent = np.arange(cities)
    owner = g[L.S_OWNER]
    last_turn = s[L.FINAL_TURNS] >= 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == p or (not last_turn and track_open(g, s, t, p)):
            a, b = _find(parent, g[g[L.T_CITY_A] + t]), _find(parent, g[g[L.T_CITY_B] + t])
            if a != b:
                parent[a] = b
    nt, count = g[L.N_TICKETS], 0
    for i in range(s[g[L.S_TICKETS_N] + p]):
        ticket = s[g[L.S_TICKETS] + p * nt + i]
        out[i] = _find(parent, g[g[L.TICKET_A] + ticket]) != _find(parent, g[g[L.TICKET_B] + ticket])
        if out[i]:
            count += 1
    return count


@njit(cache=True)
def repaired_points(g: np.ndarray, s: np.ndarray, p: int, city: int, blocked: np.ndarray) -> int:
    """The points of ``p``'s blocked tickets (``blocked_tickets``) that a station of ``p`` on
    ``city`` joins now, beyond those its stations already join (``s`` is left as it was)."""
    own = components(g, s, p)
    borrowed = np.empty(g[L.STATION_CITIES], np.int64)
    before = borrow(g, s, p, own, borrowed)
    at = g[L.S_STATIONS] + city
    held = s[at]
    s[at] = p
    after = borrow(g, s, p, own, borrowed)
    s[at] = held
    nt, points = g[L.N_TICKETS], 0
    for i in range(s[g[L.S_TICKETS_N] + p]):
        if not blocked[i]:
            continue
        ticket = s[g[L.S_TICKETS] + p * nt + i]
        a, b = g[g[L.TICKET_A] + ticket], g[g[L.TICKET_B] + ticket]
        if after[a] == after[b] and before[a] != before[b]:
            points += g[g[L.TICKET_POINTS] + ticket]
    return points


@njit(cache=True)
def station_payment(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, city: int) -> int:
    """The legal build of a station on ``city`` (among ``ids[:n]``) paying the fewest
    locomotives, then with the colour the hand holds most of; -1 if none."""
    id_station, id_claim = g[L.ID_STATION], g[L.ID_CLAIM]
    hand = g[L.S_HANDS] + s[L.PLAYER] * L.KINDS
    best, best_locos, best_have = -1, 0, 0
    for i in range(n):
        a = ids[i]
        if a < id_station or a >= id_claim:
            continue
        j = a - id_station
        if g[g[L.STATION_CITY] + j] != city:
            continue
        locos, colour = g[g[L.STATION_LOCOS] + j], g[g[L.STATION_COLOUR] + j]
        have = s[hand + colour] if colour < L.COLOURS else 0
        if best < 0 or locos < best_locos or (locos == best_locos and have > best_have):
            best, best_locos, best_have = a, locos, have
    return best


@njit(cache=True)
def station_values(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, values: np.ndarray) -> int:
    """``values[c]``: the points a station on city ``c`` repairs for the player to move (0 where
    no build is legal or it repairs nothing); the cards the next station costs, or 0 when no
    station build is legal or no held ticket is blocked (``values`` then all 0)."""
    values[:] = 0
    id_station, id_claim = g[L.ID_STATION], g[L.ID_CLAIM]
    if id_station == id_claim or s[L.PHASE] != L.TURN:
        return 0
    p = s[L.PLAYER]
    blocked = np.zeros(s[g[L.S_TICKETS_N] + p], np.bool_)
    if blocked.shape[0] == 0 or blocked_tickets(g, s, p, blocked) == 0:
        return 0
    cards, last = 0, -1
    for i in range(n):
        a = ids[i]
        if a < id_station or a >= id_claim:
            continue
        j = a - id_station
        city = g[g[L.STATION_CITY] + j]
        cards = g[g[L.STATION_CARDS] + j] + g[g[L.STATION_LOCOS] + j]
        if city != last:  # builds come city by city
            values[city] = repaired_points(g, s, p, city, blocked)
            last = city
    return cards


@njit(cache=True)
def station_choice(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, margin: float) -> int:
    """The station build the player to move makes now (among the legal ``ids[:n]``), or -1: on
    the city whose station repairs the most ticket points, when they reach the station's points
    plus a point a card plus ``margin``; a negative ``margin`` builds none."""
    if margin < 0.0 or g[L.ID_STATION] == g[L.ID_CLAIM]:
        return -1
    values = np.zeros(g[L.N_CITIES], np.int64)
    cards = station_values(g, s, ids, n, values)
    if cards == 0:
        return -1
    city = int(np.argmax(values))
    if values[city] <= 0 or values[city] < g[L.STATION_POINTS] + cards + margin:
        return -1
    return station_payment(g, s, ids, n, city)


@njit(cache=True)
def planned_station(g: np.ndarray, s: np.ndarray, params: np.ndarray, ids: np.ndarray, n: int) -> int:
    """``station_choice`` with the planner's knobs ``params`` (``stations`` 0: none)."""
    if params[P_STATIONS] <= 0.0:
        return -1
    return station_choice(g, s, ids, n, params[P_STATION_MARGIN])
