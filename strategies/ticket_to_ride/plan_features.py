"""Planning features for a network: what the compiled ticket planner's kernels see in a position,
as numbers appended to the observation tensor (``learned`` and ``ttr-lab train`` read them).

An MLP over the tensor's raw counts would have to learn Dijkstra to know which tracks serve its
tickets; the planner's kernels already know, so the network is handed their answers, for the
player to move (``s``'s ``PLAYER``), from what that player may see (its hand and tickets, the
board, the market: the kernels read nothing else). In order, ``extra_size(g)`` values:

| block | size (USA) | meaning |
|---|---:|---|
| market slots | 5 x 9 | one-hot per market slot over card kinds (the tensor counts kinds, not slots) |
| plan | 100 | multi-hot: the tracks of the planner's fresh plan for the held tickets (``fresh_plan``'s Steiner tree) |
| claimable | 100 | multi-hot: the tracks the player could claim now by trains and the double-route rule (``claimable``) |
| deficits | 8 | per colour, the cards the plan still lacks / 10 (``card_deficits``) |
| connected | 30 | per ticket id: held and already joined by the player's tracks |
| unreachable | 30 | per ticket id: held and no longer joinable |
| trains to go | 30 | per ticket id held: trains still to lay on its own cheapest path / 20 (``shortest_path`` on trains) |
| summary | 4 | plan tracks / 20, plan trains / 45, plan cards missing / 20, held tickets not yet joined / 5 |

One call is a few Dijkstra runs on the board's hundred tracks: tens of microseconds compiled.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rows import tickets_start
from ttr_lab.games.ticket_to_ride.kernels.scoring import components
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, P_CARD_WEIGHT, P_PLAN_ORDERS, \
    P_ROUTE_WEIGHT, new_work, tables_of
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import card_deficits, cards_missing, claimable, plan_tickets, \
    shortest_path, track_costs

NAME = "plan-v1"  # a network's ``meta["features"]``: which extras it was trained on


@njit(cache=True)
def extra_size(g: np.ndarray) -> int:
    nt, nk = g[L.N_TRACKS], g[L.N_TICKETS]
    return g[L.MARKET_SIZE] * (L.LOCOMOTIVE + 1) + 2 * nt + L.COLOURS + 3 * nk + 4


@njit(cache=True)
def plan_features(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                  out: np.ndarray) -> None:
    """The module docstring's values for the player to move in ``s`` into ``out`` (``extra_size``)."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    nt, nk, kinds = g[L.N_TRACKS], g[L.N_TICKETS], L.LOCOMOTIVE + 1
    p = s[L.PLAYER]
    out[:] = 0.0
    at = 0
    market = g[L.S_MARKET]
    for i in range(min(s[L.MARKET_N], g[L.MARKET_SIZE])):
        kind = s[market + i]
        if kind >= 0:
            out[at + i * kinds + kind] = 1.0
    at += g[L.MARKET_SIZE] * kinds
    # The plan (as planner_decisions.fresh_plan, keeping plan_tickets' trains and lost flags).
    track_costs(g, s, p, params[P_CARD_WEIGHT], params[P_ROUTE_WEIGHT], costs)
    first, count = tickets_start(g, p), s[g[L.S_TICKETS_N] + p]
    for i in range(count):
        tickets[i] = s[first + i]
    roots = components(g, s, p)
    n, trains = plan_tickets(g, pt, s, roots, tickets, count, costs, int(params[P_PLAN_ORDERS]), plan, lost, fw, iw)
    for i in range(n):
        out[at + plan[i]] = 1.0
    at += nt
    for t in range(nt):
        if s[g[L.S_OWNER] + t] < 0 and claimable(g, s, t, p):
            out[at + t] = 1.0
    at += nt
    need = np.zeros(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, plan, n, need)
    for c in range(L.COLOURS):
        out[at + c] = need[c] / 10.0
    at += L.COLOURS
    missing = cards_missing(g, s, p, plan, n)
    # Per held ticket: joined, unreachable, trains to go on its own cheapest path.
    track_costs(g, s, p, 0.0, 0.0, costs)  # cost = trains; own tracks 0, closed ones NONE
    path = iw[:nt]
    open_tickets = 0
    for i in range(count):
        tk = tickets[i]
        a, b = g[g[L.TICKET_A] + tk], g[g[L.TICKET_B] + tk]
        if roots[a] == roots[b]:
            out[at + tk] = 1.0
            continue
        open_tickets += 1
        steps = shortest_path(g, pt, costs, a, b, fw[nt:], iw[2 * nt:], path)
        if steps < 0:
            out[at + nk + tk] = 1.0
            continue
        togo = 0.0
        for x in range(steps):
            togo += costs[path[x]]
        out[at + 2 * nk + tk] = togo / 20.0
    at += 3 * nk
    out[at] = n / 20.0
    out[at + 1] = trains / 45.0
    out[at + 2] = missing / 20.0
    out[at + 3] = open_tickets / 5.0


class Featurizer:
    """The extras for one game array ``g``, with the planner's tables and buffers made once."""

    def __init__(self, g: np.ndarray) -> None:
        self.g = g
        self.pt, self.w = tables_of(g)
        self.w = new_work(g)  # its own buffers: the planner's may be mid-decision in a caller
        self.size = int(extra_size(g))

    def one(self, s: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        out = np.empty(self.size, dtype=np.float32) if out is None else out
        plan_features(self.g, self.pt, s, DEFAULT_PARAMS, self.w, out)
        return out

    def rows(self, states: np.ndarray, which: Any = None) -> np.ndarray:
        """The extras of each state row of ``states`` (or of the rows ``which`` names)."""
        index = np.arange(len(states)) if which is None else np.asarray(which)
        out = np.empty((len(index), self.size), dtype=np.float32)
        for k, i in enumerate(index):
            plan_features(self.g, self.pt, states[i], DEFAULT_PARAMS, self.w, out[k])
        return out
