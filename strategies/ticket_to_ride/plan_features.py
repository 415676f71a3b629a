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

``kept-plan-v1`` (``kept_features``) is the same blocks with the plan the ``ticket_planner``
strategy holds at that decision: the plan it keeps between its decisions (re-planned only when
it breaks, with its four ticket orders), which a fresh plan differs from after the board moves.
A caller keeps one ``KeptPlan`` per game (``KeptRows`` per batch of games) and asks at every
decision of its seat, as the planner does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rows import offers_start, tickets_start
from ttr_lab.games.ticket_to_ride.kernels.scoring import components
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, P_CARD_WEIGHT, P_PLAN_ORDERS, \
    P_KEEP_ORDERS, P_ROUTE_WEIGHT, W_IDS, new_work, tables_of
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan, cached_plan, choose_kept
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import card_deficits, cards_missing, claimable, plan_tickets, \
    shortest_path, track_costs

NAME = "plan-v1"  # a network's ``meta["features"]``: which extras it was trained on
KEPT = "kept-plan-v1"  # the same blocks, the plan the one the ticket planner keeps (``kept_features``)
OFFERS = "kept-offers-v1"  # kept-plan-v1, then the offered tickets' subsets (``offer_features``)
NAMES = (NAME, KEPT, OFFERS)
KEPT_NAMES = (KEPT, OFFERS)  # the sets that read a kept plan
OFFER_VALUES = 4  # per subset of the offer: legal to keep, points, extra plan trains, plan trains / trains left
# The ``ticket_planner`` strategy's own knobs (four ticket orders per plan, two when keeping):
# the kept plan is the one that strategy holds.
TICKET_PLANNER = knobs().params()
# The knobs that shape a plan (``fresh_plan``): a teacher sharing the kept plan keeps them at their defaults.
PLAN_KNOBS = ("plan_orders", "card_weight", "route_weight")


@njit(cache=True)
def extra_size(g: np.ndarray) -> int:
    nt, nk = g[L.N_TRACKS], g[L.N_TICKETS]
    return g[L.MARKET_SIZE] * (L.LOCOMOTIVE + 1) + 2 * nt + L.COLOURS + 3 * nk + 4


@njit(cache=True)
def offer_size(g: np.ndarray) -> int:
    return ((1 << g[L.MAX_OFFER]) - 1) * OFFER_VALUES


def size_of(g: np.ndarray, name: str) -> int:
    """How many values the feature set ``name`` appends to the tensor for game array ``g``."""
    return int(extra_size(g)) + (int(offer_size(g)) if name == OFFERS else 0)


@njit(cache=True)
def offer_features(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                   out: np.ndarray) -> None:
    """While the player to move holds an offer of tickets, per subset of it (bit ``j`` of mask
    ``m`` is offered ticket ``j``; mask ``m`` at ``(m - 1) * OFFER_VALUES``): whether keeping it is
    legal; its tickets' points / 20 (an unreachable one's negative); the trains its plan with the
    held tickets costs beyond theirs / 20; and that plan's trains over the trains left. What the
    planner weighs when it keeps tickets (``planner_decisions.keep``), from its toolkit's plans.
    All zero without an offer."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    out[:] = 0.0
    p = s[L.PLAYER]
    if s[g[L.S_OFFERS_N] + p] == 0:
        return
    track_costs(g, s, p, params[P_CARD_WEIGHT], params[P_ROUTE_WEIGHT], costs)
    roots = components(g, s, p)
    first, held = tickets_start(g, p), s[g[L.S_TICKETS_N] + p]
    for i in range(held):
        tickets[i] = s[first + i]
    base = 0
    if held > 0:
        _, base = plan_tickets(g, pt, s, roots, tickets, held, costs, int(params[P_PLAN_ORDERS]), plan, lost, fw, iw)
    n = legal_ids(g, s, ids)
    left = max(1, s[g[L.S_TRAINS] + p])
    offers, tp = offers_start(g, p), g[L.TICKET_POINTS]
    for m in range(1, 1 << g[L.MAX_OFFER]):
        legal = False
        for i in range(n):
            if ids[i] == g[L.ID_KEEP] + m:
                legal = True
                break
        if not legal:
            continue
        at = (m - 1) * OFFER_VALUES
        count = held
        for j in range(g[L.MAX_OFFER]):
            if (m >> j) & 1:
                tickets[count] = s[offers + j]
                count += 1
        _, cost = plan_tickets(g, pt, s, roots, tickets, count, costs, int(params[P_KEEP_ORDERS]), plan, lost, fw, iw)
        points = 0.0
        for j in range(held, count):
            points += -g[tp + tickets[j]] if lost[j] else g[tp + tickets[j]]
        out[at] = 1.0
        out[at + 1] = points / 20.0
        out[at + 2] = (cost - base) / 20.0
        out[at + 3] = cost / left


@njit(cache=True)
def plan_features(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                  out: np.ndarray) -> None:
    """The module docstring's values for the player to move in ``s`` into ``out`` (``extra_size``),
    the plan a fresh one (as ``planner_decisions.fresh_plan``, keeping ``plan_tickets``' trains)."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    track_costs(g, s, p, params[P_CARD_WEIGHT], params[P_ROUTE_WEIGHT], costs)
    first, count = tickets_start(g, p), s[g[L.S_TICKETS_N] + p]
    for i in range(count):
        tickets[i] = s[first + i]
    roots = components(g, s, p)
    n, trains = plan_tickets(g, pt, s, roots, tickets, count, costs, int(params[P_PLAN_ORDERS]), plan, lost, fw, iw)
    _write(g, pt, s, w, roots, plan, n, trains, out)


@njit(cache=True)
def kept_features(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple,
                  plans: np.ndarray, sizes: np.ndarray, before: np.ndarray, keys: np.ndarray,
                  out: np.ndarray) -> None:
    """``plan_features`` with the plan the player keeps between its decisions, as the
    ``ticket_planner`` strategy keeps it (``planner_playouts.cached_plan`` on one game's
    ``KeptPlan`` rows, updated here as the planner's own decision updates them): the plan it
    builds, not a fresh one. Its trains are the planned tracks' lengths."""
    costs, fw, iw, ids, scratch, plan, tracks, more, tickets, lost = w
    p = s[L.PLAYER]
    n = cached_plan(g, pt, s, p, params, w, plans, sizes, before, keys)
    trains = 0
    for i in range(n):
        trains += g[g[L.T_LENGTH] + plans[p, i]]
    first, count = tickets_start(g, p), s[g[L.S_TICKETS_N] + p]
    for i in range(count):
        tickets[i] = s[first + i]
    _write(g, pt, s, w, components(g, s, p), plans[p], n, trains, out)


@njit(cache=True)
def _write(g: np.ndarray, pt: np.ndarray, s: np.ndarray, w: tuple, roots: np.ndarray, plan: np.ndarray, n: int,
           trains: int, out: np.ndarray) -> None:
    """The blocks for the player to move holding ``w``'s ``tickets``, its plan ``plan[:n]``."""
    costs, fw, iw, ids, scratch, _, tracks, more, tickets, lost = w
    nt, nk, kinds = g[L.N_TRACKS], g[L.N_TICKETS], L.LOCOMOTIVE + 1
    p = s[L.PLAYER]
    count = s[g[L.S_TICKETS_N] + p]
    out[:] = 0.0
    at = 0
    market = g[L.S_MARKET]
    for i in range(min(s[L.MARKET_N], g[L.MARKET_SIZE])):
        kind = s[market + i]
        if kind >= 0:
            out[at + i * kinds + kind] = 1.0
    at += g[L.MARKET_SIZE] * kinds
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


@njit(cache=True)
def kept_rows(g: np.ndarray, pt: np.ndarray, states: np.ndarray, params: np.ndarray, w: tuple, plans: np.ndarray,
              sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, out: np.ndarray, teach: np.ndarray,
              teacher: np.ndarray) -> None:
    """``kept_features`` of every state row (row ``i``'s kept plans ``plans[i]``...) into ``out[i]``
    (then ``offer_features`` if ``out`` has room for them) and, when ``teacher`` has a row per state, the move of the planner with knobs ``teach`` and
    that kept plan (with ``params``, what the ``ticket_planner`` strategy plays) into ``teacher[i]``."""
    extra = extra_size(g)
    for i in range(states.shape[0]):
        kept_features(g, pt, states[i], params, w, plans[i], sizes[i], before[i], keys[i], out[i, :extra])
        if out.shape[1] > extra:
            offer_features(g, pt, states[i], params, w, out[i, extra:])
        if teacher.shape[0] == states.shape[0]:
            n = legal_ids(g, states[i], w[W_IDS])
            teacher[i] = choose_kept(g, pt, states[i], teach, w, n, plans[i], sizes[i], before[i], keys[i])


class KeptRows:
    """One ``KeptPlan`` per game of a batch (its rows' plans), for ``kept_rows``."""

    def __init__(self, g: np.ndarray, games: int) -> None:
        n, nt = int(g[L.N_PLAYERS]), int(g[L.N_TRACKS])
        self.plans, self.sizes = np.zeros((games, n, nt), dtype=np.int64), np.zeros((games, n), dtype=np.int64)
        self.before, self.keys = np.zeros((games, n, nt), dtype=np.bool_), np.zeros((games, n, 3), dtype=np.int64)

    def forget(self, which: np.ndarray) -> None:
        """Drop the plans of the games ``which`` selects (their games ended: new deals, no plans)."""
        self.sizes[which] = 0
        self.keys[which] = 0
        self.before[which] = False


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

    def kept_one(self, s: np.ndarray, kept: KeptPlan, offers: bool = False) -> np.ndarray:
        """The extras with ``kept``'s plan for the player to move (updating it, as that player's
        planner would at this decision), then with ``offers`` the offer's (``offer_features``)."""
        out = np.empty(self.size + (int(offer_size(self.g)) if offers else 0), dtype=np.float32)
        kept_features(self.g, self.pt, s, TICKET_PLANNER, self.w, kept.plans, kept.sizes, kept.before, kept.keys,
                      out[:self.size])
        if offers:
            offer_features(self.g, self.pt, s, TICKET_PLANNER, self.w, out[self.size:])
        return out

    def kept_rows(self, states: np.ndarray, kept: KeptRows, teacher: np.ndarray | None = None,
                  offers: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The kept-plan extras of every state row (``kept`` a row per state), and, given
        ``teacher`` (a planner's ``params``: ``TICKET_PLANNER`` is the ``ticket_planner``
        strategy), that planner's move in each with the kept plan (else an empty array); with
        ``offers`` the offer's values follow (``offer_features``). The teacher's
        knobs must plan as the strategy's do (``PLAN_KNOBS`` at their defaults): the plan is shared."""
        out = np.empty((len(states), self.size + (int(offer_size(self.g)) if offers else 0)), dtype=np.float32)
        moves = np.empty(len(states) if teacher is not None else 0, dtype=np.int64)
        kept_rows(self.g, self.pt, states, TICKET_PLANNER, self.w, kept.plans, kept.sizes, kept.before, kept.keys,
                  out, TICKET_PLANNER if teacher is None else teacher, moves)
        return out, moves

    def rows(self, states: np.ndarray, which: Any = None) -> np.ndarray:
        """The extras of each state row of ``states`` (or of the rows ``which`` names)."""
        index = np.arange(len(states)) if which is None else np.asarray(which)
        out = np.empty((len(index), self.size), dtype=np.float32)
        for k, i in enumerate(index):
            plan_features(self.g, self.pt, states[i], DEFAULT_PARAMS, self.w, out[k])
        return out
