"""What a tunnel is likely to cost, and whether to pay what it asks: the judgement greedy and
the planner share on maps with tunnels (compiled kernels on the game's arrays, and the same
arithmetic on an ``Observation`` for the Python strategies).

A tunnel claim turns over ``tunnel_reveal`` cards (the ruleset's number, in the game array);
each that matches the payment's colour, or is a locomotive, asks one more card (a payment of
locomotives only is matched by locomotives alone). Which cards can turn up is read off what the
player has seen: the whole deck less the public discard, the market, its own hand and the cards
other seats are publicly known to hold. The expected extra cards is then that many draws
times the share of matching cards among the unseen ones (a hypergeometric mean: each card
turned over matches with that share, draw by draw).

- ``unseen_cards`` / ``expected_extra``: that expectation for a payment colour;
- ``completes_ticket``: whether a track would join one of the player's open tickets;
- ``tunnel_answer``: pay or decline the extra cards a waiting tunnel asks.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Collection, Sequence

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride import (
    LOCOMOTIVE, NUM_CARD_KINDS, Action, DeclineTunnel, Observation, player_components,
)
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.rows import hand_start, tickets_start
from ttr_lab.games.ticket_to_ride.kernels.scoring import components

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board

# Extra cards always worth paying: one card is about half a draw, less than the whole turn a
# decline throws away.
CHEAP_EXTRA = 1
# Extra cards worth paying for a track the plan needs: declining loses the turn and the next
# try asks its own extra cards again, so two cards (one turn's draw) still pay.
PLANNED_EXTRA = 2


@njit(cache=True)
def unseen_cards(g: np.ndarray, s: np.ndarray, p: int, out: np.ndarray) -> int:
    """Per card kind, the cards ``p`` has not seen (deck less discard, market, its hand and the
    cards others are known to hold) into ``out``; their total."""
    for k in range(L.KINDS):
        out[k] = 0
    deck = g[L.DECK_CARDS]
    for i in range(g[L.N_CARDS]):
        out[g[deck + i]] += 1
    for k in range(L.KINDS):
        out[k] -= s[g[L.S_DISCARD] + k]
    for i in range(s[L.MARKET_N]):
        out[s[g[L.S_MARKET] + i]] -= 1
    hand = hand_start(g, p)
    known = g[L.S_KNOWN]
    for q in range(g[L.N_PLAYERS]):
        for k in range(L.KINDS):
            out[k] -= s[hand + k] if q == p else s[known + q * L.KINDS + k]
    total = 0
    for k in range(L.KINDS):
        out[k] = max(out[k], 0)
        total += out[k]
    return total


@njit(cache=True)
def expected_extra(g: np.ndarray, unseen: np.ndarray, total: int, colour: int) -> float:
    """The extra cards a tunnel paid with ``colour`` (``L.LOCOMOTIVE``: locomotives only) is
    expected to ask, given the ``unseen`` cards per kind (``total`` of them)."""
    if total <= 0:
        return 0.0
    matching = unseen[L.LOCOMOTIVE] if colour == L.LOCOMOTIVE else unseen[colour] + unseen[L.LOCOMOTIVE]
    return min(g[L.TUNNEL_REVEAL], total) * matching / total


@njit(cache=True)
def completes_ticket(g: np.ndarray, s: np.ndarray, p: int, t: int) -> bool:
    """Whether claiming track ``t`` would join the two cities of one of ``p``'s open tickets."""
    roots = components(g, s, p)
    ra, rb = roots[g[g[L.T_CITY_A] + t]], roots[g[g[L.T_CITY_B] + t]]
    if ra == rb:
        return False
    at = tickets_start(g, p)
    for i in range(s[g[L.S_TICKETS_N] + p]):
        ticket = s[at + i]
        x, y = roots[g[g[L.TICKET_A] + ticket]], roots[g[g[L.TICKET_B] + ticket]]
        if (x == ra and y == rb) or (x == rb and y == ra):
            return True
    return False


@njit(cache=True)
def tunnel_answer(g: np.ndarray, s: np.ndarray, ids: np.ndarray, n: int, planned: np.ndarray, k: int) -> int:
    """At a waiting tunnel (legal ``ids[:n]``: its payments, fewest locomotives first, then
    decline): pay when the track completes a ticket, when it asks ``CHEAP_EXTRA`` cards or
    fewer, or ``PLANNED_EXTRA`` or fewer for a track of the plan ``planned[:k]``; else decline."""
    if n == 1:  # the hand cannot pay: only decline
        return ids[0]
    p = s[L.PLAYER]
    t = g[g[L.CLAIM_TRACK] + s[L.TUNNEL_CLAIM]]
    extra = s[L.TUNNEL_EXTRA]
    if extra <= CHEAP_EXTRA or completes_ticket(g, s, p, t):
        return ids[0]
    if extra <= PLANNED_EXTRA:
        twin = g[g[L.T_TWIN] + t]
        for i in range(k):
            if planned[i] == t or planned[i] == twin:
                return ids[0]
    return ids[n - 1]


@njit(cache=True)
def tunnel_surcharge(g: np.ndarray, s: np.ndarray, p: int, t: int, unseen: np.ndarray, total: int) -> float:
    """The extra cards track ``t`` is expected to ask of ``p`` (0 for a track that is no
    tunnel): paid with its colour, a gray one with the colour ``p`` holds most of."""
    if g[g[L.T_TUNNEL] + t] == 0:
        return 0.0
    colour = g[g[L.T_COLOUR] + t]
    if colour == L.GRAY:
        hand = hand_start(g, p)
        colour = 0
        for c in range(1, L.COLOURS):
            if s[hand + c] > s[hand + colour]:
                colour = c
    return expected_extra(g, unseen, total, colour)


@njit(cache=True)
def tunnel_locomotives(g: np.ndarray, s: np.ndarray, p: int, tracks: np.ndarray, n: int) -> int:
    """The extra cards the tunnels among ``tracks[:n]`` are expected to ask of ``p``, rounded:
    the spare cards (locomotives, which match any payment) a plan keeps for them."""
    unseen = np.zeros(L.KINDS, dtype=np.int64)
    total = unseen_cards(g, s, p, unseen)
    extra = 0.0
    for i in range(n):
        extra += tunnel_surcharge(g, s, p, tracks[i], unseen, total)
    return int(extra + 0.5)


# -- the same on an Observation (the Python strategies) ---------------------------------------------


@functools.lru_cache(maxsize=None)
def tunnel_flags(board: "Board") -> tuple[bool, ...]:
    """Per track, whether it is a tunnel (a board's, kept)."""
    return tuple(bool(t.tunnel) for t in board.tracks)


def unseen_from(obs: Observation) -> list[int]:
    """``unseen_cards`` for the observing seat."""
    unseen = [0] * NUM_CARD_KINDS
    for card in obs.tables.deck:
        unseen[card] += 1
    for k in range(NUM_CARD_KINDS):
        unseen[k] -= obs.discard[k] + obs.hand[k]
    for card in obs.market:
        unseen[card] -= 1
    for q, known in enumerate(obs.known_cards):
        if q != obs.player:
            for k in range(NUM_CARD_KINDS):
                unseen[k] -= known[k]
    return [max(c, 0) for c in unseen]


def expected_extra_from(obs: Observation, colour: int, unseen: Sequence[int] | None = None) -> float:
    """``expected_extra`` for the observing seat, a payment of ``colour`` (``LOCOMOTIVE``: only
    locomotives)."""
    unseen = unseen_from(obs) if unseen is None else unseen
    total = sum(unseen)
    if total <= 0:
        return 0.0
    matching = unseen[LOCOMOTIVE] if colour == LOCOMOTIVE else unseen[colour] + unseen[LOCOMOTIVE]
    return min(obs.ruleset.tunnel_reveal, total) * matching / total


def completes_ticket_from(obs: Observation, track: int) -> bool:
    """``completes_ticket`` for the observing seat."""
    board = obs.board
    roots = player_components(board, obs.owner, obs.player)
    a, b = board.track_ends[track]
    ra, rb = roots[a], roots[b]
    if ra == rb:
        return False
    for i in obs.tickets:
        ticket = board.tickets[i]
        if {roots[ticket.a], roots[ticket.b]} == {ra, rb}:
            return True
    return False


def tunnel_answer_from(obs: Observation, legal: Sequence[Action], planned: Collection[int]) -> Action:
    """``tunnel_answer`` for the observing seat (``legal``: its payments, fewest locomotives
    first, then decline), ``planned`` the tracks of its plan."""
    if len(legal) == 1:
        return legal[0]
    track = obs.tunnel_pending.track
    extra = obs.tunnel_extra
    if extra <= CHEAP_EXTRA or completes_ticket_from(obs, track):
        return legal[0]
    twin = obs.tables.track_twin[track]
    if extra <= PLANNED_EXTRA and (track in planned or (twin >= 0 and twin in planned)):
        return legal[0]
    assert type(legal[-1]) is DeclineTunnel
    return legal[-1]
