"""Final scoring as kernels (``result.score_game``): route points, the exact longest trail,
tickets joined or not, the longest-trail and explorer bonuses, and ranks with the ruleset's
tie-breaks."""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L


@njit(cache=True)
def longest_trail(g: np.ndarray, s: np.ndarray, player: int) -> int:
    """The longest trail (no track used twice; cities may repeat) through the player's tracks, in
    trains: a depth-first search over every trail from every city, with an explicit stack."""
    owner, a_of, b_of, length = g[L.S_OWNER], g[L.T_CITY_A], g[L.T_CITY_B], g[L.T_LENGTH]
    mine = np.empty(g[L.N_TRACKS], dtype=np.int64)
    m = 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            mine[m] = t
            m += 1
    if m == 0:
        return 0
    used = np.zeros(m, dtype=np.bool_)
    city = np.empty(m + 1, dtype=np.int64)  # the trail's cities, then the next edge to try there
    nexte = np.empty(m + 1, dtype=np.int64)
    best = 0
    for start in range(g[L.N_CITIES]):
        touches = False
        for i in range(m):
            t = mine[i]
            if g[a_of + t] == start or g[b_of + t] == start:
                touches = True
                break
        if not touches:
            continue
        depth = 0
        city[0] = start
        nexte[0] = 0
        total = 0
        while depth >= 0:
            here = city[depth]
            moved = False
            i = nexte[depth]
            while i < m:
                t = mine[i]
                i += 1
                if used[i - 1]:
                    continue
                a, b = g[a_of + t], g[b_of + t]
                if a == here or b == here:
                    nexte[depth] = i
                    used[i - 1] = True
                    total += g[length + t]
                    if total > best:
                        best = total
                    depth += 1
                    city[depth] = b if a == here else a
                    nexte[depth] = 0
                    moved = True
                    break
            if not moved:
                # Back up over the edge that led here (the last one marked at the level below).
                depth -= 1
                if depth >= 0:
                    edge = nexte[depth] - 1
                    used[edge] = False
                    total -= g[length + mine[edge]]
    return best


@njit(cache=True)
def _root(parent: np.ndarray, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def components(g: np.ndarray, s: np.ndarray, player: int) -> np.ndarray:
    """Per city, a label of its piece of the player's network (equal labels: connected)."""
    parent = np.arange(g[L.N_CITIES])
    owner = g[L.S_OWNER]
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            a, b = _root(parent, g[g[L.T_CITY_A] + t]), _root(parent, g[g[L.T_CITY_B] + t])
            if a != b:
                parent[a] = b
    for x in range(g[L.N_CITIES]):
        parent[x] = _root(parent, x)
    return parent


@njit(cache=True)
def score_game(g: np.ndarray, s: np.ndarray, out: np.ndarray, completed: np.ndarray) -> None:
    """Each player's row of ``out`` (the ``R_*`` columns of ``layout``); ``completed[p, i]``:
    whether the player's i-th held ticket is joined."""
    n, nt, cities = g[L.N_PLAYERS], g[L.N_TICKETS], g[L.N_CITIES]
    owner = g[L.S_OWNER]
    for p in range(n):
        routes, mountains = 0, 0
        for t in range(g[L.N_TRACKS]):
            if s[owner + t] == p:
                routes += g[g[L.T_POINTS] + t]
                if g[g[L.T_MOUNTAIN] + t] > 0:
                    mountains += 1
        out[p, L.R_ROUTES] = routes
        out[p, L.R_MOUNTAINS] = mountains
        out[p, L.R_TRAIL] = longest_trail(g, s, p)
        labels = components(g, s, p)
        points, done = 0, 0
        held = s[g[L.S_TICKETS_N] + p]
        for i in range(held):
            ticket = s[g[L.S_TICKETS] + p * nt + i]
            joined = labels[g[g[L.TICKET_A] + ticket]] == labels[g[g[L.TICKET_B] + ticket]]
            completed[p, i] = joined
            value = g[g[L.TICKET_POINTS] + ticket]
            if joined:
                points += value
                done += 1
            else:
                points -= value
        out[p, L.R_TICKET_POINTS] = points
        out[p, L.R_COMPLETED] = done
        out[p, L.R_FAILED] = held - done
        # The largest network: most cities touched by the player's tracks with one label.
        size = np.zeros(cities, dtype=np.int64)
        touched = np.zeros(cities, dtype=np.bool_)
        for t in range(g[L.N_TRACKS]):
            if s[owner + t] == p:
                touched[g[g[L.T_CITY_A] + t]] = True
                touched[g[g[L.T_CITY_B] + t]] = True
        widest = 0
        for c in range(cities):
            if touched[c]:
                size[labels[c]] += 1
                if size[labels[c]] > widest:
                    widest = size[labels[c]]
        out[p, L.R_NETWORK] = widest
    best, widest = 0, 0
    for p in range(n):
        best = max(best, out[p, L.R_TRAIL])
        widest = max(widest, out[p, L.R_NETWORK])
    for p in range(n):
        out[p, L.R_LONGEST_BONUS] = g[L.LONGEST_BONUS] if best > 0 and out[p, L.R_TRAIL] == best else 0
        explorer = g[L.EXPLORER_BONUS]
        out[p, L.R_EXPLORER_BONUS] = explorer if explorer > 0 and widest > 0 and out[p, L.R_NETWORK] == widest else 0
        out[p, L.R_TOTAL] = (
            out[p, L.R_ROUTES] + out[p, L.R_TICKET_POINTS] + out[p, L.R_LONGEST_BONUS] + out[p, L.R_EXPLORER_BONUS]
        )
    for p in range(n):
        rank = 1
        for q in range(n):
            if _better(g, out, q, p):
                rank += 1
        out[p, L.R_RANK] = rank


@njit(cache=True)
def _tie_key(g: np.ndarray, out: np.ndarray, p: int, k: int) -> int:
    code = g[L.TIE_BREAKS + k]
    if code == L.TIE_TICKETS:
        return out[p, L.R_COMPLETED]
    if code == L.TIE_LONGEST:
        return 1 if out[p, L.R_LONGEST_BONUS] > 0 else 0
    if code == L.TIE_EXPLORER:
        return 1 if out[p, L.R_EXPLORER_BONUS] > 0 else 0
    return out[p, L.R_MOUNTAINS]


@njit(cache=True)
def _better(g: np.ndarray, out: np.ndarray, q: int, p: int) -> bool:
    """Whether q's sort key (points, then the tie-breaks in order) is larger than p's."""
    if out[q, L.R_TOTAL] != out[p, L.R_TOTAL]:
        return out[q, L.R_TOTAL] > out[p, L.R_TOTAL]
    for k in range(g[L.N_TIE_BREAKS]):
        a, b = _tie_key(g, out, q, k), _tie_key(g, out, p, k)
        if a != b:
            return a > b
    return False
