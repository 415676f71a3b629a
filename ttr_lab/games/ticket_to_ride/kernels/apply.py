"""Applying an action id, as a kernel (the rules of ``GameState.apply``): each rule checked in
the order the Python engine checks it, so a refusal code names the reason its message gives;
a refused action leaves the state unchanged."""

from __future__ import annotations

import numpy as np

from ttr_lab.core.compiled import njit_no_refcount

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.cards import check_locomotives, refill_market, restock, take_from_pile
from ttr_lab.games.ticket_to_ride.kernels.legal import claim_ids, station_ids, track_open


@njit_no_refcount()
def end_turn(g: np.ndarray, s: np.ndarray, passed: bool) -> None:
    n = g[L.N_PLAYERS]
    s[L.TURNS] += 1
    if passed:
        s[L.PASSES] += 1
        if s[L.PASSES] >= n:  # Decision: a full round of passes ends the game
            s[L.STALLED] = 1
            s[L.PHASE] = L.OVER
            return
    else:
        s[L.PASSES] = 0
    if s[L.FINAL_TURNS] > 0:
        s[L.FINAL_TURNS] -= 1
        if s[L.FINAL_TURNS] == 0:
            s[L.PHASE] = L.OVER
            return
    elif s[L.FINAL_TURNS] < 0 and s[g[L.S_TRAINS] + s[L.PLAYER]] <= g[L.END_TRAINS]:
        s[L.FINAL_TURNS] = n  # everyone else once more, and the trigger player too
    s[L.PLAYER] = (s[L.PLAYER] + 1) % n
    s[L.PHASE] = L.TURN


@njit_no_refcount()
def lay_down(g: np.ndarray, s: np.ndarray, p: int, colour: int, cards: int, locos: int, discard: bool) -> None:
    """Take a payment out of player ``p``'s hand (to the discard pile if ``discard``, else it is
    laid down beside the tunnel); the cards it was publicly known to hold go first."""
    hand = g[L.S_HANDS] + p * L.KINDS
    known = g[L.S_KNOWN] + p * L.KINDS
    pile = g[L.S_DISCARD]
    if cards > 0:
        s[hand + colour] -= cards
        s[known + colour] = max(s[known + colour] - cards, 0)
        if discard:
            s[pile + colour] += cards
    if locos > 0:
        s[hand + L.LOCOMOTIVE] -= locos
        s[known + L.LOCOMOTIVE] = max(s[known + L.LOCOMOTIVE] - locos, 0)
        if discard:
            s[pile + L.LOCOMOTIVE] += locos


@njit_no_refcount()
def take_track(g: np.ndarray, s: np.ndarray, t: int, p: int) -> None:
    """The end of every claim, the paid cards discarded: the track, its trains and points."""
    if s[L.PILE_N] == 0:  # the paid cards form the new draw pile at once
        restock(g, s)
    s[g[L.S_OWNER] + t] = p
    s[g[L.S_TRAINS] + p] -= g[g[L.T_TRAINS] + t]
    s[g[L.S_POINTS] + p] += g[g[L.T_POINTS] + t]
    if s[L.MARKET_N] < g[L.MARKET_SIZE]:
        refill_market(g, s)
    end_turn(g, s, False)


@njit_no_refcount()
def reveal(g: np.ndarray, s: np.ndarray, colour: int) -> int:
    """Turn over the tunnel's cards from the draw pile (restocked from the discards when it runs
    out; fewer if both run out); the extra cards they ask: each locomotive, and each card of
    ``colour`` (LOCOMOTIVE for a payment of locomotives only: then locomotives alone)."""
    at = g[L.S_REVEALED]
    n = 0
    extra = 0
    for _ in range(g[L.TUNNEL_REVEAL]):
        card = take_from_pile(g, s)
        if card == L.NO_CARD:
            break
        s[at + n] = card
        n += 1
        if card == L.LOCOMOTIVE or card == colour:
            extra += 1
    s[L.REVEALED_N] = n
    return extra


@njit_no_refcount()
def settle_tunnel(g: np.ndarray, s: np.ndarray, p: int, t: int, paid: int) -> None:
    """The turned-over cards to the discard pile and the public record of the attempt
    (``paid``: the extra cards paid, -1 when declined); no tunnel waits any more."""
    d, at = g[L.S_DISCARD], g[L.S_REVEALED]
    for i in range(s[L.REVEALED_N]):
        s[d + s[at + i]] += 1
    record = g[L.S_TUNNELS] + p * 3
    s[record] = t
    s[record + 1] = s[L.TUNNEL_EXTRA]
    s[record + 2] = paid
    s[L.REVEALED_N] = 0
    s[L.TUNNEL_CLAIM] = -1
    s[L.TUNNEL_EXTRA] = 0


@njit_no_refcount()
def claim(g: np.ndarray, s: np.ndarray, index: int) -> int:
    t = g[g[L.CLAIM_TRACK] + index]
    colour = g[g[L.CLAIM_COLOUR] + index]
    cards = g[g[L.CLAIM_CARDS] + index]
    locos = g[g[L.CLAIM_LOCOS] + index]
    p = s[L.PLAYER]
    owner = g[L.S_OWNER]
    if s[owner + t] >= 0:
        return L.E_TRACK_TAKEN
    if not track_open(g, s, t, p):
        return L.E_DOUBLE_SELF if g[L.DOUBLES_SHARED] == 1 else L.E_DOUBLE_CLOSED
    hand = g[L.S_HANDS] + p * L.KINDS
    if cards > 0 and s[hand + colour] < cards:
        return L.E_CARDS
    if s[hand + L.LOCOMOTIVE] < locos:
        return L.E_LOCOS
    if s[g[L.S_TRAINS] + p] < g[g[L.T_TRAINS] + t]:
        return L.E_TRAINS
    if g[g[L.T_TUNNEL] + t] == 0:
        lay_down(g, s, p, colour, cards, locos, True)
        take_track(g, s, t, p)
        return L.OK
    # A tunnel: the payment is laid down (neither in the hand nor discarded yet) while the
    # draw pile's top cards are turned over.
    lay_down(g, s, p, colour, cards, locos, False)
    s[L.TUNNEL_CLAIM] = index
    s[L.TUNNEL_EXTRA] = reveal(g, s, colour)
    if s[L.TUNNEL_EXTRA] > 0:
        s[L.PHASE] = L.TUNNEL
        return L.OK
    discard_laid(g, s, index)
    settle_tunnel(g, s, p, t, 0)
    take_track(g, s, t, p)
    return L.OK


@njit_no_refcount()
def discard_laid(g: np.ndarray, s: np.ndarray, index: int) -> None:
    """The payment laid down for claim ``index`` to the discard pile."""
    d = g[L.S_DISCARD]
    s[d + g[g[L.CLAIM_COLOUR] + index]] += g[g[L.CLAIM_CARDS] + index]
    s[d + L.LOCOMOTIVE] += g[g[L.CLAIM_LOCOS] + index]


@njit_no_refcount()
def pay_tunnel(g: np.ndarray, s: np.ndarray, cards: int, locos: int) -> int:
    """Pay the waiting tunnel's extra cards and take the track."""
    if cards + locos != s[L.TUNNEL_EXTRA]:
        return L.E_TUNNEL_EXTRA
    index = s[L.TUNNEL_CLAIM]
    colour = g[g[L.CLAIM_COLOUR] + index]
    if colour == L.LOCOMOTIVE and cards > 0:
        return L.E_TUNNEL_LOCOS
    p = s[L.PLAYER]
    hand = g[L.S_HANDS] + p * L.KINDS
    if cards > 0 and s[hand + colour] < cards:
        return L.E_CARDS
    if s[hand + L.LOCOMOTIVE] < locos:
        return L.E_LOCOS
    t = g[g[L.CLAIM_TRACK] + index]
    lay_down(g, s, p, colour, cards, locos, True)
    discard_laid(g, s, index)
    settle_tunnel(g, s, p, t, cards + locos)
    take_track(g, s, t, p)
    return L.OK


@njit_no_refcount()
def decline_tunnel(g: np.ndarray, s: np.ndarray) -> int:
    """Give the waiting tunnel up: the laid cards back to the hand, seen by all; the turn ends."""
    index = s[L.TUNNEL_CLAIM]
    p = s[L.PLAYER]
    colour, cards, locos = g[g[L.CLAIM_COLOUR] + index], g[g[L.CLAIM_CARDS] + index], g[g[L.CLAIM_LOCOS] + index]
    hand = g[L.S_HANDS] + p * L.KINDS
    known = g[L.S_KNOWN] + p * L.KINDS
    s[hand + colour] += cards
    s[known + colour] += cards
    s[hand + L.LOCOMOTIVE] += locos
    s[known + L.LOCOMOTIVE] += locos
    settle_tunnel(g, s, p, g[g[L.CLAIM_TRACK] + index], -1)
    if s[L.PILE_N] == 0:
        restock(g, s)
    if s[L.MARKET_N] < g[L.MARKET_SIZE]:
        refill_market(g, s)
    end_turn(g, s, False)
    return L.OK


@njit_no_refcount()
def build_station(g: np.ndarray, s: np.ndarray, index: int) -> int:
    """Build the station of build ``index`` (action id - ID_STATION) for the player to move."""
    city = g[g[L.STATION_CITY] + index]
    colour = g[g[L.STATION_COLOUR] + index]
    cards = g[g[L.STATION_CARDS] + index]
    locos = g[g[L.STATION_LOCOS] + index]
    p = s[L.PLAYER]
    built = g[L.S_STATIONS_BUILT] + p
    if s[built] >= g[L.STATIONS_PER_PLAYER]:
        return L.E_NO_STATION
    if s[g[L.S_STATIONS] + city] >= 0:
        return L.E_CITY_TAKEN
    if cards + locos != g[g[L.STATION_COSTS] + s[built]]:
        return L.E_STATION_COST
    hand = g[L.S_HANDS] + p * L.KINDS
    if cards > 0 and s[hand + colour] < cards:
        return L.E_CARDS
    if s[hand + L.LOCOMOTIVE] < locos:
        return L.E_LOCOS
    lay_down(g, s, p, colour, cards, locos, True)
    if s[L.PILE_N] == 0:  # the paid cards form the new draw pile at once
        restock(g, s)
    s[g[L.S_STATIONS] + city] = p
    s[built] += 1
    if s[L.MARKET_N] < g[L.MARKET_SIZE]:
        refill_market(g, s)
    end_turn(g, s, False)
    return L.OK


@njit_no_refcount()
def after_draw(g: np.ndarray, s: np.ndarray, locomotive_from_market: bool) -> None:
    if s[L.PHASE] == L.SECOND or locomotive_from_market:
        end_turn(g, s, False)
        return
    s[L.PHASE] = L.SECOND
    # Decision: with no legal second draw the action ends after one card.
    if s[L.PILE_N] == 0:
        m = g[L.S_MARKET]
        for i in range(s[L.MARKET_N]):
            if s[m + i] != L.LOCOMOTIVE:
                return
        end_turn(g, s, False)


@njit_no_refcount()
def draw_blind(g: np.ndarray, s: np.ndarray) -> int:
    card = take_from_pile(g, s)
    if card == L.NO_CARD:
        return L.E_PILE_EMPTY
    s[g[L.S_HANDS] + s[L.PLAYER] * L.KINDS + card] += 1
    after_draw(g, s, False)
    return L.OK


@njit_no_refcount()
def draw_market(g: np.ndarray, s: np.ndarray, slot: int) -> int:
    if slot >= s[L.MARKET_N]:
        return L.E_NO_SLOT
    m = g[L.S_MARKET]
    card = s[m + slot]
    if s[L.PHASE] == L.SECOND and card == L.LOCOMOTIVE:
        return L.E_SECOND_LOCO
    i = s[L.PLAYER] * L.KINDS + card
    s[g[L.S_HANDS] + i] += 1
    s[g[L.S_KNOWN] + i] += 1
    s[L.LAST_CARD] = card
    replacement = take_from_pile(g, s)
    if replacement == L.NO_CARD:
        for j in range(slot, s[L.MARKET_N] - 1):
            s[m + j] = s[m + j + 1]
        s[L.MARKET_N] -= 1
    else:
        s[m + slot] = replacement
        check_locomotives(g, s)
    after_draw(g, s, card == L.LOCOMOTIVE)
    return L.OK


@njit_no_refcount()
def draw_tickets(g: np.ndarray, s: np.ndarray) -> int:
    count = s[L.DECK_N]
    if count == 0:
        return L.E_DECK_EMPTY
    k = min(g[L.TICKET_DRAW], count)
    p = s[L.PLAYER]
    nt = g[L.N_TICKETS]
    offers = g[L.S_OFFERS] + p * g[L.MAX_OFFER]
    for i in range(k):
        s[offers + i] = s[g[L.S_DECK] + (s[L.DECK_HEAD] + i) % nt]
    s[g[L.S_OFFERS_N] + p] = k
    s[L.DECK_HEAD] = (s[L.DECK_HEAD] + k) % nt
    s[L.DECK_N] = count - k
    s[L.PHASE] = L.KEEP
    return L.OK


@njit_no_refcount()
def keep_tickets(g: np.ndarray, s: np.ndarray, mask: int) -> int:
    p = s[L.PLAYER]
    offered = s[g[L.S_OFFERS_N] + p]
    setup = s[L.PHASE] == L.SETUP
    minimum = g[L.INITIAL_KEEP_MIN] if setup else g[L.TICKET_KEEP_MIN]
    if mask >> offered != 0:
        return L.E_KEEP_RANGE
    kept = 0
    for i in range(offered):
        kept += (mask >> i) & 1
    if kept < min(minimum, offered):
        return L.E_KEEP_FEW
    nt = g[L.N_TICKETS]
    offers = g[L.S_OFFERS] + p * g[L.MAX_OFFER]
    held = g[L.S_TICKETS] + p * nt
    held_n = g[L.S_TICKETS_N] + p
    box = setup and g[L.REJECTS_BOX] == 1
    for i in range(offered):
        ticket = s[offers + i]
        if (mask >> i) & 1:
            s[held + s[held_n]] = ticket
            s[held_n] += 1
        elif box:
            s[g[L.S_BOXED] + s[L.BOXED_N]] = ticket
            s[g[L.S_BOXED_BY] + s[L.BOXED_N]] = p
            s[L.BOXED_N] += 1
        else:  # to the bottom of the deck
            at = (s[L.DECK_HEAD] + s[L.DECK_N]) % nt
            s[g[L.S_DECK] + at] = ticket
            s[g[L.S_RETURNED] + at] = p
            s[L.DECK_N] += 1
    s[g[L.S_OFFERS_N] + p] = 0
    if setup:
        if p + 1 < g[L.N_PLAYERS]:
            s[L.PLAYER] = p + 1
        else:
            s[L.PLAYER] = 0
            s[L.PHASE] = L.TURN
    else:
        end_turn(g, s, False)
    return L.OK


@njit_no_refcount()
def pass_turn(g: np.ndarray, s: np.ndarray, scratch: np.ndarray) -> int:
    if (s[L.PILE_N] > 0 or s[L.MARKET_N] > 0 or s[L.DECK_N] > 0 or station_ids(g, s, scratch, 0) > 0
            or claim_ids(g, s, scratch, 0) > 0):
        return L.E_PASS
    end_turn(g, s, True)
    return L.OK


@njit_no_refcount()
def apply_action(g: np.ndarray, s: np.ndarray, action: int, scratch: np.ndarray) -> int:
    """Play action id ``action`` for the player to move; 0, or the refusal code (state unchanged).
    ``scratch``: room for every action id (the pass rule lists the claims)."""
    phase = s[L.PHASE]
    s[L.LAST_CARD] = L.NO_CARD
    if action < 0 or action >= g[L.N_ACTIONS]:
        return L.E_NO_ACTION
    if action >= g[L.ID_CLAIM]:
        if phase != L.TURN:
            return L.E_PHASE
        return claim(g, s, action - g[L.ID_CLAIM])
    if action >= g[L.ID_STATION]:  # a station build (the range is empty without stations)
        if phase != L.TURN:
            return L.E_PHASE
        return build_station(g, s, action - g[L.ID_STATION])
    if action >= g[L.ID_TUNNEL]:  # the tunnel decisions lie between the keeps and the station builds
        if phase != L.TUNNEL:
            return L.E_PHASE
        if action == g[L.ID_DECLINE]:
            return decline_tunnel(g, s)
        i = action - g[L.ID_TUNNEL]
        return pay_tunnel(g, s, g[g[L.PAY_CARDS] + i], g[g[L.PAY_LOCOS] + i])
    if action >= g[L.ID_KEEP]:
        if phase != L.KEEP and phase != L.SETUP:
            return L.E_PHASE
        return keep_tickets(g, s, action - g[L.ID_KEEP])
    if action == g[L.ID_PASS]:
        return pass_turn(g, s, scratch) if phase == L.TURN else L.E_PHASE
    if action == g[L.ID_TICKETS]:
        return draw_tickets(g, s) if phase == L.TURN else L.E_PHASE
    if phase != L.TURN and phase != L.SECOND:
        return L.E_PHASE
    if action == 0:
        return draw_blind(g, s)
    return draw_market(g, s, action - g[L.ID_MARKET])
