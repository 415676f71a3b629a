"""The ticket planner's decisions as compiled kernels on the game's array state.

``TicketPlanner`` (ticket_planner.py on planning.py) judged on the kernels' ``s``/``g`` arrays,
so a search's play-outs run in one native call: the cheapest plan for its tickets (Dijkstra per
ticket, a greedy Steiner tree, with the card and route weights), which tickets to keep, the
planned claim and its payment, the colour to draw, and the late game's claims for points. The
rules are the game's kernels: legality from ``legal_ids`` (and ``track_open``), effects from
``apply_action``, connectivity and the final score from ``scoring``. What is written here is
only the planner's judgement, step for step as in Python (the same keys, the same tie-breaks,
the same float arithmetic in the same order), so it picks the very action the Python planner
picks (``ttr_lab.bench.planner`` measures it on positions from real games).

- ``planner_choose(g, s, params)``: the action id a fresh ``TicketPlanner`` (no plan from
  earlier decisions) picks for the player to move.
- ``choose_id(state)``: ``planner_choose`` for a ``GameState``.

Whole games played by these decisions, each seat keeping its plan between its decisions as
``PlanCache`` does, are in ``planner_playouts.py`` (a search's play-outs, and the
``compiled_planner`` strategy).

The decision's own layers (``fresh_plan``, ``keep``, ``decide`` and the helpers ``decide`` calls
once) are compiled into their callers (``inline="always"``), each a copy of all below it
otherwise, compiled again on a first run; what is called from many places stays a kernel of its own.

``params`` (float64): the planner's knobs, each at the slot its declaration gives it
(``planner_knobs``); ``default_params`` builds it with the play-out planner's one-order defaults.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rows import hand_start, tickets_start, offers_start
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.scoring import components
from ttr_lab.strategies.ticket_to_ride.planner_knobs import PLAYOUT_ORDERS, SLOT, knobs
from ttr_lab.strategies.ticket_to_ride.station_plans import planned_station
from ttr_lab.strategies.ticket_to_ride.tunnel_odds import tunnel_answer, tunnel_locomotives
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import (
    best_twins, card_deficits, cards_missing, cheapest_claim, choose_draw, choose_payment, claimable,
    ferry_locomotives,
    plan_tickets, planner_tables, track_costs,
)

# Each knob's slot in ``params``, from the one declaration (``planner_knobs``); numba reads these
# module globals as constants.
P_BUDGET, P_TICKET_COST, P_TICKETS_MIN = SLOT["plan_budget"], SLOT["ticket_cost_weight"], SLOT["draw_tickets_min_trains"]
P_ENDGAME, P_LOCO_DEFICIT, P_POINTS_MIN = SLOT["endgame_trains"], SLOT["locomotive_deficit"], SLOT["points_min_length"]
P_PLAN_ORDERS, P_CARD_WEIGHT = SLOT["plan_orders"], SLOT["card_weight"]
P_KEEP_ORDERS, P_ROUTE_WEIGHT = SLOT["keep_orders"], SLOT["route_weight"]
# The orders ``TicketPlanner._keep`` tries for the plan of the tickets already held (planning's default).
_BASE_ORDERS = 4


def default_params(**overrides: float) -> np.ndarray:
    """``params`` for the play-out planner (one ticket order, ``PLAYOUT_ORDERS``) with
    ``overrides`` (a misspelt knob is refused)."""
    return knobs(knobs(**PLAYOUT_ORDERS), **overrides).params()


# -- decisions (TicketPlanner.act and its helpers) --------------------------------------------------


class Work(NamedTuple):
    """A decision's buffers, sized for one game array and reused across decisions (numba takes
    the named tuple whole: a kernel reads ``w[W_IDS]``, not ``w[W_IDS]``)."""

    costs: np.ndarray  # float, a track: its cost to the player planning
    fw: np.ndarray  # float scratch of the path search (distances, the heap's keys)
    iw: np.ndarray  # int scratch of the path search (predecessors, the heap, the tree's edges)
    ids: np.ndarray  # the legal action ids (``legal_ids`` writes them)
    scratch: np.ndarray  # int scratch of ``apply_action`` and the choice's own lists
    plan: np.ndarray  # a plan's tracks (``plan_tickets`` writes them)
    tracks: np.ndarray  # the tracks a choice weighs: the plan's unclaimed ones, a claim's candidates
    more: np.ndarray  # those tracks, each as the twin to claim (``best_twins``)
    tickets: np.ndarray  # the tickets a plan serves: held, then offered
    lost: np.ndarray  # bool, a ticket: the plan cannot complete it


_AT = {name: i for i, name in enumerate(Work._fields)}
# Where a kernel finds a buffer in the tuple, derived from the declaration (compile-time constants).
W_COSTS, W_IDS, W_SCRATCH, W_PLAN, W_TRACKS = (_AT[name] for name in ("costs", "ids", "scratch", "plan", "tracks"))


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
    return costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost  # in Work's order


@njit(cache=True)
def _held(g: np.ndarray, s: np.ndarray, p: int, out: np.ndarray) -> int:
    at, count = tickets_start(g, p), s[g[L.S_TICKETS_N] + p]
    for i in range(count):
        out[i] = s[at + i]
    return count


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
    offers = offers_start(g, p)
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
    hand = hand_start(g, p)
    best_twins(g, s, p, targets, k, more)
    deficits = np.empty(L.COLOURS, dtype=np.int64)
    card_deficits(g, s, p, more, k, deficits)
    ferries = ferry_locomotives(g, more, k)
    if g[L.TUNNEL_REVEAL] > 0:  # the extra cards the plan's tunnels are expected to ask, as locomotives
        ferries += tunnel_locomotives(g, s, p, more, k)
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
    return cheapest_claim(g, s, p, ids, n, best, tracks)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def decide(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, n: int,
           planned: np.ndarray, k: int) -> int:
    """TicketPlanner.act in a turn or a second draw, with the plan ``planned[:k]`` (legal ids in ``w``)."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    if s[L.PHASE] == L.TUNNEL:
        return tunnel_answer(g, s, ids, n, planned, k)
    if s[L.PHASE] == L.SECOND:
        return draw(g, s, params, w, n, planned, k)
    p = s[L.PLAYER]
    station = planned_station(g, s, params, ids, n)  # a station repairing tickets comes first
    if station >= 0:
        return station
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


@njit(cache=True, inline="always")
def turn_start(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple) -> tuple[int, int]:
    """What a planning choice reads first (the planner's, greedy's): the legal ids into
    ``w[W_IDS]`` and, on a turn, the mover's fresh plan into ``w[W_PLAN]``; their counts, the
    plan's -1 at a choice of tickets (nothing planned). No legal id: the game is over."""
    n = legal_ids(g, s, w[W_IDS])
    if n == 0 or s[L.PHASE] == L.SETUP or s[L.PHASE] == L.KEEP:
        return n, -1
    return n, fresh_plan(g, pt, s, s[L.PLAYER], params, w, w[W_PLAN])


@njit(cache=True)
def choose(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple) -> int:
    """``planner_choose`` with the board's tables ``pt`` and the buffers ``w`` given (-1: game over)."""
    n, k = turn_start(g, pt, s, params, w)
    if n == 0:
        return -1
    if k < 0:
        return keep(g, pt, s, params, w, n)
    return decide(g, pt, s, params, w, n, w[W_PLAN], k)


@njit(cache=True)
def planner_choose(g: np.ndarray, s: np.ndarray, params: np.ndarray) -> int:
    """The action id a fresh ``TicketPlanner`` (knobs ``params``) picks for the player to move in
    ``s`` (-1 once the game is over)."""
    return choose(g, planner_tables(g), s, params, new_work(g))


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
