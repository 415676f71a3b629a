"""The planning toolkit of ``planning.py`` as compiled kernels over the game's arrays: what the
compiled ticket planner (``planner_decisions``) builds its judgement on.

(Over 400 lines on purpose: it mirrors ``planning.py`` function for function, so the two are read
side by side; split, each half would need the other's helpers.)

Each kernel is the function of the same name in planning.py, step for step (the same keys, the
same tie-breaks, float arithmetic in the same order), on the kernels' state ``s`` and game
array ``g`` instead of an ``Observation``; it reads only what the player to move may see (its
hand and tickets, the board, the market). A track the player cannot claim costs ``NONE``
(planning's ``None``); the double-route rule is the kernels' ``track_open``.

- ``planner_tables(g)``: the board's adjacency, built once per game array;
- ``track_costs``, ``shortest_path`` (Dijkstra on a binary heap), ``plan_tickets`` (the
  greedy Steiner tree over ticket orders);
- ``best_twins``, ``card_deficits``, ``ferry_locomotives``, ``cards_missing``, ``choose_payment``, ``choose_draw``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rows import hand_start
from ttr_lab.games.ticket_to_ride.kernels.legal import track_open
from ttr_lab.strategies.ticket_to_ride.tunnel_odds import expected_extra, tunnel_surcharge, unseen_cards

NONE = -1.0  # a track's cost when the player cannot claim it (planning's ``None``)
_CUT = float(1 << 30)  # planning.shortest_path's "not reached"

# -- per-board tables ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def copy_into(out: np.ndarray, a: np.ndarray) -> None:
    """``out[:len(a)] = a``, element by element: numba's slice assignment checks the shapes with
    an error message whose string formatting took seconds to compile on a first run."""
    for i in range(a.shape[0]):
        out[i] = a[i]


@njit(cache=True)
def planner_tables(g: np.ndarray) -> np.ndarray:
    """City adjacency in planning.Network's order (per city, its tracks by id): ``[0, C]`` the
    start of each city's row, then (track, other city) pairs."""
    nc, nt = g[L.N_CITIES], g[L.N_TRACKS]
    ca, cb = g[L.T_CITY_A], g[L.T_CITY_B]
    count = np.zeros(nc + 1, dtype=np.int64)
    for t in range(nt):
        count[g[ca + t] + 1] += 1
        count[g[cb + t] + 1] += 1
    for c in range(nc):
        count[c + 1] += count[c]
    pt = np.empty(nc + 1 + 4 * nt, dtype=np.int64)
    copy_into(pt, count)
    fill = count[:nc].copy()
    base = nc + 1
    for t in range(nt):
        a, b = g[ca + t], g[cb + t]
        pt[base + 2 * fill[a]], pt[base + 2 * fill[a] + 1] = t, b
        fill[a] += 1
        pt[base + 2 * fill[b]], pt[base + 2 * fill[b] + 1] = t, a
        fill[b] += 1
    return pt


# -- costs and paths (planning.costs_for, discount_points, shortest_path) ---------------------------


@njit(cache=True)
def _have(g: np.ndarray, s: np.ndarray, hand: int, t: int, most: int) -> int:
    colour = g[g[L.T_COLOUR] + t]
    return most if colour == L.GRAY else s[hand + colour]


@njit(cache=True)
def _most(s: np.ndarray, hand: int) -> int:
    most = s[hand]
    for c in range(1, L.COLOURS):
        most = max(most, s[hand + c])
    return most


@njit(cache=True)
def claimable(g: np.ndarray, s: np.ndarray, t: int, p: int) -> bool:
    """planning.claimable: open to ``p`` (the kernels' double-route rule) and within its trains."""
    return g[g[L.T_TRAINS] + t] <= s[g[L.S_TRAINS] + p] and track_open(g, s, t, p)


@njit(cache=True)
def track_costs(g: np.ndarray, s: np.ndarray, p: int, card_weight: float, route_weight: float, out: np.ndarray) -> None:
    """planning.track_costs for player ``p`` into ``out`` (``NONE`` for None)."""
    hand = hand_start(g, p)
    trains = s[g[L.S_TRAINS] + p]
    most = _most(s, hand)
    owner = g[L.S_OWNER]
    for t in range(g[L.N_TRACKS]):
        o = s[owner + t]
        need = g[g[L.T_TRAINS] + t]
        if o == p:
            out[t] = 0.0
            continue
        if o >= 0 or need > trains or not track_open(g, s, t, p):
            out[t] = NONE
            continue
        c = float(need)
        if card_weight != 0.0:
            ferry = g[g[L.T_FERRY] + t]
            length = g[g[L.T_LENGTH] + t] - ferry
            have = _have(g, s, hand, t, most)
            lacking = (length - have if length > have else 0) + 2 * ferry
            c = need + card_weight * lacking
        if route_weight != 0.0:
            extra = g[g[L.T_POINTS] + t] - need
            if extra > 0:
                c = max(c - route_weight * extra, 0.25 * need)
        out[t] = c
    if card_weight != 0.0 and g[L.TUNNEL_REVEAL] > 0:
        _tunnel_costs(g, s, p, card_weight, out)


@njit(cache=True)
def _tunnel_costs(g: np.ndarray, s: np.ndarray, p: int, card_weight: float, out: np.ndarray) -> None:
    """Each claimable tunnel in ``out`` costs its expected extra cards too (at ``card_weight``)."""
    unseen = np.zeros(L.KINDS, dtype=np.int64)
    total = unseen_cards(g, s, p, unseen)
    for t in range(g[L.N_TRACKS]):
        if out[t] > 0.0 and g[g[L.T_TUNNEL] + t] > 0:
            out[t] += card_weight * tunnel_surcharge(g, s, p, t, unseen, total)


@njit(cache=True)
def _before(c1: float, h1: int, x1: int, c2: float, h2: int, x2: int) -> bool:
    """Whether heap entry (cost, hops, city) 1 comes strictly before entry 2 (tuple order)."""
    if c1 != c2:
        return c1 < c2
    if h1 != h2:
        return h1 < h2
    return x1 < x2


@njit(cache=True)
def _push(hc: np.ndarray, hh: np.ndarray, hx: np.ndarray, n: int, cost: float, hops: int, city: int) -> int:
    i = n
    while i > 0:
        up = (i - 1) // 2
        if not _before(cost, hops, city, hc[up], hh[up], hx[up]):
            break
        hc[i], hh[i], hx[i] = hc[up], hh[up], hx[up]
        i = up
    hc[i], hh[i], hx[i] = cost, hops, city
    return n + 1


@njit(cache=True)
def _pop(hc: np.ndarray, hh: np.ndarray, hx: np.ndarray, n: int) -> int:
    """Remove the smallest entry (read it from slot 0 first); returns the new size."""
    n -= 1
    cost, hops, city = hc[n], hh[n], hx[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and _before(hc[child + 1], hh[child + 1], hx[child + 1], hc[child], hh[child], hx[child]):
            child += 1
        if not _before(hc[child], hh[child], hx[child], cost, hops, city):
            break
        hc[i], hh[i], hx[i] = hc[child], hh[child], hx[child]
        i = child
    hc[i], hh[i], hx[i] = cost, hops, city
    return n


@njit(cache=True)
def shortest_path(g: np.ndarray, pt: np.ndarray, costs: np.ndarray, a: int, b: int, fw: np.ndarray,
                  iw: np.ndarray, path: np.ndarray) -> int:
    """planning.shortest_path: the tracks of the cheapest path into ``path``; their count, or -1
    when cut off. Ties as there: fewer tracks to claim, then the heap's order (lowest city)."""
    if a == b:
        return 0
    nc = g[L.N_CITIES]
    room = fw.shape[0] - nc
    best_cost, hc = fw[:nc], fw[nc:]
    best_hops, via, hh, hx = iw[:nc], iw[nc:2 * nc], iw[2 * nc:2 * nc + room], iw[2 * nc + room:2 * nc + 2 * room]
    for c in range(nc):
        best_cost[c] = _CUT
        best_hops[c] = 0
        via[c] = -1
    best_cost[a] = 0.0
    n = _push(hc, hh, hx, 0, 0.0, 0, a)
    ca, cb = g[L.T_CITY_A], g[L.T_CITY_B]
    while n > 0:
        cost, hops, city = hc[0], hh[0], hx[0]
        n = _pop(hc, hh, hx, n)
        if city == b:
            k = 0
            while city != a:
                t = via[city]
                path[k] = t
                k += 1
                city = g[ca + t] if g[cb + t] == city else g[cb + t]
            for i in range(k // 2):  # reversed in place
                path[i], path[k - 1 - i] = path[k - 1 - i], path[i]
            return k
        known = best_cost[city]
        if known < cost or (known == cost and best_hops[city] < hops):
            continue
        step = hops + 1
        for j in range(pt[city], pt[city + 1]):
            t, other = pt[nc + 1 + 2 * j], pt[nc + 2 + 2 * j]
            c = costs[t]
            if c < 0.0:
                continue
            if c != 0.0:
                new_cost, new_hops = cost + c, step
            else:
                new_cost, new_hops = cost, hops
            known = best_cost[other]
            if new_cost < known or (new_cost == known and new_hops < best_hops[other]):
                best_cost[other] = new_cost
                best_hops[other] = new_hops
                via[other] = t
                n = _push(hc, hh, hx, n, new_cost, new_hops, other)
    return -1


@njit(cache=True)
def plan_tickets(g: np.ndarray, pt: np.ndarray, s: np.ndarray, roots: np.ndarray, tickets: np.ndarray, count: int,
                 costs: np.ndarray, orders: int, out: np.ndarray, lost: np.ndarray, fw: np.ndarray,
                 iw: np.ndarray) -> tuple[int, int]:
    """planning.plan_tickets for ``tickets[:count]``: the plan's tracks into ``out``, whether each
    ticket is unreachable into ``lost[i]``; returns (tracks, trains they take)."""
    nt = g[L.N_TRACKS]
    ta, tb, tp = g[L.TICKET_A], g[L.TICKET_B], g[L.TICKET_POINTS]
    todo = np.empty(count, dtype=np.int64)  # positions in ``tickets``
    k = 0
    for i in range(count):
        tk = tickets[i]
        lost[i] = False
        if roots[g[ta + tk]] != roots[g[tb + tk]]:
            # most valuable first, then lowest id: an insertion sort of a handful
            j = k
            while j > 0:
                other = tickets[todo[j - 1]]
                if g[tp + other] > g[tp + tk] or (g[tp + other] == g[tp + tk] and other < tk):
                    break
                todo[j] = todo[j - 1]
                j -= 1
            todo[j] = i
            k += 1
    cost_now = fw[:nt]
    path = iw[:nt]
    chosen = iw[nt:2 * nt]
    lost_now = np.zeros(count, dtype=np.bool_)
    order = np.empty(k, dtype=np.int64)
    best_lost, best_objective, best_n, best_trains = -1, 0.0, 0, 0
    tries = min(max(orders, 1), max(k, 1))
    for first in range(tries):
        if k > 0:
            order[0] = todo[first]
            m = 1
            for j in range(k):
                if j != first:
                    order[m] = todo[j]
                    m += 1
        copy_into(cost_now, costs)
        n_chosen = 0
        objective = 0.0
        n_lost = 0
        lost_now[:] = False
        for j in range(k):
            tk = tickets[order[j]]
            steps = shortest_path(g, pt, cost_now, g[ta + tk], g[tb + tk], fw[nt:], iw[2 * nt:], path)
            if steps < 0:
                lost_now[order[j]] = True
                n_lost += 1
                continue
            for x in range(steps):
                track = path[x]
                c = cost_now[track]
                if c != 0.0:
                    chosen[n_chosen] = track
                    n_chosen += 1
                    objective += c
                    cost_now[track] = 0.0
        if best_lost < 0 or n_lost < best_lost or (n_lost == best_lost and objective < best_objective):
            best_lost, best_objective, best_n = n_lost, objective, n_chosen
            best_trains = 0
            for x in range(n_chosen):
                out[x] = chosen[x]
                best_trains += g[g[L.T_TRAINS] + chosen[x]]
            copy_into(lost, lost_now)
    return best_n, best_trains


# -- cards (planning.best_twins, card_deficits, cards_missing, choose_payment, choose_draw) ---------


@njit(cache=True)
def best_twins(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int, out: np.ndarray) -> None:
    """Each of ``tracks[:n]``, or its claimable twin when that matches the hand better, into ``out``."""
    hand = hand_start(g, p)
    most = _most(s, hand)
    for i in range(n):
        t = tracks[i]
        tw = g[g[L.T_TWIN] + t]
        if tw >= 0 and claimable(g, s, tw, p) and _have(g, s, hand, tw, most) > _have(g, s, hand, t, most):
            t = tw
        out[i] = t


@njit(cache=True)
def card_deficits(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int, out: np.ndarray) -> None:
    """Per colour, the cards ``tracks[:n]`` need beyond the hand (grays on the most spare colour)."""
    hand = hand_start(g, p)
    need = np.zeros(L.COLOURS, dtype=np.int64)
    grays = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):
        t = tracks[i]
        length = g[g[L.T_LENGTH] + t] - g[g[L.T_FERRY] + t]
        c = g[g[L.T_COLOUR] + t]
        if c == L.GRAY:
            # Kept in ascending order as they come (an insertion sort: a few grays at most;
            # ``np.sort`` cost a second and a half of a first run's compile).
            j = k
            while j > 0 and grays[j - 1] > length:
                grays[j] = grays[j - 1]
                j -= 1
            grays[j] = length
            k += 1
        else:
            need[c] += length
    spare = np.empty(L.COLOURS, dtype=np.int64)
    for c in range(L.COLOURS):
        spare[c] = s[hand + c] - need[c]
    for i in range(k - 1, -1, -1):
        best = 0
        for c in range(1, L.COLOURS):
            if spare[c] > spare[best]:
                best = c
        need[best] += grays[i]
        spare[best] -= grays[i]
    for c in range(L.COLOURS):
        out[c] = max(0, need[c] - s[hand + c])


@njit(cache=True)
def ferry_locomotives(g: np.ndarray, tracks: np.ndarray, n: int) -> int:
    total = 0
    for i in range(n):
        total += g[g[L.T_FERRY] + tracks[i]]
    return total


@njit(cache=True)
def cards_missing(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int) -> int:
    deficits = np.empty(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, tracks, n, deficits)
    locos = s[hand_start(g, p) + L.LOCOMOTIVE]
    return max(0, deficits.sum() + ferry_locomotives(g, tracks, n) - locos)


@njit(cache=True)
def choose_payment(g: np.ndarray, s: np.ndarray, p: int, claims: np.ndarray, n: int, deficits: np.ndarray) -> int:
    """The claim id among ``claims[:n]`` spending the fewest locomotives, then the fewest cards
    other planned tracks need, then from the smallest pile, then the lowest colour (first on ties)."""
    if n > 0 and g[L.TUNNEL_REVEAL] > 0 and g[g[L.T_TUNNEL] + g[g[L.CLAIM_TRACK] + claims[0] - g[L.ID_CLAIM]]] > 0:
        return _tunnel_payment(g, s, p, claims, n, deficits)
    hand = hand_start(g, p)
    best = -1
    bk0, bk1, bk2, bk3 = 0, 0, 0, 0
    for i in range(n):
        index = claims[i] - g[L.ID_CLAIM]
        colour, cards = g[g[L.CLAIM_COLOUR] + index], g[g[L.CLAIM_CARDS] + index]
        locos = g[g[L.CLAIM_LOCOS] + index]
        if colour == L.LOCOMOTIVE:
            elsewhere, pile = 0, 0
        else:
            elsewhere = max(0, cards - max(0, s[hand + colour] - deficits[colour]))
            pile = s[hand + colour]
        if best < 0 or (locos, elsewhere, pile, colour) < (bk0, bk1, bk2, bk3):
            best, bk0, bk1, bk2, bk3 = claims[i], locos, elsewhere, pile, colour
    return best


@njit(cache=True)
def _tunnel_payment(g: np.ndarray, s: np.ndarray, p: int, claims: np.ndarray, n: int, deficits: np.ndarray) -> int:
    """``choose_payment`` for a tunnel: after the fewest locomotives, the colour the fewest
    unseen cards match (the fewest extra cards expected), then as for any track."""
    hand = hand_start(g, p)
    best = -1
    bk0, bk1, bk2, bk3 = 0, 0, 0, 0
    bx = 0.0
    unseen = np.zeros(L.KINDS, dtype=np.int64)
    total = unseen_cards(g, s, p, unseen)
    for i in range(n):
        index = claims[i] - g[L.ID_CLAIM]
        colour, cards = g[g[L.CLAIM_COLOUR] + index], g[g[L.CLAIM_CARDS] + index]
        locos = g[g[L.CLAIM_LOCOS] + index]
        if colour == L.LOCOMOTIVE:
            elsewhere, pile = 0, 0
        else:
            elsewhere = max(0, cards - max(0, s[hand + colour] - deficits[colour]))
            pile = s[hand + colour]
        x = expected_extra(g, unseen, total, colour)
        if best < 0 or (locos, x, elsewhere, pile, colour) < (bk0, bx, bk1, bk2, bk3):
            best, bk0, bx, bk1, bk2, bk3 = claims[i], locos, x, elsewhere, pile, colour
    return best


@njit(cache=True)
def choose_draw(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, weights: np.ndarray, locomotive: float) -> int:
    """The most useful draw among the legal ``ids[:n]`` (planning.choose_draw), else the first legal."""
    wanted = False
    total = 0.0
    for c in range(L.COLOURS):
        total += weights[c]
        wanted = wanted or weights[c] > 0.0
    blind = total / L.KINDS + (1 / L.KINDS if wanted else 0.0)
    best, best_value = -1, -np.inf
    first_market, last_market = g[L.ID_MARKET], g[L.ID_MARKET] + g[L.MARKET_SIZE]
    for i in range(n):
        a = ids[i]
        if a == 0:
            value = blind
        elif first_market <= a < last_market:
            card = s[g[L.S_MARKET] + a - first_market]
            value = locomotive - blind if card == L.LOCOMOTIVE else weights[card]
        else:
            continue
        if value > best_value or (value == best_value and a == 0):
            best, best_value = a, value
    return best if best >= 0 else ids[0]


@njit(cache=True)
def cheapest_claim(g: np.ndarray, s: np.ndarray, p: int, ids: np.ndarray, n: int, track: int,
                   out: np.ndarray) -> int:
    """The legal claim (among ``ids[:n]``) of ``track`` that ``choose_payment`` picks with no
    planned track in view, or -1 for ``track`` -1; ``out`` is scratch of at least ``n``."""
    if track < 0:
        return -1
    count = 0
    for i in range(n):
        a = ids[i]
        if a >= g[L.ID_CLAIM] and g[g[L.CLAIM_TRACK] + a - g[L.ID_CLAIM]] == track:
            out[count] = a
            count += 1
    return choose_payment(g, s, p, out, count, np.zeros(L.COLOURS, dtype=np.int64))
