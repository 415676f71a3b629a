"""How train cards move, as kernels (the rules of ``card_flow.py``): the draw pile (its top is
the last card), reshuffling the discards the moment it runs out, refilling the market, and the
three-locomotive redeal with its loop guard."""

from __future__ import annotations

import numpy as np

from ttr_lab.core.compiled import njit_no_refcount

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rng import shuffle


@njit_no_refcount()
def restock(g: np.ndarray, s: np.ndarray) -> None:
    """Shuffle the discard pile into a new draw pile (called only when the pile is empty)."""
    d = g[L.S_DISCARD]
    total = 0
    for c in range(L.KINDS):
        total += s[d + c]
    if total == 0:
        return
    pile = g[L.S_PILE]
    n = s[L.PILE_N]
    for c in range(L.KINDS):
        for _ in range(s[d + c]):
            s[pile + n] = c
            n += 1
        s[d + c] = 0
    s[L.PILE_N] = n
    s[L.RNG] = np.int64(shuffle(s, pile, n, np.uint64(s[L.RNG])))


@njit_no_refcount()
def take_from_pile(g: np.ndarray, s: np.ndarray) -> int:
    """The top card of the draw pile, or NO_CARD; an emptied pile is restocked at once."""
    n = s[L.PILE_N]
    if n == 0:
        return L.NO_CARD
    n -= 1
    card = s[g[L.S_PILE] + n]
    s[L.PILE_N] = n
    if n == 0:
        restock(g, s)
    return card


@njit_no_refcount()
def market_locomotives(g: np.ndarray, s: np.ndarray) -> int:
    m = g[L.S_MARKET]
    count = 0
    for i in range(s[L.MARKET_N]):
        if s[m + i] == L.LOCOMOTIVE:
            count += 1
    return count


@njit_no_refcount()
def check_locomotives(g: np.ndarray, s: np.ndarray) -> None:
    """The three-locomotive redeal, with the guard of the rules' Decision."""
    limit = g[L.LOCO_LIMIT]
    if limit == 0:
        return
    m, pile, d = g[L.S_MARKET], g[L.S_PILE], g[L.S_DISCARD]
    redeals = 0
    while market_locomotives(g, s) >= limit and redeals < g[L.MAX_REDEALS]:
        non_locos = s[L.MARKET_N] - market_locomotives(g, s)
        for i in range(s[L.PILE_N]):
            if s[pile + i] != L.LOCOMOTIVE:
                non_locos += 1
        for c in range(L.COLOURS):
            non_locos += s[d + c]
        if non_locos < g[L.REDEAL_MIN]:
            return
        for i in range(s[L.MARKET_N]):
            s[d + s[m + i]] += 1
        s[L.MARKET_N] = 0
        if s[L.PILE_N] == 0:
            restock(g, s)
        fill_market(g, s)
        redeals += 1


@njit_no_refcount()
def fill_market(g: np.ndarray, s: np.ndarray) -> bool:
    """Deal from the pile until the market is full or the pile and discards are out; whether
    any card was dealt."""
    m = g[L.S_MARKET]
    added = False
    while s[L.MARKET_N] < g[L.MARKET_SIZE]:
        card = take_from_pile(g, s)
        if card == L.NO_CARD:
            break
        s[m + s[L.MARKET_N]] = card
        s[L.MARKET_N] += 1
        added = True
    return added


@njit_no_refcount()
def refill_market(g: np.ndarray, s: np.ndarray) -> None:
    if fill_market(g, s):
        check_locomotives(g, s)
