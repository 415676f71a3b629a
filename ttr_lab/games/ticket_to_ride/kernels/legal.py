"""Legal action ids, as a kernel, in the order ``GameState.legal_actions()`` promises: draws,
tickets, station builds (by city, then payment colour, then locomotives), then claims (by track
colour, length, track id, payment colour, locomotives); during a ticket choice, the subsets to
keep; while a tunnel waits, its extra payments (by locomotives among them) then decline; pass
when nothing else is legal; none once the game is over.
"""

from __future__ import annotations

import numpy as np

from ttr_lab.core.compiled import njit_no_refcount

from ttr_lab.games.ticket_to_ride.kernels import layout as L


@njit_no_refcount(inline=True)
def track_open(g: np.ndarray, s: np.ndarray, t: int, player: int) -> bool:
    """Whether ``player`` may claim track ``t`` as far as ownership goes (network.track_open):
    nobody holds it, and its twin (if any) is neither the player's nor closing it for everyone."""
    owner = g[L.S_OWNER]
    if s[owner + t] >= 0:
        return False
    twin = g[g[L.T_TWIN] + t]
    if twin < 0:
        return True
    held = s[owner + twin]
    return held < 0 or (held != player and g[L.DOUBLES_SHARED] == 1)


@njit_no_refcount(inline=True)
def claim_id(g: np.ndarray, t: int, colour: int, locos: int) -> int:
    return g[g[L.CLAIM_ID] + (t * L.KINDS + colour) * (g[L.MAX_LENGTH] + 1) + locos]


@njit_no_refcount()
def draw_ids(g: np.ndarray, s: np.ndarray, first: bool, out: np.ndarray, n: int) -> int:
    if s[L.PILE_N] > 0:
        out[n] = 0
        n += 1
    m = g[L.S_MARKET]
    for i in range(s[L.MARKET_N]):
        if first or s[m + i] != L.LOCOMOTIVE:
            out[n] = g[L.ID_MARKET] + i
            n += 1
    return n


@njit_no_refcount()
def claim_ids(g: np.ndarray, s: np.ndarray, out: np.ndarray, n: int) -> int:
    """Every payable claim of the player to move, appended to ``out`` from ``n``."""
    p = s[L.PLAYER]
    hand = g[L.S_HANDS] + p * L.KINDS
    locos = s[hand + L.LOCOMOTIVE]
    trains = s[g[L.S_TRAINS] + p]
    cg_start, cg_count, order = g[L.COLOUR_GROUP_START], g[L.COLOUR_GROUP_COUNT], g[L.GROUP_ORDER]
    gs, gc, members = g[L.GROUP_START], g[L.GROUP_COUNT], g[L.GROUP_TRACKS]
    for colour in range(L.COLOURS):
        have = s[hand + colour]
        available = have + locos
        if available == 0:
            continue
        for k in range(g[cg_count + colour]):
            gi = g[order + g[cg_start + colour] + k]
            length = g[g[L.GROUP_LENGTH] + gi]
            if length > available:
                break
            if g[g[L.GROUP_NEED] + gi] > trains:
                continue
            ferry = g[g[L.GROUP_FERRY] + gi]
            kmin = max(length - have, ferry)
            if kmin > locos:
                continue
            kmax = min(length, locos)
            for j in range(g[gc + gi]):
                t = g[members + g[gs + gi] + j]
                if not track_open(g, s, t, p):
                    continue
                for k2 in range(kmin, kmax + 1):
                    out[n] = claim_id(g, t, colour if k2 < length else L.LOCOMOTIVE, k2)
                    n += 1
    most = locos
    for c in range(L.COLOURS):
        if s[hand + c] > 0 and s[hand + c] + locos > most:
            most = s[hand + c] + locos
    for k in range(g[cg_count + L.GRAY]):
        gi = g[order + g[cg_start + L.GRAY] + k]
        length = g[g[L.GROUP_LENGTH] + gi]
        if length > most:
            break
        if g[g[L.GROUP_NEED] + gi] > trains:
            continue
        ferry = g[g[L.GROUP_FERRY] + gi]
        kmax = length - 1 if locos >= length else locos
        only_locos = locos >= length
        for j in range(g[gc + gi]):
            t = g[members + g[gs + gi] + j]
            if not track_open(g, s, t, p):
                continue
            for c in range(L.COLOURS):
                have = s[hand + c]
                if have == 0:
                    continue
                for k2 in range(max(length - have, ferry), kmax + 1):
                    out[n] = claim_id(g, t, c, k2)
                    n += 1
            if only_locos:
                out[n] = claim_id(g, t, L.LOCOMOTIVE, length)
                n += 1
    return n


@njit_no_refcount()
def station_ids(g: np.ndarray, s: np.ndarray, out: np.ndarray, n: int) -> int:
    """Every payable station build of the player to move, appended to ``out`` from ``n``: on each
    city holding no station (city order), the next station's cost paid with one colour plus
    locomotives (colour order, fewer locomotives first), then with locomotives only."""
    if g[L.STATIONS_PER_PLAYER] == 0:
        return n
    p = s[L.PLAYER]
    built = s[g[L.S_STATIONS_BUILT] + p]
    if built >= g[L.STATIONS_PER_PLAYER]:
        return n
    cost = g[g[L.STATION_COSTS] + built]
    hand = g[L.S_HANDS] + p * L.KINDS
    locos = s[hand + L.LOCOMOTIVE]
    most = locos
    for c in range(L.COLOURS):
        if s[hand + c] > 0 and s[hand + c] + locos > most:
            most = s[hand + c] + locos
    if most < cost:
        return n
    top = g[L.MAX_STATION_COST] + 1
    kmax = min(cost - 1, locos)
    stations = g[L.S_STATIONS]
    for city in range(g[L.N_CITIES]):
        if s[stations + city] >= 0:
            continue
        base = (city * top + cost) * L.KINDS
        for c in range(L.COLOURS):
            have = s[hand + c]
            if have == 0:
                continue
            for k in range(max(cost - have, 0), kmax + 1):
                out[n] = g[g[L.STATION_ID] + (base + c) * top + k]
                n += 1
        if locos >= cost:
            out[n] = g[g[L.STATION_ID] + (base + L.LOCOMOTIVE) * top + cost]
            n += 1
    return n


@njit_no_refcount()
def keep_ids(g: np.ndarray, s: np.ndarray, minimum: int, out: np.ndarray, n: int) -> int:
    offered = s[g[L.S_OFFERS_N] + s[L.PLAYER]]
    key = offered * (g[L.MAX_OFFER] + 1) + min(minimum, g[L.MAX_OFFER])
    start = g[g[L.KEEP_START] + key]
    for i in range(g[g[L.KEEP_COUNT] + key]):
        out[n] = g[L.ID_KEEP] + g[g[L.KEEP_MASKS] + start + i]
        n += 1
    return n


@njit_no_refcount()
def tunnel_ids(g: np.ndarray, s: np.ndarray, out: np.ndarray, n: int) -> int:
    """The waiting tunnel's extra payments the hand allows, fewest locomotives first, then
    decline (always legal)."""
    index = s[L.TUNNEL_CLAIM]
    colour = g[g[L.CLAIM_COLOUR] + index]
    extra = s[L.TUNNEL_EXTRA]
    hand = g[L.S_HANDS] + s[L.PLAYER] * L.KINDS
    locos = s[hand + L.LOCOMOTIVE]
    row = g[L.PAY_ID] + extra * (g[L.TUNNEL_REVEAL] + 1)
    if colour == L.LOCOMOTIVE:  # paid with locomotives only: the extra cards are locomotives
        if locos >= extra:
            out[n] = g[row + extra]
            n += 1
    else:
        for k in range(max(extra - s[hand + colour], 0), min(extra, locos) + 1):
            out[n] = g[row + k]
            n += 1
    out[n] = g[L.ID_DECLINE]
    return n + 1


@njit_no_refcount()
def legal_ids(g: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids into ``out`` (room for every action); return their count."""
    phase = s[L.PHASE]
    if phase == L.TURN:
        n = draw_ids(g, s, True, out, 0)
        if s[L.DECK_N] > 0:
            out[n] = g[L.ID_TICKETS]
            n += 1
        n = station_ids(g, s, out, n)
        n = claim_ids(g, s, out, n)
        if n == 0:
            out[0] = g[L.ID_PASS]
            n = 1
        return n
    if phase == L.SECOND:
        return draw_ids(g, s, False, out, 0)
    if phase == L.SETUP:
        return keep_ids(g, s, g[L.INITIAL_KEEP_MIN], out, 0)
    if phase == L.KEEP:
        return keep_ids(g, s, g[L.TICKET_KEEP_MIN], out, 0)
    if phase == L.TUNNEL:
        return tunnel_ids(g, s, out, 0)
    return 0
