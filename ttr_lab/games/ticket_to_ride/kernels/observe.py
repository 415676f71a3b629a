"""One player's view of a position as one row of numbers, written by one kernel: what the
``Observation`` and the observation tensor hold, and nothing the player may not know.

The face builds an observation at nearly every decision; reading its fields off the state one
by one cost more than the engine it replaced, since every read from Python pays for a call. One
call writes the whole view instead, and ``observation.py`` slices the row into its tuples.

The row: the header slots (``layout.VIEW``), then the fixed-length blocks (own hand, the market's cards per
kind, discard, track owners,
per seat trains, route points, hand sizes, tickets held, tickets on offer, then every seat's
publicly known cards, then on a map with tunnels every seat's last tunnel claim: track, extra
cards asked, extra cards paid or -1; a waiting tunnel's turned-over cards and laid payment, per
kind; then where the map has train stations each city's station owner and each seat's stations
built), then the variable-length ones, their lengths in the header (own tickets, own offer, the
market, per ticket-deck position the ticket this player put back there or -1, the boxed tickets
this player saw boxed, the cards a waiting tunnel claim turned over).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L

# The row's header slots (``V_*``) are declared in ``layout.VIEW``.


def fixed_size(num_players: int, num_tracks: int, tunnels: bool, station_cities: int = 0,
               station_players: int = 0) -> int:
    """Where the row's variable-length blocks begin (the tunnel blocks only on a map with tunnels:
    a row of another map is as long as it was before tunnels, so it unpacks as fast; the station
    blocks' lengths: the game's ``STATION_CITIES`` and ``STATION_PLAYERS``, 0 without stations)."""
    tunnel_blocks = 3 * num_players + 2 * L.KINDS if tunnels else 0
    return (L.V_HEADER + 3 * L.KINDS + num_tracks + 5 * num_players + num_players * L.KINDS + tunnel_blocks
            + station_cities + station_players)


def row_size(g: np.ndarray) -> int:
    """The most numbers a row of game ``g`` can hold."""
    n, nt = int(g[L.N_PLAYERS]), int(g[L.N_TICKETS])
    return (fixed_size(n, int(g[L.N_TRACKS]), int(g[L.ID_DECLINE]) >= 0, int(g[L.STATION_CITIES]),
                       int(g[L.STATION_PLAYERS])) + 3 * nt + int(g[L.MAX_OFFER]) + int(g[L.MARKET_SIZE])
            + int(g[L.TUNNEL_REVEAL]))


@njit(cache=True)
def _copy(s: np.ndarray, at: int, count: int, out: np.ndarray, i: int) -> int:
    # A loop rather than a slice assignment: the same speed, and a fraction of the compile time.
    for j in range(count):
        out[i + j] = s[at + j]
    return i + count


@njit(cache=True)
def view_row(g: np.ndarray, s: np.ndarray, player: int, out: np.ndarray) -> int:
    """Writes ``player``'s view of ``s`` into ``out`` (the layout above); returns its length."""
    n, k, nt = g[L.N_PLAYERS], L.KINDS, g[L.N_TICKETS]
    for slot, field in ((L.V_PHASE, L.PHASE), (L.V_PLAYER, L.PLAYER), (L.V_FINAL_TURNS, L.FINAL_TURNS),
                        (L.V_PASSES, L.PASSES), (L.V_TURNS, L.TURNS), (L.V_PILE_N, L.PILE_N), (L.V_DECK_N, L.DECK_N),
                        (L.V_MARKET_N, L.MARKET_N), (L.V_TUNNEL_CLAIM, L.TUNNEL_CLAIM),
                        (L.V_TUNNEL_EXTRA, L.TUNNEL_EXTRA), (L.V_REVEALED_N, L.REVEALED_N)):
        out[slot] = s[field]
    out[L.V_FINAL_ROUND] = 1 if s[L.FINAL_TURNS] >= 0 else 0
    out[L.V_FINAL_LEFT] = max(s[L.FINAL_TURNS], 0)
    out[L.V_ZERO] = 0
    i = _copy(s, g[L.S_HANDS] + player * k, k, out, L.V_HEADER)
    for j in range(k):
        out[i + j] = 0
    at = g[L.S_MARKET]
    for j in range(s[L.MARKET_N]):
        if s[at + j] >= 0:
            out[i + s[at + j]] += 1
    i = _copy(s, g[L.S_DISCARD], k, out, i + k)
    i = _copy(s, g[L.S_OWNER], g[L.N_TRACKS], out, i)
    i = _copy(s, g[L.S_TRAINS], n, out, i)
    i = _copy(s, g[L.S_POINTS], n, out, i)
    at = g[L.S_HANDS]
    for p in range(n):
        size = 0
        for j in range(k):
            size += s[at + p * k + j]
        out[i + p] = size
    i = _copy(s, g[L.S_TICKETS_N], n, out, i + n)
    i = _copy(s, g[L.S_OFFERS_N], n, out, i)
    i = _copy(s, g[L.S_KNOWN], n * k, out, i)
    if g[L.ID_DECLINE] >= 0:  # a map with tunnels
        i = _copy(s, g[L.S_TUNNELS], n * 3, out, i)
        for j in range(2 * k):
            out[i + j] = 0
        at = g[L.S_REVEALED]
        for j in range(s[L.REVEALED_N]):
            out[i + s[at + j]] += 1
        index = s[L.TUNNEL_CLAIM]
        if index >= 0:
            out[i + k + g[g[L.CLAIM_COLOUR] + index]] += g[g[L.CLAIM_CARDS] + index]
            out[i + k + L.LOCOMOTIVE] += g[g[L.CLAIM_LOCOS] + index]
        i += 2 * k
    i = _copy(s, g[L.S_STATIONS], g[L.STATION_CITIES], out, i)  # public: every station and its owner
    i = _copy(s, g[L.S_STATIONS_BUILT], g[L.STATION_PLAYERS], out, i)

    out[L.V_TICKETS_N] = count = s[g[L.S_TICKETS_N] + player]
    i = _copy(s, g[L.S_TICKETS] + player * nt, count, out, i)
    out[L.V_OFFERS_N] = count = s[g[L.S_OFFERS_N] + player]
    i = _copy(s, g[L.S_OFFERS] + player * g[L.MAX_OFFER], count, out, i)
    i = _copy(s, g[L.S_MARKET], s[L.MARKET_N], out, i)
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
    out[L.V_BOXED_N] = seen
    return _copy(s, g[L.S_REVEALED], s[L.REVEALED_N], out, i)
