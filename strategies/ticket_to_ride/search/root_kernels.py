"""The root's moves, compiled: grouped and ordered by the hand prior, for every search.

A node (the root of every search, and each node of ``mcts_tree``) opens moves by *group*: every
claim of one track is one (its cheapest payment stands for it), every face-up draw of one card
kind is one, every station build on one city is one (opened, paid one way, only where the
station repairs a blocked ticket: ``station_plans``), any other action is its own (``group_of``).
``ordered_moves`` lists the groups best prior first: the planner's move, the claims its plan
wants, the blind draw, a ticket draw, the other claims (and stations) by their points, the
face-up cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.strategies.ticket_to_ride.planner_decisions import W_IDS, W_SCRATCH, decide, fresh_plan, keep
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import cheapest_claim
from ttr_lab.strategies.ticket_to_ride.station_plans import station_payment, station_values

# Prior scores of ``ordered_moves`` (higher opens first). The planner's move leads; then the
# claims it plans, the blind draw and a ticket draw (what a player does most turns); then the
# other claims by their points, then the face-up cards.
_FIRST, _PLANNED, _DECK, _TICKETS, _CLAIM, _MARKET = 1e9, 500.0, 400.0, 300.0, 100.0, 10.0


@njit(cache=True)
def group_count(g: np.ndarray) -> int:
    """How many groups ``group_of`` can name."""
    return g[L.N_ACTIONS] + L.KINDS


@njit(cache=True)
def group_of(g: np.ndarray, s: np.ndarray, a: int) -> int:
    """The group of action id ``a`` at ``s``, the unit in which a node opens moves: every claim of
    one track (and of its twin in the same colour: the same move) is one group, every face-up draw
    of one card kind is one, every station build on one city is one, any other action is its own."""
    id_claim = g[L.ID_CLAIM]
    if a >= id_claim:
        t = g[g[L.CLAIM_TRACK] + a - id_claim]
        twin = g[g[L.T_TWIN] + t]
        if twin >= 0 and twin < t and g[g[L.T_COLOUR] + twin] == g[g[L.T_COLOUR] + t]:
            t = twin
        return id_claim + t  # claim ids outnumber tracks, so claim groups stay among claim ids
    if g[L.ID_MARKET] <= a < g[L.ID_TICKETS]:
        return g[L.N_ACTIONS] + s[g[L.S_MARKET] + a - g[L.ID_MARKET]]
    if a >= g[L.ID_STATION]:  # station builds outnumber cities, so city groups stay among them
        return g[L.ID_STATION] + g[g[L.STATION_CITY] + a - g[L.ID_STATION]]
    return a


@njit(cache=True)
def ordered_moves(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, first: int,
                  planned: np.ndarray, k: int, out: np.ndarray, score: np.ndarray, ids: np.ndarray) -> int:
    """The moves a node opens at ``s`` (the player to move's), grouped, best prior first, into
    ``out``; their count. ``planned[:k]``: the player's plan; ``first``: the move to put first,
    or -1 for the compiled planner's with that plan."""
    n = legal_ids(g, s, w[W_IDS])
    for i in range(n):
        ids[i] = w[W_IDS][i]
    phase = s[L.PHASE]
    p = s[L.PLAYER]
    if phase == L.SETUP or phase == L.KEEP:
        top = first if first >= 0 else keep(g, pt, s, params, w, n)
        out[0] = top
        m = 1
        for i in range(n):
            if ids[i] != top:
                out[m] = ids[i]
                m += 1
        return m
    on_plan = np.zeros(g[L.N_TRACKS], dtype=np.bool_)
    for i in range(k):
        on_plan[planned[i]] = True
    if first < 0:
        for i in range(n):
            w[W_IDS][i] = ids[i]
        first = decide(g, pt, s, params, w, n, planned, k)
    id_claim, claim_track = g[L.ID_CLAIM], g[L.CLAIM_TRACK]
    first_group = group_of(g, s, first)
    seen = np.zeros(group_count(g), dtype=np.bool_)
    scratch = w[W_SCRATCH]
    repairs = np.zeros(g[L.N_CITIES], dtype=np.int64)  # per city, the ticket points a station repairs
    station_values(g, s, ids, n, repairs)
    m = 0
    for i in range(n):
        a = ids[i]
        if a == first:
            value = _FIRST
        else:
            group = group_of(g, s, a)
            if seen[group] or group == first_group:
                continue
            seen[group] = True
            if a >= id_claim:
                t = g[claim_track + a - id_claim]
                a = cheapest_claim(g, s, p, ids, n, t, scratch)
                length = g[g[L.T_LENGTH] + t]
                value = _PLANNED + length if on_plan[t] else _CLAIM + g[g[L.T_POINTS] + t]
            elif a == g[L.ID_TICKETS]:
                value = _TICKETS
            elif a >= g[L.ID_STATION]:  # a station only where it repairs a ticket, paid one way
                city = g[g[L.STATION_CITY] + a - g[L.ID_STATION]]
                if repairs[city] <= 0:
                    continue
                a = station_payment(g, s, ids, n, city)
                value = _CLAIM + repairs[city]
            elif a >= g[L.ID_MARKET]:
                value = _MARKET + (1.0 if s[g[L.S_MARKET] + a - g[L.ID_MARKET]] == L.LOCOMOTIVE else 0.0)
            elif a == g[L.ID_PASS]:
                value = 0.0
            else:
                value = _DECK
        # Insertion in order of value (ties: the legal order).
        j = m
        while j > 0 and score[j - 1] < value:
            out[j], score[j] = out[j - 1], score[j - 1]
            j -= 1
        out[j], score[j] = a, value
        m += 1
    return m


@njit(cache=True)
def root_order(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, first: int,
               out: np.ndarray, score: np.ndarray, ids: np.ndarray) -> int:
    """``ordered_moves`` at the root, ``first`` leading, the player's plan made afresh (as the
    play-outs start: every seat with no plan)."""
    planned = np.empty(g[L.N_TRACKS], dtype=np.int64)
    k = fresh_plan(g, pt, s, s[L.PLAYER], params, w, planned)
    return ordered_moves(g, pt, s, params, w, first, planned, k, out, score, ids)
