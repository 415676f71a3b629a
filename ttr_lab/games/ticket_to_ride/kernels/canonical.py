"""One canonical form of a state array (the ticket ring's head at 0, every unused slot 0), so two
positions are equal exactly when their canonical arrays are: how tests compare positions that
reached the same place by different roads (a clone, a rebuilt state, a play-out)."""

from __future__ import annotations

import numpy as np

from ttr_lab.games.ticket_to_ride.kernels import layout as L


def canonical(g: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``s`` with its ticket ring turned to head 0 and every unused slot 0 (``to_array``'s form)."""
    c = np.zeros_like(s)
    c[:L.STATE_HEADER] = s[:L.STATE_HEADER]
    c[L.DECK_HEAD] = 0
    n, nt, offer = int(g[L.N_PLAYERS]), int(g[L.N_TICKETS]), int(g[L.MAX_OFFER])

    def copy(slot: int, count: int) -> None:
        at = int(g[slot])
        c[at:at + count] = s[at:at + count]

    for slot, count in (
        (L.S_HANDS, n * L.KINDS), (L.S_KNOWN, n * L.KINDS), (L.S_PILE, int(s[L.PILE_N])), (L.S_DISCARD, L.KINDS),
        (L.S_MARKET, int(s[L.MARKET_N])), (L.S_OWNER, int(g[L.N_TRACKS])), (L.S_TRAINS, n), (L.S_POINTS, n),
        (L.S_TICKETS_N, n), (L.S_OFFERS_N, n), (L.S_BOXED, int(s[L.BOXED_N])), (L.S_BOXED_BY, int(s[L.BOXED_N])),
        (L.S_REVEALED, int(s[L.REVEALED_N])), (L.S_TUNNELS, 3 * n),
        (L.S_STATIONS, int(g[L.STATION_CITIES])), (L.S_STATIONS_BUILT, int(g[L.STATION_PLAYERS])),
    ):
        copy(slot, count)
    for p in range(n):
        at = int(g[L.S_TICKETS]) + p * nt
        held = int(s[int(g[L.S_TICKETS_N]) + p])
        c[at:at + held] = s[at:at + held]
        at = int(g[L.S_OFFERS]) + p * offer
        offered = int(s[int(g[L.S_OFFERS_N]) + p])
        c[at:at + offered] = s[at:at + offered]
    head, count = int(s[L.DECK_HEAD]), int(s[L.DECK_N])
    ring = (head + np.arange(count)) % nt if nt else np.zeros(0, dtype=np.int64)
    c[int(g[L.S_DECK]):int(g[L.S_DECK]) + count] = s[int(g[L.S_DECK]) + ring]
    c[int(g[L.S_RETURNED]):int(g[L.S_RETURNED]) + count] = s[int(g[L.S_RETURNED]) + ring]
    return c
