"""Final scoring as kernels (``result.score_game``): route points, the exact longest trail,
tickets joined or not (through the tracks the player's train stations borrow, where the map has
stations), the longest-trail, explorer, Globetrotter and Grand Tour bonuses, the points of
stations not built, and ranks with the ruleset's tie-breaks (the Grand Tour plays no part in
them)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L


@njit(cache=True)
def trail_length(city_a: np.ndarray, city_b: np.ndarray, length: np.ndarray, cities: int) -> int:
    """The longest trail (no track used twice; cities may repeat) through the tracks joining
    ``city_a[i]`` and ``city_b[i]``, the sum of their ``length``s (positive).

    Exact, without trying every start: a longest trail uses every track at its first city (an
    unused one would lengthen it). An open trail uses an odd number of its first city's tracks,
    so it starts at a city of odd degree; a closed one may start at any city on it, so it holds
    every track of each: it is a whole piece of the network, every city of it of even degree,
    walked by an Euler circuit. So: the total of each piece whose cities all have even degree,
    and a depth-first search (explicit stack, adjacency lists) over every trail from each city
    of odd degree, skipping a piece that cannot beat the best found."""
    m = city_a.shape[0]
    if m == 0:
        return 0
    first = np.zeros(cities + 1, dtype=np.int64)  # city c's tracks: adj[first[c]:first[c + 1]]
    parent = np.arange(cities)
    for i in range(m):
        first[city_a[i] + 1] += 1
        first[city_b[i] + 1] += 1
        a, b = _root(parent, city_a[i]), _root(parent, city_b[i])
        if a != b:
            parent[a] = b
    for c in range(cities):
        first[c + 1] += first[c]
    adj = np.empty(2 * m, dtype=np.int64)
    fill = first[:cities].copy()
    piece = np.zeros(cities, dtype=np.int64)  # per piece (its root city): the tracks' total
    odd = np.zeros(cities, dtype=np.bool_)  # per piece: whether a city of it has odd degree
    everything = 0
    for i in range(m):
        adj[fill[city_a[i]]] = i
        fill[city_a[i]] += 1
        adj[fill[city_b[i]]] = i
        fill[city_b[i]] += 1
        piece[_root(parent, city_a[i])] += length[i]
        everything += length[i]
    for c in range(cities):
        if (first[c + 1] - first[c]) % 2 == 1:
            odd[_root(parent, c)] = True
    best = 0
    for c in range(cities):
        if parent[c] == c and not odd[c] and piece[c] > best:
            best = piece[c]
    used = np.zeros(m, dtype=np.bool_)
    city = np.empty(m + 1, dtype=np.int64)  # the trail's cities, depth by depth
    nexte = np.empty(m + 1, dtype=np.int64)  # at each depth, the next entry of adj to try there
    took = np.empty(m + 1, dtype=np.int64)  # at each depth, the track taken from there
    for start in range(cities):
        if (first[start + 1] - first[start]) % 2 == 0 or piece[_root(parent, start)] <= best:
            continue
        depth = 0
        city[0] = start
        nexte[0] = first[start]
        total = 0
        while depth >= 0:
            here = city[depth]
            k, stop = nexte[depth], first[here + 1]
            while k < stop and used[adj[k]]:
                k += 1
            if k < stop:  # walk on along track adj[k]
                i = adj[k]
                nexte[depth] = k + 1
                took[depth] = i
                used[i] = True
                total += length[i]
                if total > best:
                    best = total
                    if best == everything:
                        return best
                depth += 1
                city[depth] = city_b[i] if city_a[i] == here else city_a[i]
                nexte[depth] = first[city[depth]]
            else:  # back up over the track that led here
                depth -= 1
                if depth >= 0:
                    i = took[depth]
                    used[i] = False
                    total -= length[i]
    return best


@njit(cache=True)
def longest_trail(g: np.ndarray, s: np.ndarray, player: int) -> int:
    """The player's longest trail, in trains."""
    owner = g[L.S_OWNER]
    count = 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            count += 1
    a, b, w = np.empty(count, np.int64), np.empty(count, np.int64), np.empty(count, np.int64)
    m = 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            a[m], b[m], w[m] = g[g[L.T_CITY_A] + t], g[g[L.T_CITY_B] + t], g[g[L.T_LENGTH] + t]
            m += 1
    return trail_length(a, b, w, g[L.N_CITIES])


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
def two_path_labels(g: np.ndarray, s: np.ndarray, player: int) -> np.ndarray:
    """Per city, a label of its 2-edge-connected piece of the player's network: two cities have
    equal labels exactly when two paths of the player's tracks with no track in common join
    them (the Grand Tour's test). By Menger, that is when no single track separates them: they
    are joined once every bridge (a track on no cycle) is taken out. The bridges are found by
    one depth-first search (Tarjan's low points, explicit stack); a track is skipped on the way
    back by its id, not its city, so the two tracks of a double route held by one player make
    a cycle, as two parallel tracks should. Linear in the player's tracks."""
    cities, owner = g[L.N_CITIES], g[L.S_OWNER]
    m = 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            m += 1
    # One allocation for every table below (this runs at the end of every search play-out).
    work = np.empty(8 * cities + 1 + 5 * m, dtype=np.int64)
    first = work[:cities + 1]  # city c's tracks: adj[first[c]:first[c + 1]]
    # Per city: the next free entry of adj, the discovery order, the earliest discovery reachable
    # from below by one track back; and the search's stack: the city, the track it came by, the
    # next entry of adj to try there.
    fill, disc, low, city, came, nexte, parent = work[cities + 1:8 * cities + 1].reshape(7, cities)
    rest = work[8 * cities + 1:]
    ta, tb, adj, bridge = rest[:m], rest[m:2 * m], rest[2 * m:4 * m], rest[4 * m:]
    first[:] = 0
    k = 0
    for t in range(g[L.N_TRACKS]):
        if s[owner + t] == player:
            ta[k], tb[k] = g[g[L.T_CITY_A] + t], g[g[L.T_CITY_B] + t]
            first[ta[k] + 1] += 1
            first[tb[k] + 1] += 1
            k += 1
    for c in range(cities):
        first[c + 1] += first[c]
    fill[:] = first[:cities]
    for i in range(m):
        adj[fill[ta[i]]] = i
        fill[ta[i]] += 1
        adj[fill[tb[i]]] = i
        fill[tb[i]] += 1
    disc[:] = -1
    bridge[:] = 0
    order = 0
    for start in range(cities):
        if disc[start] >= 0 or first[start + 1] == first[start]:
            continue
        depth = 0
        city[0], came[0], nexte[0] = start, -1, first[start]
        disc[start] = low[start] = order
        order += 1
        while depth >= 0:
            here = city[depth]
            j = nexte[depth]
            if j < first[here + 1]:
                nexte[depth] = j + 1
                i = adj[j]
                if i == came[depth]:
                    continue
                there = tb[i] if ta[i] == here else ta[i]
                if disc[there] < 0:
                    disc[there] = low[there] = order
                    order += 1
                    depth += 1
                    city[depth], came[depth], nexte[depth] = there, i, first[there]
                elif disc[there] < low[here]:
                    low[here] = disc[there]
            else:
                if depth > 0:
                    up = city[depth - 1]
                    if low[here] < low[up]:
                        low[up] = low[here]
                    if low[here] > disc[up]:
                        bridge[came[depth]] = 1
                depth -= 1
    for x in range(cities):
        parent[x] = x
    for i in range(m):
        if bridge[i] == 0:
            a, b = _root(parent, ta[i]), _root(parent, tb[i])
            if a != b:
                parent[a] = b
    for x in range(cities):
        parent[x] = _root(parent, x)
    return parent


@njit(cache=True)
def _tickets(g: np.ndarray, s: np.ndarray, p: int, labels: np.ndarray) -> tuple[int, int]:
    """The player's ticket points (completed less failed) and completed count, their cities
    joined where ``labels`` match."""
    nt = g[L.N_TICKETS]
    points, done = 0, 0
    for i in range(s[g[L.S_TICKETS_N] + p]):
        ticket = s[g[L.S_TICKETS] + p * nt + i]
        value = g[g[L.TICKET_POINTS] + ticket]
        if labels[g[g[L.TICKET_A] + ticket]] == labels[g[g[L.TICKET_B] + ticket]]:
            points += value
            done += 1
        else:
            points -= value
    return points, done


@njit(cache=True)
def borrow(g: np.ndarray, s: np.ndarray, p: int, own: np.ndarray, borrowed: np.ndarray) -> np.ndarray:
    """The best use of player ``p``'s train stations at the end, and the city labels it gives.

    Each station may borrow one track of another player that ends at its city (or none); the
    assignment kept is the one with the most ticket points (completed less failed), then the
    most tickets completed; on a tie, the first in the search's order (fewer borrowed first).
    ``borrowed[c]``: the track the station at city ``c`` borrows, or -1. ``own``: the labels of
    the player's own network (``components``); the labels returned join them through the
    borrowed tracks.

    Exhaustive over the stations' candidates, made small first: a track whose two ends are
    already joined by the player's own tracks adds nothing, and two tracks joining the same two
    pieces of its network are the same choice, so each station keeps one track per pair of
    pieces. The search tries at most prod(candidates + 1) assignments (3 stations with 4
    candidates each: 125), each a union of at most 3 tracks and a pass over the tickets, and
    stops at the first that completes every ticket."""
    cities = g[L.N_CITIES]
    for c in range(borrowed.shape[0]):
        borrowed[c] = -1
    stations = g[L.S_STATIONS]
    k = 0
    for c in range(cities):
        if s[stations + c] == p:
            k += 1
    if k == 0:
        return own
    # Per station (city order): its candidates' tracks and the two pieces each joins.
    at = np.empty(k, np.int64)
    count = np.zeros(k, np.int64)
    cand = np.empty((k, g[L.N_TRACKS]), np.int64)
    owner = g[L.S_OWNER]
    i = 0
    for c in range(cities):
        if s[stations + c] != p:
            continue
        at[i] = c
        for t in range(g[L.N_TRACKS]):
            o = s[owner + t]
            a, b = g[g[L.T_CITY_A] + t], g[g[L.T_CITY_B] + t]
            if o < 0 or o == p or (a != c and b != c) or own[a] == own[b]:
                continue
            lo, hi = min(own[a], own[b]), max(own[a], own[b])
            same = False
            for j in range(count[i]):
                u = cand[i, j]
                ua, ub = own[g[g[L.T_CITY_A] + u]], own[g[g[L.T_CITY_B] + u]]
                if min(ua, ub) == lo and max(ua, ub) == hi:
                    same = True
                    break
            if not same:
                cand[i, count[i]] = t
                count[i] += 1
        i += 1
    total = 0
    nt = g[L.N_TICKETS]
    for j in range(s[g[L.S_TICKETS_N] + p]):
        total += g[g[L.TICKET_POINTS] + s[g[L.S_TICKETS] + p * nt + j]]
    best_points, best_done = _tickets(g, s, p, own)
    best = np.full(k, -1, np.int64)
    choice = np.zeros(k, np.int64)  # per station: 0 borrows nothing, j > 0 its candidate j - 1
    parent = np.empty(cities, np.int64)
    while best_points < total:
        # the next assignment, as an odometer over the stations' choices
        i = 0
        while i < k and choice[i] == count[i]:
            choice[i] = 0
            i += 1
        if i == k:
            break
        choice[i] += 1
        for c in range(cities):
            parent[c] = own[c]
        for i in range(k):
            if choice[i] > 0:
                t = cand[i, choice[i] - 1]
                a, b = _root(parent, g[g[L.T_CITY_A] + t]), _root(parent, g[g[L.T_CITY_B] + t])
                if a != b:
                    parent[a] = b
        for c in range(cities):
            parent[c] = _root(parent, c)
        points, done = _tickets(g, s, p, parent)
        if points > best_points or (points == best_points and done > best_done):
            best_points, best_done = points, done
            for i in range(k):
                best[i] = cand[i, choice[i] - 1] if choice[i] > 0 else -1
    labels = own.copy()
    for i in range(k):
        borrowed[at[i]] = best[i]
        if best[i] >= 0:
            a, b = _root(labels, g[g[L.T_CITY_A] + best[i]]), _root(labels, g[g[L.T_CITY_B] + best[i]])
            if a != b:
                labels[a] = b
    for c in range(cities):
        labels[c] = _root(labels, c)
    return labels


@njit(cache=True)
def score_game(g: np.ndarray, s: np.ndarray, out: np.ndarray, completed: np.ndarray) -> None:
    """Each player's row of ``out`` (the ``R_*`` columns of ``layout``); ``completed[p, i]``:
    whether the player's i-th held ticket is joined."""
    score_stations(g, s, out, completed, np.empty((g[L.N_PLAYERS], g[L.STATION_CITIES]), np.int64))


@njit(cache=True)
def score_stations(g: np.ndarray, s: np.ndarray, out: np.ndarray, completed: np.ndarray,
                   borrowed: np.ndarray) -> None:
    """``score_game``, and ``borrowed[p, c]``: the track player ``p``'s station at city ``c``
    borrows for its tickets, or -1 (no station of ``p`` there, or it borrows none); ``borrowed``
    has no columns on a map without stations."""
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
        joined = labels
        built = 0
        if g[L.STATION_CITIES] > 0:
            built = s[g[L.S_STATIONS_BUILT] + p]
            joined = borrow(g, s, p, labels, borrowed[p])
        out[p, L.R_STATIONS_BUILT] = built
        out[p, L.R_STATION_POINTS] = (g[L.STATIONS_PER_PLAYER] - built) * g[L.STATION_POINTS]
        points, done = 0, 0
        held = s[g[L.S_TICKETS_N] + p]
        for i in range(held):
            ticket = s[g[L.S_TICKETS] + p * nt + i]
            joined_here = joined[g[g[L.TICKET_A] + ticket]] == joined[g[g[L.TICKET_B] + ticket]]
            completed[p, i] = joined_here
            value = g[g[L.TICKET_POINTS] + ticket]
            if joined_here:
                points += value
                done += 1
            else:
                points -= value
        out[p, L.R_TICKET_POINTS] = points
        out[p, L.R_COMPLETED] = done
        out[p, L.R_FAILED] = held - done
        if g[L.N_GRAND_TOUR] > 0:  # only where the Grand Tour is played: elsewhere it costs nothing
            tour = 0
            if done > 0:  # only a completed ticket can qualify
                pieces = two_path_labels(g, s, p)
                for i in range(held):
                    ticket = s[g[L.S_TICKETS] + p * nt + i]
                    if completed[p, i] and pieces[g[g[L.TICKET_A] + ticket]] == pieces[g[g[L.TICKET_B] + ticket]]:
                        tour += 1
            out[p, L.R_GRAND_TOUR_TICKETS] = tour
            out[p, L.R_GRAND_TOUR_BONUS] = g[g[L.GRAND_TOUR] + min(tour, g[L.N_GRAND_TOUR] - 1)]
        else:  # a buffer may be reused from a game with the Grand Tour
            out[p, L.R_GRAND_TOUR_TICKETS] = 0
            out[p, L.R_GRAND_TOUR_BONUS] = 0
        # The largest network: most cities touched by the player's tracks with one label (its
        # own tracks: a station's borrowed track counts for tickets only).
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
    best, widest, most = 0, 0, 0
    for p in range(n):
        best = max(best, out[p, L.R_TRAIL])
        widest = max(widest, out[p, L.R_NETWORK])
        most = max(most, out[p, L.R_COMPLETED])
    for p in range(n):
        out[p, L.R_LONGEST_BONUS] = g[L.LONGEST_BONUS] if best > 0 and out[p, L.R_TRAIL] == best else 0
        explorer = g[L.EXPLORER_BONUS]
        out[p, L.R_EXPLORER_BONUS] = explorer if explorer > 0 and widest > 0 and out[p, L.R_NETWORK] == widest else 0
        # most > 0: when nobody completed a ticket, nobody is the Globetrotter.
        trotter = g[L.GLOBETROTTER_BONUS]
        out[p, L.R_GLOBETROTTER_BONUS] = trotter if trotter > 0 and most > 0 and out[p, L.R_COMPLETED] == most else 0
        out[p, L.R_TOTAL] = (
            out[p, L.R_ROUTES] + out[p, L.R_TICKET_POINTS] + out[p, L.R_LONGEST_BONUS] + out[p, L.R_EXPLORER_BONUS]
            + out[p, L.R_GLOBETROTTER_BONUS]
            + out[p, L.R_GRAND_TOUR_BONUS]
            + out[p, L.R_STATION_POINTS]
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
    if code == L.TIE_GLOBETROTTER:
        return 1 if out[p, L.R_GLOBETROTTER_BONUS] > 0 else 0
    if code == L.TIE_STATIONS:
        return -out[p, L.R_STATIONS_BUILT]  # fewer is better
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
