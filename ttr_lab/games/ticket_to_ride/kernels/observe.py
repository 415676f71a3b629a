"""One player's view of a position as one row of numbers, written by one kernel: what the
``Observation`` and the observation tensor hold, and nothing the player may not know.

The face builds an observation at nearly every decision; reading its fields off the state one
by one cost more than the engine it replaced, since every read from Python pays for a call. One
call writes the whole view instead, and ``observation.py`` slices the row into its tuples.

The row: the header slots below, then the fixed-length blocks (own hand, the market's cards per
kind, discard, track owners,
per seat trains, route points, hand sizes, tickets held, tickets on offer, then every seat's
publicly known cards), then the variable-length ones, their lengths in the header (own tickets,
own offer, the market, per ticket-deck position the ticket this player put back there or -1,
the boxed tickets this player saw boxed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L

V_PHASE = 0
V_PLAYER = 1  # the seat to move
V_FINAL_TURNS = 2
V_PASSES = 3
V_TURNS = 4
V_PILE_N = 5
V_DECK_N = 6  # also the length of the deck block
V_TICKETS_N = 7  # the viewer's tickets held
V_OFFERS_N = 8  # the viewer's tickets on offer
V_MARKET_N = 9
V_BOXED_N = 10  # boxed tickets the viewer saw boxed
# What the observation tensor counts besides (tensor.py gathers its counts block from the row):
V_FINAL_ROUND = 11  # 1 once the final round started
V_FINAL_LEFT = 12  # its turns left, 0 before it
V_ZERO = 13  # always 0: the tensor's padded seats
V_HEADER = 14


def fixed_size(num_players: int, num_tracks: int) -> int:
    """Where the row's variable-length blocks begin."""
    return V_HEADER + 3 * L.KINDS + num_tracks + 5 * num_players + num_players * L.KINDS


def row_size(g: np.ndarray) -> int:
    """The most numbers a row of game ``g`` can hold."""
    n, nt = int(g[L.N_PLAYERS]), int(g[L.N_TICKETS])
    return fixed_size(n, int(g[L.N_TRACKS])) + 3 * nt + int(g[L.MAX_OFFER]) + int(g[L.MARKET_SIZE])


@njit(cache=True)
def view_row(g: np.ndarray, s: np.ndarray, player: int, out: np.ndarray) -> int:
    """Writes ``player``'s view of ``s`` into ``out`` (the layout above); returns its length."""
    n, k, nt = g[L.N_PLAYERS], L.KINDS, g[L.N_TICKETS]
    for slot, value in ((V_PHASE, s[L.PHASE]), (V_PLAYER, s[L.PLAYER]), (V_FINAL_TURNS, s[L.FINAL_TURNS]),
                        (V_PASSES, s[L.PASSES]), (V_TURNS, s[L.TURNS]), (V_PILE_N, s[L.PILE_N]),
                        (V_DECK_N, s[L.DECK_N]), (V_MARKET_N, s[L.MARKET_N]), (V_ZERO, 0)):
        out[slot] = value
    out[V_FINAL_ROUND] = 1 if s[L.FINAL_TURNS] >= 0 else 0
    out[V_FINAL_LEFT] = max(s[L.FINAL_TURNS], 0)
    i = V_HEADER
    at = g[L.S_HANDS] + player * k
    out[i:i + k] = s[at:at + k]
    i += k
    out[i:i + k] = 0
    at = g[L.S_MARKET]
    for j in range(s[L.MARKET_N]):
        if s[at + j] >= 0:
            out[i + s[at + j]] += 1
    i += k
    at = g[L.S_DISCARD]
    out[i:i + k] = s[at:at + k]
    i += k
    at, count = g[L.S_OWNER], g[L.N_TRACKS]
    out[i:i + count] = s[at:at + count]
    i += count
    for field in (L.S_TRAINS, L.S_POINTS):
        at = g[field]
        out[i:i + n] = s[at:at + n]
        i += n
    at = g[L.S_HANDS]
    for p in range(n):
        out[i + p] = s[at + p * k:at + p * k + k].sum()
    i += n
    for field in (L.S_TICKETS_N, L.S_OFFERS_N):
        at = g[field]
        out[i:i + n] = s[at:at + n]
        i += n
    at = g[L.S_KNOWN]
    out[i:i + n * k] = s[at:at + n * k]
    i += n * k

    count = s[g[L.S_TICKETS_N] + player]
    at = g[L.S_TICKETS] + player * nt
    out[V_TICKETS_N] = count
    out[i:i + count] = s[at:at + count]
    i += count
    count = s[g[L.S_OFFERS_N] + player]
    at = g[L.S_OFFERS] + player * g[L.MAX_OFFER]
    out[V_OFFERS_N] = count
    out[i:i + count] = s[at:at + count]
    i += count
    count, at = s[L.MARKET_N], g[L.S_MARKET]
    out[i:i + count] = s[at:at + count]
    i += count
    deck, returned, head = g[L.S_DECK], g[L.S_RETURNED], s[L.DECK_HEAD]
    for j in range(s[L.DECK_N]):
        pos = (head + j) % nt
        out[i] = s[deck + pos] if s[returned + pos] == player else -1
        i += 1
    boxed, boxed_by, seen = g[L.S_BOXED], g[L.S_BOXED_BY], 0
    for j in range(s[L.BOXED_N]):
        if s[boxed_by + j] == player:
            out[i] = s[boxed + j]
            i += 1
            seen += 1
    out[V_BOXED_N] = seen
    return i
