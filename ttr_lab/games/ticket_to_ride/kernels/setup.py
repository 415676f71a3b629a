"""A new game as a kernel (``GameState.new``): shuffle and deal the train cards, shuffle the
ticket decks, offer each player its initial tickets, lay out the market."""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.cards import refill_market
from ttr_lab.games.ticket_to_ride.kernels.rng import shuffle


@njit(cache=True)
def new_state(g: np.ndarray, shuffle_seed: np.uint64) -> np.ndarray:
    """The state of a new game; ``shuffle_seed``: ``derive_seed(seed, DEAL_KEY)`` (``kernels.rng``), as in Python."""
    s = np.zeros(g[L.S_SIZE], dtype=np.int64)
    n, nt = g[L.N_PLAYERS], g[L.N_TICKETS]
    s[L.PHASE] = L.SETUP
    s[L.FINAL_TURNS] = -1
    s[L.LAST_CARD] = L.NO_CARD
    s[L.TUNNEL_CLAIM] = -1
    for i in range(3 * n):
        s[g[L.S_TUNNELS] + i] = -1
    pile, cards = g[L.S_PILE], g[L.N_CARDS]
    for i in range(cards):
        s[pile + i] = g[g[L.DECK_CARDS] + i]
    rng = shuffle(s, pile, cards, shuffle_seed)
    top = cards
    for p in range(n):
        for _ in range(g[L.INITIAL_HAND]):
            top -= 1
            s[g[L.S_HANDS] + p * L.KINDS + s[pile + top]] += 1
    s[L.PILE_N] = top
    # The regular deck is shuffled in the ring itself (its head at 0), the long tickets beside
    # it in the boxed area, whose unused part is the right size.
    deck, regular = g[L.S_DECK], g[L.N_REGULAR]
    for i in range(regular):
        s[deck + i] = g[g[L.REGULAR_TICKETS] + i]
    rng = shuffle(s, deck, regular, rng)
    longs, k = g[L.S_BOXED], g[L.INITIAL_LONG]
    if k > 0:
        for i in range(g[L.N_LONG]):
            s[longs + i] = g[g[L.LONG_TICKETS] + i]
        rng = shuffle(s, longs, g[L.N_LONG], rng)
    deal, offer = g[L.INITIAL_TICKETS], g[L.MAX_OFFER]
    for p in range(n):
        at = g[L.S_OFFERS] + p * offer
        for i in range(k):
            s[at + i] = s[longs + p * k + i]
        for i in range(deal):
            s[at + k + i] = s[deck + p * deal + i]
        s[g[L.S_OFFERS_N] + p] = k + deal
    s[L.DECK_HEAD] = n * deal % nt if nt > 0 else 0
    s[L.DECK_N] = regular - n * deal
    for i in range(nt):
        s[g[L.S_RETURNED] + i] = -1
    # Long tickets nobody was dealt leave the game (moved to the front of the boxed area).
    boxed = 0
    if k > 0:
        for i in range(n * k, g[L.N_LONG]):
            s[longs + boxed] = s[longs + i]
            s[g[L.S_BOXED_BY] + boxed] = -1
            boxed += 1
    s[L.BOXED_N] = boxed
    for t in range(g[L.N_TRACKS]):
        s[g[L.S_OWNER] + t] = -1
    for c in range(g[L.STATION_CITIES]):  # no train station anywhere yet
        s[g[L.S_STATIONS] + c] = -1
    for p in range(n):
        s[g[L.S_TRAINS] + p] = g[L.TRAINS_PER_PLAYER]
    s[L.RNG] = np.int64(rng)
    refill_market(g, s)
    return s
