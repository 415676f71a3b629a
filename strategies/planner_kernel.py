"""The ticket planner's decisions as compiled kernels on the game's array state.

``TicketPlanner`` (ticket_planner.py on planning.py) judged on the kernels' ``s``/``g`` arrays,
so a search's play-outs run in one native call: the cheapest plan for its tickets (Dijkstra per
ticket, a greedy Steiner tree, with the card and route weights), which tickets to keep, the
planned claim and its payment, the colour to draw, and the late game's claims for points. The
rules are the game's kernels: legality from ``legal_ids`` (and ``track_open``), effects from
``apply_action``, connectivity and the final score from ``scoring``. What is written here is
only the planner's judgement, step for step as in Python (the same keys, the same tie-breaks,
the same float arithmetic in the same order), so it picks the very action the Python planner
picks (``bench/planner_fidelity.py`` measures it on real positions).

- ``planner_choose(g, s, params)``: the action id a fresh ``TicketPlanner`` (no plan from
  earlier decisions) picks for the player to move.
- ``planner_playouts(g, start, seeds, params, scores)``: each seed plays a copy of ``start`` to
  the end with the planner at every seat, each seat keeping its plan between its decisions as
  ``PlanCache`` does; ``scores[i, p]``: seat ``p``'s final score. Returns the decisions made.
  The planner draws no random numbers, so a play-out is the same for every seed (the seeds
  only count the play-outs; a determinized ``start`` carries the luck in its decks).
- ``CompiledPlanner``: the strategy (``compiled_planner``) that acts through ``planner_choose``.

``params`` (float64, ``PARAMS`` names the slots; ``default_params`` builds it): the planner's
knobs, defaults those of ``TicketPlanner(plan_orders=1, keep_orders=1)``.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
from numba import njit

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.ticket_to_ride import Action, Observation, determinize
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids, track_open
from ttr_lab.games.ticket_to_ride.kernels.scoring import components, score_game

# The slots of ``params``, in order, with TicketPlanner(plan_orders=1, keep_orders=1)'s values.
PARAMS: dict[str, float] = {
    "plan_budget": 0.8,
    "ticket_cost_weight": 0.3,
    "draw_tickets_min_trains": 18,
    "endgame_trains": 6,
    "locomotive_deficit": 3,
    "points_min_length": 3,
    "plan_orders": 1,
    "card_weight": 0.5,
    "keep_orders": 1,
    "route_weight": 1.5,
}
P_BUDGET, P_TICKET_COST, P_TICKETS_MIN, P_ENDGAME, P_LOCO_DEFICIT, P_POINTS_MIN = 0, 1, 2, 3, 4, 5
P_PLAN_ORDERS, P_CARD_WEIGHT, P_KEEP_ORDERS, P_ROUTE_WEIGHT = 6, 7, 8, 9
# The orders ``TicketPlanner._keep`` tries for the plan of the tickets already held (planning's default).
_BASE_ORDERS = 4
_NONE = -1.0  # a track's cost when the player cannot claim it (planning's ``None``)
_CUT = float(1 << 30)


def default_params(**overrides: float) -> np.ndarray:
    """``params`` for the planner: ``PARAMS`` with ``overrides`` (a misspelt knob is refused)."""
    unknown = sorted(set(overrides) - set(PARAMS))
    if unknown:
        raise ConfigError(f"unknown planner knob(s) {unknown}; the knobs are {sorted(PARAMS)}")
    return np.array([float(overrides.get(k, v)) for k, v in PARAMS.items()], dtype=np.float64)


# -- per-board tables ------------------------------------------------------------------------------


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
    pt[:nc + 1] = count
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
    """planning.track_costs for player ``p`` into ``out`` (``_NONE`` for None)."""
    hand = g[L.S_HANDS] + p * L.KINDS
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
            out[t] = _NONE
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
            path[:k] = path[:k][::-1].copy()
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
        cost_now[:] = costs
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
            lost[:count] = lost_now
    return best_n, best_trains


# -- cards (planning.best_twins, card_deficits, cards_missing, choose_payment, choose_draw) ---------


@njit(cache=True)
def best_twins(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int, out: np.ndarray) -> None:
    """Each of ``tracks[:n]``, or its claimable twin when that matches the hand better, into ``out``."""
    hand = g[L.S_HANDS] + p * L.KINDS
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
    hand = g[L.S_HANDS] + p * L.KINDS
    need = np.zeros(L.COLOURS, dtype=np.int64)
    grays = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):
        t = tracks[i]
        length = g[g[L.T_LENGTH] + t] - g[g[L.T_FERRY] + t]
        c = g[g[L.T_COLOUR] + t]
        if c == L.GRAY:
            grays[k] = length
            k += 1
        else:
            need[c] += length
    spare = np.empty(L.COLOURS, dtype=np.int64)
    for c in range(L.COLOURS):
        spare[c] = s[hand + c] - need[c]
    grays = np.sort(grays[:k])
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
def _ferries(g: np.ndarray, tracks: np.ndarray, n: int) -> int:
    total = 0
    for i in range(n):
        total += g[g[L.T_FERRY] + tracks[i]]
    return total


@njit(cache=True)
def cards_missing(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int) -> int:
    deficits = np.empty(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, tracks, n, deficits)
    locos = s[g[L.S_HANDS] + p * L.KINDS + L.LOCOMOTIVE]
    return max(0, deficits.sum() + _ferries(g, tracks, n) - locos)


@njit(cache=True)
def choose_payment(g: np.ndarray, s: np.ndarray, p: int, claims: np.ndarray, n: int, deficits: np.ndarray) -> int:
    """The claim id among ``claims[:n]`` spending the fewest locomotives, then the fewest cards
    other planned tracks need, then from the smallest pile, then the lowest colour (first on ties)."""
    hand = g[L.S_HANDS] + p * L.KINDS
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


# -- decisions (TicketPlanner.act and its helpers) --------------------------------------------------


@njit(cache=True)
def new_work(g: np.ndarray) -> tuple:
    """The buffers a decision uses, sized for ``g`` (reused across decisions)."""
    nt, nc, na = g[L.N_TRACKS], g[L.N_CITIES], g[L.N_ACTIONS]
    room = 2 * nt + 2
    costs = np.empty(nt, dtype=np.float64)
    fw = np.empty(nt + nc + room, dtype=np.float64)
    iw = np.empty(2 * nt + 2 * nc + 2 * room, dtype=np.int64)
    ids, scratch = np.empty(na, dtype=np.int64), np.empty(na, dtype=np.int64)
    plan, tracks = np.empty(nt, dtype=np.int64), np.empty(nt, dtype=np.int64)
    more = np.empty(nt, dtype=np.int64)
    tickets = np.empty(g[L.N_TICKETS] + g[L.MAX_OFFER], dtype=np.int64)
    lost = np.empty(g[L.N_TICKETS] + g[L.MAX_OFFER], dtype=np.bool_)
    return costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost


@njit(cache=True)
def _held(g: np.ndarray, s: np.ndarray, p: int, out: np.ndarray) -> int:
    nt = g[L.N_TICKETS]
    count = s[g[L.S_TICKETS_N] + p]
    for i in range(count):
        out[i] = s[g[L.S_TICKETS] + p * nt + i]
    return count


@njit(cache=True)
def fresh_plan(g: np.ndarray, pt: np.ndarray, s: np.ndarray, p: int, params: np.ndarray, w: tuple,
               out: np.ndarray) -> int:
    """The plan ``PlanCache`` computes for ``p`` with nothing cached: its tracks into ``out``; their count."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    track_costs(g, s, p, params[P_CARD_WEIGHT], params[P_ROUTE_WEIGHT], costs)
    count = _held(g, s, p, tickets)
    n, _ = plan_tickets(g, pt, s, components(g, s, p), tickets, count, costs, int(params[P_PLAN_ORDERS]), out,
                        lost, fw, iw)
    return n


@njit(cache=True)
def _keep_before(mask: int, other: int) -> bool:
    """Whether kept subset ``mask`` beats ``other`` of the same size on ``[-i for i in indices]``."""
    x = mask ^ other
    low = x & -x  # the first index where they differ: the mask holding it has the smaller index
    return (mask & low) != 0


@njit(cache=True)
def keep(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int) -> int:
    """TicketPlanner._keep: the offered subset with the best points for its extra plan cost."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    track_costs(g, s, p, params[P_CARD_WEIGHT], params[P_ROUTE_WEIGHT], costs)
    roots = components(g, s, p)
    held = _held(g, s, p, tickets)
    base_cost = 0
    if held > 0:
        _, base_cost = plan_tickets(g, pt, s, roots, tickets, held, costs, _BASE_ORDERS, plan, lost, fw, iw)
    budget = params[P_BUDGET] * s[g[L.S_TRAINS] + p]
    offers = g[L.S_OFFERS] + p * g[L.MAX_OFFER]
    tp = g[L.TICKET_POINTS]
    orders = int(params[P_KEEP_ORDERS])
    best, best_score, best_size = -1, 0.0, 0
    for i in range(n):
        mask = ids[i] - g[L.ID_KEEP]
        count = held
        for j in range(g[L.MAX_OFFER]):
            if (mask >> j) & 1:
                tickets[count] = s[offers + j]
                count += 1
        _, cost = plan_tickets(g, pt, s, roots, tickets, count, costs, orders, plan, lost, fw, iw)
        score = 0.0
        for j in range(held, count):
            points = g[tp + tickets[j]]
            score += -points if lost[j] else points
        score -= params[P_TICKET_COST] * (cost - base_cost)
        overflow = cost - budget
        if overflow > 0:
            score -= 4.0 * overflow
        size = count - held
        if (best < 0 or score > best_score or (score == best_score and (size < best_size or (
                size == best_size and _keep_before(mask, best - g[L.ID_KEEP]))))):
            best, best_score, best_size = ids[i], score, size
    return best


@njit(cache=True)
def draw(g: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int, targets: np.ndarray, k: int) -> int:
    """TicketPlanner._draw: the colours ``targets[:k]`` lack, a locomotive when many are missing."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    hand = g[L.S_HANDS] + p * L.KINDS
    best_twins(g, s, p, targets, k, more)
    deficits = np.empty(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, more, k, deficits)
    ferries = _ferries(g, more, k)
    missing = max(0, deficits.sum() + ferries - s[hand + L.LOCOMOTIVE])
    weights = np.zeros(L.COLOURS, dtype=np.float64)
    wanted = False
    for c in range(L.COLOURS):
        if deficits[c] > 0:
            weights[c] = 1.0 + 0.05 * deficits[c]
            wanted = True
    if not wanted and k > 0:
        for i in range(k):
            if g[g[L.T_COLOUR] + more[i]] == L.GRAY:
                c = 0
                for x in range(1, L.COLOURS):
                    if s[hand + x] > s[hand + c]:
                        c = x
                weights[c] = 1.0
    locomotive = 1.6 if missing >= params[P_LOCO_DEFICIT] or ferries > s[hand + L.LOCOMOTIVE] else 0.3
    return choose_draw(g, s, ids, n, weights, locomotive)


@njit(cache=True)
def planned_claim(g: np.ndarray, s: np.ndarray, w: tuple, n: int, has: np.ndarray, planned: np.ndarray, k: int) -> int:
    """TicketPlanner._planned_claim: the irreplaceable planned track first, longest first; -1 if none."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    twin_of, length = g[L.T_TWIN], g[L.T_LENGTH]
    best, bk0, bk1 = -1, 0, 0
    for i in range(k):
        t = planned[i]
        twin = g[twin_of + t]
        if not (has[t] or (twin >= 0 and has[twin])):
            continue
        irreplaceable = 0 if twin >= 0 and claimable(g, s, twin, p) else 1
        key0, key1 = irreplaceable, g[length + t]
        if best < 0 or (key0, key1, -t) > (bk0, bk1, -best):
            best, bk0, bk1 = t, key0, key1
    if best < 0:
        return -1
    first = best
    second = g[twin_of + best]
    a0 = first if has[first] else -1
    a1 = second if second >= 0 and has[second] else -1
    rest = 0
    for i in range(k):
        t = planned[i]
        if t != a0 and t != a1:
            tracks[rest] = t
            rest += 1
    best_twins(g, s, p, tracks, rest, more)
    deficits = np.empty(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, more, rest, deficits)
    count = 0
    for alternative in (a0, a1):
        if alternative < 0:
            continue
        for i in range(n):
            a = ids[i]
            if a >= g[L.ID_CLAIM] and g[g[L.CLAIM_TRACK] + a - g[L.ID_CLAIM]] == alternative:
                tracks[count] = a
                count += 1
    return choose_payment(g, s, p, tracks, count, deficits)


@njit(cache=True)
def points_claim(g: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int, has: np.ndarray,
                 last_chance: bool) -> int:
    """TicketPlanner._points_claim: the claim scoring most, touching its network; -1 if none wanted."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    nt = g[L.N_TRACKS]
    owner, ca, cb = g[L.S_OWNER], g[L.T_CITY_A], g[L.T_CITY_B]
    mine = np.zeros(g[L.N_CITIES], dtype=np.bool_)
    for t in range(nt):
        if s[owner + t] == p:
            mine[g[ca + t]] = True
            mine[g[cb + t]] = True
    roots = components(g, s, p)
    shortest = min(params[P_POINTS_MIN], s[g[L.S_TRAINS] + p])
    best, best_key = -1, 0.0
    for t in range(nt):
        if not has[t] or (g[g[L.T_LENGTH] + t] < shortest and not last_chance):
            continue
        a, b = g[ca + t], g[cb + t]
        touches = int(mine[a]) + int(mine[b]) - (1 if mine[a] and mine[b] and roots[a] == roots[b] else 0)
        key = g[g[L.T_POINTS] + t] + 1.5 * min(touches, 1)
        if best < 0 or key > best_key:
            best, best_key = t, key
    if best < 0:
        return -1
    count = 0
    for i in range(n):
        a = ids[i]
        if a >= g[L.ID_CLAIM] and g[g[L.CLAIM_TRACK] + a - g[L.ID_CLAIM]] == best:
            tracks[count] = a
            count += 1
    return choose_payment(g, s, p, tracks, count, np.zeros(L.COLOURS, dtype=np.int64))


@njit(cache=True)
def points_targets(g: np.ndarray, s: np.ndarray, p: int, costs: np.ndarray, out: np.ndarray) -> int:
    """TicketPlanner._points_targets: the two longest tracks it could still claim."""
    track_costs(g, s, p, 0.0, 0.0, costs)
    k = 0
    length = g[L.T_LENGTH]
    for t in range(g[L.N_TRACKS]):
        if costs[t] > 0.0:
            # keep the two best by (-length, id): tracks come by id, so only longer ones displace
            if k < 2:
                out[k] = t
                k += 1
            elif g[length + t] > g[length + out[1]]:
                out[1] = t
            else:
                continue
            if k == 2 and g[length + out[1]] > g[length + out[0]]:
                out[0], out[1] = out[1], out[0]
    return k


@njit(cache=True)
def decide(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int,
           planned: np.ndarray, k: int) -> int:
    """TicketPlanner.act in a turn or a second draw, with the plan ``planned[:k]`` (legal ids in ``w``)."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    if s[L.PHASE] == L.SECOND:
        return draw(g, s, params, w, n, planned, k)
    p = s[L.PLAYER]
    has = np.zeros(g[L.N_TRACKS], dtype=np.bool_)
    for i in range(n):
        if ids[i] >= g[L.ID_CLAIM]:
            has[g[g[L.CLAIM_TRACK] + ids[i] - g[L.ID_CLAIM]]] = True
    if k > 0:
        claim = planned_claim(g, s, w, n, has, planned, k)
        if claim >= 0:
            return claim
    trains = g[L.S_TRAINS]
    lowest = s[trains]
    for q in range(1, g[L.N_PLAYERS]):
        lowest = min(lowest, s[trains + q])
    last_turn = s[L.FINAL_TURNS] >= 0
    if k > 0 and not last_turn:
        needed = k + cards_missing(g, s, p, planned, k) / 2
        left = max(0.0, (lowest - g[L.END_TRAINS]) / 1.2) + 1
        if needed <= left:
            return draw(g, s, params, w, n, planned, k)
    endgame = last_turn or lowest <= params[P_ENDGAME]
    if k == 0 and not endgame and s[trains + p] >= params[P_TICKETS_MIN]:
        for i in range(n):
            if ids[i] == g[L.ID_TICKETS]:
                return ids[i]
    claim = points_claim(g, s, params, w, n, has, last_turn or endgame)
    if claim >= 0:
        return claim
    if k > 0:
        return draw(g, s, params, w, n, planned, k)
    m = points_targets(g, s, p, costs, tracks)
    return draw(g, s, params, w, n, tracks, m)


@njit(cache=True)
def choose(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple) -> int:
    """``planner_choose`` with the board's tables ``pt`` and the buffers ``w`` given (-1: game over)."""
    ids = w[3]
    n = legal_ids(g, s, ids)
    if n == 0:
        return -1
    phase = s[L.PHASE]
    if phase == L.SETUP or phase == L.KEEP:
        return keep(g, pt, s, params, w, n)
    planned = w[5]
    k = fresh_plan(g, pt, s, s[L.PLAYER], params, w, planned)
    return decide(g, pt, s, params, w, n, planned, k)


@njit(cache=True)
def planner_choose(g: np.ndarray, s: np.ndarray, params: np.ndarray) -> int:
    """The action id a fresh ``TicketPlanner`` (knobs ``params``) picks for the player to move in
    ``s`` (-1 once the game is over)."""
    return choose(g, planner_tables(g), s, params, new_work(g))



# -- play-outs (PlanCache kept per seat) -----------------------------------------------------------


@njit(cache=True)
def cached_plan(g: np.ndarray, pt: np.ndarray, s: np.ndarray, p: int, params: np.ndarray, w: tuple,
                plans: np.ndarray, sizes: np.ndarray, before: np.ndarray, keys: np.ndarray) -> int:
    """PlanCache.get for seat ``p``: its plan ``plans[p, :sizes[p]]``, kept while its tickets stand
    and every planned track is still claimable, trimmed when its own new tracks are planned ones,
    else planned afresh. ``before[p]``: its tracks when the plan was made; ``keys[p]``: (has a
    plan, tickets then, trains at its last decision)."""
    nt = g[L.N_TRACKS]
    owner, twin_of = g[L.S_OWNER], g[L.T_TWIN]
    tickets = s[g[L.S_TICKETS_N] + p]
    trains = s[g[L.S_TRAINS] + p]
    plan = plans[p]
    k = sizes[p]
    same_tickets = keys[p, 0] == 1 and keys[p, 1] == tickets
    if same_tickets and keys[p, 2] == trains:
        standing = True
        for i in range(k):
            if not claimable(g, s, plan[i], p):
                standing = False
                break
        if standing:
            return k
    keys[p, 2] = trains
    if same_tickets:
        # Its new tracks all planned (or their twins): the rest of the plan stands, no new search.
        planned = np.zeros(nt, dtype=np.bool_)
        for i in range(k):
            planned[plan[i]] = True
        trimmed = True
        for t in range(nt):
            if s[owner + t] == p and not before[p, t]:
                twin = g[twin_of + t]
                if not (planned[t] or (twin >= 0 and planned[twin])):
                    trimmed = False
                    break
        if trimmed:
            m = 0
            for i in range(k):
                t = plan[i]
                twin = g[twin_of + t]
                if s[owner + t] != p and not (twin >= 0 and s[owner + twin] == p):
                    if not claimable(g, s, t, p):
                        trimmed = False
                        break
                    plan[m] = t
                    m += 1
            if trimmed:
                for t in range(nt):
                    before[p, t] = s[owner + t] == p
                sizes[p] = m
                return m
    k = fresh_plan(g, pt, s, p, params, w, plan)
    sizes[p] = k
    keys[p, 0], keys[p, 1] = 1, tickets
    for t in range(nt):
        before[p, t] = s[owner + t] == p
    return k


@njit(cache=True)
def planner_playout(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                    plans: np.ndarray, sizes: np.ndarray, before: np.ndarray, keys: np.ndarray) -> int:
    """Play ``s`` to the end in place, the planner at every seat (a forced move asks no planner,
    as in the search's play-outs); returns the decisions made."""
    ids, scratch = w[3], w[4]
    keys[:, :] = 0
    sizes[:] = 0
    decisions = 0
    while s[L.PHASE] != L.OVER:
        n = legal_ids(g, s, ids)
        if n == 1:
            action = ids[0]
        elif s[L.PHASE] == L.SETUP or s[L.PHASE] == L.KEEP:
            action = keep(g, pt, s, params, w, n)
        else:
            p = s[L.PLAYER]
            k = cached_plan(g, pt, s, p, params, w, plans, sizes, before, keys)
            action = decide(g, pt, s, params, w, n, plans[p], k)
        apply_action(g, s, action, scratch)
        decisions += 1
    return decisions


@njit(cache=True)
def planner_playouts(g: np.ndarray, start: np.ndarray, seeds: np.ndarray, params: np.ndarray,
                     scores: np.ndarray) -> int:
    """One planner play-out of a copy of ``start`` per seed; ``scores[i, p]``: seat ``p``'s final
    score in play-out ``i``. Returns the decisions made in all. The planner draws no random
    numbers and the engine's shuffles come from the state, so the seeds only count the play-outs."""
    n, nt = g[L.N_PLAYERS], g[L.N_TRACKS]
    pt, w = planner_tables(g), new_work(g)
    plans, sizes = np.empty((n, nt), dtype=np.int64), np.zeros(n, dtype=np.int64)
    before, keys = np.zeros((n, nt), dtype=np.bool_), np.zeros((n, 3), dtype=np.int64)
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    decisions = 0
    for i in range(seeds.shape[0]):
        s = start.copy()
        decisions += planner_playout(g, pt, s, params, w, plans, sizes, before, keys)
        score_game(g, s, out, completed)
        for p in range(n):
            scores[i, p] = out[p, L.R_TOTAL]
    return decisions


# -- Python faces ------------------------------------------------------------------------------------

_TABLES: dict[int, tuple[np.ndarray, np.ndarray, tuple]] = {}
DEFAULT_PARAMS = default_params()


def tables_of(g: np.ndarray) -> tuple[np.ndarray, tuple]:
    """The planner's tables and buffers for game array ``g`` (kept while ``g`` lives: one per game)."""
    found = _TABLES.get(id(g))
    if found is None or found[0] is not g:
        found = _TABLES[id(g)] = (g, planner_tables(g), new_work(g))
    return found[1], found[2]


def choose_id(state: Any, params: np.ndarray | None = None) -> int:
    """``planner_choose`` for a ``GameState``: the planner's action id for the player to move."""
    g = state.face.g
    pt, w = tables_of(g)
    return int(choose(g, pt, state.s, DEFAULT_PARAMS if params is None else params, w))
