"""The ticket planner playing whole games: compiled play-outs for a search, and the plan a
seat keeps between its decisions.

The decisions are ``planner_decisions``'s; what is here is the memory between them, as
``PlanCache`` keeps it in Python (a plan stands while its tickets stand and every planned
track is still claimable, is trimmed when the seat's new tracks were planned ones, and is made
afresh otherwise), and the loop that plays a state to its end with them.

- ``planner_playouts(g, start, seeds, params, scores)``: each seed plays a copy of ``start`` to
  the end with the planner at every seat; ``scores[i, p]``: seat ``p``'s final score. Returns
  the decisions made. The planner draws no random numbers, so a play-out is the same for every
  seed (the seeds only count the play-outs; a determinized ``start`` carries the luck in its
  decks). ``planner_playouts_from`` starts the seats from given plans.
- ``KeptPlan``: one game's kept plans in Python, for ``ticket_planner.TicketPlanner`` (and
  ``compiled_planner``), the strategy that acts through ``choose_kept``.

The layers between a caller and the planner's decision (``planner_playouts``,
``planner_playouts_from``, ``planner_playout``, ``cached_plan``) are compiled into their callers
(``inline="always"``): numba emits each kernel with everything it calls linked in, so each layer
of its own optimised the whole planner again on a first run (docs/compiled-core.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_game
from ttr_lab.strategies.ticket_to_ride.planner_decisions import (
    W_IDS, W_SCRATCH, decide, fresh_plan, keep, new_work, tables_of,
)
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import claimable, copy_into, planner_tables


@njit(cache=True, inline="always")
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
def choose_kept(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int,
                plans: np.ndarray, sizes: np.ndarray, before: np.ndarray, keys: np.ndarray) -> int:
    """The planner's action id with the legal ids ``w[W_IDS][:n]``, its plan kept between calls in
    ``plans``, ``sizes``, ``before``, ``keys`` (see ``cached_plan``), as one ``TicketPlanner`` keeps it."""
    if s[L.PHASE] == L.SETUP or s[L.PHASE] == L.KEEP:
        return keep(g, pt, s, params, w, n)
    p = s[L.PLAYER]
    k = cached_plan(g, pt, s, p, params, w, plans, sizes, before, keys)
    return decide(g, pt, s, params, w, n, plans[p], k)


@njit(cache=True, inline="always")
def planner_playout(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                    plans: np.ndarray, sizes: np.ndarray, before: np.ndarray, keys: np.ndarray) -> int:
    """Play ``s`` to the end in place, the planner at every seat, each starting from the plans in
    ``plans``, ``sizes``, ``before``, ``keys`` (see ``cached_plan``; updated as it plays). A forced
    move asks no planner, as in the search's play-outs. Returns the decisions made."""
    ids, scratch = w[W_IDS], w[W_SCRATCH]
    decisions = 0
    while s[L.PHASE] != L.OVER:
        n = legal_ids(g, s, ids)
        action = ids[0] if n == 1 else choose_kept(g, pt, s, params, w, n, plans, sizes, before, keys)
        apply_action(g, s, action, scratch)
        decisions += 1
    return decisions


@njit(cache=True, inline="always")
def planner_playouts_from(g: np.ndarray, start: np.ndarray, seeds: np.ndarray, params: np.ndarray,
                          scores: np.ndarray, plans: np.ndarray, sizes: np.ndarray, before: np.ndarray,
                          keys: np.ndarray) -> int:
    """``planner_playouts`` with each seat's plan at the start given (``KeptPlan``'s arrays, left
    unchanged): a search's own seat may start from the plan it holds at the root, as
    ``PlanCache.adopt`` does (``keys[p, 2] = -1``: its trains unknown, so the plan is checked
    at once). A seat with ``keys[p, 0] == 0`` plans afresh."""
    n = g[L.N_PLAYERS]
    pt, w = planner_tables(g), new_work(g)
    kept_plans, kept_sizes, kept_before, kept_keys = plans.copy(), sizes.copy(), before.copy(), keys.copy()
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    decisions = 0
    for i in range(seeds.shape[0]):
        s = start.copy()
        for p in range(n):  # by row (``copy_into``)
            copy_into(kept_plans[p], plans[p])
            copy_into(kept_before[p], before[p])
            copy_into(kept_keys[p], keys[p])
        copy_into(kept_sizes, sizes)
        decisions += planner_playout(g, pt, s, params, w, kept_plans, kept_sizes, kept_before, kept_keys)
        score_game(g, s, out, completed)
        for p in range(n):
            scores[i, p] = out[p, L.R_TOTAL]
    return decisions


@njit(cache=True, inline="always")
def planner_playouts(g: np.ndarray, start: np.ndarray, seeds: np.ndarray, params: np.ndarray,
                     scores: np.ndarray) -> int:
    """One planner play-out of a copy of ``start`` per seed; ``scores[i, p]``: seat ``p``'s final
    score in play-out ``i``. Returns the decisions made in all. Every seat starts with no plan.
    The planner draws no random numbers and the engine's shuffles come from the state, so the
    seeds only count the play-outs."""
    n, nt = g[L.N_PLAYERS], g[L.N_TRACKS]
    plans, sizes = np.zeros((n, nt), dtype=np.int64), np.zeros(n, dtype=np.int64)
    before, keys = np.zeros((n, nt), dtype=np.bool_), np.zeros((n, 3), dtype=np.int64)
    return planner_playouts_from(g, start, seeds, params, scores, plans, sizes, before, keys)



# -- Python faces

class KeptPlan:
    """The plans kept between decisions (``PlanCache``), one row per seat, for ``choose_kept``
    and ``planner_playouts_from``: ``plans[p, :sizes[p]]`` the tracks still to claim,
    ``before[p]`` the seat's tracks when the plan was made, ``keys[p]`` (has a plan, tickets
    held then, trains at its last decision)."""

    def __init__(self, g: np.ndarray) -> None:
        n, nt = int(g[L.N_PLAYERS]), int(g[L.N_TRACKS])
        self.plans, self.sizes = np.empty((n, nt), dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.before, self.keys = np.zeros((n, nt), dtype=np.bool_), np.zeros((n, 3), dtype=np.int64)

    def fits(self, g: np.ndarray) -> bool:
        """Whether these rows are sized for game array ``g`` (its players and tracks)."""
        return self.plans.shape == (int(g[L.N_PLAYERS]), int(g[L.N_TRACKS]))

    def adopted(self) -> KeptPlan:
        """A copy whose seats check their plans at their next decision (their trains then
        unknown), as a planner adopting another's plan does."""
        copy = KeptPlan.__new__(KeptPlan)
        copy.plans, copy.sizes, copy.before, copy.keys = self.plans.copy(), self.sizes.copy(), self.before.copy(), self.keys.copy()
        copy.keys[:, 2] = -1
        return copy

    def choose_id(self, state: Any, params: np.ndarray) -> int:
        """The planner's action id in ``state`` (its player to move is this plan's player)."""
        g = state.face.g
        pt, w = tables_of(g)
        n = legal_ids(g, state.s, w[W_IDS])
        return int(choose_kept(g, pt, state.s, params, w, n, self.plans, self.sizes, self.before, self.keys))
