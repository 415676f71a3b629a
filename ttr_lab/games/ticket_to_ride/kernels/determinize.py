"""A determinization dealt in a kernel: the unknowns of an observation, sampled into a state.

``determinize.Determinizer`` works out once per observation what is known (a template state
array: the observer's own hand and tickets, the board, the opponents' publicly known cards, the
known deck positions) and what is not (the *plan*: the pool of unseen cards, the unseen regular
and long tickets, and per opponent how many of them it holds). ``sample`` then costs one call:
shuffle the pools with a SplitMix64 stream, choose how many long tickets each opponent holds,
and ``deal`` them into a copy of the template. ``deal`` is also the Python sampler's dealer
(``determinize(observation, rng)`` shuffles with its ``random.Random`` and deals here), so what
goes where is written once.

The plan is one int64 array (a kernel call pays for every argument it unboxes): a header
(``P_*``), then one row of ``O_*`` columns per opponent in seat order, then the card pool, the
regular tickets, the long tickets and the unknown deck positions. ``work`` holds the pools
while they are shuffled and dealt, in the same order (cards, regular, long).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rng import next_below, next_u64, shuffle

# The plan's header (``P_*``) and an opponent's row in it (``O_*``) are declared in
# ``layout.DEAL_PLAN`` and ``layout.OPPONENT_ROW``.

# ``deal``'s and ``sample``'s answers.
DEALT = 0
E_TICKETS = 1  # the unseen tickets cannot fill what the opponents hold, are offered and the deck
E_UNPLACED = 2  # unseen regular tickets left over where rejected tickets are not boxed


@njit(cache=True)
def _deal_tickets(s: np.ndarray, at: int, count: int, longs: int, work: np.ndarray, l_at: int, l_top: int, r_at: int,
                  r_top: int) -> tuple[int, int]:
    """``count`` tickets into ``s[at:]``, the first ``longs`` of them from the end of the long
    pool (``work[l_at:l_at + l_top]``), the rest from the end of the regular one; the pools' new
    ends."""
    for k in range(count):
        if k < longs:
            l_top -= 1
            s[at + k] = work[l_at + l_top]
        else:
            r_top -= 1
            s[at + k] = work[r_at + r_top]
    return l_top, r_top


@njit(cache=True)
def deal(g: np.ndarray, s: np.ndarray, plan: np.ndarray, work: np.ndarray, longs_held: np.ndarray) -> int:
    """Deal the shuffled pools in ``work`` into ``s`` (a copy of the template), each opponent
    holding ``longs_held[i]`` long tickets; ``DEALT`` or an ``E_*`` code.

    Each pool is dealt from its end: the unknown cards to the opponents in seat order, the rest
    (in order) the draw pile; the tickets to each opponent in seat order (its held ones, long
    first, then its offer, long first), then the unknown deck positions from the top; what is
    left is boxed, long before regular."""
    m, cols = plan[L.P_OPPONENTS], plan[L.P_COLUMNS]
    cards, regular, longs = plan[L.P_CARDS], plan[L.P_REGULAR], plan[L.P_LONG]
    rows = L.PLAN_HEADER
    hands = g[L.S_HANDS]
    top = cards
    for i in range(m):
        row = rows + i * cols
        q = plan[row + L.O_SEAT]
        for _ in range(plan[row + L.O_HIDDEN]):
            top -= 1
            s[hands + q * L.KINDS + work[top]] += 1
    pile = g[L.S_PILE]
    for k in range(top):
        s[pile + k] = work[k]
    s[L.PILE_N] = top

    r_at, l_at = cards, cards + regular
    r_top, l_top = regular, longs
    room, offer_room = g[L.N_TICKETS], g[L.MAX_OFFER]
    for i in range(m):
        row = rows + i * cols
        q, held, offer = plan[row + L.O_SEAT], plan[row + L.O_HELD], plan[row + L.O_OFFER]
        held_long, offer_long = longs_held[i], plan[row + L.O_OFFER_LONG]
        if held_long + offer_long > l_top or held + offer - held_long - offer_long > r_top:
            return E_TICKETS
        l_top, r_top = _deal_tickets(s, g[L.S_TICKETS] + q * room, held, held_long, work, l_at, l_top, r_at, r_top)
        s[g[L.S_TICKETS_N] + q] = held
        l_top, r_top = _deal_tickets(s, g[L.S_OFFERS] + q * offer_room, offer, offer_long, work, l_at, l_top, r_at,
                                     r_top)
        s[g[L.S_OFFERS_N] + q] = offer
    positions = rows + m * cols + cards + regular + longs
    unknown = plan[L.P_DECK_UNKNOWN]
    if unknown > r_top:
        return E_TICKETS
    deck = g[L.S_DECK]
    for k in range(unknown):
        r_top -= 1
        s[deck + plan[positions + k]] = work[r_at + r_top]
    if r_top and not plan[L.P_REJECTS_BOX]:
        return E_UNPLACED
    boxed, boxed_by = g[L.S_BOXED], g[L.S_BOXED_BY]
    b = plan[L.P_BOXED_KNOWN]
    for k in range(l_top):
        s[boxed + b] = work[l_at + k]
        s[boxed_by + b] = -1
        b += 1
    for k in range(r_top):
        s[boxed + b] = work[r_at + k]
        s[boxed_by + b] = -1
        b += 1
    s[L.BOXED_N] = b
    return DEALT


@njit(cache=True)
def sample(g: np.ndarray, s: np.ndarray, plan: np.ndarray, work: np.ndarray, longs_held: np.ndarray,
           seed: np.uint64) -> int:
    """One determinization into ``s`` (a copy of the template) from ``seed``: the pools copied
    into ``work`` and shuffled, each opponent's long-ticket count drawn (rejecting draws the
    unseen tickets cannot fill, ``L.P_TRIES`` times, then its fallback count), dealt, and the
    engine's future shuffles seeded from the same stream. ``DEALT`` or an ``E_*`` code."""
    m, cols = plan[L.P_OPPONENTS], plan[L.P_COLUMNS]
    cards, regular, longs = plan[L.P_CARDS], plan[L.P_REGULAR], plan[L.P_LONG]
    pools = L.PLAN_HEADER + m * cols
    for k in range(cards + regular + longs):
        work[k] = plan[pools + k]
    rng = shuffle(work, 0, cards, seed)
    rng = shuffle(work, cards, regular, rng)
    rng = shuffle(work, cards + regular, longs, rng)
    fits = False
    for _ in range(plan[L.P_TRIES]):
        total = 0
        for i in range(m):
            row = L.PLAN_HEADER + i * cols
            count = 0
            weights = plan[row + L.O_WEIGHTS]
            if weights:
                rng, r = next_below(rng, plan[row + L.O_CUMULATIVE + weights - 1])
                while plan[row + L.O_CUMULATIVE + count] <= r:
                    count += 1
                count = min(count, plan[row + L.O_CAP])
            longs_held[i] = count
            total += count
        if plan[L.P_MIN_LONGS] <= total <= plan[L.P_MAX_LONGS]:
            fits = True
            break
    if not fits:
        for i in range(m):
            longs_held[i] = plan[L.PLAN_HEADER + i * cols + L.O_FALLBACK]
    rng, future = next_u64(rng)
    s[L.RNG] = np.int64(future)
    return deal(g, s, plan, work, longs_held)
