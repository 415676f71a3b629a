"""A viewer's observation tensor and legal-action mask, as kernels over the state array: what
``tensor.TensorWriter`` and an environment's mask give, for many games in one call.

The tensor reads only what ``observation(viewer)`` hands the viewer: its own hand, tickets and
offer, the tickets it put back or saw boxed, and the public counts (everyone's trains, points,
hand sizes, known cards, the market, the discard, the pile and deck sizes, who owns each track).
The mask is the viewer's legal ids when it is to move, else all False. The layout's offsets come
in ``plan`` (``P_*`` slots, filled by ``batch.tensor_plan`` from ``tensor.layout``) and the
counts' divisors in ``scales`` (``tensor._scales``), so the layout is stated once, in tensor.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.core.compiled import njit_no_refcount

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids

# ``plan``'s slots are declared in ``layout.TENSOR_PLAN`` (``W_*``).


@njit_no_refcount(inline=True)
def _count(out: np.ndarray, scales: np.ndarray, at: int, value: int) -> None:
    # float32 times float32, as the writer's numpy multiply: the same rounding, bit for bit
    out[at] = np.float32(value) * scales[at]


@njit_no_refcount(inline=True)
def _relative(seat: int, me: int, n: int) -> int:
    """``(seat - me) % n`` for seats in ``range(n)``, without a division (it runs per claimed track)."""
    r = seat - me
    return r + n if r < 0 else r


@njit_no_refcount()
def write_tensor(g: np.ndarray, s: np.ndarray, me: int, plan: np.ndarray, scales: np.ndarray,
                 out: np.ndarray) -> None:
    """``me``'s observation tensor of ``s`` into ``out`` (float32, ``plan[L.W_SIZE]`` long)."""
    out[:] = 0.0
    n, m, nt, k = g[L.N_PLAYERS], plan[L.W_SEATS], g[L.N_TICKETS], L.KINDS
    final = s[L.FINAL_TURNS]
    _count(out, scales, 0, 1 if final >= 0 else 0)
    _count(out, scales, 1, final if final > 0 else 0)
    _count(out, scales, 2, s[L.TURNS])
    _count(out, scales, 3, s[L.PASSES])
    hands, known = g[L.S_HANDS], g[L.S_KNOWN]
    for c in range(k):
        _count(out, scales, plan[L.W_HAND] + c, s[hands + me * k + c])
        _count(out, scales, plan[L.W_DISCARD] + c, s[g[L.S_DISCARD] + c])
    at = plan[L.W_MARKET]
    for i in range(s[L.MARKET_N]):  # counted in place (small integers, exact), then scaled
        card = s[g[L.S_MARKET] + i]
        if card >= 0:
            out[at + card] += 1.0
    for c in range(k):
        out[at + c] *= scales[at + c]
    _count(out, scales, plan[L.W_DECKS], s[L.PILE_N])
    _count(out, scales, plan[L.W_DECKS] + 1, s[L.DECK_N])
    for r in range(n):  # relative seat r is seat (me + r) % n
        p = me + r - n if me + r >= n else me + r
        _count(out, scales, plan[L.W_TRAINS] + r, s[g[L.S_TRAINS] + p])
        _count(out, scales, plan[L.W_POINTS] + r, s[g[L.S_POINTS] + p])
        size = 0
        for c in range(k):
            size += s[hands + p * k + c]
            _count(out, scales, plan[L.W_KNOWN_CARDS] + r * k + c, s[known + p * k + c])
        _count(out, scales, plan[L.W_HAND_SIZES] + r, size)
        _count(out, scales, plan[L.W_TICKET_COUNTS] + r, s[g[L.S_TICKETS_N] + p])
        _count(out, scales, plan[L.W_OFFER_SIZES] + r, s[g[L.S_OFFERS_N] + p])
        if plan[L.W_STATION_COUNTS] >= 0:
            _count(out, scales, plan[L.W_STATION_COUNTS] + r, s[g[L.S_STATIONS_BUILT] + p])
    at = plan[L.W_TUNNEL]
    if at >= 0:  # a map with tunnels: the waiting claim's turned-over cards, laid payment, extra asked
        for i in range(s[L.REVEALED_N]):
            out[at + s[g[L.S_REVEALED] + i]] += 1.0
        index = s[L.TUNNEL_CLAIM]
        if index >= 0:
            out[at + k + g[g[L.CLAIM_COLOUR] + index]] += g[g[L.CLAIM_CARDS] + index]
            out[at + k + L.LOCOMOTIVE] += g[g[L.CLAIM_LOCOS] + index]
        out[at + 2 * k] = s[L.TUNNEL_EXTRA]
        for c in range(2 * k + 1):
            out[at + c] *= scales[at + c]
    out[plan[L.W_NUM_PLAYERS] + n - 1] = 1.0
    out[plan[L.W_TO_MOVE] + _relative(s[L.PLAYER], me, n)] = 1.0
    out[plan[L.W_PHASE] + s[L.PHASE]] = 1.0
    at = g[L.S_TICKETS] + me * nt
    for i in range(s[g[L.S_TICKETS_N] + me]):
        out[plan[L.W_TICKETS] + s[at + i]] = 1.0
    at = g[L.S_OFFERS] + me * g[L.MAX_OFFER]
    for i in range(s[g[L.S_OFFERS_N] + me]):
        out[plan[L.W_OFFERED] + s[at + i]] = 1.0
    for i in range(s[L.BOXED_N]):
        if s[g[L.S_BOXED_BY] + i] == me:
            out[plan[L.W_TICKETS_OUT] + s[g[L.S_BOXED] + i]] = 1.0
    head = s[L.DECK_HEAD]
    for i in range(s[L.DECK_N]):  # the deck is a ring of nt positions from its head
        pos = head + i - nt if head + i >= nt else head + i
        if s[g[L.S_RETURNED] + pos] == me:
            out[plan[L.W_TICKETS_OUT] + s[g[L.S_DECK] + pos]] = 1.0
    owner = g[L.S_OWNER]
    for t in range(g[L.N_TRACKS]):
        o = s[owner + t]
        if o >= 0:
            out[plan[L.W_OWNER] + t * m + _relative(o, me, n)] = 1.0
    if plan[L.W_STATIONS] >= 0:  # every station and its owner (public)
        stations = g[L.S_STATIONS]
        for c in range(g[L.STATION_CITIES]):
            o = s[stations + c]
            if o >= 0:
                out[plan[L.W_STATIONS] + c * m + _relative(o, me, n)] = 1.0


@njit_no_refcount()
def write_mask(g: np.ndarray, s: np.ndarray, me: int, ids: np.ndarray, out: np.ndarray) -> int:
    """``me``'s legal ids as booleans into ``out`` (all False unless ``me`` is to move in a game
    not over); the number of legal ids. ``ids``: room for every action id."""
    out[:] = False
    if s[L.PHASE] == L.OVER or s[L.PLAYER] != me:
        return 0
    count = legal_ids(g, s, ids)
    for i in range(count):
        out[ids[i]] = True
    return count


@njit(cache=True)
def write_views(g: np.ndarray, states: np.ndarray, viewers: np.ndarray, plan: np.ndarray, scales: np.ndarray,
                tensors: np.ndarray, masks: np.ndarray) -> None:
    """Row ``i``: viewer ``viewers[i]``'s tensor and mask of game ``states[i]``."""
    ids = np.empty(g[L.N_ACTIONS], dtype=np.int64)
    for i in range(states.shape[0]):
        write_tensor(g, states[i], viewers[i], plan, scales, tensors[i])
        write_mask(g, states[i], viewers[i], ids, masks[i])
