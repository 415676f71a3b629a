"""``Greedy``'s decisions as a compiled kernel on the game's array state: the batched env's
``"greedy"`` opponent (``ttr_lab.envs.vector``), every decision in the env's one native call.

It is ``Greedy`` (greedy.py) step for step with its default knobs and nothing cached between
decisions (its ``PlanCache`` plan computed afresh, orders 1, no card or route weights): the
fewest, cheapest tickets kept; the affordable track worth most now (route points, plus
``ticket_bonus`` on its plan, less a tunnel's expected extra cards); else the colour that
brings the best-value track nearest; a tunnel's extra cards paid or declined by ``tunnel_answer``. The
same keys and tie-breaks as the Python, over the planner's kernels (``planner_toolkit``), so it
picks the action a fresh ``Greedy`` picks (tests/envs/test_vector_env.py checks it on real games).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.strategies.ticket_to_ride.planner_decisions import (
    W_COSTS, W_IDS, W_PLAN, W_TRACKS, _keep_before, default_params, turn_start,
)
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import cheapest_claim, choose_draw, track_costs
from ttr_lab.strategies.ticket_to_ride.station_plans import planned_station
from ttr_lab.strategies.ticket_to_ride.tunnel_odds import tunnel_answer, tunnel_surcharge, unseen_cards

TICKET_BONUS, MIN_POINTS, LOCOMOTIVE_WEIGHT = 3.0, 1, 0.9  # Greedy's defaults
# Greedy's PlanCache(orders=1): no card or route weight, one ticket order.
PLAN_PARAMS = default_params(card_weight=0.0, route_weight=0.0, plan_orders=1)


@njit(cache=True)
def _keep(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int) -> int:
    """The fewest tickets, then the fewest points among them, then the first indices."""
    offers = g[L.S_OFFERS] + s[L.PLAYER] * g[L.MAX_OFFER]
    best, best_size, best_points = -1, 0, 0
    for i in range(n):
        mask = ids[i] - g[L.ID_KEEP]
        size, points = 0, 0
        for j in range(g[L.MAX_OFFER]):
            if (mask >> j) & 1:
                size += 1
                points += g[g[L.TICKET_POINTS] + s[offers + j]]
        if best < 0 or (size, points) < (best_size, best_points) or (
                (size, points) == (best_size, best_points) and _keep_before(mask, best - g[L.ID_KEEP])):
            best, best_size, best_points = ids[i], size, points
    return best


@njit(cache=True)
def _claim(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, useful: np.ndarray, claims: np.ndarray) -> int:
    """Greedy._best_claim: the claim id paying for the best-value claimable track; -1 if none."""
    p = s[L.PLAYER]
    seen = np.zeros(g[L.N_TRACKS], dtype=np.bool_)
    unseen = np.zeros(L.KINDS, dtype=np.int64)
    total = unseen_cards(g, s, p, unseen) if g[L.TUNNEL_REVEAL] > 0 else 0
    best, best_value = -1, -np.inf
    for i in range(n):  # tracks in the order their first claim comes, as claims_by_track groups them
        a = ids[i]
        if a < g[L.ID_CLAIM]:
            continue
        t = g[g[L.CLAIM_TRACK] + a - g[L.ID_CLAIM]]
        if seen[t]:
            continue
        seen[t] = True
        points = g[g[L.T_POINTS] + t]
        if points < MIN_POINTS and not useful[t]:
            continue
        value = points + (TICKET_BONUS if useful[t] else 0.0)
        if total > 0:  # a tunnel: less its expected extra cards
            value -= tunnel_surcharge(g, s, p, t, unseen, total)
        if value > best_value:
            best, best_value = t, value
    return cheapest_claim(g, s, p, ids, n, best, claims)


@njit(cache=True)
def _draw(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, useful: np.ndarray, costs: np.ndarray) -> int:
    """Greedy._draw: the colour the best-value track it cannot yet afford needs most."""
    p = s[L.PLAYER]
    hand = g[L.S_HANDS] + p * L.KINDS
    track_costs(g, s, p, 0.0, 0.0, costs)
    locos = s[hand + L.LOCOMOTIVE]
    most = 0
    for c in range(1, L.COLOURS):
        if s[hand + c] > s[hand + most]:
            most = c
    target, target_value = -1, -np.inf
    for t in range(g[L.N_TRACKS]):
        if costs[t] <= 0.0:  # owned (0) or not claimable (NONE)
            continue
        colour = g[g[L.T_COLOUR] + t]
        have = s[hand + (most if colour == L.GRAY else colour)] + locos
        length = g[g[L.T_LENGTH] + t]
        missing = length - have if length > have else 0
        value = (g[g[L.T_POINTS] + t] + (TICKET_BONUS if useful[t] else 0.0)) / (1 + missing)
        if value > target_value:
            target, target_value = t, value
    weights = np.zeros(L.COLOURS, dtype=np.float64)
    if target >= 0:
        colour = g[g[L.T_COLOUR] + target]
        weights[most if colour == L.GRAY else colour] = 1.0
    return choose_draw(g, s, ids, n, weights, LOCOMOTIVE_WEIGHT)


@njit(cache=True)
def greedy_choice(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple) -> int:
    """A fresh ``Greedy``'s action id for the player to move (-1 once the game is over);
    ``pt``, ``w``: the planner's tables and buffers, ``params``: ``PLAN_PARAMS``."""
    n, k = turn_start(g, pt, s, params, w)
    if n == 0:
        return -1
    ids, planned = w[W_IDS], w[W_PLAN]
    if k < 0:
        return _keep(g, s, ids, n)
    if s[L.PHASE] == L.TUNNEL:
        return tunnel_answer(g, s, ids, n, planned, k)
    useful = np.zeros(g[L.N_TRACKS], dtype=np.bool_)
    for i in range(k):
        useful[planned[i]] = True
    if s[L.PHASE] == L.TURN:
        station = planned_station(g, s, params, ids, n)
        if station >= 0:
            return station
        claim = _claim(g, s, ids, n, useful, w[W_TRACKS])
        if claim >= 0:
            return claim
    return _draw(g, s, ids, n, useful, w[W_COSTS])
